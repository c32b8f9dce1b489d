package assign

import (
	"sync"

	"github.com/corefscore/corefscore/gocore/internal/pages"
)

// sparseSolver is the state of the sparse shortest-augmenting-path solver:
// the graph in compressed rows, the matching, the column potentials and the
// scratch of one Dijkstra search.
//
// It minimises cost c(l, r) = -w(l, r) over assignments in which every left
// vertex takes either a right vertex or its own private "dummy" column of
// cost 0 (staying unmatched). Duals: u per left vertex (never stored: for a
// matched left vertex u = c(l, r) - v[r] since matched edges are tight) and v
// per right vertex, with reduced costs c(l, r) - u[l] - v[r] >= 0 on every
// edge. v is 0 on unmatched right vertices and only ever decreases, on
// matched ones, so complementary slackness holds at the end.
type sparseSolver struct {
	nLeft, nRight int
	rowStart      []int32   // edges of left vertex l: adjCol/adjW[rowStart[l]:rowStart[l+1]]
	adjCol        []int32   // right vertex of each edge
	adjW          []float64 // weight of each edge, > 0

	rowCol  []int32   // matched right vertex of each left vertex; -1 free; dead when rowDead
	rowDead []bool    // the left vertex took its dummy column: unmatched for good
	matchW  []float64 // weight of the matched edge of each left vertex
	colRow  []int32   // matched left vertex of each right vertex, or -1
	v       []float64 // potential of each right vertex

	// Dijkstra scratch over nRight + nLeft columns (dummy of l is nRight+l).
	dist  []float64
	pred  []int32   // left vertex from which the column was reached
	predW []float64 // weight of that edge (0 for a dummy)
	mark  []uint32  // epoch in which dist/pred are valid
	done  []uint32  // epoch in which the column was finalized
	epoch uint32
	heap  colHeap
	seq   uint32  // push counter: among equal distances the latest push pops first
	final []int32 // matched right vertices finalized in this search

	// Auction state: the transpose (rows and weights of column r at
	// colRows/colW[colStart[r]:colStart[r+1]]) and the left vertices of the
	// components it solves.
	colStart, colRows []int32
	colW              []float64
	hard              []bool
	anyHard           bool // some left vertex is hard

	stop     func() bool // optional hook polled every pollEvery units of work
	work     uint64      // units of work since the start, for polling
	augments uint64      // searches run
	stopped  bool        // the hook asked to stop

	// Scratch of build (fill, at) and of tightMatching (rowMax, layer,
	// next, queue), kept here so that a pooled solver reuses it.
	fill, at           []int32
	rowMax             []float64
	layer, next, queue []int32
}

// grow returns buf resized to n zeroed elements, as make([]T, n) would
// return them, reusing buf's array when it is large enough.
func grow[T any](buf []T, n int) []T {
	if buf == nil || cap(buf) < n {
		return pages.Make[T](n) // read before written (marks, counts): see package pages
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// Problems with at most poolMaxVertices vertices (both sides) and
// poolMaxEdges edges are solved on a solver from solverPool, whose arrays
// (all sized by such a problem, so under 400 KiB in all, the heap of
// one search included) are reused from one call to the next: on the graphs
// of a small document the two dozen allocations of a fresh solver, and the
// garbage collection they cause, cost more than the solving. The limits
// cover the alignments of any document of up to 1024 mentions (gocore's
// small documents). Larger problems get a fresh solver, left to the garbage
// collector, so that no large array is kept alive.
const (
	poolMaxVertices = 2048
	poolMaxEdges    = 4096
)

var solverPool = sync.Pool{New: func() any { return new(sparseSolver) }}

// acquireSolver returns a solver for a problem of nLeft + nRight vertices
// and nEdges edges, from solverPool when the problem is small (pooled true:
// give it back with release once its arrays are no longer used).
func acquireSolver(nLeft, nRight, nEdges int) (s *sparseSolver, pooled bool) {
	if nLeft+nRight > poolMaxVertices || nEdges > poolMaxEdges {
		return new(sparseSolver), false
	}
	return solverPool.Get().(*sparseSolver), true
}

// release resets a pooled solver, keeping its arrays for the next problem
// (every array is resized and zeroed by grow before use, so nothing of this
// problem is seen by the next), and puts it back in solverPool. The
// auction's arrays, used only when searches grow long, are not kept.
func (s *sparseSolver) release() {
	*s = sparseSolver{
		rowStart: s.rowStart[:0], adjCol: s.adjCol[:0], adjW: s.adjW[:0],
		rowCol: s.rowCol[:0], rowDead: s.rowDead[:0], matchW: s.matchW[:0], colRow: s.colRow[:0], v: s.v[:0],
		dist: s.dist[:0], pred: s.pred[:0], predW: s.predW[:0], mark: s.mark[:0], done: s.done[:0],
		heap: colHeap{items: s.heap.items[:0]}, final: s.final[:0],
		fill: s.fill[:0], at: s.at[:0], rowMax: s.rowMax[:0], layer: s.layer[:0], next: s.next[:0], queue: s.queue[:0],
	}
	solverPool.Put(s)
}

// newSparseSolver builds the compressed rows, dropping zero-weight edges and
// keeping the heaviest of parallel edges.
func newSparseSolver(nLeft, nRight int, edges []Edge) *sparseSolver {
	s := new(sparseSolver)
	s.build(nLeft, nRight, edges)
	return s
}

// build is newSparseSolver on s, a new or released solver.
func (s *sparseSolver) build(nLeft, nRight int, edges []Edge) {
	s.nLeft, s.nRight = nLeft, nRight
	s.rowStart = grow(s.rowStart, nLeft+1)
	for _, e := range edges {
		if e.Weight > 0 {
			s.rowStart[e.Left+1]++
		}
	}
	for l := 0; l < nLeft; l++ {
		s.rowStart[l+1] += s.rowStart[l]
	}
	m := s.rowStart[nLeft]
	s.adjCol = grow(s.adjCol, int(m))
	s.adjW = grow(s.adjW, int(m))
	s.fill = grow(s.fill, nLeft)
	fill := s.fill
	copy(fill, s.rowStart[:nLeft])
	for _, e := range edges {
		if e.Weight > 0 {
			p := fill[e.Left]
			s.adjCol[p], s.adjW[p] = e.Right, e.Weight
			fill[e.Left]++
		}
	}
	s.dedup(fill)
}

// dedup merges parallel edges of each row in place, keeping the heaviest and
// the first position; fill is reused as the new row ends.
func (s *sparseSolver) dedup(end []int32) {
	s.at = grow(s.at, s.nRight)
	at := s.at // 1 + position of column in the current row, 0 = absent
	out := int32(0)
	for l := 0; l < s.nLeft; l++ {
		begin := s.rowStart[l]
		s.rowStart[l] = out
		for p := begin; p < end[l]; p++ {
			c, w := s.adjCol[p], s.adjW[p]
			if q := at[c]; q > 0 {
				if w > s.adjW[q-1] {
					s.adjW[q-1] = w
				}
				continue
			}
			s.adjCol[out], s.adjW[out] = c, w
			out++
			at[c] = out
		}
		for p := s.rowStart[l]; p < out; p++ {
			at[s.adjCol[p]] = 0
		}
	}
	s.rowStart[s.nLeft] = out
	s.adjCol, s.adjW = s.adjCol[:out], s.adjW[:out]
}

// solve computes an optimal matching. It returns false, with the matching
// unfinished, when the stop hook asked to stop.
func (s *sparseSolver) solve() bool {
	s.rowCol = grow(s.rowCol, s.nLeft)
	s.rowDead = grow(s.rowDead, s.nLeft)
	s.matchW = grow(s.matchW, s.nLeft)
	s.colRow = grow(s.colRow, s.nRight)
	s.v = grow(s.v, s.nRight)
	for j := range s.colRow {
		s.colRow[j] = -1
	}
	// Greedy start: each left vertex takes a heaviest right vertex that is
	// still free, if one of its heaviest is. With u[l] = -max_r w(l, r) and
	// v = 0 every reduced cost is non-negative and these matched edges are
	// tight.
	for l := 0; l < s.nLeft; l++ {
		s.rowCol[l] = -1
		best := int32(-1) // a heaviest edge, free when possible
		for p := s.rowStart[l]; p < s.rowStart[l+1]; p++ {
			switch {
			case best < 0 || s.adjW[p] > s.adjW[best]:
				best = p
			case s.adjW[p] == s.adjW[best] && s.colRow[s.adjCol[best]] >= 0:
				best = p
			}
		}
		if best >= 0 && s.colRow[s.adjCol[best]] < 0 {
			s.rowCol[l] = s.adjCol[best]
			s.matchW[l] = s.adjW[best]
			s.colRow[s.adjCol[best]] = int32(l)
		}
	}
	s.tightMatching()
	n := s.nRight + s.nLeft
	s.dist = grow(s.dist, n)
	s.pred = grow(s.pred, n)
	s.predW = grow(s.predW, n)
	s.mark = grow(s.mark, n)
	s.done = grow(s.done, n)
	// Shortest augmenting paths, one per free left vertex. While searches
	// stay short (real documents: a few steps each) nothing else is needed.
	// When the tight matching leaves a quarter of the left vertices free,
	// a component left with auctionMinFree free left vertices or more (a
	// random partition's giant component) gets the auction's warm start at
	// once: its searches would be long, and the warm start discards what
	// they did. (Real documents leave far fewer free, and the components
	// are not even looked at.) Otherwise, when the searches grow
	// (more than auctionSearchSteps steps per search on average beyond a
	// first allowance), the components still holding a free vertex get the
	// warm start once, and the searches resume from the first left vertex.
	warm := false
	if free := s.freeRows(); free >= auctionMinFree && 4*free >= s.nLeft {
		if !s.warmStart(auctionMinFree) {
			return false
		}
		warm = s.anyHard
	}
	var pops uint64
	for l := 0; l < s.nLeft; l++ {
		if s.rowCol[l] >= 0 || s.rowStart[l] == s.rowStart[l+1] {
			continue
		}
		before := s.work
		if !s.augment(int32(l)) {
			return false
		}
		s.augments++
		pops += s.work - before
		if !warm && pops > auctionAllowance+auctionSearchSteps*s.augments {
			warm = true
			if !s.warmStart(1) {
				return false
			}
			l = -1
		}
	}
	return true
}

// freeRows returns the number of free left vertices that have an edge.
func (s *sparseSolver) freeRows() int {
	n := 0
	for l := 0; l < s.nLeft; l++ {
		if s.rowCol[l] < 0 && s.rowStart[l] < s.rowStart[l+1] {
			n++
		}
	}
	return n
}

// tightMatching enlarges the greedy matching to a maximum matching of the
// tight subgraph, the edges (l, r) with w(l, r) = max_r' w(l, r'), by
// Hopcroft-Karp phases: a breadth-first layering from the free left vertices,
// then vertex-disjoint augmenting paths along the layers. The potentials of
// the greedy start (v = 0, u[l] = -max w(l, ·)) stay feasible and every
// matched edge stays tight, so the shortest-path phase starts from a much
// larger matching. On components where ties abound (CEAF_m counts, a
// response that scatters every key cluster) this settles almost every
// vertex in O(E √V). Cost: O(E √V).
func (s *sparseSolver) tightMatching() {
	s.rowMax = grow(s.rowMax, s.nLeft)
	rowMax := s.rowMax
	for l := 0; l < s.nLeft; l++ {
		for p := s.rowStart[l]; p < s.rowStart[l+1]; p++ {
			rowMax[l] = max(rowMax[l], s.adjW[p])
		}
	}
	s.layer = grow(s.layer, s.nLeft)
	s.next = grow(s.next, s.nLeft) // next edge to try in the depth-first search
	s.queue = grow(s.queue, s.nLeft)[:0]
	layer, next, queue := s.layer, s.next, s.queue
	for {
		// Layers from the free left vertices over tight edges.
		queue = queue[:0]
		for l := range layer {
			layer[l] = -1
			if s.rowCol[l] < 0 && s.rowStart[l] < s.rowStart[l+1] {
				layer[l] = 0
				queue = append(queue, int32(l))
			}
		}
		found := false
		for i := 0; i < len(queue); i++ {
			l := queue[i]
			for p := s.rowStart[l]; p < s.rowStart[l+1]; p++ {
				if s.adjW[p] != rowMax[l] {
					continue
				}
				r := s.colRow[s.adjCol[p]]
				if r < 0 {
					found = true
				} else if layer[r] < 0 {
					layer[r] = layer[l] + 1
					queue = append(queue, r)
				}
			}
		}
		if !found {
			return
		}
		copy(next, s.rowStart[:s.nLeft])
		grew := false
		for l := int32(0); l < int32(s.nLeft); l++ {
			if s.rowCol[l] < 0 && layer[l] == 0 && s.tightAugment(l) {
				grew = true
			}
		}
		if !grew {
			return
		}
	}
}

// tightAugment looks for a vertex-disjoint augmenting path from left vertex
// l along the layers of tightMatching's phase, over tight edges, depth
// first, trying each left vertex's edges from next[l] on; it flips the path
// and returns true when it finds one, else marks l dead for the phase.
func (s *sparseSolver) tightAugment(l int32) bool {
	layer, next := s.layer, s.next
	for ; next[l] < s.rowStart[l+1]; next[l]++ {
		p := next[l]
		if s.adjW[p] != s.rowMax[l] {
			continue
		}
		c := s.adjCol[p]
		r := s.colRow[c]
		if r < 0 || (layer[r] == layer[l]+1 && s.tightAugment(r)) {
			s.colRow[c] = l
			s.rowCol[l] = c
			s.matchW[l] = s.adjW[p]
			next[l]++
			return true
		}
	}
	layer[l] = -1 // no augmenting path through l in this phase
	return false
}

// relax offers distance d to column c, reached from left vertex l over an
// edge of weight w.
func (s *sparseSolver) relax(c int32, d float64, l int32, w float64) {
	if s.done[c] == s.epoch {
		return
	}
	if s.mark[c] != s.epoch || d < s.dist[c] {
		s.mark[c] = s.epoch
		s.dist[c], s.pred[c], s.predW[c] = d, l, w
		free := c >= int32(s.nRight) || s.colRow[c] < 0
		s.seq++
		s.heap.push(heapItem{d: d, col: c, free: free, seq: s.seq})
	}
}

// augment runs one Dijkstra search from the free left vertex start over
// reduced costs, to the nearest free column (a free right vertex or the dummy
// of a left vertex on the tree), updates the potentials of the finalized
// columns and flips the matching along the path. Cost: O(E' log E') for the
// E' edges of the explored region. It returns false, changing nothing, when
// the stop hook asked to stop.
func (s *sparseSolver) augment(start int32) bool {
	s.epoch++
	s.heap.items = s.heap.items[:0]
	s.final = s.final[:0]
	nr := int32(s.nRight)
	// First hop: the reduced cost up to the constant u[start], which does not
	// change the shortest path.
	for p := s.rowStart[start]; p < s.rowStart[start+1]; p++ {
		c, w := s.adjCol[p], s.adjW[p]
		s.relax(c, -w-s.v[c], start, w)
	}
	s.relax(nr+start, 0, start, 0)
	var sink int32
	var total float64
	for {
		if s.poll() {
			return false
		}
		it := s.heap.pop()
		c := it.col
		if s.done[c] == s.epoch || it.d != s.dist[c] {
			continue // stale entry
		}
		s.done[c] = s.epoch
		if c >= nr || s.colRow[c] < 0 {
			sink, total = c, it.d
			break
		}
		s.final = append(s.final, c)
		l := s.colRow[c]
		// -u[l] = w(l, c) + v[c]; reduced cost to r is -w(l, r) - u[l] - v[r].
		base := it.d + s.matchW[l] + s.v[c]
		for p := s.rowStart[l]; p < s.rowStart[l+1]; p++ {
			r, w := s.adjCol[p], s.adjW[p]
			rc := base - w - s.v[r]
			if rc < it.d {
				rc = it.d // rounding: reduced costs are never negative
			}
			s.relax(r, rc, l, w)
		}
		s.relax(nr+l, base, l, 0)
	}
	for _, c := range s.final {
		s.v[c] += s.dist[c] - total
	}
	// Flip the path from the sink back to start.
	c := sink
	for {
		l := s.pred[c]
		prev := s.rowCol[l]
		if c >= nr {
			s.rowCol[l] = -1
			s.rowDead[l] = true
			s.matchW[l] = 0
		} else {
			s.colRow[c] = l
			s.rowCol[l] = c
			s.matchW[l] = s.predW[c]
		}
		if l == start {
			return true
		}
		c = prev
	}
}

// heapItem is a tentative column label. Among equal distances a free column
// comes first (the search ends there), then the latest pushed: on a plateau
// of equal distances the search goes deep first, which reaches a free column
// much sooner than breadth first does on large tied components.
type heapItem struct {
	d    float64
	col  int32
	free bool
	seq  uint32
}

func (a heapItem) less(b heapItem) bool {
	if a.d != b.d {
		return a.d < b.d
	}
	if a.free != b.free {
		return a.free
	}
	return a.seq > b.seq
}

// colHeap is a binary min-heap of labels with lazy deletion.
type colHeap struct{ items []heapItem }

func (h *colHeap) push(x heapItem) {
	h.items = append(h.items, x)
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.items[i].less(h.items[p]) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *colHeap) pop() heapItem {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && h.items[r].less(h.items[l]) {
			m = r
		}
		if !h.items[m].less(h.items[i]) {
			break
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
	return top
}
