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

// BenchmarkScoreBatchFifty is the Go side of one cs_score_batch call on the
// 50-mention document of bench/per_call.py (span mentions).
func BenchmarkScoreBatchFifty(b *testing.B) {
	side := func(per, n int) flatSide {
		s := flatSide{offsets: []int64{0, int64(n)}}
		for i := 0; i < n; i++ {
			s.mentions = append(s.mentions, int64(i)<<32|int64(i))
			s.clusters = append(s.clusters, int64(i/per))
		}
		return s
	}
	key, resp := side(5, 50), side(7, 50)
	h, err := newOptions([]string{"span_mentions"}, []string{"true"})
	if err != nil {
		b.Fatal(err)
	}
	counts := make([]float64, gocore.NumColumns())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scoreBatch(key, resp, []string{"a"}, h, func() bool { return false }, counts, 4096); err != nil {
			b.Fatal(err)
		}
	}
}
