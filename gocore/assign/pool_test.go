package assign

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/pkg/errors"
	"github.com/stretchr/testify/require"
)

// pooledCase is one graph of TestPooledSolverMatchesFresh with the answer
// of a fresh solver.
type pooledCase struct {
	nLeft, nRight int
	edges         []Edge
	total         float64
	rowCol        []int32
}

// pooledCases returns seeded graphs of varied sizes, in an order that makes
// a pooled solver go from large arrays to small ones and back (tiny, up to
// a few hundred vertices, and beyond the pool's limits), each with the
// total and assignment of a fresh solver (in the solver mode of the call:
// the modes may break ties apart).
func pooledCases(seed uint64, n int) []pooledCase {
	rng := rand.New(rand.NewPCG(seed, 16))
	cases := make([]pooledCase, 0, n)
	for i := 0; i < n; i++ {
		var nLeft, nRight int
		density := 0.05 + 0.5*rng.Float64()
		switch i % 5 {
		case 0, 1:
			nLeft, nRight = rng.IntN(12), rng.IntN(12)
		case 2:
			nLeft, nRight = 20+rng.IntN(200), 20+rng.IntN(200)
			density = 3 / float64(nRight)
		case 3:
			nLeft, nRight = rng.IntN(40), rng.IntN(40)
		default:
			if i%40 == 4 { // beyond poolMaxVertices: a fresh solver
				nLeft, nRight = poolMaxVertices/2+rng.IntN(200), poolMaxVertices/2+rng.IntN(200)
				density = 2 / float64(nRight)
			} else {
				nLeft, nRight = 1+rng.IntN(5), 100+rng.IntN(900)
				density = 0.3
			}
		}
		edges := randomGraph(rng, nLeft, nRight, density, rng.IntN(2) == 0)
		total, rowCol := solverOnly(nLeft, nRight, edges)
		cases = append(cases, pooledCase{nLeft, nRight, edges, total, rowCol})
	}
	return cases
}

// checkPooled asserts that MaxWeight, MaxWeightPoll and MaxWeightTotalPoll
// give a fresh solver's total bit for bit, and its assignment.
func checkPooled(t testing.TB, c pooledCase, i int) {
	total, rowCol, err := MaxWeight(c.nLeft, c.nRight, c.edges)
	require.NoError(t, err)
	require.Equal(t, math.Float64bits(c.total), math.Float64bits(total), "case %d: total %v, fresh %v", i, total, c.total)
	require.Equal(t, c.rowCol, rowCol, "case %d", i)
	got, err := MaxWeightTotalPoll(c.nLeft, c.nRight, c.edges, func() bool { return false })
	require.NoError(t, err)
	require.Equal(t, math.Float64bits(c.total), math.Float64bits(got), "case %d: total only %v, fresh %v", i, got, c.total)
}

// TestPooledSolverMatchesFresh checks that solving on a reused (pooled)
// solver, whatever it solved before, gives what a fresh solver gives: the
// same total bit for bit and the same assignment, in every solver mode. An
// assignment returned earlier is not changed by later solves.
func TestPooledSolverMatchesFresh(t *testing.T) {
	solverModes(t, func(t *testing.T) {
		cases := pooledCases(1, 300)
		var kept [][]int32
		for i, c := range cases {
			checkPooled(t, c, i)
			_, rowCol, err := MaxWeight(c.nLeft, c.nRight, c.edges)
			require.NoError(t, err)
			kept = append(kept, rowCol)
		}
		for i, c := range cases {
			require.Equal(t, c.rowCol, kept[i], "case %d changed after later solves", i)
		}
	})
}

// TestPooledSolverConcurrent solves the same graphs on several goroutines
// at once, each in its own order, so that pooled solvers pass between
// goroutines; run it with -race.
func TestPooledSolverConcurrent(t *testing.T) {
	cases := pooledCases(2, 200)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			for _, i := range rng.Perm(len(cases)) {
				c := cases[i]
				total, err := MaxWeightTotalPoll(c.nLeft, c.nRight, c.edges, nil)
				if err == nil && math.Float64bits(total) != math.Float64bits(c.total) {
					err = errors.Errorf("case %d: total %v, fresh %v", i, total, c.total)
				}
				if err == nil {
					var rowCol []int32
					total, rowCol, err = MaxWeight(c.nLeft, c.nRight, c.edges)
					if err == nil && (math.Float64bits(total) != math.Float64bits(c.total) || !slices.Equal(rowCol, c.rowCol)) {
						err = errors.Errorf("case %d: MaxWeight differs from a fresh solver", i)
					}
				}
				if err != nil {
					errs[g] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}
