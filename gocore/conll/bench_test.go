package conll

import (
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
