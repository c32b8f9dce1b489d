package files

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// berkeleyAnalyser returns the Berkeley Coreference Analyser's checkout
// (COREFSCORE_BERKELEY_ANALYSER, the directory holding
// classify_coreference_errors.py) and the Python that runs it
// (COREFSCORE_BERKELEY_PYTHON, default python3), or skips the test.
func berkeleyAnalyser(t *testing.T) (dir, python string) {
	dir = os.Getenv("COREFSCORE_BERKELEY_ANALYSER")
	if dir == "" {
		t.Skip("COREFSCORE_BERKELEY_ANALYSER is unset: set it to a checkout of the Berkeley Coreference Analyser to compare with it")
	}
	if _, err := os.Stat(filepath.Join(dir, "classify_coreference_errors.py")); err != nil {
		t.Skipf("no classify_coreference_errors.py in %s", dir)
	}
	python = os.Getenv("COREFSCORE_BERKELEY_PYTHON")
	if python == "" {
		python = "python3"
	}
	return dir, python
}

// berkeleySummary maps the analyser's error names (its .summary file) to
// our kk columns.
var berkeleySummary = map[string]string{
	"Span Error": "span_error", "Conflated Entities": "conflated_entities", "Extra Mention": "extra_mention",
	"Extra Entity": "extra_entity", "Divided Entity": "divided_entity", "Missing Mention": "missing_mention",
	"Missing Entity": "missing_entity",
}

// runBerkeley runs the analyser on a system file against a gold directory
// (its layout: the file of document "(A/B); part 000" is A/B*gold*conll)
// and returns its seven error counts.
func runBerkeley(t *testing.T, dir, python, goldDir, system string) map[string]float64 {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(python, filepath.Join(dir, "classify_coreference_errors.py"), prefix, goldDir+"/", system, "T")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the analyser failed: %s", out)
	summary, err := os.ReadFile(prefix + ".summary")
	require.NoError(t, err)
	counts := map[string]float64{}
	inErrors := false
	line := regexp.MustCompile(`^\s*(\d+)\s+(.+?)\s*$`)
	for _, l := range strings.Split(string(summary), "\n") {
		if strings.HasPrefix(l, "Errors:") {
			inErrors = true
			continue
		}
		if m := line.FindStringSubmatch(l); inErrors && m != nil {
			n, _ := strconv.Atoi(m[1])
			if c, ok := berkeleySummary[m[2]]; ok {
				counts[c] = float64(n)
			}
		}
	}
	require.Len(t, counts, 7, "the analyser's summary: %s", summary)
	return counts
}

// ourKK scores the kk columns of a key and a response file, summed.
func ourKK(t *testing.T, key, resp string) map[string]float64 {
	t.Helper()
	opt := gocore.Options{Metrics: mustParseMetrics(t, "kk")}
	_, counts, _, _, err := ScoreFiles(key, resp, conll.FormatCoNLL2012, opt)
	require.NoError(t, err)
	sum := sumRows(counts)
	out := map[string]float64{}
	for _, c := range berkeleySummary {
		out[c] = sum["kk."+c]
	}
	return out
}

func mustParseMetrics(t *testing.T, names ...string) gocore.MetricSet {
	m, err := gocore.ParseMetrics(names)
	require.NoError(t, err)
	return m
}

// berkeleyWords are the words of the random documents: one-token mentions
// whose type both tools read alike from the POS tag (a pronoun, a name, a
// nominal), and a verb that is never a mention.
var berkeleyWords = [][2]string{{"Smith", "NNP"}, {"Mary", "NNP"}, {"man", "NN"}, {"car", "NN"},
	{"he", "PRP"}, {"it", "PRP"}, {"they", "PRP"}, {"runs", "VBZ"}}

// writeBerkeleyDocs writes n random documents as gold files in the
// analyser's layout under goldDir (one file per document), the same
// documents as one key file, and a perturbed response file. Every mention
// is one token, so neither tool repairs a span: the documents have no
// parse-dependent choice. Responses drop key mentions, add extra ones,
// split and merge entities, and leave singletons (which the analyser
// ignores).
func writeBerkeleyDocs(t *testing.T, rng *rand.Rand, goldDir, keyPath, respPath string, first, n int) {
	type token struct {
		word, pos, parse string
		key, resp        int // entity, -1 for none
		sentenceEnd      bool
	}
	var key, resp strings.Builder
	for d := first; d < first+n; d++ {
		name := fmt.Sprintf("r/doc%04d", d) // one width: a name is no other's prefix
		entities := 1 + rng.IntN(4)
		var toks []token
		for range 1 + rng.IntN(3) {
			tokens := 3 + rng.IntN(8)
			for i := range tokens {
				w := berkeleyWords[rng.IntN(len(berkeleyWords))]
				tk := token{word: w[0], pos: w[1], parse: "(NP*)", key: -1, resp: -1, sentenceEnd: i == tokens-1}
				switch {
				case i == 0:
					tk.parse = "(TOP(S(NP*)"
				case i == tokens-1:
					tk.parse = "(NP*)))"
				}
				if w[1] != "VBZ" && rng.IntN(10) < 6 {
					tk.key = rng.IntN(entities)
					switch x := rng.IntN(10); {
					case x < 6:
						tk.resp = tk.key
					case x < 8:
						tk.resp = rng.IntN(entities + 2)
					}
				} else if w[1] != "VBZ" && rng.IntN(10) < 2 {
					tk.resp = rng.IntN(entities + 2)
				}
				toks = append(toks, tk)
			}
		}
		// No key singleton: the analyser crashes on one that the response
		// misses (an introduction it cannot name), and OntoNotes keys have none.
		size := map[int]int{}
		for _, tk := range toks {
			if tk.key >= 0 {
				size[tk.key]++
			}
		}
		var gold, sys strings.Builder
		header := fmt.Sprintf("#begin document (%s); part 000\n", name)
		gold.WriteString(header)
		sys.WriteString(header)
		cell := func(e int) string {
			if e < 0 {
				return "-"
			}
			return fmt.Sprintf("(%d)", e)
		}
		i := 0
		for _, tk := range toks {
			if tk.key >= 0 && size[tk.key] < 2 {
				tk.key = -1
			}
			row := fmt.Sprintf("%s\t0\t%d\t%s\t%s\t%s\t-\t-\t-\t-\t*\t-\t", name, i, tk.word, tk.pos, tk.parse)
			gold.WriteString(row + cell(tk.key) + "\n")
			sys.WriteString(row + cell(tk.resp) + "\n")
			i++
			if tk.sentenceEnd {
				gold.WriteString("\n")
				sys.WriteString("\n")
				i = 0
			}
		}
		gold.WriteString("#end document\n")
		sys.WriteString("#end document\n")
		key.WriteString(gold.String())
		resp.WriteString(sys.String())
		path := filepath.Join(goldDir, name+".v4_gold_conll")
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(gold.String()), 0o600))
	}
	require.NoError(t, os.WriteFile(keyPath, []byte(key.String()), 0o600))
	require.NoError(t, os.WriteFile(respPath, []byte(resp.String()), 0o600))
}

// TestKKAgainstBerkeleyAnalyser: on 200 random documents without
// parse-dependent choices (in batches of 20, so that a difference cannot
// hide in a total), every Kummerfeld-Klein count equals the Berkeley
// analyser's. Needs COREFSCORE_BERKELEY_ANALYSER.
func TestKKAgainstBerkeleyAnalyser(t *testing.T) {
	dir, python := berkeleyAnalyser(t)
	rng := rand.New(rand.NewPCG(23, 7)) //nolint:gosec // test data
	total := map[string]float64{}
	for batch := range 10 {
		work := t.TempDir()
		goldDir, keyPath, respPath := filepath.Join(work, "gold"), filepath.Join(work, "key.conll"), filepath.Join(work, "response.conll")
		writeBerkeleyDocs(t, rng, goldDir, keyPath, respPath, batch*20, 20)
		want := runBerkeley(t, dir, python, goldDir, respPath)
		assert.Equal(t, want, ourKK(t, keyPath, respPath), "batch %d (%s)", batch, work)
		for c, n := range want {
			total[c] += n
		}
	}
	t.Logf("200 documents, the analyser's totals: %v", total)
}

// berkeleyExample are the analyser's seven counts on its bundled example
// (the README's command: data/gold against
// data/homogenised/stanford.homogenised.out; its
// example_out.classified_summary prints them).
var berkeleyExample = map[string]float64{"span_error": 16, "conflated_entities": 101, "extra_mention": 94,
	"extra_entity": 93, "divided_entity": 90, "missing_mention": 35, "missing_entity": 34}

// TestKKBerkeleyBundledExample: on the analyser's bundled example (four
// Wall Street Journal documents with gold parses, the Stanford system's
// output) every Kummerfeld-Klein count equals the analyser's, which reads
// the parse column for heads and mention types; the analyser is run and
// must print the numbers above. The same documents with the automatic
// parses and tags the example also ships (*auto_conll, given to the
// analyser as its gold directory) change its counts (96 extra mentions, 92
// extra entities, ...), and ours equal them too. Needs
// COREFSCORE_BERKELEY_ANALYSER.
func TestKKBerkeleyBundledExample(t *testing.T) {
	dir, python := berkeleyAnalyser(t)
	system := filepath.Join(dir, "data", "homogenised", "stanford.homogenised.out")
	for _, parses := range []string{"gold", "auto"} {
		files, err := filepath.Glob(filepath.Join(dir, "data", "gold", "*", "*", "*", "*"+parses+"_conll"))
		require.NoError(t, err)
		require.NotEmpty(t, files, "no %s files in the analyser's data/gold", parses)
		// The analyser reads the files of its gold directory named *gold*conll.
		work := t.TempDir()
		goldDir := filepath.Join(work, "gold")
		var key []byte
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			key = append(key, b...)
			rel, err := filepath.Rel(filepath.Join(dir, "data", "gold"), f)
			require.NoError(t, err)
			path := filepath.Join(goldDir, strings.TrimSuffix(rel, parses+"_conll")+"gold_conll")
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, b, 0o600))
		}
		keyPath := filepath.Join(work, "key.conll")
		require.NoError(t, os.WriteFile(keyPath, key, 0o600))
		want := runBerkeley(t, dir, python, goldDir, system)
		if parses == "gold" {
			assert.Equal(t, berkeleyExample, want, "the analyser's own run on its example")
		}
		assert.Equal(t, want, ourKK(t, keyPath, system), "%s parses", parses)
		t.Logf("%s parses: the analyser's counts %v", parses, want)
	}
}
