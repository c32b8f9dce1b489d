package gocore

import (
	"math"
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

// TestScoreDocumentWorkersBitIdentical scores single large documents (a
// realistic synthetic one and a random partition, typed, every metric) with
// 1 to 8 workers: the metrics of one document then run concurrently, and
// the counts must be the same bit for bit. It also checks that ScoreDocument
// and ScoreBatch agree.
func TestScoreDocumentWorkersBitIdentical(t *testing.T) {
	docs := []Document{withTypes(synthDoc(7, 20_000)), randomPartitionDoc(3, 20_000, 2_000)}
	for _, d := range docs {
		t.Run(d.Name, func(t *testing.T) {
			want := make([]float64, NumColumns())
			_, err := ScoreBatch([]Document{d}, Options{Workers: 1}, want)
			require.NoError(t, err)
			for _, workers := range []int{2, 3, 8, 0} {
				got := make([]float64, NumColumns())
				_, err := ScoreBatch([]Document{d}, Options{Workers: workers}, got)
				require.NoError(t, err)
				for c := range want {
					require.Equal(t, math.Float64bits(want[c]), math.Float64bits(got[c]), "workers %d, column %s", workers, Columns()[c])
				}
				row := make([]float64, NumColumns())
				opt := withDefaults(Options{Workers: workers})
				require.NoError(t, ScoreDocument(&d, 0, &opt, row, nil))
				assert.Equal(t, want, row)
			}
		})
	}
}

// TestUntypedEmptyKeyLeavesDAOut checks the one decision every road reads:
// an untyped document whose key is empty is an untyped document, so DA is
// left out of the default set (Applied bit clear, columns zero) whether it
// is scored alone or in a batch with an untyped document that has key
// mentions, and is computed when asked for by name.
func TestUntypedEmptyKeyLeavesDAOut(t *testing.T) {
	emptyKey := Document{Response: Side{Mentions: []int64{11<<32 | 12, 11<<32 | 14}, Clusters: []int64{0, 0}}}
	da := metricIndex("da")
	daCols := columnStart[da+1] - columnStart[da]
	row := func(docs []Document, opt Options, d int) ([]float64, Report) {
		counts := make([]float64, len(docs)*NumColumns())
		rep, err := Score(docs, opt, counts)
		require.NoError(t, err)
		return counts[d*NumColumns()+columnStart[da] : d*NumColumns()+columnStart[da+1]], rep
	}
	alone, rep := row([]Document{emptyKey}, Options{}, 0)
	assert.Zero(t, rep.Applied&(1<<uint(da)), "DA applied to an untyped document scored alone")
	assert.Equal(t, make([]float64, daCols), alone)
	inBatch, _ := row([]Document{smallDoc(), emptyKey}, Options{}, 1)
	assert.Equal(t, alone, inBatch, "the document's DA row depends on its batch")

	named, err := ParseMetrics([]string{"da"})
	require.NoError(t, err)
	asked, rep := row([]Document{emptyKey}, Options{Metrics: named}, 0)
	assert.NotZero(t, rep.Applied&(1<<uint(da)))
	assert.NotEqual(t, make([]float64, daCols), asked, "DA asked for by name counts the spurious mentions")
}
