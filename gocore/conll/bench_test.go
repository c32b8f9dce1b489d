package conll

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
func loadFiles(b testing.TB, sub, pattern string) (names []string, data [][]byte, size int64) {
	dir := dataDir(b, sub)
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	require.NoError(b, err)
	require.NotEmpty(b, files)
	for _, f := range files {
		d, err := os.ReadFile(f)
		require.NoError(b, err)
		names = append(names, f)
		data = append(data, d)
		size += int64(len(d))
	}
	return names, data, size
}

func benchParse(b *testing.B, sub, pattern, format string) {
	names, data, size := loadFiles(b, sub, pattern)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, d := range data {
			if _, err := Parse(d, names[i], format); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkReadLitBank parses the 100 LitBank files (210,532 tokens) held in
// memory.
func BenchmarkReadLitBank(b *testing.B) { benchParse(b, "litbank", "*.conll", FormatCoNLL2012) }

// BenchmarkReadGUMPOS parses the 177 gum-pos files (POS and NE columns, so
// mention types are derived).
func BenchmarkReadGUMPOS(b *testing.B) { benchParse(b, "gum-pos", "*.conll", FormatCoNLL2012) }

// BenchmarkReadGUMCoNLLU parses the 177 gum-conllu files.
func BenchmarkReadGUMCoNLLU(b *testing.B) { benchParse(b, "gum-conllu", "*.conllu", FormatCoNLLU) }

// BenchmarkScoreLitBankSelf reads the LitBank files from disk, pairs each
// key with itself and scores every metric: the whole ScoreFiles path except
// that the files are concatenated in memory first.
func BenchmarkScoreLitBankSelf(b *testing.B) {
	_, data, size := loadFiles(b, "litbank", "*.conll")
	all := make([]byte, 0, size)
	for _, d := range data {
		all = append(all, d...)
	}
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		docs, err := Parse(all, "litbank.conll", FormatCoNLL2012)
		if err != nil {
			b.Fatal(err)
		}
		pairs, _, err := Pair(docs, docs)
		if err != nil {
			b.Fatal(err)
		}
		counts := make([]float64, len(pairs)*gocore.NumColumns())
		if _, err := gocore.ScoreBatch(pairs, gocore.Options{}, counts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLongCorefCell parses one token whose coreference cell holds
// 100,000 items, each a one-token mention: the substitutions are linear.
func BenchmarkLongCorefCell(b *testing.B) {
	data := []byte("#begin document x\nw\t" + strings.Repeat("(1)|(2", 100000) + strings.Repeat("2)", 100000) + "\n#end document\n")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		docs, err := Parse(data, "long.conll", FormatCoNLL2012)
		if err != nil || len(docs[0].Mentions) != 200000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkScoreFilesLitBank is what `corefscore all KEY RESP none` asks of
// the engine on LitBank: ScoreFiles on the 100 files concatenated into one
// file on disk (13 MB), scored against itself with the metrics of the
// drop-in form (mentions, MUC, B³, CEAF_m, CEAF_e, BLANC); the two files are
// read concurrently.
func BenchmarkScoreFilesLitBank(b *testing.B) {
	_, data, size := loadFiles(b, "litbank", "*.conll")
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
