package gocore

import (
	"fmt"
	"math/rand/v2"
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

// BenchmarkMetric scores each classic metric on its own, all classic
// metrics together ("all"), and every registered metric on the same
// documents with mention types ("typed-all", which adds the linguistically
// aware metrics and DA), on the size ladder.
func BenchmarkMetric(b *testing.B) {
	names := []string{"mentions", "muc", "bcub", "bcub_entity", "ceafm", "ceafe", "blanc", "lea", "kk", "ms", "all", "typed-all"}
	for _, name := range names {
		var set MetricSet
		var err error
		switch name {
		case "all":
			set, err = ParseMetrics(classicMetrics)
		case "typed-all":
			set = 0 // every metric
		default:
			set, err = ParseMetrics([]string{name})
		}
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				d := benchDoc(n)
				if name == "typed-all" {
					d = withTypes(d)
				}
				runScore(b, d, Options{Metrics: set})
			})
		}
	}
}

// withTypes returns d with seeded mention types on both sides: twins share
// their type; about a third of mentions are pronouns.
func withTypes(d Document) Document {
	typeOf := func(m int64) MentionType {
		h := uint64(m) * 0x9E3779B97F4A7C15
		return MentionType(1 + (h>>61)%3)
	}
	typed := func(s Side) Side {
		s.Types = make([]MentionType, len(s.Mentions))
		for i, m := range s.Mentions {
			s.Types[i] = typeOf(m)
		}
		return s
	}
	d.Key, d.Response = typed(d.Key), typed(d.Response)
	return d
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
	set, err := ParseMetrics(classicMetrics)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("all", func(b *testing.B) { runScore(b, benchDoc(4_000), Options{Metrics: set}) })
	b.Run("typed-all", func(b *testing.B) { runScore(b, withTypes(benchDoc(4_000)), Options{}) })
}

// BenchmarkPathological scores responses that make one giant component of the
// CEAF overlap graph: every mention in one response cluster (merge-all), a
// chain where response cluster j straddles key clusters j and j+1, dense
// 64 × 64 blocks (grid), 30% of mentions moved at random (noisy) and a random
// system (scattered).
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

		noisy := noisyDoc(n)
		b.Run(fmt.Sprintf("noisy/n=%d", n), func(b *testing.B) { runScore(b, noisy, Options{}) })

		scattered := scatteredDoc(n, 5)
		b.Run(fmt.Sprintf("scattered/n=%d", n), func(b *testing.B) { runScore(b, scattered, Options{}) })
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

// noisyDoc returns the synthetic key of n mentions against a response that
// moves 30% of the mentions to random clusters of the key: thousands of
// one-mention overlaps tie the overlap graph into one giant component.
func noisyDoc(n int) Document {
	d := benchDoc(n)
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	resp := Side{Mentions: d.Key.Mentions, Clusters: append([]int64(nil), d.Key.Clusters...)}
	for i := range resp.Clusters {
		if rng.Float64() < 0.3 {
			resp.Clusters[i] = d.Key.Clusters[rng.IntN(n)]
		}
	}
	return Document{Name: "noisy", Key: d.Key, Response: resp}
}

// scatteredDoc returns a key of clusters of the given size against a random
// system: the response has clusters of the same size over a random
// permutation of the mentions, so every key cluster meets about size
// response clusters, mostly in one mention each (a random regular overlap
// graph, full of ties).
func scatteredDoc(n, size int) Document {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(size)))
	perm := rng.Perm(n)
	d := Document{Name: "scattered"}
	for m := 0; m < n; m++ {
		d.Key.Mentions = append(d.Key.Mentions, int64(m))
		d.Key.Clusters = append(d.Key.Clusters, int64(m/size))
		d.Response.Mentions = append(d.Response.Mentions, int64(perm[m]))
		d.Response.Clusters = append(d.Response.Clusters, int64(m/size))
	}
	return d
}
