// Package assign solves the maximum-weight one-to-one assignment problem on
// bipartite graphs, the alignment step of CEAF and of DA.
//
// The graphs that coreference scoring produces are sparse: a key cluster only
// ever pairs with response clusters it overlaps. MaxWeight therefore splits
// the graph into connected components and solves each on its own, with
// Kuhn-Munkres (shortest augmenting paths with potentials) on a small dense
// block. Unmatched vertices and vertices with no edge contribute nothing, so
// a document's whole |K| × |R| matrix is never built.
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
// given edges, all of non-negative weight, and the matched right vertex of
// each left vertex (-1 when unmatched). Parallel edges keep the heaviest.
//
//	max Σ_(l,r)∈M w(l, r)   over matchings M
//
// Cost: near-linear for the split, then O(a² b) for a component with a left
// and b right vertices (a ≤ b after transposition). The total is summed in
// order of left vertex, so it does not depend on the order of edges.
func MaxWeight(nLeft, nRight int, edges []Edge) (float64, []int32, error) {
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
	match := make([]int32, nLeft)
	for i := range match {
		match[i] = -1
	}
	for _, comp := range components(nLeft, nRight, edges) {
		solveComponent(comp, edges, match)
	}
	weight := bestWeights(nLeft, edges, match)
	total := 0.0
	for l := range match {
		total += weight[l]
	}
	return total, match, nil
}

// component is one connected component: its vertices and the indices of its
// edges.
type component struct {
	left, right []int32
	edges       []int32
}

// components splits the graph with a union-find over left and right vertices
// (right vertex r is node nLeft + r). Only vertices with an edge appear.
func components(nLeft, nRight int, edges []Edge) []component {
	parent := make([]int32, nLeft+nRight)
	for i := range parent {
		parent[i] = int32(i)
	}
	var find func(int32) int32
	find = func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, e := range edges {
		a, b := find(e.Left), find(int32(nLeft)+e.Right)
		if a != b {
			parent[a] = b
		}
	}
	slot := make(map[int32]int, 16)
	var comps []component
	get := func(root int32) *component {
		s, ok := slot[root]
		if !ok {
			s = len(comps)
			slot[root] = s
			comps = append(comps, component{})
		}
		return &comps[s]
	}
	seen := make([]bool, nLeft+nRight)
	for i, e := range edges {
		c := get(find(e.Left))
		c.edges = append(c.edges, int32(i))
		if !seen[e.Left] {
			seen[e.Left] = true
			c.left = append(c.left, e.Left)
		}
		if r := int32(nLeft) + e.Right; !seen[r] {
			seen[r] = true
			c.right = append(c.right, e.Right)
		}
	}
	return comps
}

// solveComponent fills match for the left vertices of one component.
func solveComponent(c component, edges []Edge, match []int32) {
	if len(c.left) == 1 || len(c.right) == 1 {
		solveStar(c, edges, match)
		return
	}
	rows, cols := len(c.left), len(c.right)
	transposed := rows > cols
	if transposed {
		rows, cols = cols, rows
	}
	local := make(map[int32]int32, len(c.left)+len(c.right))
	for i, l := range c.left {
		local[l] = int32(i)
	}
	for j, r := range c.right {
		local[^r] = int32(j) // right vertices keyed by bitwise complement
	}
	w := make([]float64, rows*cols)
	for _, ei := range c.edges {
		e := edges[ei]
		i, j := local[e.Left], local[^e.Right]
		if transposed {
			i, j = j, i
		}
		if cell := &w[int(i)*cols+int(j)]; e.Weight > *cell {
			*cell = e.Weight
		}
	}
	rowTo, _ := Dense(rows, cols, w) // rows <= cols by construction
	for i, j := range rowTo {
		if j < 0 || w[i*cols+j] == 0 {
			continue
		}
		if transposed {
			match[c.left[j]] = c.right[i]
		} else {
			match[c.left[i]] = c.right[j]
		}
	}
}

// solveStar handles a component with one vertex on a side: only one of its
// edges can be matched, so the heaviest wins (the first of equals).
func solveStar(c component, edges []Edge, match []int32) {
	best := c.edges[0]
	for _, ei := range c.edges[1:] {
		if edges[ei].Weight > edges[best].Weight {
			best = ei
		}
	}
	match[edges[best].Left] = edges[best].Right
}

// bestWeights returns, per left vertex, the weight of its matched edge (the
// heaviest of parallel edges), or 0.
func bestWeights(nLeft int, edges []Edge, match []int32) []float64 {
	weight := make([]float64, nLeft)
	for _, e := range edges {
		if match[e.Left] == e.Right && e.Weight > weight[e.Left] {
			weight[e.Left] = e.Weight
		}
	}
	return weight
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
