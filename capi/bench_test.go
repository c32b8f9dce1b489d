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

// perCallDocuments are bench/per_call.py's documents as the marshal bytes of
// the per-call road (input=marshal): the one-cluster document on both sides,
// and the 50-mention one (50 key mentions in 10 clusters, 50 response
// mentions in 8).
func perCallDocuments() map[string][]byte {
	one := [][][2]int32{{{0, 1}, {3, 4}}}
	side := func(per int) [][][2]int32 {
		out := make([][][2]int32, (50+per-1)/per)
		for i := range 50 {
			out[i/per] = append(out[i/per], [2]int32{int32(i), int32(i)})
		}
		return out
	}
	return map[string][]byte{"one": marshalled(one, one), "fifty": marshalled(side(5), side(7)),
		"fifty_v2": marshalledV2(side(5), side(7))}
}

// BenchmarkScoreMarshal is the Go side of one cs_score_batch call of the
// per-call road: the marshal bytes read, the document scored, all metrics,
// no room for records (as Python's score_marshal calls it).
func BenchmarkScoreMarshal(b *testing.B) {
	h, err := newOptions([]string{"span_mentions", "input"}, []string{"true", "marshal"})
	if err != nil {
		b.Fatal(err)
	}
	defer freeHandle(h)
	co, err := callOptionsOf(h)
	if err != nil {
		b.Fatal(err)
	}
	counts := make([]float64, gocore.NumColumns())
	for _, name := range []string{"one", "fifty", "fifty_v2"} {
		data := perCallDocuments()[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := scoreMarshal(data, nil, &co, nil, counts, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
