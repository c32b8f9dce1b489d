package main

import (
	"testing"

	"github.com/corefscore/corefscore/gocore"
)

// BenchmarkScoreBatchTiny is the Go side of one cs_score_batch call on a
// one-cluster document (conversion, options, scoring, records), the floor
// of the Python layer's per-call overhead.
func BenchmarkScoreBatchTiny(b *testing.B) {
	s := flatSide{offsets: []int64{0, 2}, mentions: []int64{1, 2}, clusters: []int64{0, 0}}
	counts := make([]float64, gocore.NumColumns())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scoreBatch(s, s, []string{"a"}, 0, func() bool { return false }, counts, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGocoreScoreTiny is the engine alone on the same document.
func BenchmarkGocoreScoreTiny(b *testing.B) {
	d := []gocore.Document{{Key: gocore.Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}}, Response: gocore.Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}}}}
	counts := make([]float64, gocore.NumColumns())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gocore.Score(d, gocore.Options{}, counts); err != nil {
			b.Fatal(err)
		}
	}
}
