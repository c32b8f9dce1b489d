package conll

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/internal/randconll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// perlNumber formats x as Perl prints a number (%.15g).
func perlNumber(x float64) string {
	return strconv.FormatFloat(x, 'g', 15, 64)
}

// perlRPF returns the line CorScorer.pm's ShowRPF prints for the counts
// (without its dashed line): truncated percentages int(r * 10000) / 100 and
// F1 = 2 · P · R / (P + R) in Perl's order of operations.
func perlRPF(nr, dr, np, dp float64) string {
	var r, p, f1 float64
	if dr != 0 {
		r = nr / dr
	}
	if dp != 0 {
		p = np / dp
	}
	if r+p != 0 {
		f1 = 2 * p * r / (p + r)
	}
	pct := func(x float64) string { return perlNumber(math.Trunc(x*10000) / 100) }
	return fmt.Sprintf("Recall: (%s / %s) %s%%\tPrecision: (%s / %s) %s%%\tF1: %s%%",
		perlNumber(nr), perlNumber(dr), pct(r), perlNumber(np), perlNumber(dp), pct(p), pct(f1))
}

// perlMetric is what the reference prints for one metric of "all" without
// a document name: a line per document, in the order it visits them (Perl
// hash order), then the totals.
type perlMetric struct {
	docs    []string          // document names in the order printed
	lines   map[string]string // document name -> its line
	mention string            // the totals' mention identification line
	total   string            // the totals' coreference line (BLANC: links)
	noncore string            // BLANC: the non-coreference links line
}

// parsePerlAll parses the output of `perl scorer.pl all KEY RESPONSE`.
func parsePerlAll(t *testing.T, out []byte, names map[string]bool) map[string]*perlMetric {
	t.Helper()
	res := map[string]*perlMetric{}
	var cur *perlMetric
	doc := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "METRIC "):
			cur = &perlMetric{lines: map[string]string{}}
			res[strings.TrimSuffix(strings.TrimPrefix(l, "METRIC "), ":")] = cur
			doc = ""
		case cur == nil:
		case strings.HasSuffix(l, ":") && names[strings.TrimSuffix(l, ":")]:
			doc = strings.TrimSuffix(l, ":")
			cur.docs = append(cur.docs, doc)
		case strings.HasPrefix(l, "Recall: (") && doc != "":
			cur.lines[doc] = l
			doc = ""
		case strings.HasPrefix(l, "Identification of Mentions: "):
			cur.mention = strings.TrimPrefix(l, "Identification of Mentions: ")
		case strings.HasPrefix(l, "Coreference: "):
			cur.total = strings.TrimPrefix(l, "Coreference: ")
		case strings.HasPrefix(l, "Coreference links: "):
			cur.total = strings.TrimPrefix(l, "Coreference links: ")
		case strings.HasPrefix(l, "Non-coreference links: "):
			cur.noncore = strings.TrimPrefix(l, "Non-coreference links: ")
		}
	}
	require.NoError(t, sc.Err())
	return res
}

// TestReferenceSumsAgainstPerl generates random multi-document pairs
// (randconll), runs the reference scorer on each with metric "all", and
// checks that the engine's counts under Options.ReferenceSums print the
// same line as Perl for every document of MUC, B-cubed, CEAF_m and CEAF_e,
// and for every totals line when the documents are summed in the order Perl
// visited them (its hash order). It also counts, without failing, the lines
// that differ with the default sums and with totals summed in key-file
// order. Needs COREFSCORE_REFERENCE_SCORER (the path to scorer.pl) and perl.
func TestReferenceSumsAgainstPerl(t *testing.T) {
	scorer := os.Getenv("COREFSCORE_REFERENCE_SCORER")
	if scorer == "" {
		t.Skip("COREFSCORE_REFERENCE_SCORER is unset: set it to the reference scorer's scorer.pl to compare with Perl")
	}
	perl, err := exec.LookPath("perl")
	if err != nil {
		t.Skip("perl is not installed")
	}
	pairs := 300
	if testing.Short() {
		pairs = 30
	}
	dir := t.TempDir()
	metrics := []string{"muc", "bcub", "ceafm", "ceafe"}
	var lines, defaultDiffs, fileOrderDiffs, docs int
	for seed := uint64(1); seed <= uint64(pairs); seed++ {
		p := randconll.Generate(seed)
		keyPath := filepath.Join(dir, fmt.Sprintf("%d.key", seed))
		respPath := filepath.Join(dir, fmt.Sprintf("%d.response", seed))
		require.NoError(t, os.WriteFile(keyPath, p.Key, 0o600))
		require.NoError(t, os.WriteFile(respPath, p.Response, 0o600))
		out, err := exec.Command(perl, scorer, "all", keyPath, respPath).Output()
		require.NoError(t, err, "seed %d", seed)

		key := readCoNLLFile(t, keyPath)
		resp := readCoNLLFile(t, respPath)
		names := map[string]bool{}
		index := map[string]int{}
		for i, d := range key {
			names[d.Name] = true
			index[d.Name] = i
		}
		pm := parsePerlAll(t, out, names)
		pairDocs, _, err := Pair(key, resp)
		require.NoError(t, err)
		docs += len(pairDocs)
		rows := func(opt gocore.Options) [][]float64 {
			counts := make([]float64, len(pairDocs)*gocore.NumColumns())
			_, err := gocore.ScoreBatch(pairDocs, opt, counts)
			require.NoError(t, err)
			out := make([][]float64, len(pairDocs))
			for i := range out {
				out[i] = counts[i*gocore.NumColumns() : (i+1)*gocore.NumColumns()]
			}
			return out
		}
		ref, exact := rows(gocore.Options{ReferenceSums: true}), rows(gocore.Options{})
		// total folds the four columns of metric m over the documents in
		// the given order, left to right from 0, as Perl's += does.
		total := func(rs [][]float64, m string, order []string) [4]float64 {
			var s [4]float64
			c := gocore.ColumnIndex(m + ".recall_num")
			for _, name := range order {
				for k := range s {
					s[k] += rs[index[name]][c+k]
				}
			}
			return s
		}
		line := func(s [4]float64) string { return perlRPF(s[0], s[1], s[2], s[3]) }
		var fileOrder []string
		for _, d := range key {
			fileOrder = append(fileOrder, d.Name)
		}
		for _, m := range metrics {
			got := pm[m]
			require.NotNil(t, got, "seed %d: no METRIC %s block", seed, m)
			require.ElementsMatch(t, fileOrder, got.docs, "seed %d %s: documents", seed, m)
			for _, name := range got.docs {
				one := []string{name}
				require.Equal(t, got.lines[name], line(total(ref, m, one)), "seed %d %s %q", seed, m, name)
				if got.lines[name] != line(total(exact, m, one)) {
					defaultDiffs++
				}
				lines++
			}
			require.Equal(t, got.total, line(total(ref, m, got.docs)), "seed %d %s totals", seed, m)
			require.Equal(t, got.mention, line(total(ref, "mentions", got.docs)), "seed %d %s mentions", seed, m)
			if got.total != line(total(ref, m, fileOrder)) {
				fileOrderDiffs++
				t.Logf("seed %d %s: Perl visited the documents in the order %q and printed the totals %q; summed in key-file order: %q",
					seed, m, got.docs, got.total, line(total(ref, m, fileOrder)))
			}
			if got.total != line(total(exact, m, got.docs)) {
				defaultDiffs++
			}
			lines += 2
		}
		// BLANC: the link counts are integers, the same in any order.
		b := pm["blanc"]
		require.NotNil(t, b, "seed %d: no METRIC blanc block", seed)
		require.Equal(t, b.total, line(total(ref, "blanc.coref", fileOrder)), "seed %d blanc coreference links", seed)
		require.Equal(t, b.noncore, line(total(ref, "blanc.noncoref", fileOrder)), "seed %d blanc non-coreference links", seed)
		lines += 2
	}
	t.Logf("%d pairs, %d documents: %d lines equal to Perl's with ReferenceSums (totals in Perl's document order)", pairs, docs, lines)
	t.Logf("with the default sums %d of those lines differ; with ReferenceSums and totals in key-file order %d totals lines differ", defaultDiffs, fileOrderDiffs)
}

// TestReferenceSumsDeterministic: the generator gives the same files for a
// seed, and every generated pair reads back.
func TestReferenceSumsGenerator(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		a, b := randconll.Generate(seed), randconll.Generate(seed)
		assert.Equal(t, a, b, "seed %d", seed)
		key, err := ReadCoNLL2012(bytes.NewReader(a.Key), "key")
		require.NoError(t, err, "seed %d", seed)
		resp, err := ReadCoNLL2012(bytes.NewReader(a.Response), "response")
		require.NoError(t, err, "seed %d", seed)
		_, _, err = Pair(key, resp)
		require.NoError(t, err, "seed %d", seed)
	}
}
