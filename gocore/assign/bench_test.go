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

// randomPartitionEdges returns the CEAF overlap graph of two independent
// uniform random partitions of n mentions into k clusters each (every mention
// takes a uniformly random cluster on each side): the cells n_ij as edges,
// weighted by φ4 = 2 n_ij / (|K_i| + |R_j|) (entity) or by n_ij (mention).
func randomPartitionEdges(n, k int, seed uint64, entity bool) []Edge {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	key := make([]int32, n)
	resp := make([]int32, n)
	keySize := make([]int32, k)
	respSize := make([]int32, k)
	for m := range key {
		key[m], resp[m] = int32(rng.IntN(k)), int32(rng.IntN(k))
		keySize[key[m]]++
		respSize[resp[m]]++
	}
	count := map[[2]int32]int32{}
	var order [][2]int32
	for m := range key {
		c := [2]int32{key[m], resp[m]}
		if count[c] == 0 {
			order = append(order, c)
		}
		count[c]++
	}
	edges := make([]Edge, 0, len(order))
	for _, c := range order {
		w := float64(count[c])
		if entity {
			w = 2 * w / float64(keySize[c[0]]+respSize[c[1]])
		}
		edges = append(edges, Edge{Left: c[0], Right: c[1], Weight: w})
	}
	return edges
}

// BenchmarkMaxWeightRandomPartition measures the solver on the overlap graph
// of two independent random partitions (an untrained model's output).
func BenchmarkMaxWeightRandomPartition(b *testing.B) {
	for _, size := range [][2]int{{10_000, 1_000}, {100_000, 10_000}, {200_000, 20_000}, {1_000_000, 100_000}} {
		for _, entity := range []bool{true, false} {
			edges := randomPartitionEdges(size[0], size[1], 1, entity)
			b.Run(fmt.Sprintf("n=%d/k=%d/entity=%v", size[0], size[1], entity), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := MaxWeight(size[1], size[1], edges); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkMaxWeightTotalSmall measures the alignment of a small document
// (the CEAF_m graph of bench/per_call.py's 50-mention document: key
// clusters of 5 consecutive mentions against response clusters of 7, 10 x
// 8 vertices and 17 edges), where a pooled solver makes the call allocate
// nothing.
func BenchmarkMaxWeightTotalSmall(b *testing.B) {
	var edges []Edge
	for m := 0; m < 50; m++ {
		k, r := int32(m/5), int32(m/7)
		if n := len(edges); n > 0 && edges[n-1].Left == k && edges[n-1].Right == r {
			edges[n-1].Weight++
			continue
		}
		edges = append(edges, Edge{Left: k, Right: r, Weight: 1})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MaxWeightTotalPoll(10, 8, edges, nil); err != nil {
			b.Fatal(err)
		}
	}
}
