package conll

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
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

// tiedCEAFPair is the 8-token document of issue 23 whose optimal CEAF_e
// alignments tie: every token a one-token mention on both sides.
var tiedCEAFPair = [2]string{"(3)(1)(5)(2)(3)(0)(0)(4)", "(1)(0)(3)(3)(2)(0)(2)(1)"}

// tiedCEAFLine is what the reference scorer printed for tiedCEAFPair (ceafe,
// one run of v8.01); another alignment of the same total prints 62.49% and
// 49.99%.
const tiedCEAFLine = "Recall: (2.5 / 6) 41.66%\tPrecision: (2.5 / 4) 62.5%\tF1: 50%"

// writeCellDocs writes one CoNLL-2012 file with a document per cell string:
// a token per cell, the cell ("(3)" or "-") in the last column.
func writeCellDocs(t *testing.T, path string, names []string, cells [][]string) {
	t.Helper()
	var b strings.Builder
	for d, name := range names {
		fmt.Fprintf(&b, "#begin document %s\n", name)
		for i, c := range cells[d] {
			fmt.Fprintf(&b, "doc\t0\t%d\tw%d\t_\t_\t_\t_\t_\t_\t_\t%s\n", i, i, c)
		}
		b.WriteString("\n#end document\n")
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o600))
}

// splitCells splits "(3)(1)-" into its cells.
func splitCells(s string) []string {
	var out []string
	for s != "" {
		if s[0] == '-' {
			out, s = append(out, "-"), s[1:]
			continue
		}
		i := strings.IndexByte(s, ')')
		out, s = append(out, s[:i+1]), s[i+1:]
	}
	return out
}

// refCEAFe scores the documents of two files with ReferenceSums and returns
// the CEAF_e counts of each (recall and precision numerators and
// denominators), by name.
func refCEAFe(t *testing.T, keyPath, respPath string) map[string][4]float64 {
	t.Helper()
	key, resp := readCoNLLFile(t, keyPath), readCoNLLFile(t, respPath)
	docs, _, err := Pair(key, resp)
	require.NoError(t, err)
	metrics, err := gocore.ParseMetrics([]string{"ceafe"})
	require.NoError(t, err)
	opt := gocore.Options{ReferenceSums: true, Metrics: metrics}
	counts := make([]float64, len(docs)*gocore.NumColumns())
	_, err = gocore.ScoreBatch(docs, opt, counts)
	require.NoError(t, err)
	c := gocore.ColumnIndex("ceafe.recall_num")
	out := map[string][4]float64{}
	for i, d := range key {
		out[d.Name] = [4]float64(counts[i*gocore.NumColumns()+c:])
	}
	return out
}

// ceafeLine is the reference's line for CEAF_e counts.
func ceafeLine(c [4]float64) string { return perlRPF(c[0], c[1], c[2], c[3]) }

// perlCEAFeLines runs the reference scorer's ceafe on two files and returns
// its line for each document, by name.
func perlCEAFeLines(t *testing.T, scorer, keyPath, respPath string, names []string) map[string]string {
	t.Helper()
	out, err := exec.Command("perl", scorer, "ceafe", keyPath, respPath).Output()
	require.NoError(t, err)
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	lines := map[string]string{}
	doc := ""
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasSuffix(l, ":") && known[strings.TrimSuffix(l, ":")]:
			doc = strings.TrimSuffix(l, ":")
		case strings.HasPrefix(l, "Recall: (") && doc != "":
			lines[doc] = l
			doc = ""
		}
	}
	require.Len(t, lines, len(names), "the reference printed a line per document")
	return lines
}

// TestCEAFeTiedPairPrintsPerlsLine: the reference-sums path takes the
// reference's alignment among tied optimal ones on the pair of issue 23,
// checked against Perl too when COREFSCORE_REFERENCE_SCORER is set.
func TestCEAFeTiedPairPrintsPerlsLine(t *testing.T) {
	dir := t.TempDir()
	keyPath, respPath := filepath.Join(dir, "key"), filepath.Join(dir, "response")
	names := []string{"(tied); part 000"}
	writeCellDocs(t, keyPath, names, [][]string{splitCells(tiedCEAFPair[0])})
	writeCellDocs(t, respPath, names, [][]string{splitCells(tiedCEAFPair[1])})
	got := refCEAFe(t, keyPath, respPath)[names[0]]
	assert.Equal(t, tiedCEAFLine, ceafeLine(got))
	scorer := os.Getenv("COREFSCORE_REFERENCE_SCORER")
	if scorer == "" {
		t.Log("COREFSCORE_REFERENCE_SCORER is unset: checked against the recorded line only")
		return
	}
	assert.Equal(t, tiedCEAFLine, perlCEAFeLines(t, scorer, keyPath, respPath, names)[names[0]])
	assert.Equal(t, perlCEAFeNums(t, scorer, keyPath, respPath)[names[0]], got[0])
}

// tiedCellDocs returns n random tiny documents made to tie: 3 to 10 tokens,
// each a one-token mention of one of a few entities on each side (or, now
// and then, absent from a side), so that many documents have several
// optimal CEAF_e alignments.
func tiedCellDocs(seed uint64, n int) (names []string, key, resp [][]string) {
	rng := rand.New(rand.NewPCG(seed, 23)) //nolint:gosec // test data
	cell := func(entities int) string {
		if rng.IntN(8) == 0 {
			return "-"
		}
		return fmt.Sprintf("(%d)", rng.IntN(entities))
	}
	for d := range n {
		tokens, ke, re := 3+rng.IntN(8), 1+rng.IntN(6), 1+rng.IntN(6)
		var k, r []string
		for range tokens {
			k, r = append(k, cell(ke)), append(r, cell(re))
		}
		names = append(names, fmt.Sprintf("(tie/%d/%d); part 000", seed, d))
		key, resp = append(key, k), append(resp, r)
	}
	return names, key, resp
}

// perlCEAFeNumerators is a Perl program that loads the reference scorer's
// CorScorer.pm (the directory of scorer.pl + "/lib", first argument) and
// prints, for each document of a key and a response file, its name and its
// CEAF_e numerator to 17 significant digits (the scorer's own lines show 15
// and truncated percentages, which hide most one-ulp differences). It runs
// the scorer's own steps per document (GetCoreference, IdentifMentions,
// Eval) and silences the scorer's verbose output.
const perlCEAFeNumerators = `
use strict;
my ($lib, $key, $response) = @ARGV;
open(my $results, ">&", \*STDOUT) or die;
open(STDOUT, ">", "/dev/null") or die;
unshift(@INC, $lib);
require CorScorer;
my $keyPos = CorScorer::GetFileNames($key);
my $respPos = CorScorer::GetFileNames($response);
foreach my $name (sort keys %$keyPos) {
  my $k = CorScorer::GetCoreference($key, -1, $name, $keyPos->{$name});
  my $r = CorScorer::GetCoreference($response, -1, $name, $respPos->{$name});
  my @chains = CorScorer::IdentifMentions($k, $r, {});
  my ($num) = CorScorer::Eval("ceafe", @chains);
  printf $results "%s\t%.17g\n", $name, $num;
}
`

// perlCEAFeNums runs perlCEAFeNumerators and returns each document's CEAF_e
// numerator by name.
func perlCEAFeNums(t *testing.T, scorer, keyPath, respPath string) map[string]float64 {
	t.Helper()
	cmd := exec.Command("perl", "-e", perlCEAFeNumerators, filepath.Join(filepath.Dir(scorer), "lib"), keyPath, respPath)
	out, err := cmd.Output()
	require.NoError(t, err)
	nums := map[string]float64{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, num, ok := strings.Cut(l, "\t")
		require.True(t, ok, "line %q", l)
		x, err := strconv.ParseFloat(num, 64)
		require.NoError(t, err)
		nums[name] = x
	}
	return nums
}

// TestCEAFeTiesAgainstPerl: on 2,400 tiny random documents full of tied
// CEAF_e alignments, every per-document line of the reference-sums path is
// the reference scorer's, and so is every CEAF_e numerator to the last bit.
// Needs COREFSCORE_REFERENCE_SCORER and perl.
func TestCEAFeTiesAgainstPerl(t *testing.T) {
	scorer := os.Getenv("COREFSCORE_REFERENCE_SCORER")
	if scorer == "" {
		t.Skip("COREFSCORE_REFERENCE_SCORER is unset: set it to the reference scorer's scorer.pl to compare with Perl")
	}
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("perl is not installed")
	}
	dir := t.TempDir()
	docs := 0
	for seed := uint64(1); seed <= 6; seed++ {
		names, key, resp := tiedCellDocs(seed, 400)
		keyPath, respPath := filepath.Join(dir, fmt.Sprintf("%d.key", seed)), filepath.Join(dir, fmt.Sprintf("%d.response", seed))
		writeCellDocs(t, keyPath, names, key)
		writeCellDocs(t, respPath, names, resp)
		lines := perlCEAFeLines(t, scorer, keyPath, respPath, names)
		nums := perlCEAFeNums(t, scorer, keyPath, respPath)
		ours := refCEAFe(t, keyPath, respPath)
		for _, name := range names {
			assert.Equal(t, lines[name], ceafeLine(ours[name]), "seed %d %s: printed line", seed, name)
			assert.Equal(t, nums[name], ours[name][0], "seed %d %s: numerator", seed, name)
			docs++
		}
	}
	if !t.Failed() {
		t.Logf("%d tiny documents: every CEAF_e line and numerator equal to Perl's", docs)
	}
}
