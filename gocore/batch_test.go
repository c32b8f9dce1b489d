package gocore

import (
	"testing"
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
