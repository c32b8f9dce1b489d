package gocore

import (
	"fmt"
	"testing"
)

// benchSizes is the size ladder: key mentions in one document.
var benchSizes = []int{1_000, 10_000, 100_000, 1_000_000}

// benchDocs caches the seeded synthetic documents across benchmarks.
var benchDocs = map[int]Document{}

func benchDoc(n int) Document {
	d, ok := benchDocs[n]
	if !ok {
		d = synthDoc(uint64(n), n)
		benchDocs[n] = d
	}
	return d
}

// runScore scores one document b.N times with opt.
func runScore(b *testing.B, d Document, opt Options) {
	b.Helper()
	docs := []Document{d}
	counts := make([]float64, NumColumns())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ScoreBatch(docs, opt, counts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(d.Key.Mentions)+len(d.Response.Mentions)), "mentions")
}

// BenchmarkMetric scores each classic metric on its own, and all of them
// together, on the size ladder.
func BenchmarkMetric(b *testing.B) {
	names := []string{"mentions", "muc", "bcub", "bcub_entity", "ceafm", "ceafe", "blanc", "lea", "all"}
	for _, name := range names {
		var set MetricSet
		if name != "all" {
			s, err := ParseMetrics([]string{name})
			if err != nil {
				b.Fatal(err)
			}
			set = s
		}
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				runScore(b, benchDoc(n), Options{Metrics: set})
			})
		}
	}
}

// BenchmarkTable builds the contingency table alone.
func BenchmarkTable(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d := benchDoc(n)
			opt := Options{}
			b.ReportAllocs()
			for b.Loop() {
				var dups []Duplicate
				if _, err := NewTable(&d, 0, &opt, &dups); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDoc4000 is the 4,000-mention document, all metrics.
func BenchmarkDoc4000(b *testing.B) {
	runScore(b, benchDoc(4_000), Options{})
}

// BenchmarkPathological scores responses that make one giant component of the
// CEAF overlap graph: every mention in one response cluster, a chain where
// response cluster j straddles key clusters j and j+1, and a key that is one
// cluster against a fragmented response.
func BenchmarkPathological(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		base := benchDoc(n)
		oneCluster := base
		oneCluster.Response = Side{Mentions: base.Key.Mentions, Clusters: make([]int64, n)}
		b.Run(fmt.Sprintf("merge-all/n=%d", n), func(b *testing.B) { runScore(b, oneCluster, Options{}) })

		chain := chainDoc(n)
		b.Run(fmt.Sprintf("chain/n=%d", n), func(b *testing.B) { runScore(b, chain, Options{}) })

		grid := gridDoc(n)
		b.Run(fmt.Sprintf("grid/n=%d", n), func(b *testing.B) { runScore(b, grid, Options{}) })
	}
}

// chainDoc returns a key of clusters of 4 mentions and a response whose
// cluster j holds the last two mentions of key cluster j and the first two of
// key cluster j+1: the overlap graph is one path through every cluster.
func chainDoc(n int) Document {
	d := Document{Name: "chain"}
	for m := 0; m < n; m++ {
		d.Key.Mentions = append(d.Key.Mentions, int64(m))
		d.Key.Clusters = append(d.Key.Clusters, int64(m/4))
		d.Response.Mentions = append(d.Response.Mentions, int64(m))
		d.Response.Clusters = append(d.Response.Clusters, int64((m+2)/4))
	}
	return d
}

// gridDoc returns a key of clusters of size s and a response that deals
// mentions out round-robin so each response cluster meets every key cluster
// of a block of s clusters: components are dense s × s blocks (s = 64).
func gridDoc(n int) Document {
	const s = 64
	d := Document{Name: "grid"}
	for m := 0; m < n; m++ {
		block, in := m/(s*s), m%(s*s)
		d.Key.Mentions = append(d.Key.Mentions, int64(m))
		d.Key.Clusters = append(d.Key.Clusters, int64(block*s+in/s))
		d.Response.Mentions = append(d.Response.Mentions, int64(m))
		d.Response.Clusters = append(d.Response.Clusters, int64(block*s+in%s))
	}
	return d
}
