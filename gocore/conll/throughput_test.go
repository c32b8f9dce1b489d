package conll

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// benchReadFile times the whole read of one file from disk (the page cache,
// after the first round), as ReadPair reads one side: through readWith, with
// or without mention types. It reports the input's MB/s of wall time and,
// as cpu-MB/s, of the process's CPU time (every thread, the garbage
// collector's included), which a loaded machine changes less.
func benchReadFile(b *testing.B, path string, types bool) {
	st, err := os.Stat(path)
	require.NoError(b, err)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	before := cpuTime(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := readWith(path, readOpts{types: types}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cpu := (cpuTime(b) - before).Seconds()
	b.ReportMetric(float64(st.Size())*float64(b.N)/cpu/1e6, "cpu-MB/s")
}

// cpuTime returns the process's user and system time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// largeDocument returns the file named by COREFSCORE_BENCH_1M: one
// CoNLL-2012 document of a million mentions, as bench/guard.py --cases 1m
// writes it (one_1m/key.conll), or skips the benchmark when it is not set.
func largeDocument(b *testing.B) string {
	path := os.Getenv("COREFSCORE_BENCH_1M")
	if path == "" {
		b.Skip("COREFSCORE_BENCH_1M (a one-document, 1M-mention CoNLL-2012 file) is not set")
	}
	return path
}

// litBankFile writes LitBank's 100 files concatenated into a temporary file.
func litBankFile(b *testing.B) string {
	_, data, size := loadFiles(b, "litbank", "*.conll")
	all := make([]byte, 0, size)
	for _, d := range data {
		all = append(all, d...)
	}
	path := filepath.Join(b.TempDir(), "litbank.conll")
	require.NoError(b, os.WriteFile(path, all, 0o600))
	return path
}

// BenchmarkReadFile1M reads the 1M-mention document with types (as the
// linguistically aware metrics need) and without (as the classic ones do).
func BenchmarkReadFile1M(b *testing.B) {
	path := largeDocument(b)
	b.Run("types", func(b *testing.B) { benchReadFile(b, path, true) })
	b.Run("notypes", func(b *testing.B) { benchReadFile(b, path, false) })
}

// BenchmarkReadFileLitBank reads LitBank's files concatenated into one.
func BenchmarkReadFileLitBank(b *testing.B) {
	path := litBankFile(b)
	b.Run("types", func(b *testing.B) { benchReadFile(b, path, true) })
	b.Run("notypes", func(b *testing.B) { benchReadFile(b, path, false) })
}

// jsonLinesOf writes docs as a jsonlines file (sentences of 20 tokens named
// w0, w1, ..., and the clusters) into a temporary file.
func jsonLinesOf(b *testing.B, docs []Doc) string {
	var out []byte
	for _, d := range docs {
		out = append(out, `{"doc_key": `...)
		out = strconv.AppendQuote(out, d.Name)
		out = append(out, `, "sentences": [`...)
		for t := 0; t < d.NumTokens; t++ {
			switch {
			case t == 0:
				out = append(out, '[')
			case t%20 == 0:
				out = append(out, "], ["...)
			default:
				out = append(out, ", "...)
			}
			out = append(out, `"w`...)
			out = strconv.AppendInt(out, int64(t), 10)
			out = append(out, '"')
		}
		if d.NumTokens > 0 {
			out = append(out, ']')
		}
		out = append(out, `], "clusters": [`...)
		// The reader groups mentions by entity, entities in order.
		for i, m := range d.Mentions {
			switch {
			case i == 0:
				out = append(out, '[')
			case m.Cluster != d.Mentions[i-1].Cluster:
				out = append(out, "], ["...)
			default:
				out = append(out, ", "...)
			}
			out = fmt.Appendf(out, "[%d, %d]", m.Start, m.End)
		}
		if len(d.Mentions) > 0 {
			out = append(out, ']')
		}
		out = append(out, "]}\n"...)
	}
	path := filepath.Join(b.TempDir(), "docs.jsonl")
	require.NoError(b, os.WriteFile(path, out, 0o600))
	return path
}

// BenchmarkReadFileJSONLines reads LitBank and, with COREFSCORE_BENCH_1M,
// the 1M-mention document, each written as jsonlines.
func BenchmarkReadFileJSONLines(b *testing.B) {
	b.Run("litbank", func(b *testing.B) {
		docs, err := readWith(litBankFile(b), readOpts{})
		require.NoError(b, err)
		benchReadFile(b, jsonLinesOf(b, docs), false)
	})
	b.Run("1m", func(b *testing.B) {
		docs, err := readWith(largeDocument(b), readOpts{})
		require.NoError(b, err)
		benchReadFile(b, jsonLinesOf(b, docs), false)
	})
}
