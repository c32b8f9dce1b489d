package assign

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomSparse returns a seeded random bipartite graph with n vertices per
// side and deg edges per left vertex to uniformly random right vertices, with
// weights in {1, 2, 3} (integer) or uniform in [0, 1): an expander with no
// structure, the hard case for augmenting-path solvers and not a shape that
// coreference produces.
func randomSparse(n, deg int, integer bool) []Edge {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(deg)))
	edges := make([]Edge, 0, n*deg)
	for l := 0; l < n; l++ {
		for k := 0; k < deg; k++ {
			w := rng.Float64()
			if integer {
				w = float64(1 + rng.IntN(3))
			}
			edges = append(edges, Edge{Left: int32(l), Right: int32(rng.IntN(n)), Weight: w})
		}
	}
	return edges
}

// BenchmarkMaxWeightRandom measures the solver on random sparse graphs, the
// documented worst case.
func BenchmarkMaxWeightRandom(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		for _, deg := range []int{2, 3, 5, 10} {
			for _, integer := range []bool{true, false} {
				edges := randomSparse(n, deg, integer)
				b.Run(fmt.Sprintf("n=%d/deg=%d/int=%v", n, deg, integer), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, _, err := MaxWeight(n, n, edges); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
