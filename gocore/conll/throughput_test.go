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

// denseDocument returns the file named by COREFSCORE_BENCH_1M_DENSE, or
// else /work/guardfix/one_1m_dense/key.conll when it exists: the 1M-mention
// document with 4 tokens a mention (137 MB, a mention boundary on about
// every other line, near the 117 MB key of issue 24), as bench/guard.py
// --cases 1m-dense writes it. It skips the benchmark when neither is there.
func denseDocument(b *testing.B) string {
	path := os.Getenv("COREFSCORE_BENCH_1M_DENSE")
	if path == "" {
		path = "/work/guardfix/one_1m_dense/key.conll"
		if _, err := os.Stat(path); err != nil {
			b.Skip("COREFSCORE_BENCH_1M_DENSE (bench/guard.py --cases 1m-dense's key.conll) is not set and " + path + " is absent")
		}
	}
	return path
}

// litBankFile writes LitBank's 100 files concatenated into a temporary file.
func litBankFile(b *testing.B) string {
	return concatenatedFile(b, "litbank", "*.conll", "litbank.conll")
}

// concatenatedFile writes the shared data files sub/pattern, concatenated,
// into a temporary file named name.
func concatenatedFile(b *testing.B, sub, pattern, name string) string {
	_, data, size := loadFiles(b, sub, pattern)
	all := make([]byte, 0, size)
	for _, d := range data {
		all = append(all, d...)
	}
	path := filepath.Join(b.TempDir(), name)
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

// BenchmarkReadFile1MDense reads the dense 1M-mention document (see
// denseDocument) with and without types.
func BenchmarkReadFile1MDense(b *testing.B) {
	path := denseDocument(b)
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

// conlluOf writes docs as a CorefUD CoNLL-U file (sentences of 20 words
// named w0, w1, ..., tagged NOUN/NN, each word's head the sentence's first
// word, the mentions in MISC's Entity=: at each word the closings, then the
// openings, then the one-word mentions) into a temporary file.
func conlluOf(b *testing.B, docs []Doc) string {
	out := []byte("# global.Entity = eid-etype-head-other\n")
	for _, d := range docs {
		out = fmt.Appendf(out, "# newdoc id = %s\n", d.Name)
		opens := make([][]int64, d.NumTokens)
		closes := make([][]int64, d.NumTokens)
		singles := make([][]int64, d.NumTokens)
		for _, m := range d.Mentions {
			if m.Start == m.End {
				singles[m.Start] = append(singles[m.Start], m.Cluster)
				continue
			}
			opens[m.Start] = append(opens[m.Start], m.Cluster)
			closes[m.End] = append(closes[m.End], m.Cluster)
		}
		for t := 0; t < d.NumTokens; t++ {
			id := t%20 + 1
			if id == 1 {
				if t > 0 {
					out = append(out, '\n')
				}
				out = fmt.Appendf(out, "# sent_id = %d\n", t/20+1)
			}
			head := 1
			if id == 1 {
				head = 0
			}
			out = fmt.Appendf(out, "%d\tw%d\tw\tNOUN\tNN\t_\t%d\tdep\t_\t", id, t, head)
			if len(opens[t])+len(closes[t])+len(singles[t]) == 0 {
				out = append(out, "_\n"...)
				continue
			}
			out = append(out, "Entity="...)
			for _, e := range closes[t] {
				out = fmt.Appendf(out, "e%d)", e)
			}
			for _, e := range opens[t] {
				out = fmt.Appendf(out, "(e%d-x-1", e)
			}
			for _, e := range singles[t] {
				out = fmt.Appendf(out, "(e%d-x-1)", e)
			}
			out = append(out, '\n')
		}
		out = append(out, '\n')
	}
	path := filepath.Join(b.TempDir(), "docs.conllu")
	require.NoError(b, os.WriteFile(path, out, 0o600))
	return path
}

// BenchmarkReadFileCoNLLU reads CoNLL-U: GUM's files concatenated, LitBank
// and (with COREFSCORE_BENCH_1M) the 1M-mention document written as
// CoNLL-U, and issue 20's nested case of 16,000 mentions.
func BenchmarkReadFileCoNLLU(b *testing.B) {
	b.Run("gum", func(b *testing.B) {
		benchReadFile(b, concatenatedFile(b, "gum-conllu", "*.conllu", "gum.conllu"), true)
	})
	b.Run("litbank", func(b *testing.B) {
		docs, err := readWith(litBankFile(b), readOpts{})
		require.NoError(b, err)
		benchReadFile(b, conlluOf(b, docs), true)
	})
	b.Run("nested", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "nested.conllu")
		require.NoError(b, os.WriteFile(path, []byte(nestedCoNLLU(16_000)), 0o600))
		benchReadFile(b, path, true)
	})
	b.Run("1m", func(b *testing.B) {
		docs, err := readWith(largeDocument(b), readOpts{})
		require.NoError(b, err)
		benchReadFile(b, conlluOf(b, docs), true)
	})
}
