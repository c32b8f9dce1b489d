package assign

import (
	"slices"
	"sync"

	"github.com/pkg/errors"
)

// ReferenceMunkres minimises the total cost of a one-to-one assignment on the
// row-major rows × cols matrix cost and returns the column of each row, the
// very assignment that the CoNLL reference scorer v8.01 takes: it repeats,
// step by step and in float64 arithmetic, the Munkres implementation that
// the scorer ships (Algorithm::Munkres 0.08 with its search for an uncovered
// zero scanning the columns from the last). Among equally cheap
// assignments, which one the reference takes follows from that order of
// steps and scans alone, so no rule simpler than replaying them gives its
// choice; the reference's CEAF_e numerator adds the aligned similarities in
// key order, so another optimal assignment can change its last bits.
//
// The matrix is first made square, as the reference's module does: rows of
// zeros appended when rows < cols, zero columns appended to every row when
// rows > cols; a row assigned to an appended column gets -1. Then:
//
//  1. each row minus its minimum (the first one met, scanning left to right);
//  2. a zero is starred when no star is yet in its row or column (row-major);
//  3. the columns holding a star are covered; n stars end the search;
//  4. scanning rows top-down, in each row the columns from the last, the
//     first uncovered zero is primed; if its row has a star, the row is
//     covered and the star's column uncovered, and the scan starts over;
//     otherwise go to 5; with no uncovered zero left, go to 6;
//  5. the alternating path from that prime (the star in its column, the
//     prime in the star's row, ...) flips stars and primes; covers and
//     primes are cleared; back to 3;
//  6. the smallest uncovered value (the first one met, row-major) is added
//     to every element of a covered row, then subtracted from every element
//     of an uncovered column, in that order; back to 4.
//
// Every comparison with zero is exact, as in the reference, so a value left
// at 1e-17 by rounding is not a zero there either. Cost: O(n²) memory for
// n = max(rows, cols), O(n⁴) time in the worst case (its scans start over
// from the first row); meant for the reference-sums path, not for large
// documents. stop, when not nil, is polled between steps; a true answer
// returns ErrStopped.
func ReferenceMunkres(rows, cols int, cost []float64, stop func() bool) ([]int, error) {
	if rows < 0 || cols < 0 || len(cost) != rows*cols {
		return nil, errors.Wrapf(ErrInvalidGraph, "reference munkres needs rows*cols costs; got %d x %d with %d", rows, cols, len(cost))
	}
	if rows == 0 {
		return []int{}, nil
	}
	n := max(rows, cols)
	m := new(refMunkres)
	if n <= refMunkresPoolMax {
		m = refMunkresPool.Get().(*refMunkres)
		defer func() {
			m.stop = nil // the pool keeps no caller's hook alive
			refMunkresPool.Put(m)
		}()
	}
	m.reset(n, stop)
	for i := range rows {
		copy(m.mat[i*n:i*n+cols], cost[i*cols:(i+1)*cols])
	}
	if !m.solve() {
		return nil, ErrStopped
	}
	rowTo := make([]int, rows)
	for i := range rowTo {
		rowTo[i] = m.starCol[i]
		if rowTo[i] >= cols {
			rowTo[i] = -1
		}
	}
	return rowTo, nil
}

// refMunkres is the state of ReferenceMunkres on its square matrix. The
// marks are kept by row and column rather than in a mask: a row or a column
// never holds two stars, nor a row two primes, in Munkres' method.
type refMunkres struct {
	n              int
	mat            []float64 // n × n, row-major, reduced in place
	starCol        []int     // column of the star in each row, or -1
	starRow        []int     // row of the star in each column, or -1
	prime          []int     // column of the prime in each row, or -1
	rowCov, colCov []bool
	stop           func() bool
	polls          int
	opened         []int    // primeZeros' scratch
	path           [][2]int // flipPath's scratch
	open           []int    // uncoveredColumns' scratch
}

// refMunkresPool keeps the solver's arrays from call to call, for problems
// of up to refMunkresPoolMax rows or columns (2 MiB of matrix): a
// document's replay needs n² floats, which the next document reuses.
var refMunkresPool = sync.Pool{New: func() any { return new(refMunkres) }}

const refMunkresPoolMax = 512

// reset makes m a fresh n × n problem of zeros, no marks and no covers.
func (m *refMunkres) reset(n int, stop func() bool) {
	m.n, m.stop, m.polls = n, stop, 0
	m.mat = grow(m.mat, n*n)
	m.starCol, m.starRow, m.prime = grow(m.starCol, n), grow(m.starRow, n), grow(m.prime, n)
	for i := range n {
		m.starCol[i], m.starRow[i], m.prime[i] = -1, -1, -1
	}
	m.rowCov, m.colCov = grow(m.rowCov, n), grow(m.colCov, n)
}

// solve runs steps 1 to 6; false when stopped.
func (m *refMunkres) solve() bool {
	m.reduceRows()
	m.starZeros()
	for !m.coverStarredColumns() {
		for {
			row, col, found := m.primeZeros()
			if m.stopped() {
				return false
			}
			if found {
				m.flipPath(row, col)
				break
			}
			m.shiftByMinimum()
		}
	}
	return true
}

// stopped polls the stop hook on its first call and every 64 calls.
func (m *refMunkres) stopped() bool {
	m.polls++
	return m.stop != nil && m.polls&63 == 1 && m.stop()
}

// reduceRows is step 1.
func (m *refMunkres) reduceRows() {
	for i := range m.n {
		row := m.mat[i*m.n : (i+1)*m.n]
		least := row[0]
		for _, x := range row {
			if least > x {
				least = x
			}
		}
		for j := range row {
			row[j] -= least
		}
	}
}

// starZeros is step 2. A row is covered by its first star, so each row
// stars at most its first zero in an uncovered column.
func (m *refMunkres) starZeros() {
	for i := range m.n {
		row := m.mat[i*m.n : (i+1)*m.n]
		for j, x := range row {
			if x == 0 && !m.colCov[j] {
				m.starCol[i], m.starRow[j] = j, i
				m.colCov[j] = true
				break
			}
		}
	}
	m.clearCovers()
}

// coverStarredColumns is step 3: true when every row holds a star.
func (m *refMunkres) coverStarredColumns() bool {
	stars := 0
	for _, j := range m.starCol {
		if j >= 0 {
			m.colCov[j] = true
			stars++
		}
	}
	return stars >= m.n
}

// primeZeros is step 4: it returns the prime that starts a path (found),
// or found false when no uncovered zero is left.
//
// Each search for an uncovered zero is the reference's full scan (rows
// top-down, columns from the last), answered without rescanning what cannot
// have changed: when a zero is found in row r, no uncovered row above r
// holds an uncovered zero; covering a row and uncovering a column c can
// only add zeros in column c there. So rows above resume are searched in
// the columns uncovered since (opened) only, and rows from resume on in
// full; the answer is the same zero as the full scan's.
func (m *refMunkres) primeZeros() (row, col int, found bool) {
	resume, opened := 0, m.opened[:0]
	open := m.uncoveredColumns(true) // kept up to date below
	for {
		row, col = -1, -1
		for i := 0; i < resume && row < 0; i++ {
			if m.rowCov[i] {
				continue
			}
			for _, j := range opened {
				if j > col && !m.colCov[j] && m.mat[i*m.n+j] == 0 {
					row, col = i, j
				}
			}
		}
		if row < 0 {
			row, col = m.uncoveredZeroFrom(resume, open)
			if row < 0 {
				m.opened = opened
				return 0, 0, false
			}
			resume, opened = row, opened[:0]
		}
		m.prime[row] = col
		star := m.starCol[row]
		if star < 0 {
			m.opened = opened
			return row, col, true
		}
		m.rowCov[row] = true
		m.colCov[star] = false
		opened = append(opened, star)
		at, _ := slices.BinarySearchFunc(open, star, func(a, b int) int { return b - a }) // descending
		open = slices.Insert(open, at, star)
	}
}

// uncoveredZeroFrom returns the first uncovered zero in rows from on, rows
// top-down and, within a row, columns from the last; (-1, -1) when there is
// none, given open, the uncovered columns from the last. Only those are
// looked at: after step 3 most columns hold a star and are covered.
func (m *refMunkres) uncoveredZeroFrom(from int, open []int) (int, int) {
	for i := from; i < m.n; i++ {
		if m.rowCov[i] {
			continue
		}
		row := m.mat[i*m.n : (i+1)*m.n]
		for _, j := range open {
			if row[j] == 0 {
				return i, j
			}
		}
	}
	return -1, -1
}

// uncoveredColumns lists the uncovered columns, from the last when
// descending, into a scratch array that the next call reuses.
func (m *refMunkres) uncoveredColumns(descending bool) []int {
	open := m.open[:0]
	for j := range m.n {
		if !m.colCov[j] {
			open = append(open, j)
		}
	}
	if descending {
		slices.Reverse(open)
	}
	m.open = open
	return open
}

// flipPath is step 5, from the prime at (row, col): along the path, stars
// become unmarked and primes stars.
func (m *refMunkres) flipPath(row, col int) {
	path := append(m.path[:0], [2]int{row, col})
	for {
		c := path[len(path)-1][1]
		r := m.starRow[c]
		if r < 0 {
			break
		}
		path = append(path, [2]int{r, c}, [2]int{r, m.prime[r]})
	}
	for k, p := range path {
		if k%2 == 1 { // a star: unmarked
			if m.starRow[p[1]] == p[0] {
				m.starRow[p[1]] = -1
			}
			if m.starCol[p[0]] == p[1] {
				m.starCol[p[0]] = -1
			}
		}
	}
	for k, p := range path {
		if k%2 == 0 { // a prime: starred
			m.starCol[p[0]], m.starRow[p[1]] = p[1], p[0]
		}
	}
	m.path = path
	m.clearCovers()
	for i := range m.prime {
		m.prime[i] = -1
	}
}

// shiftByMinimum is step 6. Elements of a covered row and an uncovered
// column get the addition and then the subtraction, in that order, as in
// the reference (in float64, (x + least) - least is not always x); the
// others one of them or none, so only the covered rows and the uncovered
// columns are visited.
func (m *refMunkres) shiftByMinimum() {
	open := m.uncoveredColumns(false)
	least, seen := 0.0, false
	for i := range m.n {
		if m.rowCov[i] {
			continue
		}
		row := m.mat[i*m.n : (i+1)*m.n]
		for _, j := range open {
			if !seen || least > row[j] {
				least, seen = row[j], true
			}
		}
	}
	for i := range m.n {
		row := m.mat[i*m.n : (i+1)*m.n]
		if m.rowCov[i] {
			for j := range row {
				row[j] += least
			}
		}
		for _, j := range open {
			row[j] -= least
		}
	}
}

// clearCovers uncovers every row and column.
func (m *refMunkres) clearCovers() {
	clear(m.rowCov)
	clear(m.colCov)
}
