package assign

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// solverModes runs check with the solver as configured (the auction warm
// start before any search on a component with many free vertices, else only
// once the shortest-path searches grow long), with the auction forced after
// the first search of every graph, and with the auction before any search
// on every component with a free vertex and in float64 throughout.
func solverModes(t *testing.T, check func(t *testing.T)) {
	t.Helper()
	allowance, steps, minFree, coarse := auctionAllowance, auctionSearchSteps, auctionMinFree, auctionCoarseRange
	defer func() {
		auctionAllowance, auctionSearchSteps, auctionMinFree, auctionCoarseRange = allowance, steps, minFree, coarse
	}()
	check(t)
	auctionAllowance, auctionSearchSteps, auctionMinFree = 0, 0, math.MaxInt
	check(t)
	auctionAllowance, auctionSearchSteps, auctionMinFree = allowance, steps, 1
	auctionCoarseRange = [2]float64{1, 0} // empty: no float32 phase
	check(t)
}

// strictTotal asserts that total is, bit for bit, the sum of the weights of
// the matched pairs added in order of left vertex (parallel edges count with
// their heaviest weight).
func strictTotal(t *testing.T, edges []Edge, total float64, match []int32) {
	t.Helper()
	best := map[[2]int32]float64{}
	for _, e := range edges {
		k := [2]int32{e.Left, e.Right}
		best[k] = math.Max(best[k], e.Weight)
	}
	sum := 0.0
	for l, r := range match {
		if r >= 0 {
			sum += best[[2]int32{int32(l), r}]
		}
	}
	require.Equal(t, math.Float64bits(sum), math.Float64bits(total), "total %v, sum of pairs %v", total, sum)
}

// smallGraph returns a seeded random graph of one of several shapes: empty
// sides, zero-weight edges, ties (few distinct weights), continuous weights,
// φ4-like rationals 2n/(a+b), and several disconnected blocks.
func smallGraph(rng *rand.Rand) (nLeft, nRight int, edges []Edge) {
	nLeft, nRight = rng.IntN(8), rng.IntN(8)
	blocks := 1 + rng.IntN(3)
	weight := func() float64 {
		switch rng.IntN(5) {
		case 0:
			return 0
		case 1:
			return float64(rng.IntN(3)) // heavy ties
		case 2:
			return rng.Float64() * 10
		case 3:
			return 2 * float64(1+rng.IntN(3)) / float64(2+rng.IntN(9))
		}
		return float64(rng.IntN(5)) / 4
	}
	// Vertices are dealt to blocks round-robin; edges stay within a block.
	for l := 0; l < nLeft; l++ {
		for r := 0; r < nRight; r++ {
			if l%blocks == r%blocks && rng.IntN(3) > 0 {
				edges = append(edges, Edge{Left: int32(l), Right: int32(r), Weight: weight()})
			}
		}
	}
	rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	return nLeft, nRight, edges
}

// TestMaxWeightTenThousandSmall checks 10,000 seeded small graphs against
// brute force, in both solver modes, with a bit-exact total.
func TestMaxWeightTenThousandSmall(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	for trial := 0; trial < 10_000; trial++ {
		nLeft, nRight, edges := smallGraph(rng)
		want := bruteForce(nLeft, nRight, edges)
		solverModes(t, func(t *testing.T) {
			total, match, err := MaxWeight(nLeft, nRight, edges)
			require.NoError(t, err)
			require.InDelta(t, want, total, 1e-9, "trial %d: %d x %d %v", trial, nLeft, nRight, edges)
			checkMatching(t, nLeft, nRight, edges, total, match)
			strictTotal(t, edges, total, match)
		})
	}
}

// TestMaxWeightRandomPartitionAgainstDense compares the solver with the
// dense Kuhn-Munkres solver on the CEAF graphs of two random partitions,
// φ4 and φ3 weights, where the auction warm start does the work.
func TestMaxWeightRandomPartitionAgainstDense(t *testing.T) {
	for _, size := range [][2]int{{300, 30}, {2000, 200}, {3000, 150}} {
		for _, entity := range []bool{true, false} {
			t.Run(fmt.Sprintf("n=%d/k=%d/entity=%v", size[0], size[1], entity), func(t *testing.T) {
				edges := randomPartitionEdges(size[0], size[1], 3, entity)
				want := denseTotal(size[1], size[1], edges)
				solverModes(t, func(t *testing.T) {
					total, match, err := MaxWeight(size[1], size[1], edges)
					require.NoError(t, err)
					checkMatching(t, size[1], size[1], edges, total, match)
					strictTotal(t, edges, total, match)
					require.InDelta(t, want, total, 1e-9)
				})
			})
		}
	}
}

// TestMaxWeightNearTies feeds the auction weights whose optimal matchings
// differ by far less than its last ε (as DA's tie-breaking bonus does), so
// that the repair has to free vertices and the shortest-path phase decides.
func TestMaxWeightNearTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 200; trial++ {
		n := 5 + rng.IntN(40)
		var edges []Edge
		for l := 0; l < n; l++ {
			for r := 0; r < n; r++ {
				if rng.IntN(4) == 0 {
					w := 1 + 1e-13*float64(rng.IntN(100)) + float64(rng.IntN(2))
					edges = append(edges, Edge{Left: int32(l), Right: int32(r), Weight: w})
				}
			}
		}
		want := denseTotal(n, n, edges)
		solverModes(t, func(t *testing.T) {
			total, match, err := MaxWeight(n, n, edges)
			require.NoError(t, err)
			checkMatching(t, n, n, edges, total, match)
			require.InDelta(t, want, total, 1e-9, "trial %d", trial)
		})
	}
}

// TestMaxWeightPollStops checks the stop hook: a hook that says stop ends
// the solver with ErrStopped (after it has been asked at least once), a
// hook that never does leaves the result as MaxWeight's.
func TestMaxWeightPollStops(t *testing.T) {
	edges := randomPartitionEdges(20_000, 2_000, 5, true)
	want, wantMatch, err := MaxWeight(2_000, 2_000, edges)
	require.NoError(t, err)

	calls := 0
	_, _, err = MaxWeightPoll(2_000, 2_000, edges, func() bool { calls++; return calls >= 3 })
	require.ErrorIs(t, err, ErrStopped)
	assert.Equal(t, 3, calls)

	got, gotMatch, err := MaxWeightPoll(2_000, 2_000, edges, func() bool { return false })
	require.NoError(t, err)
	assert.Equal(t, math.Float64bits(want), math.Float64bits(got))
	assert.Equal(t, wantMatch, gotMatch)
}
