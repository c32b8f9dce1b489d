// Package assign solves the maximum-weight one-to-one assignment problem on
// bipartite graphs, the alignment step of CEAF and of DA.
//
// The graphs that coreference scoring produces are sparse: a key cluster only
// ever pairs with response clusters it overlaps, so a document's whole
// |K| × |R| matrix is never built. MaxWeight works on the edge list, and
// every step is exact or certified by an exact one:
//
//  1. A greedy start (each left vertex takes a heaviest neighbour that is
//     still free) and Hopcroft-Karp phases on the tight edges (each left
//     vertex's heaviest ones) settle most vertices of real documents, and
//     every component in which no left vertex is left free is then solved.
//  2. The components that still hold many free left vertices (1000 or
//     more: a response that partitions the mentions at random makes one
//     giant component with distinct weights), and, once the searches of
//     step 3 grow long, all that hold one, get a warm start from an
//     ε-scaling auction (Bertsekas): forward bids from unassigned left
//     vertices, reverse bids from free right vertices left with a price, ε
//     divided by 8 per phase down to 1e-11 of the largest weight, the
//     phases down to 2^-17 of it in float32 (half the memory traffic). On
//     these graphs its work grows about linearly with the number of edges
//     (a few dozen bids per vertex).
//     A repair then lowers prices until every matched left vertex holds a
//     best column exactly (label-correcting; where it would loop, a vertex is
//     freed instead), so the state meets the exact invariants of step 3.
//  3. Every left vertex still free is placed by one shortest augmenting path
//     (Dijkstra over reduced costs with column potentials, the sparse form of
//     Kuhn-Munkres). A search never leaves the component of its start vertex
//     and stops at the first free column, so after a good warm start it is
//     short; at the end the linear program's dual is feasible and
//     complementary slackness holds, which certifies the optimum.
//
// Worst case: O(V · E log E) for step 3 on adversarial weights (the auction
// then only shortens it); near-linear on coreference graphs, random
// partitions included. Dense is the classic O(n³) Kuhn-Munkres on a small
// dense block, kept as a second, independent solver for tests.
package assign

import (
	"math"

	"github.com/pkg/errors"
)

// Edge is a weighted edge between left vertex Left and right vertex Right.
type Edge struct {
	Left, Right int32
	Weight      float64
}

// ErrInvalidGraph is returned for an edge that names a vertex out of range or
// carries a negative, infinite or NaN weight.
var ErrInvalidGraph = errors.New("assign: invalid graph")

// MaxWeight returns the maximum total weight of a matching (each vertex used
// at most once) in the bipartite graph with nLeft and nRight vertices and the
// given edges, all of non-negative finite weight, and the matched right
// vertex of each left vertex (-1 when unmatched). Parallel edges keep the
// heaviest; zero-weight edges are never matched.
//
//	max Σ_(l,r)∈M w(l, r)   over matchings M
//
// The result is exact: at the end the linear program's dual is feasible
// (reduced costs non-negative, matched edges tight, unmatched right vertices
// at potential 0). Cost: O(nLeft + nRight + E) for the greedy start,
// O(E √V) for the tight-subgraph matching, about O(E log(1/ε)) in practice
// for the auction warm start where vertices are left free, then for each
// left vertex still free a Dijkstra search over the part of its component
// that it explores, O(E' log E'); O(V · E log E) in the worst case,
// near-linear on coreference graphs. Memory: O(V + E). The total is the sum
// of the returned pairs' weights, added in order of left vertex, so it does
// not depend on the order of edges; ties between equally good matchings are
// broken deterministically (the same input gives the same matching).
func MaxWeight(nLeft, nRight int, edges []Edge) (float64, []int32, error) {
	return MaxWeightPoll(nLeft, nRight, edges, nil)
}

// ErrStopped is returned by MaxWeightPoll when its stop hook asked to stop.
var ErrStopped = errors.New("assign: stopped")

// MaxWeightPoll is MaxWeight with a cancellation hook: stop, when not nil, is
// called every few thousand units of work (bids, repairs, search steps;
// well under a millisecond apart) and from the goroutine that runs the
// solver; when it returns true the solver gives up and returns ErrStopped
// with no result. A nil stop never stops.
func MaxWeightPoll(nLeft, nRight int, edges []Edge, stop func() bool) (float64, []int32, error) {
	return maxWeight(nLeft, nRight, edges, stop, true)
}

// MaxWeightTotalPoll is MaxWeightPoll returning only the total, the same bit
// for bit. On a small graph (a few thousand vertices and edges) it
// allocates nothing: the solver's arrays are reused from call to call
// (safely from any number of goroutines).
func MaxWeightTotalPoll(nLeft, nRight int, edges []Edge, stop func() bool) (float64, error) {
	total, _, err := maxWeight(nLeft, nRight, edges, stop, false)
	return total, err
}

// maxWeight is MaxWeightPoll; the assignment is returned only when
// wantMatch.
func maxWeight(nLeft, nRight int, edges []Edge, stop func() bool, wantMatch bool) (float64, []int32, error) {
	if nLeft < 0 || nRight < 0 {
		return 0, nil, errors.Wrapf(ErrInvalidGraph, "negative vertex count (%d, %d)", nLeft, nRight)
	}
	for _, e := range edges {
		if e.Left < 0 || int(e.Left) >= nLeft || e.Right < 0 || int(e.Right) >= nRight {
			return 0, nil, errors.Wrapf(ErrInvalidGraph, "edge (%d, %d) outside %d x %d", e.Left, e.Right, nLeft, nRight)
		}
		if !(e.Weight >= 0) || math.IsInf(e.Weight, 1) {
			return 0, nil, errors.Wrapf(ErrInvalidGraph, "edge (%d, %d) has weight %v", e.Left, e.Right, e.Weight)
		}
	}
	if total, rowCol, ok := disjointEdges(nLeft, nRight, edges, wantMatch); ok {
		return total, rowCol, nil
	}
	s, pooled := acquireSolver(nLeft, nRight, len(edges))
	s.build(nLeft, nRight, edges)
	s.stop = stop
	if !s.solve() {
		if pooled {
			s.release()
		}
		return 0, nil, ErrStopped
	}
	total := 0.0
	for _, w := range s.matchW {
		total += w
	}
	var rowCol []int32
	if wantMatch {
		rowCol = s.rowCol
		if pooled { // the pooled array is reused by the next call
			rowCol = make([]int32, len(s.rowCol))
			copy(rowCol, s.rowCol)
		}
	}
	if pooled {
		s.release()
	}
	return total, rowCol, nil
}

// disjointEdges answers MaxWeight without the solver when every component
// of the graph is a star around one left vertex: its positive-weight edges
// come in non-decreasing order of left vertex (each left vertex's edges in
// one run) and no two of them share a right vertex. No two left vertices
// then compete for a right vertex, so the optimum matches each left vertex
// to a heaviest of its right vertices, and that is the matching the solver
// ends with: its greedy start takes each row's first heaviest edge (rows
// keep the edges' order, and no right vertex is taken by another row), and
// neither the tight matching nor a search has a free row left to place. The
// total is summed in order of left vertex as the solver sums it, so the
// result is bit-identical. ok is false otherwise (the caller runs the
// solver). This is the common case of a small document (a matching: one edge
// a left vertex; a response that splits each key cluster: one star a key
// cluster), and of a response equal to its key. The assignment is returned
// only when wantMatch. Cost: O(E + nRight/64), no allocation beyond the
// returned assignment when nRight ≤ 256.
func disjointEdges(nLeft, nRight int, edges []Edge, wantMatch bool) (total float64, rowCol []int32, ok bool) {
	prev := int32(-1)
	for _, e := range edges {
		if e.Weight > 0 {
			if e.Left < prev {
				return 0, nil, false
			}
			prev = e.Left
		}
	}
	var small [4]uint64
	seen := small[:]
	if words := (nRight + 63) / 64; words > len(small) {
		seen = make([]uint64, words)
	}
	for _, e := range edges {
		if e.Weight > 0 {
			word, bit := e.Right>>6, uint64(1)<<(uint(e.Right)&63)
			if seen[word]&bit != 0 {
				return 0, nil, false
			}
			seen[word] |= bit
		}
	}
	if wantMatch {
		rowCol = make([]int32, nLeft)
		for l := range rowCol {
			rowCol[l] = -1
		}
	}
	// One run of edges per left vertex: add its heaviest weight when the run
	// ends; the first edge of that weight is its match.
	run, heaviest, heaviestRight := int32(-1), 0.0, int32(-1)
	for _, e := range edges {
		if e.Weight <= 0 {
			continue
		}
		if e.Left != run {
			if run >= 0 {
				total += heaviest
				if wantMatch {
					rowCol[run] = heaviestRight
				}
			}
			run, heaviest, heaviestRight = e.Left, e.Weight, e.Right
		} else if e.Weight > heaviest {
			heaviest, heaviestRight = e.Weight, e.Right
		}
	}
	if run >= 0 {
		total += heaviest
		if wantMatch {
			rowCol[run] = heaviestRight
		}
	}
	return total, rowCol, true
}

// Dense solves a rows × cols problem with rows ≤ cols on the row-major
// weight matrix w (non-negative; 0 means no edge) and returns the column of
// each row. Every row is assigned a column; a row whose best option is a
// zero-weight column gains nothing from it. It is the O(rows² · cols)
// shortest-augmenting-path form of Kuhn-Munkres, minimising max(w) - w.
// Ties are broken towards the lowest column index, deterministically.
func Dense(rows, cols int, w []float64) ([]int, error) {
	if rows < 0 || rows > cols || len(w) != rows*cols {
		return nil, errors.Wrapf(ErrInvalidGraph, "dense problem needs 0 <= rows <= cols and rows*cols weights; got %d x %d with %d", rows, cols, len(w))
	}
	maxW := 0.0
	for _, x := range w {
		if x > maxW {
			maxW = x
		}
	}
	cost := func(i, j int) float64 { return maxW - w[i*cols+j] }
	// Potentials u (rows, 1-based) and v (cols, 1-based); p[j] is the row
	// matched to column j (0 = none), way[j] the previous column on the path.
	u := make([]float64, rows+1)
	v := make([]float64, cols+1)
	p := make([]int, cols+1)
	way := make([]int, cols+1)
	minv := make([]float64, cols+1)
	used := make([]bool, cols+1)
	for i := 1; i <= rows; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], math.Inf(1), 0
			for j := 1; j <= cols; j++ {
				if used[j] {
					continue
				}
				cur := cost(i0-1, j-1) - u[i0] - v[j]
				if cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= cols; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	rowTo := make([]int, rows)
	for i := range rowTo {
		rowTo[i] = -1
	}
	for j := 1; j <= cols; j++ {
		if p[j] > 0 {
			rowTo[p[j]-1] = j - 1
		}
	}
	return rowTo, nil
}
