package gocore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallDoc is the per-call benchmark's document: one two-mention cluster on
// each side, the same mentions (Python's [[(0, 1), (3, 4)]] as key and
// response).
func smallDoc() Document {
	return Document{
		Key:      Side{Mentions: []int64{1, 3}, Clusters: []int64{0, 0}},
		Response: Side{Mentions: []int64{1, 3}, Clusters: []int64{0, 0}},
	}
}

// BenchmarkSmallDoc is the engine's share of the per-call overhead of
// scoring one tiny document: ScoreBatch on a two-mention document with every
// metric, with the classic metrics, and with MUC only.
func BenchmarkSmallDoc(b *testing.B) {
	muc, err := ParseMetrics([]string{"muc"})
	if err != nil {
		b.Fatal(err)
	}
	classic, err := ParseMetrics(classicMetrics)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opt  Options
	}{
		{"all", Options{}},
		{"classic", Options{Metrics: classic}},
		{"muc", Options{Metrics: muc}},
		{"all-workers=1", Options{Workers: 1}},
	} {
		b.Run(c.name, func(b *testing.B) { runScore(b, smallDoc(), c.opt) })
	}
}

// TestScoreBatchPaths checks that the sequential path (one worker, or one
// document) and the parallel path agree: the lowest-numbered failing document
// is the one reported, duplicates come in document order, and counts of
// metrics not selected are zeroed even when the caller's matrix held garbage.
func TestScoreBatchPaths(t *testing.T) {
	bad := func(name string) Document {
		d := smallDoc()
		d.Name = name
		d.Key.Clusters = []int64{0, -1}
		return d
	}
	repeated := smallDoc()
	repeated.Response = Side{Mentions: []int64{1, 3, 1}, Clusters: []int64{0, 0, 4}}
	muc, err := ParseMetrics([]string{"muc"})
	require.NoError(t, err)
	mucCol := ColumnIndex("muc.recall_num")
	require.GreaterOrEqual(t, mucCol, 0)
	tests := []struct {
		name    string
		docs    []Document
		errDoc  int // -1: no error
		errName string
		dups    []Duplicate
	}{
		{"one document", []Document{smallDoc()}, -1, "", nil},
		{"lowest failing document", []Document{smallDoc(), bad("b1"), smallDoc(), bad("b3")}, 1, "b1", nil},
		{"duplicates in document order", []Document{repeated, smallDoc(), repeated}, -1, "",
			[]Duplicate{{Doc: 0, Side: ResponseSide, Mention: 1, Pos: 2, FirstCluster: 0, Cluster: 4},
				{Doc: 2, Side: ResponseSide, Mention: 1, Pos: 2, FirstCluster: 0, Cluster: 4}}},
	}
	for _, tc := range tests {
		for _, workers := range []int{1, 2, 8} {
			t.Run(tc.name+"/workers="+string(rune('0'+workers)), func(t *testing.T) {
				counts := make([]float64, len(tc.docs)*NumColumns())
				for i := range counts {
					counts[i] = -7 // garbage the engine must overwrite
				}
				dups, err := ScoreBatch(tc.docs, Options{Metrics: muc, Workers: workers}, counts)
				if tc.errDoc >= 0 {
					var de *DocError
					require.ErrorAs(t, err, &de)
					assert.Equal(t, tc.errDoc, de.Doc)
					assert.Equal(t, tc.errName, de.Name)
					assert.ErrorIs(t, err, ErrInvalidInput)
					assert.Nil(t, dups)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tc.dups, dups)
				for d := range tc.docs {
					row := counts[d*NumColumns() : (d+1)*NumColumns()]
					for c, v := range row {
						if c >= mucCol && c < mucCol+4 {
							assert.Equal(t, 1.0, row[mucCol], "muc recall numerator of document %d", d)
							continue
						}
						assert.Zero(t, v, "column %d of document %d", c, d)
					}
				}
			})
		}
	}
}
