package assign

import "math"

// The shortest-path phase switches to the auction's warm start once its
// searches have taken more than auctionAllowance + auctionSearchSteps steps
// per search (heap pops). On real documents a search takes a few steps; on
// the giant component of a random partition hundreds to thousands, growing
// with the graph. Variables so that tests can force the auction.
// A component that the tight matching leaves with auctionMinFree free left
// vertices or more goes to the auction before any search.
var (
	auctionAllowance   uint64 = 20_000
	auctionSearchSteps uint64 = 32
	auctionMinFree            = 1000
)

// auctionTheta divides ε between the phases of the auction.
const auctionTheta = 8

// The auction's coarse phases, those with ε ≥ auctionCoarseEps times the
// largest weight, run in float32 (weights, prices and values), which halves
// the memory they stream through and the random accesses' footprint (on a
// giant component the prices then stay in a core's cache much longer); the
// finer phases run in float64 from the coarse phases' prices. Rounding in
// float32 is about 2^-24 of the largest weight, far below these ε, so every
// bid still raises a price. Exactness never depends on it (see warmStart).
// The coarse phases are used only when the largest weight lies in
// auctionCoarseRange, where float32 holds it without overflow or underflow.
const auctionCoarseEps = 1.0 / (1 << 17)

var auctionCoarseRange = [2]float64{1e-30, 1e30}

// auctionNum is the number type of an auction phase.
type auctionNum interface{ ~float32 | ~float64 }

// auctionArrays holds, in one precision, the weights of the rows and of the
// columns (in the order of adjW and colW), the prices p of the right
// vertices and the values π of the left vertices.
type auctionArrays[F auctionNum] struct {
	adjW, colW, p, pi []F
}

// coarseArrays returns float32 copies of the weights and of the prices p.
func (s *sparseSolver) coarseArrays(p []float64) *auctionArrays[float32] {
	a := &auctionArrays[float32]{
		adjW: make([]float32, len(s.adjW)),
		colW: make([]float32, len(s.colW)),
		p:    make([]float32, len(p)),
		pi:   make([]float32, s.nLeft),
	}
	for i, w := range s.adjW {
		a.adjW[i] = float32(w)
	}
	for i, w := range s.colW {
		a.colW[i] = float32(w)
	}
	for i, x := range p {
		a.p[i] = float32(x)
	}
	return a
}

// finePrices copies the coarse phases' prices of the hard components'
// right vertices into p (the other prices were never changed there).
func (s *sparseSolver) finePrices(coarse []float32, p []float64) {
	for l := 0; l < s.nLeft; l++ {
		if s.hard[l] {
			for q := s.rowStart[l]; q < s.rowStart[l+1]; q++ {
				p[s.adjCol[q]] = float64(coarse[s.adjCol[q]])
			}
		}
	}
}

// pollEvery is the number of bids, repairs or search steps between two calls
// of the stop hook.
const pollEvery = 1 << 12

// auctionEpsFinal is the last ε of the auction relative to the largest
// weight. It is far above the rounding of a price (2^-52 relative) so that
// every bid raises a price, and small enough that on the graphs of CEAF the
// auction's matching is already optimal and the repair changes prices only
// by rounding-sized amounts.
const auctionEpsFinal = 1e-11

// warmStart replaces the matching and potentials of the components that
// still have minFree free left vertices or more (before the searches of the
// shortest-path phase, or when they grow long) by those of an ε-scaling auction (Bertsekas 1988; forward bids, and reverse bids
// for free columns left with a price) followed by a repair that makes them
// exact for the shortest-path phase. The auction is a heuristic here: it
// leaves a matching within n·ε of optimal and prices close to optimal duals,
// so that few and short searches are left to the exact phase. Exactness
// never depends on it: the repair re-establishes the exact invariants of
// the shortest-path phase (freeing vertices where it must) and that phase
// certifies the optimum. The other components keep their matching and
// potentials, which are feasible duals there. It returns false when the
// stop hook asked to stop.
//
// Prices p (p = -v, v the column potentials) and the value of a left vertex
// l at column r, w(l, r) - p[r]; each left vertex also owns a private
// "dummy" column of value 0 (staying unmatched).
func (s *sparseSolver) warmStart(minFree int) bool {
	if !s.markHard(minFree) {
		return true
	}
	// Prices p = -v in place (potentials of the other components are kept,
	// and turned back at the end); the hard components start afresh.
	p := s.v
	for r := range p {
		p[r] = -p[r]
	}
	maxW := 0.0
	for l := 0; l < s.nLeft; l++ {
		if !s.hard[l] {
			continue
		}
		for q := s.rowStart[l]; q < s.rowStart[l+1]; q++ {
			maxW = max(maxW, s.adjW[q])
			p[s.adjCol[q]] = 0
		}
		if c := s.rowCol[l]; c >= 0 {
			s.colRow[c], s.rowCol[l], s.matchW[l] = -1, -1, 0
		}
		s.rowDead[l] = false
	}
	if maxW == 0 {
		for r := range p {
			p[r] = -p[r]
		}
		return true
	}
	epsFinal := maxW * auctionEpsFinal
	s.transpose()
	fine := &auctionArrays[float64]{adjW: s.adjW, colW: s.colW, p: p, pi: make([]float64, s.nLeft)}
	var coarse *auctionArrays[float32]
	if maxW >= auctionCoarseRange[0] && maxW <= auctionCoarseRange[1] {
		coarse = s.coarseArrays(p)
	}
	queue := make([]int32, max(s.nLeft, s.nRight)) // FIFO ring of vertices to serve
	for eps := maxW / auctionTheta; ; {
		eps = max(eps, epsFinal)
		ok := false
		if coarse != nil && eps >= maxW*auctionCoarseEps {
			ok = auctionPhase(s, coarse, float32(eps), queue) && reversePhase(s, coarse, float32(eps), queue)
		} else {
			if coarse != nil {
				s.finePrices(coarse.p, p)
				coarse = nil
			}
			ok = auctionPhase(s, fine, eps, queue) && reversePhase(s, fine, eps, queue)
		}
		if !ok {
			return false
		}
		if eps == epsFinal {
			break
		}
		eps /= auctionTheta
	}
	if !s.repair(p) {
		return false
	}
	for r := range p {
		p[r] = -p[r] // prices back to potentials v = -p, in place
	}
	return true
}

// markHard sets hard[l] for the left vertices of the connected components
// that hold at least minFree free left vertices with an edge (union-find
// over both sides), and reports whether there is one.
func (s *sparseSolver) markHard(minFree int) bool {
	parent := make([]int32, s.nLeft+s.nRight)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for l := 0; l < s.nLeft; l++ {
		for q := s.rowStart[l]; q < s.rowStart[l+1]; q++ {
			a, b := find(int32(l)), find(int32(s.nLeft)+s.adjCol[q])
			if a != b {
				parent[a] = b
			}
		}
	}
	free := make([]int32, len(parent)) // free left vertices per root
	for l := 0; l < s.nLeft; l++ {
		if s.rowCol[l] < 0 && s.rowStart[l] < s.rowStart[l+1] {
			free[find(int32(l))]++
		}
	}
	s.hard = make([]bool, s.nLeft)
	s.anyHard = false
	for l := range s.hard {
		if int(free[find(int32(l))]) >= minFree {
			s.hard[l] = true
			s.anyHard = true
		}
	}
	return s.anyHard
}

// auctionPhase runs one Gauss-Seidel forward auction at a fixed ε from an
// empty assignment and the given prices: an unassigned left vertex takes its
// best column j1 (of value v1) at the price that leaves it the value of its
// second best v2 (the dummy's 0 included) minus ε, displacing j1's holder.
// A vertex whose best value is at most 0 stays unassigned (at its dummy).
func auctionPhase[F auctionNum](s *sparseSolver, a *auctionArrays[F], eps F, queue []int32) bool {
	p, pi, adjW := a.p, a.pi, a.adjW
	head, size := 0, 0
	for l := 0; l < s.nLeft; l++ {
		if !s.hard[l] {
			continue
		}
		if c := s.rowCol[l]; c >= 0 {
			s.colRow[c], s.rowCol[l] = -1, -1
		}
		if s.rowStart[l] < s.rowStart[l+1] {
			queue[size] = int32(l)
			size++
		}
	}
	nq := len(queue)
	next := int32(-1) // the vertex just displaced, served first
	for size > 0 || next >= 0 {
		if s.poll() {
			return false
		}
		l := next
		if l >= 0 {
			next = -1
		} else {
			l = queue[head]
			head++
			if head == nq {
				head = 0
			}
			size--
		}
		v1, v2, j1, w1 := F(0), F(0), int32(-1), F(0)
		lo, hi := s.rowStart[l], s.rowStart[l+1]
		ws := adjW[lo:hi]
		for i, r := range s.adjCol[lo:hi] {
			w := ws[i]
			if val := w - p[r]; val > v1 {
				v1, v2, j1, w1 = val, v1, r, w
			} else if val > v2 {
				v2 = val
			}
		}
		if j1 < 0 {
			pi[l] = 0
			continue // the dummy is best: unassigned with value 0
		}
		p[j1] = w1 - v2 + eps
		pi[l] = w1 - p[j1]
		if old := s.colRow[j1]; old >= 0 {
			s.rowCol[old] = -1
			next = old
		}
		s.colRow[j1], s.rowCol[l], s.matchW[l] = l, j1, float64(w1)
	}
	return true
}

// transpose builds the columns' lists of rows and weights.
func (s *sparseSolver) transpose() {
	s.colStart = make([]int32, s.nRight+1)
	for _, c := range s.adjCol {
		s.colStart[c+1]++
	}
	for r := 0; r < s.nRight; r++ {
		s.colStart[r+1] += s.colStart[r]
	}
	s.colRows = make([]int32, len(s.adjCol))
	s.colW = make([]float64, len(s.adjCol))
	fill := make([]int32, s.nRight)
	copy(fill, s.colStart[:s.nRight])
	for l := 0; l < s.nLeft; l++ {
		for q := s.rowStart[l]; q < s.rowStart[l+1]; q++ {
			c := s.adjCol[q]
			s.colRows[fill[c]], s.colW[fill[c]] = int32(l), s.adjW[q]
			fill[c]++
		}
	}
}

// reversePhase runs the reverse auction (Bertsekas, Castañon and Tsaknakis
// 1993) on the free columns whose price is above 0, which the forward phase
// leaves behind from earlier phases and which no optimum allows: such a
// column r takes the left vertex l* that gains most from it, β1 = max_l
// w(l, r) - π_l (π_l the current value of l, 0 at its dummy), at the price
// that leaves it the second best β2 minus ε (never below 0), freeing l*'s
// column in turn; when no vertex gains ε from it, its price drops to 0.
// ε-complementary slackness is kept throughout, and at the end every free
// column is at price 0.
func reversePhase[F auctionNum](s *sparseSolver, a *auctionArrays[F], eps F, queue []int32) bool {
	p, pi, colW := a.p, a.pi, a.colW
	inf := F(math.Inf(-1))
	head, size := 0, 0
	nq := len(queue)
	for r := 0; r < s.nRight; r++ {
		if s.colRow[r] < 0 && p[r] > 0 {
			queue[size] = int32(r)
			size++
		}
	}
	for size > 0 {
		if s.poll() {
			return false
		}
		r := queue[head]
		head++
		if head == nq {
			head = 0
		}
		size--
		b1, b2, l1, w1 := inf, inf, int32(-1), F(0)
		lo, hi := s.colStart[r], s.colStart[r+1]
		ws := colW[lo:hi]
		for k, l := range s.colRows[lo:hi] {
			w := ws[k]
			if val := w - pi[l]; val > b1 {
				b1, b2, l1, w1 = val, b1, l, w
			} else if val > b2 {
				b2 = val
			}
		}
		if b1 < eps {
			p[r] = 0
			continue
		}
		p[r] = max(0, b2-eps)
		if old := s.rowCol[l1]; old >= 0 {
			s.colRow[old] = -1
			if p[old] > 0 {
				tail := head + size
				if tail >= nq {
					tail -= nq
				}
				queue[tail] = old
				size++
			}
		}
		s.colRow[r], s.rowCol[l1], s.matchW[l1] = l1, r, float64(w1)
		pi[l1] = w1 - p[r]
	}
	return true
}

// repair turns the auction's ε-optimal state into the exact invariants of
// the shortest-path phase: every free column at price 0, and every matched
// left vertex l at a column c where its value w(l, c) - p[c] is at least
// its value at every other column and at the dummy (0). A violating vertex
// gets its column's price lowered to make it so; lowering a price can make
// neighbours of that column violate in turn, so they are rechecked (a
// label-correcting pass: prices only go down). A column whose price would
// go below 0, or that has been lowered repairCap times (a sign that the
// auction's matching is not optimal: the lowering then goes round a cycle),
// is freed instead (its vertex becomes free, its price 0), which bounds the
// work by O(repairCap · Σ_l deg(l)²). Free vertices are left to the
// shortest-path phase.
func (s *sparseSolver) repair(p []float64) bool {
	const repairCap = 64
	colStart, colRows := s.colStart, s.colRows
	lowered := make([]uint8, s.nRight)
	queued := make([]bool, s.nLeft)
	var stack []int32
	recheck := func(c int32) {
		for _, l := range colRows[colStart[c]:colStart[c+1]] {
			if !queued[l] && s.rowCol[l] >= 0 {
				queued[l] = true
				stack = append(stack, l)
			}
		}
	}
	for r := range p {
		if s.colRow[r] < 0 {
			p[r] = 0
		}
	}
	for l := s.nLeft - 1; l >= 0; l-- {
		if s.hard[l] && s.rowCol[l] >= 0 {
			queued[l] = true
			stack = append(stack, int32(l))
		}
	}
	for len(stack) > 0 {
		if s.poll() {
			return false
		}
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		queued[l] = false
		c := s.rowCol[l]
		if c < 0 {
			continue
		}
		best := 0.0 // the dummy
		for q := s.rowStart[l]; q < s.rowStart[l+1]; q++ {
			if r := s.adjCol[q]; r != c {
				best = max(best, s.adjW[q]-p[r])
			}
		}
		w := s.matchW[l]
		if w-p[c] >= best {
			continue
		}
		np := w - best
		if np > 0 && w-np < best {
			np = math.Nextafter(np, math.Inf(-1))
		}
		if np >= 0 && w-np >= best && lowered[c] < repairCap {
			p[c] = np
			lowered[c]++
		} else {
			s.rowCol[l], s.colRow[c], s.matchW[l] = -1, -1, 0
			p[c] = 0
		}
		recheck(c)
	}
	return true
}

// poll counts one unit of work and calls the stop hook every pollEvery
// units; it reports whether to stop.
func (s *sparseSolver) poll() bool {
	s.work++
	if s.stop == nil || s.work%pollEvery != 0 {
		return false
	}
	return s.pollStop()
}

// pollStop calls the stop hook for poll, which stays small enough to be
// inlined in the loops that call it once per unit of work.
//
//go:noinline
func (s *sparseSolver) pollStop() bool {
	if s.stop() {
		s.stopped = true
	}
	return s.stopped
}
