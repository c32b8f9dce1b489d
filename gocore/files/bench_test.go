package files

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/require"
)

// loadFiles reads the files of a corpus folder into memory.
func loadFiles(b testing.TB, sub, pattern string) (data [][]byte, size int64) {
	files, err := filepath.Glob(filepath.Join(dataDir(b, sub), pattern))
	require.NoError(b, err)
	require.NotEmpty(b, files)
	for _, f := range files {
		d, err := os.ReadFile(f)
		require.NoError(b, err)
		data = append(data, d)
		size += int64(len(d))
	}
	return data, size
}

// BenchmarkScoreFilesLitBank is what `corefscore all KEY RESP none` asks of
// the engine on LitBank: ScoreFiles on the 100 files concatenated into one
// file on disk (13 MB), scored against itself with the metrics of the
// drop-in form (mentions, MUC, B³, CEAF_m, CEAF_e, BLANC); the two files are
// read concurrently.
func BenchmarkScoreFilesLitBank(b *testing.B) {
	data, size := loadFiles(b, "litbank", "*.conll")
	path := filepath.Join(b.TempDir(), "litbank.conll")
	f, err := os.Create(path)
	require.NoError(b, err)
	for _, d := range data {
		_, err := f.Write(d)
		require.NoError(b, err)
		if len(d) > 0 && d[len(d)-1] != '\n' {
			_, err = f.Write([]byte{'\n'})
			require.NoError(b, err)
		}
	}
	require.NoError(b, f.Close())
	set, err := gocore.ParseMetrics([]string{"mentions", "muc", "bcub", "ceafm", "ceafe", "blanc"})
	require.NoError(b, err)
	b.SetBytes(2 * size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		names, _, _, _, err := ScoreFiles(path, path, "", gocore.Options{Metrics: set})
		if err != nil || len(names) != len(data) {
			b.Fatal(err)
		}
	}
}

// BenchmarkScoreFilesGUMCoNLLU times reading and scoring the 177 gum-conllu
// documents (one key file of 12.8 MB, with added zero mentions, MISC reduced
// to Entity=) against a perturbed response (perturbGUM), every metric, with
// exact matching and with head matching and the dependent zero alignment
// (see bench/corefud.md).
func BenchmarkScoreFilesGUMCoNLLU(b *testing.B) {
	files, err := filepath.Glob(filepath.Join(dataDir(b, "gum-conllu"), "*.conllu"))
	require.NoError(b, err)
	require.NotEmpty(b, files)
	rng := rand.New(rand.NewSource(1))
	var kb, rb strings.Builder
	for _, f := range files {
		k, r := perturbGUM(b, f, rng)
		kb.WriteString(k)
		rb.WriteString(r)
	}
	dir := b.TempDir()
	key, resp := filepath.Join(dir, "key.conllu"), filepath.Join(dir, "resp.conllu")
	require.NoError(b, os.WriteFile(key, []byte(kb.String()), 0o644))
	require.NoError(b, os.WriteFile(resp, []byte(rb.String()), 0o644))
	for _, c := range []struct {
		name string
		opt  gocore.Options
	}{
		{"exact", gocore.Options{}},
		{"head-dependent", gocore.Options{Match: gocore.MatchHead, ZeroMatch: gocore.ZeroDependent}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(kb.Len() + rb.Len()))
			b.ReportAllocs()
			for b.Loop() {
				names, _, _, _, err := ScoreFiles(key, resp, "", c.opt)
				if err != nil || len(names) != len(files) {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRefCeafeLitBankPair is the CEAF_e of the drop-in form on the
// regression guard's LitBank pair (bench/guard.py's fixtures: the 100 files
// and a seeded perturbation), with the reference scorer's sums and with
// exact ones: the difference is mostly the replay of the reference's
// Munkres on the documents whose optimal alignments tie
// (assign.ReferenceMunkresSparse). The fixtures' folder comes from
// COREFSCORE_GUARD_FIXTURES (guard.py --fixtures).
func BenchmarkRefCeafeLitBankPair(b *testing.B) {
	dir := os.Getenv("COREFSCORE_GUARD_FIXTURES")
	if dir == "" {
		b.Skip("COREFSCORE_GUARD_FIXTURES is not set: no guard fixtures to score")
	}
	key, resp := filepath.Join(dir, "litbank_key.conll"), filepath.Join(dir, "litbank_response.conll")
	set, err := gocore.ParseMetrics([]string{"ceafe"})
	require.NoError(b, err)
	for _, sums := range []string{"reference", "exact"} {
		b.Run("sums="+sums, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _, _, _, err := ScoreFiles(key, resp, "", gocore.Options{Metrics: set, ReferenceSums: sums == "reference"})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDropInLitBankPair is what the drop-in form `corefscore all KEY
// RESPONSE none` has the library do on the regression guard's LitBank pair
// (the engine options of cli.py's drop-in, as bench/nativefloor sets them):
// read, pair and score every metric it prints, with the reference's totals
// (sums=reference-totals, the form's), with every document's numerators the
// reference's (sums=reference, the form with a document name or none), and
// with exact sums. Its instruction count a pass is the Go side of the
// guard's row "LitBank, drop-in all" (bench/replay.md). The fixtures'
// folder comes from COREFSCORE_GUARD_FIXTURES.
func BenchmarkDropInLitBankPair(b *testing.B) {
	dir := os.Getenv("COREFSCORE_GUARD_FIXTURES")
	if dir == "" {
		b.Skip("COREFSCORE_GUARD_FIXTURES is not set: no guard fixtures to score")
	}
	key, resp := filepath.Join(dir, "litbank_key.conll"), filepath.Join(dir, "litbank_response.conll")
	for _, sums := range []string{"reference-totals", "reference", "exact"} {
		b.Run("sums="+sums, func(b *testing.B) {
			opt, err := gocore.ParseOptions([]string{"metrics", "duplicates", "sums"},
				[]string{"mentions,muc,bcub,ceafm,ceafe,blanc", "warn", sums})
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Score(key, resp, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
