package assign

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteForce returns the maximum total weight of a matching by trying every
// injective map of the smaller side into the larger one (all permutations,
// each element optionally unmatched through a zero-weight slot). The weight
// matrix is dense; parallel edges keep the heaviest.
func bruteForce(nLeft, nRight int, edges []Edge) float64 {
	w := make([][]float64, nLeft)
	for i := range w {
		w[i] = make([]float64, nRight)
	}
	for _, e := range edges {
		w[e.Left][e.Right] = math.Max(w[e.Left][e.Right], e.Weight)
	}
	used := make([]bool, nRight)
	var best float64
	var rec func(l int, acc float64)
	rec = func(l int, acc float64) {
		if l == nLeft {
			best = math.Max(best, acc)
			return
		}
		rec(l+1, acc) // l unmatched
		for r := 0; r < nRight; r++ {
			if !used[r] {
				used[r] = true
				rec(l+1, acc+w[l][r])
				used[r] = false
			}
		}
	}
	rec(0, 0)
	return best
}

// randomGraph returns a seeded random bipartite graph: density in (0, 1] is
// the probability of each edge; weights are small integers (ties on purpose)
// or continuous values.
func randomGraph(rng *rand.Rand, nLeft, nRight int, density float64, integer bool) []Edge {
	var edges []Edge
	for l := 0; l < nLeft; l++ {
		for r := 0; r < nRight; r++ {
			if rng.Float64() >= density {
				continue
			}
			w := rng.Float64() * 10
			if integer {
				w = float64(rng.IntN(4))
			}
			edges = append(edges, Edge{Left: int32(l), Right: int32(r), Weight: w})
		}
	}
	rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	if len(edges) > 0 && rng.IntN(3) == 0 { // a parallel edge now and then
		e := edges[rng.IntN(len(edges))]
		e.Weight = rng.Float64() * 10
		edges = append(edges, e)
	}
	return edges
}

// checkMatching asserts that match is a matching over existing edges whose
// weight is total.
func checkMatching(t testing.TB, nLeft, nRight int, edges []Edge, total float64, match []int32) {
	t.Helper()
	require.Len(t, match, nLeft)
	best := map[[2]int32]float64{}
	for _, e := range edges {
		k := [2]int32{e.Left, e.Right}
		best[k] = math.Max(best[k], e.Weight)
	}
	seen := make([]bool, nRight)
	sum := 0.0
	for l, r := range match {
		if r < 0 {
			continue
		}
		require.Less(t, int(r), nRight)
		require.False(t, seen[r], "right vertex %d matched twice", r)
		seen[r] = true
		w, ok := best[[2]int32{int32(l), r}]
		require.True(t, ok, "left %d matched to %d without an edge", l, r)
		sum += w
	}
	require.InDelta(t, total, sum, 1e-9)
}

func TestMaxWeightTable(t *testing.T) {
	tests := []struct {
		name          string
		nLeft, nRight int
		edges         []Edge
		want          float64
	}{
		{"empty", 0, 0, nil, 0},
		{"no edges", 3, 2, nil, 0},
		{"one edge", 1, 1, []Edge{{0, 0, 2.5}}, 2.5},
		{"star keeps heaviest", 1, 3, []Edge{{0, 0, 1}, {0, 1, 3}, {0, 2, 2}}, 3},
		{"greedy is wrong", 2, 2, []Edge{{0, 0, 10}, {0, 1, 9}, {1, 0, 9}}, 18},
		{"leave a row unmatched", 2, 1, []Edge{{0, 0, 1}, {1, 0, 5}}, 5},
		{"parallel edges keep heaviest", 1, 1, []Edge{{0, 0, 1}, {0, 0, 4}, {0, 0, 2}}, 4},
		{"zero weights", 2, 2, []Edge{{0, 0, 0}, {1, 1, 0}}, 0},
		{"free column behind a taken one", 2, 2, []Edge{{0, 0, 1}, {1, 0, 10}, {1, 1, 10}}, 11},
		{"chain", 3, 3, []Edge{{0, 0, 2}, {0, 1, 2}, {1, 1, 2}, {1, 2, 2}, {2, 2, 2}}, 6},
		// Seed 001 §4: K1={a,b,c}, K2={d,e,f,g}; R1={a,b}, R2={c,d}, R3={f,g,h,i}
		// under φ3: the alignment K1-R1, K2-R3 gives 2+2.
		{"seed 001 ceafm", 2, 3, []Edge{{0, 0, 2}, {0, 1, 1}, {1, 1, 1}, {1, 2, 2}}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			total, match, err := MaxWeight(tc.nLeft, tc.nRight, tc.edges)
			require.NoError(t, err)
			assert.InDelta(t, tc.want, total, 1e-12)
			assert.InDelta(t, bruteForce(tc.nLeft, tc.nRight, tc.edges), total, 1e-12)
			checkMatching(t, tc.nLeft, tc.nRight, tc.edges, total, match)
		})
	}
}

func TestMaxWeightInvalid(t *testing.T) {
	tests := []struct {
		name          string
		nLeft, nRight int
		edges         []Edge
	}{
		{"negative count", -1, 2, nil},
		{"left out of range", 1, 1, []Edge{{1, 0, 1}}},
		{"right out of range", 1, 1, []Edge{{0, 1, 1}}},
		{"negative vertex", 1, 1, []Edge{{-1, 0, 1}}},
		{"negative weight", 1, 1, []Edge{{0, 0, -1}}},
		{"NaN weight", 1, 1, []Edge{{0, 0, math.NaN()}}},
		{"infinite weight", 1, 1, []Edge{{0, 0, math.Inf(1)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := MaxWeight(tc.nLeft, tc.nRight, tc.edges)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrInvalidGraph))
		})
	}
}

// TestMaxWeightBruteForce compares optimal totals with brute force over all
// permutations, for every shape up to 7 × 7, on sparse and dense graphs with
// integer (tied) and continuous weights.
func TestMaxWeightBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for nLeft := 0; nLeft <= 7; nLeft++ {
		for nRight := 0; nRight <= 7; nRight++ {
			for _, density := range []float64{0.2, 0.5, 1} {
				for _, integer := range []bool{true, false} {
					for trial := 0; trial < 6; trial++ {
						edges := randomGraph(rng, nLeft, nRight, density, integer)
						name := fmt.Sprintf("%dx%d/d=%v/int=%v/%d", nLeft, nRight, density, integer, trial)
						total, match, err := MaxWeight(nLeft, nRight, edges)
						require.NoError(t, err, name)
						require.InDelta(t, bruteForce(nLeft, nRight, edges), total, 1e-9, name)
						checkMatching(t, nLeft, nRight, edges, total, match)
					}
				}
			}
		}
	}
}

// TestDenseBruteForce checks the dense Kuhn-Munkres solver the same way.
func TestDenseBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for rows := 0; rows <= 6; rows++ {
		for cols := rows; cols <= 7; cols++ {
			for trial := 0; trial < 10; trial++ {
				edges := randomGraph(rng, rows, cols, 0.6, trial%2 == 0)
				w := make([]float64, rows*cols)
				for _, e := range edges {
					w[int(e.Left)*cols+int(e.Right)] = math.Max(w[int(e.Left)*cols+int(e.Right)], e.Weight)
				}
				rowTo, err := Dense(rows, cols, w)
				require.NoError(t, err)
				sum := 0.0
				seen := map[int]bool{}
				for i, j := range rowTo {
					require.GreaterOrEqual(t, j, 0)
					require.False(t, seen[j])
					seen[j] = true
					sum += w[i*cols+j]
				}
				require.InDelta(t, bruteForce(rows, cols, edges), sum, 1e-9)
			}
		}
	}
	_, err := Dense(3, 2, make([]float64, 6))
	require.ErrorIs(t, err, ErrInvalidGraph)
}

// TestMaxWeightLargeAgainstDense compares the sparse solver with the dense
// one on medium graphs that brute force cannot reach, including a few giant
// components with heavy ties.
func TestMaxWeightLargeAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 60; trial++ {
		nLeft, nRight := 1+rng.IntN(60), 1+rng.IntN(60)
		density := []float64{0.02, 0.05, 0.2, 1}[trial%4]
		edges := randomGraph(rng, nLeft, nRight, density, trial%3 == 0)
		total, match, err := MaxWeight(nLeft, nRight, edges)
		require.NoError(t, err)
		checkMatching(t, nLeft, nRight, edges, total, match)
		require.InDelta(t, denseTotal(nLeft, nRight, edges), total, 1e-9, "trial %d", trial)
	}
}

// denseTotal solves the whole graph as one dense block with Dense.
func denseTotal(nLeft, nRight int, edges []Edge) float64 {
	rows, cols, tr := nLeft, nRight, false
	if rows > cols {
		rows, cols, tr = cols, rows, true
	}
	w := make([]float64, rows*cols)
	for _, e := range edges {
		i, j := int(e.Left), int(e.Right)
		if tr {
			i, j = j, i
		}
		w[i*cols+j] = math.Max(w[i*cols+j], e.Weight)
	}
	rowTo, _ := Dense(rows, cols, w)
	sum := 0.0
	for i, j := range rowTo {
		sum += w[i*cols+j]
	}
	return sum
}

// FuzzMaxWeight decodes a graph of at most 7 × 7 vertices from bytes and
// compares the optimal total with brute force.
func FuzzMaxWeight(f *testing.F) {
	f.Add([]byte{2, 2, 0, 0, 10, 0, 1, 9, 1, 0, 9})
	f.Add([]byte{3, 3, 0, 0, 2, 0, 1, 2, 1, 1, 2, 1, 2, 2, 2, 2, 2})
	f.Add([]byte{7, 7, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 6, 6, 200})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		nLeft, nRight := int(data[0]%8), int(data[1]%8)
		var edges []Edge
		for p := 2; p+2 < len(data) && nLeft > 0 && nRight > 0; p += 3 {
			edges = append(edges, Edge{
				Left:   int32(int(data[p]) % nLeft),
				Right:  int32(int(data[p+1]) % nRight),
				Weight: float64(data[p+2]%16) / 4, // few distinct values: many ties
			})
		}
		want := bruteForce(nLeft, nRight, edges)
		solverModes(t, func(t *testing.T) {
			total, match, err := MaxWeight(nLeft, nRight, edges)
			require.NoError(t, err)
			require.InDelta(t, want, total, 1e-9)
			checkMatching(t, nLeft, nRight, edges, total, match)
		})
	})
}

// ExampleMaxWeight aligns two key clusters with three response clusters, as
// CEAF_m does on the example of Pradhan et al. (2014, §4): the heavier
// alignment K1-R1, K2-R3 wins over pairing through R2.
func ExampleMaxWeight() {
	edges := []Edge{
		{Left: 0, Right: 0, Weight: 2}, // |K1 ∩ R1| = |{a, b}|
		{Left: 0, Right: 1, Weight: 1}, // |K1 ∩ R2| = |{c}|
		{Left: 1, Right: 1, Weight: 1}, // |K2 ∩ R2| = |{d}|
		{Left: 1, Right: 2, Weight: 2}, // |K2 ∩ R3| = |{f, g}|
	}
	total, match, err := MaxWeight(2, 3, edges)
	if err != nil {
		panic(err)
	}
	fmt.Println(total, match)
	// Output: 4 [0 2]
}

// TestMaxWeightScatteredAgainstDense builds the overlap graph of a key whose
// clusters of five are scattered over random response clusters (a random
// system), where ties abound and the tight-subgraph matching does most of
// the work, and of the same graph with a few heavier cells; totals must
// equal the dense solver's.
func TestMaxWeightScatteredAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 20; trial++ {
		n := 40 + rng.IntN(160) // clusters per side
		count := map[[2]int32]float64{}
		for m := 0; m < 5*n; m++ {
			count[[2]int32{int32(m / 5), int32(rng.IntN(n))}]++
		}
		keys := make([][2]int32, 0, len(count))
		for k := range count {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
		var edges []Edge
		for _, k := range keys { // in a fixed order, so that runs repeat
			c := count[k]
			if trial%2 == 1 && rng.IntN(10) == 0 {
				c += 0.5
			}
			edges = append(edges, Edge{Left: k[0], Right: k[1], Weight: c})
		}
		total, match, err := MaxWeight(n, n, edges)
		require.NoError(t, err)
		checkMatching(t, n, n, edges, total, match)
		require.InDelta(t, denseTotal(n, n, edges), total, 1e-9, "trial %d", trial)
	}
}

// FuzzMaxWeightDense decodes larger graphs (up to 40 × 40, few distinct
// weights, so ties and the tight-subgraph phase matter) and compares the
// total with the dense Kuhn-Munkres solver.
func FuzzMaxWeightDense(f *testing.F) {
	f.Add([]byte{30, 30, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{39, 5, 0, 0, 1, 0, 1, 1, 1, 0, 1, 2, 2, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		nLeft, nRight := 1+int(data[0]%40), 1+int(data[1]%40)
		var edges []Edge
		for p := 2; p+2 < len(data); p += 3 {
			edges = append(edges, Edge{
				Left:   int32(int(data[p]) % nLeft),
				Right:  int32(int(data[p+1]) % nRight),
				Weight: float64(data[p+2]%5) / 2,
			})
		}
		want := denseTotal(nLeft, nRight, edges)
		solverModes(t, func(t *testing.T) {
			total, match, err := MaxWeight(nLeft, nRight, edges)
			require.NoError(t, err)
			checkMatching(t, nLeft, nRight, edges, total, match)
			require.InDelta(t, want, total, 1e-9)
		})
	})
}

// solverOnly runs the sparse solver without MaxWeight's shortcut for graphs
// that are already matchings.
func solverOnly(nLeft, nRight int, edges []Edge) (float64, []int32) {
	s := newSparseSolver(nLeft, nRight, edges)
	if !s.solve() {
		panic("stopped without a stop hook")
	}
	total := 0.0
	for _, w := range s.matchW {
		total += w
	}
	return total, s.rowCol
}

// TestDisjointEdges checks MaxWeight's shortcut for graphs whose edges share
// no right vertex: it answers exactly when the positive edges come in
// non-decreasing left order with distinct right vertices (stars around left
// vertices, a matching among them), and then gives the
// solver's total bit for bit and the solver's assignment. Right vertices
// beyond 256 exercise the heap-allocated bitset.
func TestDisjointEdges(t *testing.T) {
	tests := []struct {
		name          string
		nLeft, nRight int
		edges         []Edge
		ok            bool
	}{
		{"empty", 0, 0, nil, true},
		{"no edges", 3, 2, nil, true},
		{"one edge", 1, 1, []Edge{{0, 0, 2}}, true},
		{"two disjoint", 2, 2, []Edge{{0, 1, 0.1}, {1, 0, 0.7}}, true},
		{"skips a left vertex", 3, 3, []Edge{{0, 2, 1}, {2, 0, 3}}, true},
		{"zero weight shares a vertex", 2, 2, []Edge{{0, 0, 1}, {0, 1, 0}, {1, 0, 0}}, true},
		{"left degree two", 1, 2, []Edge{{0, 0, 1}, {0, 1, 2}}, true},
		{"star tie takes the first", 1, 3, []Edge{{0, 2, 1}, {0, 0, 2}, {0, 1, 2}}, true},
		{"stars split a key", 3, 6, []Edge{{0, 1, 0.6}, {0, 0, 0.4}, {1, 3, 0.4}, {1, 2, 0.6}, {2, 5, 0.5}, {2, 4, 0.5}}, true},
		{"zero weight inside a star", 2, 3, []Edge{{0, 0, 1}, {1, 0, 0}, {0, 1, 3}, {1, 2, 1}}, true},
		{"star run interrupted", 2, 3, []Edge{{0, 0, 1}, {1, 1, 1}, {0, 2, 2}}, false},
		{"right degree two", 2, 1, []Edge{{0, 0, 1}, {1, 0, 2}}, false},
		{"parallel edges", 1, 1, []Edge{{0, 0, 1}, {0, 0, 2}}, false},
		{"left order decreasing", 2, 2, []Edge{{1, 1, 1}, {0, 0, 2}}, false},
		{"right beyond 256", 2, 1000, []Edge{{0, 999, 1.5}, {1, 300, 2.5}}, true},
		{"right beyond 256 shared", 2, 1000, []Edge{{0, 999, 1.5}, {1, 999, 2.5}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			total, rowCol, ok := disjointEdges(tc.nLeft, tc.nRight, tc.edges, true)
			require.Equal(t, tc.ok, ok)
			wantTotal, wantRowCol := solverOnly(tc.nLeft, tc.nRight, tc.edges)
			gotTotal, gotRowCol, err := MaxWeight(tc.nLeft, tc.nRight, tc.edges)
			require.NoError(t, err)
			assert.Equal(t, math.Float64bits(wantTotal), math.Float64bits(gotTotal), "total %v, solver %v", gotTotal, wantTotal)
			assert.Equal(t, wantRowCol, gotRowCol)
			if ok {
				assert.Equal(t, math.Float64bits(wantTotal), math.Float64bits(total))
				assert.Equal(t, wantRowCol, rowCol)
			}
		})
	}
	// Random matchings with continuous weights, whose float sums depend on
	// order: the shortcut must add in the solver's order.
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := 0; trial < 200; trial++ {
		nLeft, nRight := 1+rng.IntN(40), 1+rng.IntN(400)
		perm := rng.Perm(nRight)
		var edges []Edge
		for l := 0; l < nLeft && l < nRight; l++ {
			if rng.IntN(4) > 0 {
				edges = append(edges, Edge{Left: int32(l), Right: int32(perm[l]), Weight: rng.Float64() * 10})
			}
		}
		total, rowCol, ok := disjointEdges(nLeft, nRight, edges, true)
		require.True(t, ok)
		wantTotal, wantRowCol := solverOnly(nLeft, nRight, edges)
		require.Equal(t, math.Float64bits(wantTotal), math.Float64bits(total), "trial %d", trial)
		require.Equal(t, wantRowCol, rowCol, "trial %d", trial)
	}
}

// TestDisjointEdgesStars: on random star forests (each left vertex's edges
// in one run, every right vertex in one edge), with weights from a few
// values so that a star's heaviest edge is often tied, and zero-weight
// edges between them, the shortcut answers and gives the solver's total bit
// for bit and the solver's choice among tied edges.
func TestDisjointEdgesStars(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 4))
	weights := []float64{0, 0.2, 1.0 / 3, 0.5, 0.5, 1}
	for trial := 0; trial < 500; trial++ {
		nLeft, nRight := 1+rng.IntN(30), 1+rng.IntN(300)
		perm := rng.Perm(nRight)
		var edges []Edge
		next := 0
		for l := 0; l < nLeft && next < nRight; l++ {
			for k := rng.IntN(5); k > 0 && next < nRight; k-- {
				edges = append(edges, Edge{Left: int32(l), Right: int32(perm[next]), Weight: weights[rng.IntN(len(weights))]})
				next++
			}
		}
		if rng.IntN(8) == 0 && len(edges) > 0 { // a zero-weight edge on a taken right vertex
			e := edges[rng.IntN(len(edges))]
			edges = append(edges, Edge{Left: int32(nLeft - 1), Right: e.Right, Weight: 0})
		}
		total, rowCol, ok := disjointEdges(nLeft, nRight, edges, true)
		require.True(t, ok, "trial %d", trial)
		wantTotal, wantRowCol := solverOnly(nLeft, nRight, edges)
		require.Equal(t, math.Float64bits(wantTotal), math.Float64bits(total), "trial %d", trial)
		require.Equal(t, wantRowCol, rowCol, "trial %d", trial)
		totalOnly, err := MaxWeightTotalPoll(nLeft, nRight, edges, nil)
		require.NoError(t, err)
		require.Equal(t, math.Float64bits(wantTotal), math.Float64bits(totalOnly), "trial %d", trial)
	}
}

// TestMaxWeightPoll: a stop function that reports true makes the solver give
// up with ErrStopped; one that reports false changes nothing.
func TestMaxWeightPoll(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 10))
	const n = 400
	var edges []Edge
	for l := 0; l < n; l++ {
		for k := 0; k < 30; k++ {
			edges = append(edges, Edge{Left: int32(l), Right: int32(rng.IntN(n)), Weight: rng.Float64()})
		}
	}
	want, _, err := MaxWeight(n, n, edges)
	require.NoError(t, err)
	calls := 0
	got, _, err := MaxWeightPoll(n, n, edges, func() bool { calls++; return false })
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Positive(t, calls, "polled")
	_, _, err = MaxWeightPoll(n, n, edges, func() bool { return true })
	assert.ErrorIs(t, err, ErrStopped)
}
