package gocore

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnalyzeCancelled: the analyses poll the stop function inside one huge
// document (its table, the Kummerfeld-Klein and Martschat-Strube loops) and
// between documents; a stop at any of those polls ends the batch with
// KindCancelled, and polls that report false change no record.
func TestAnalyzeCancelled(t *testing.T) {
	d := benchDoc(200_000)
	want, err := AnalyzeBatch([]Document{d}, Options{})
	require.NoError(t, err)
	var calls atomic.Int64
	got, err := AnalyzeBatch([]Document{d}, Options{Stop: func() bool { calls.Add(1); return false }})
	require.NoError(t, err)
	assert.Equal(t, want, got)
	total := calls.Load()
	require.Greater(t, total, int64(50), "polled within the document")
	for _, at := range []int64{1, total / 4, total / 2, 3 * total / 4, total - 1} {
		var n atomic.Int64
		_, err := AnalyzeBatch([]Document{d, d}, Options{Stop: func() bool { return n.Add(1) > at }, Workers: 1})
		require.Error(t, err, "stop after %d of %d polls", at, total)
		assert.Equal(t, KindCancelled, AsError(err).Kind, "stop after %d of %d polls", at, total)
	}
}

// TestDATableKeepsTheStopFunction: DA aligns the chains of a table of its
// own when the document's mentions are not in its canonical order; that
// table's alignment polls the caller's stop function too (it did not, and
// Ctrl-C waited for the whole alignment of a 400,000-mention document).
func TestDATableKeepsTheStopFunction(t *testing.T) {
	d := benchDoc(2_000)
	tb, err := NewTable(&d, 0, &Options{}, nil)
	require.NoError(t, err)
	require.False(t, daCanonical(tb), "the fixture needs DA's own table")
	var calls atomic.Int64
	tb.stop = func() bool { calls.Add(1); return true }
	dt := daTable(tb)
	require.NotNil(t, dt.stop)
	dt.stop()
	assert.Equal(t, int64(1), calls.Load(), "the caller's function")
}
