package files

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFile writes data into dir/name and returns the path.
func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	return p
}

// TestBoundaryFiles: files a user may pass by mistake get a clear error (or
// a warning), with the kind, side and line as fields.
func TestBoundaryFiles(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.conll", "#begin document d\nw\t(1)\nw\t(1)\n#end document\n")
	tests := []struct {
		name, file, data string
		kind             gocore.ErrorKind // KindNone: no error
		msg              string
		line             int
	}{
		{"NUL byte", "nul.conll", "#begin document d\nw\t(1)\x00\n#end document\n", gocore.KindParse, "not a text file", 2},
		{"NUL byte, format guessed", "nul.txt", "#begin document d\nw\t\x00(1)\n#end document\n", gocore.KindParse, "not a text file", 2},
		{"CR line endings", "cr.conll", "#begin document d\rw\t(1)\rw\t(1)\r#end document\r", gocore.KindParse, "CR line endings", 1},
		{"CR line endings, format guessed", "cr.txt", "#begin document d\rw\t(1)\r#end document\r", gocore.KindParse, "CR line endings", 1},
		{"BOM", "bom.conll", "\xEF\xBB\xBF#begin document d\nw\t(1)\nw\t(1)\n#end document\n", gocore.KindNone, "", 0},
		{"BOM, format guessed", "bom.txt", "\xEF\xBB\xBF#begin document d\nw\t(1)\nw\t(1)\n#end document\n", gocore.KindNone, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, dir, tc.file, tc.data)
			res, err := Score(good, p, gocore.Options{})
			if tc.kind == gocore.KindNone {
				require.NoError(t, err)
				require.NotEmpty(t, res.Warnings)
				assert.Contains(t, res.Warnings[0].Msg, "byte order mark")
				assert.Equal(t, 1, res.Warnings[0].Side)
				assert.Equal(t, 1.0, sumRows(res.Counts)["muc.recall_num"], "the BOM changes no number")
				return
			}
			require.Error(t, err)
			e := gocore.AsError(err)
			assert.Equal(t, tc.kind, e.Kind, e.Error())
			assert.Equal(t, 1, e.Side)
			assert.Equal(t, tc.line, e.Line)
			assert.Contains(t, e.Msg, tc.msg)
			assert.NotContains(t, e.Msg, "conll:")
		})
	}
	t.Run("missing file", func(t *testing.T) {
		_, err := Score(filepath.Join(dir, "absent.conll"), good, gocore.Options{})
		e := gocore.AsError(err)
		assert.Equal(t, gocore.KindNotFound, e.Kind)
		assert.Equal(t, 0, e.Side)
		assert.Equal(t, "no such file", e.Msg)
	})
}

// TestDevZero: an endless binary device is refused at once, not read.
func TestDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	good := writeFile(t, dir, "good.conll", "#begin document d\nw\t(1)\n#end document\n")
	for _, side := range []int{0, 1} {
		done := make(chan error, 1)
		go func() {
			var err error
			if side == 0 {
				_, err = Score("/dev/zero", good, gocore.Options{})
			} else {
				_, err = Score(good, "/dev/zero", gocore.Options{})
			}
			done <- err
		}()
		select {
		case err := <-done:
			e := gocore.AsError(err)
			assert.Equal(t, gocore.KindParse, e.Kind)
			assert.Equal(t, side, e.Side)
			assert.Contains(t, e.Msg, "not a text file")
		case <-time.After(10 * time.Second): // a bound on the test, not a timing
			t.Fatal("/dev/zero was read without end")
		}
	}
}

// TestBadItemWarning: an item that is not a number is skipped, as the
// reference skips it, and said once per document with its count and first
// line.
func TestBadItemWarning(t *testing.T) {
	dir := t.TempDir()
	key := writeFile(t, dir, "key.conll", "#begin document d\nw\t(1)\nw\t(1)\nw\t(2)\n#end document\n")
	resp := writeFile(t, dir, "resp.conll", "#begin document d\nw\t(1)\nw\t(1)|(abc)\nw\t(abc)\n#end document\n")
	clean := writeFile(t, dir, "clean.conll", "#begin document d\nw\t(1)\nw\t(1)\nw\t-\n#end document\n")
	res, err := Score(key, resp, gocore.Options{})
	require.NoError(t, err)
	want, err := Score(key, clean, gocore.Options{})
	require.NoError(t, err)
	assert.Equal(t, want.Counts, res.Counts, "the reference's numbers")
	require.Len(t, res.Warnings, 1)
	w := res.Warnings[0]
	assert.Equal(t, gocore.WarnBadItem, w.Kind)
	assert.Equal(t, []int{1, 0, 3}, []int{w.Side, w.Doc, w.Line})
	assert.Equal(t, int64(2), w.Count)
}

// TestRepeatedCell: a cell that repeats one mention a million times is read
// in bounded memory: the repeats are counted, a bounded number recorded, and
// the numbers are those of the mention once.
func TestRepeatedCell(t *testing.T) {
	dir := t.TempDir()
	const n = 1_000_000
	cell := strings.Repeat("(1)|", n-1) + "(1)"
	resp := writeFile(t, dir, "resp.conll", "#begin document d\nw\t"+cell+"\nw\t(1)\n#end document\n")
	key := writeFile(t, dir, "key.conll", "#begin document d\nw\t(1)\nw\t(1)\n#end document\n")
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := Score(key, resp, gocore.Options{})
	require.NoError(t, err)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	assert.Equal(t, int64(n-1), res.NumDuplicates)
	assert.LessOrEqual(t, len(res.Duplicates), MaxFileDuplicates)
	require.NotEmpty(t, res.Duplicates)
	assert.Equal(t, FileDuplicate{Duplicate: gocore.Duplicate{Doc: 0, Side: 1, Mention: -1, Pos: -1},
		Line: 2, Start: 0, End: 0}, res.Duplicates[0])
	sum := sumRows(res.Counts)
	assert.Equal(t, 1.0, sum["muc.recall_num"])
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(200<<20), "allocations stay near the file's size")

	_, err = Score(key, resp, gocore.Options{Duplicates: gocore.DuplicatesError})
	e := gocore.AsError(err)
	assert.Equal(t, gocore.KindDuplicate, e.Kind)
	assert.Equal(t, []int64{0, 1, 2, 0, 0}, []int64{int64(e.Doc), int64(e.Side), int64(e.Line), e.Start, e.End})
}

// TestJSONLinesClustersField: which field a jsonlines response's clusters
// come from, and names with any bytes.
func TestJSONLinesClustersField(t *testing.T) {
	dir := t.TempDir()
	key := writeFile(t, dir, "key.jsonl", `{"doc_key": "a\nb\u0000c", "clusters": [[[0, 0], [1, 1]]]}`+"\n"+
		`{"doc_key": "second", "clusters": [[[0, 0], [2, 2]]]}`+"\n")
	predicted := writeFile(t, dir, "pred.jsonl", `{"doc_key": "a\nb\u0000c", "predicted_clusters": [[[0, 0], [1, 1]]]}`+"\n"+
		`{"doc_key": "second", "predicted_clusters": [[[0, 0], [2, 2]]]}`+"\n")
	both := writeFile(t, dir, "both.jsonl", `{"doc_key": "a\nb\u0000c", "clusters": [], "predicted_clusters": [[[0, 0], [1, 1]]]}`+"\n")
	neither := writeFile(t, dir, "neither.jsonl", `{"doc_key": "second", "clusters": [[[0, 0], [2, 2]]]}`+"\n"+`{"doc_key": "a\nb\u0000c"}`+"\n")
	custom := writeFile(t, dir, "custom.jsonl", `{"doc_key": "a\nb\u0000c", "clusters": [], "mine": [[[0, 0], [1, 1]]]}`+"\n")

	res, err := Score(key, predicted, gocore.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a\nb\x00c", "second"}, res.Names)
	assert.Equal(t, 2.0, sumRows(res.Counts)["muc.recall_num"], "predicted_clusters read")

	_, err = Score(key, both, gocore.Options{})
	e := gocore.AsError(err)
	assert.Equal(t, gocore.KindParse, e.Kind)
	assert.Equal(t, 1, e.Line)
	assert.Contains(t, e.Msg, "ambiguous")
	res, err = Score(key, both, gocore.Options{ClustersField: "predicted_clusters"})
	require.NoError(t, err)
	assert.Equal(t, 1.0, sumRows(res.Counts)["muc.recall_num"])

	_, err = Score(key, neither, gocore.Options{})
	e = gocore.AsError(err)
	assert.Equal(t, []int{int(gocore.KindParse), 1, 2}, []int{int(e.Kind), e.Side, e.Line})
	assert.Contains(t, e.Msg, `no "clusters" or "predicted_clusters"`)

	res, err = Score(key, custom, gocore.Options{ClustersField: "mine"})
	require.NoError(t, err)
	assert.Equal(t, 1.0, sumRows(res.Counts)["muc.recall_num"])
	_, err = Score(key, custom, gocore.Options{ClustersField: "theirs"})
	assert.Contains(t, gocore.AsError(err).Msg, `no "theirs" field`)
}

// TestScoreFilesCancelled: a set stop flag stops file scoring, also while
// a FIFO waits for a writer that never writes.
func TestScoreFilesCancelled(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.conll", "#begin document d\nw\t(1)\n#end document\n")
	_, err := Score(good, good, gocore.Options{Stop: func() bool { return true }})
	assert.Equal(t, gocore.KindCancelled, gocore.AsError(err).Kind)

	fifo := filepath.Join(dir, "fifo.conll")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	// A writer opens the FIFO (so that opening it for reading returns) and
	// writes nothing.
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			time.Sleep(5 * time.Second)
			f.Close()
		}
	}()
	var stop atomic.Bool
	time.AfterFunc(100*time.Millisecond, func() { stop.Store(true) })
	done := make(chan error, 1)
	go func() {
		_, err := Score(good, fifo, gocore.Options{Stop: stop.Load})
		done <- err
	}()
	select {
	case err := <-done:
		assert.Equal(t, gocore.KindCancelled, gocore.AsError(err).Kind)
	case <-time.After(4 * time.Second): // a bound on the test, not a timing
		t.Fatal("reading the FIFO ignored the stop flag")
	}
}

// TestFileDuplicates: a mention in two entities of a file is reported with
// its line and tokens, as a record under warn and an error under raise.
func TestFileDuplicates(t *testing.T) {
	dir := t.TempDir()
	key := writeFile(t, dir, "key.conll", "#begin document d\nw\t(1)\nw\t(1)\nw\t(2)\n#end document\n")
	resp := writeFile(t, dir, "resp.conll", "#begin document d\nw\t(1)\nw\t(1)|(7)\nw\t(7)\n#end document\n")
	res, err := Score(key, resp, gocore.Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(1), res.NumDuplicates)
	require.Len(t, res.Duplicates, 1)
	d := res.Duplicates[0]
	assert.Equal(t, []int64{0, 1, 3, 1, 1}, []int64{int64(d.Doc), int64(d.Side), int64(d.Line), d.Start, d.End})

	_, err = Score(key, resp, gocore.Options{Duplicates: gocore.DuplicatesError})
	e := gocore.AsError(err)
	assert.Equal(t, gocore.KindDuplicate, e.Kind)
	assert.Equal(t, []int64{0, 1, 3, 1, 1, -1}, []int64{int64(e.Doc), int64(e.Side), int64(e.Line), e.Start, e.End, int64(e.Mention)})
	assert.Equal(t, "the mention occurs twice (first in entity 1, then in entity 7)", e.Msg)
}
