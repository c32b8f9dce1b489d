package assign

import (
	"math"
	mathbits "math/bits"
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
// at 1e-17 by rounding is not a zero there either. The steps are the
// reference's, not its way of doing them: the matrix is kept column by
// column with a bitset of its zeros by column and one by row, the
// searches of step 4 resume where the last one stopped and read a row's
// zeros in uncovered columns a word at a time, and step 6 visits only the
// covered rows and uncovered columns, with the same float64 operations on
// each element in the same order. Cost: O(n²) memory for n = max(rows,
// cols), O(n⁴) time in the worst case; meant for the reference-sums path,
// not for large documents. stop, when not nil, is polled between steps; a
// true answer returns ErrStopped.
func ReferenceMunkres(rows, cols int, cost []float64, stop func() bool) ([]int, error) {
	if rows < 0 || cols < 0 || len(cost) != rows*cols {
		return nil, errors.Wrapf(ErrInvalidGraph, "reference munkres needs rows*cols costs; got %d x %d with %d", rows, cols, len(cost))
	}
	if rows == 0 {
		return []int{}, nil
	}
	n := max(rows, cols)
	return runRefMunkres(n, rows, cols, stop, func(m *refMunkres) {
		for i := range rows {
			for j, x := range cost[i*cols : (i+1)*cols] {
				m.mat[j*n+i] = x
			}
		}
		m.reduceRows()
	})
}

// SparseCost is an element of a matrix given as a background value and
// the elements that differ from it.
type SparseCost struct {
	Row, Col int32
	Cost     float64
}

// ReferenceMunkresSparse is ReferenceMunkres on the rows × cols matrix whose
// elements are background but the listed ones (in row order, at most one
// per element), without the matrix being built first: its step 1 writes
// each row reduced from the list, so a document's matrix is written once.
func ReferenceMunkresSparse(rows, cols int, background float64, costs []SparseCost, stop func() bool) ([]int, error) {
	if rows < 0 || cols < 0 {
		return nil, errors.Wrapf(ErrInvalidGraph, "reference munkres on %d x %d", rows, cols)
	}
	for e, c := range costs {
		if c.Row < 0 || int(c.Row) >= rows || c.Col < 0 || int(c.Col) >= cols || (e > 0 && c.Row < costs[e-1].Row) {
			return nil, errors.Wrapf(ErrInvalidGraph, "reference munkres cost (%d, %d) out of range or of row order in %d x %d", c.Row, c.Col, rows, cols)
		}
	}
	if rows == 0 {
		return []int{}, nil
	}
	n := max(rows, cols)
	return runRefMunkres(n, rows, cols, stop, func(m *refMunkres) {
		m.reduceSparse(rows, cols, background, costs)
	})
}

// reduceSparse is step 1 on the rows × cols matrix background but the
// listed elements, zero in the appended rows and columns: each row minus
// its minimum, element by element as reduceRows subtracts it. An element
// not listed is its row's background or padding value less the row's
// minimum, so a column is written as a copy of one of two columns of these
// values (and of their zero bits), then its listed elements.
func (m *refMunkres) reduceSparse(rows, cols int, background float64, costs []SparseCost) {
	n, words := m.n, m.words
	m.bgCol, m.padCol = grow(m.bgCol, n), grow(m.padCol, n) // appended rows: 0
	m.bgZeros, m.padZeros = grow(m.bgZeros, words), grow(m.padZeros, words)
	for i := rows; i < n; i++ {
		m.bgZeros[i>>6] |= 1 << (i & 63)
		m.padZeros[i>>6] |= 1 << (i & 63)
		m.setRowZeros(i, 0, n)
	}
	m.rowLeast = grow(m.rowLeast, rows)
	e := 0
	for i := range rows {
		from := e
		for e < len(costs) && int(costs[e].Row) == i {
			e++
		}
		least := math.Inf(1)
		if e-from < cols {
			least = background
		}
		if cols < n {
			least = min(least, 0)
		}
		for _, c := range costs[from:e] {
			least = min(least, c.Cost)
		}
		m.rowLeast[i] = least
		bg, pad := background-least, 0-least
		m.bgCol[i], m.padCol[i] = bg, pad
		if bg == 0 {
			m.bgZeros[i>>6] |= 1 << (i & 63)
			m.setRowZeros(i, 0, cols)
		}
		if pad == 0 {
			m.padZeros[i>>6] |= 1 << (i & 63)
			m.setRowZeros(i, cols, n)
		}
	}
	for j := range n {
		if j < cols {
			copy(m.mat[j*n:(j+1)*n], m.bgCol)
			copy(m.zeros[j*words:(j+1)*words], m.bgZeros)
			m.plain[j] = plainBackground
		} else {
			copy(m.mat[j*n:(j+1)*n], m.padCol)
			copy(m.zeros[j*words:(j+1)*words], m.padZeros)
			m.plain[j] = plainPadding
		}
	}
	for _, c := range costs {
		i, j := int(c.Row), int(c.Col)
		m.plain[j] = 0
		m.mat[j*n+i] = c.Cost - m.rowLeast[i]
		m.markZero(i, j)
	}
}

// setRowZeros sets the rowZeros bits of the elements of row i in columns
// from to before to.
func (m *refMunkres) setRowZeros(i, from, to int) {
	row := m.rowZeros[i*m.words : (i+1)*m.words]
	for j := from; j < to; j++ {
		row[j>>6] |= 1 << (j & 63)
	}
}

// runRefMunkres solves the n × n problem that fill writes (step 1 done) on
// a pooled state and returns the column of each of the first rows rows,
// -1 for a column from cols on.
func runRefMunkres(n, rows, cols int, stop func() bool, fill func(*refMunkres)) ([]int, error) {
	m := new(refMunkres)
	if n <= refMunkresPoolMax {
		m = refMunkresPool.Get().(*refMunkres)
		defer func() {
			m.stop = nil // the pool keeps no caller's hook alive
			refMunkresPool.Put(m)
		}()
	}
	m.reset(n, stop)
	fill(m)
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
	mat            []float64 // n × n, column-major, reduced in place
	starCol        []int     // column of the star in each row, or -1
	starRow        []int     // row of the star in each column, or -1
	prime          []int     // column of the prime in each row, or -1
	rowCov, colCov []bool
	stop           func() bool
	polls          int
	// zeros has a bit per element, set when it is 0, column by column
	// (words per column), and rowZeros the same bits row by row; rowCovBits
	// is rowCov as bits, openBits the uncovered columns as bits. primeZeros
	// finds the uncovered zeros of a row or of a column in them a word at a
	// time. A bit may be stale (its element no longer 0): it is checked
	// against the matrix where found.
	zeros, rowZeros, rowCovBits, openBits []uint64
	words                                 int
	shiftedFrom                           int      // see shiftByMinimum
	path                                  [][2]int // flipPath's scratch
	open                                  []int    // uncoveredColumns' scratch
	// reduceSparse's scratch: each row's minimum, the reduced background
	// and padding values of each row and their zero bits.
	rowLeast, bgCol, padCol []float64
	bgZeros, padZeros       []uint64
	// plain is the kind of each column: plainBackground or plainPadding
	// for a column that reduceSparse wrote as a copy (no listed element),
	// 0 otherwise. Two columns of one kind that hold no star are equal
	// element for element (see shiftByMinimum).
	plain []uint8
	twins []int // shiftByMinimum's scratch
}

// The kinds of refMunkres.plain.
const (
	plainBackground = 1
	plainPadding    = 2
)

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
	m.words = (n + 63) / 64
	m.zeros, m.rowZeros = grow(m.zeros, n*m.words), grow(m.rowZeros, n*m.words)
	m.rowCovBits, m.openBits = grow(m.rowCovBits, m.words), grow(m.openBits, m.words)
	for i := range n {
		m.starCol[i], m.starRow[i], m.prime[i] = -1, -1, -1
	}
	m.rowCov, m.colCov = grow(m.rowCov, n), grow(m.colCov, n)
	m.plain = grow(m.plain, n)
}

// solve runs steps 2 to 6 (step 1 is the caller's); false when stopped.
func (m *refMunkres) solve() bool {
	m.starZeros()
	for !m.coverStarredColumns() {
		shifted := false
		for {
			row, col, found := m.primeZeros(shifted)
			if m.stopped() {
				return false
			}
			if found {
				m.flipPath(row, col)
				break
			}
			m.shiftByMinimum()
			shifted = true
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
	n := m.n
	for i := range n {
		least := m.mat[i]
		for j := range n {
			if x := m.mat[j*n+i]; least > x {
				least = x
			}
		}
		for j := range n {
			m.mat[j*n+i] -= least
			m.markZero(i, j)
		}
	}
}

// starZeros is step 2. A row is covered by its first star, so each row
// stars at most its first zero in an uncovered column, found from the
// row's zero bits.
func (m *refMunkres) starZeros() {
	for i := range m.n {
		if j := m.firstZeroInRow(i); j >= 0 {
			m.starCol[i], m.starRow[j] = j, i
			m.colCov[j] = true
		}
	}
	m.clearCovers()
}

// firstZeroInRow returns the first column of row i holding a zero and
// not covered, or -1. A stale bit met is cleared.
func (m *refMunkres) firstZeroInRow(i int) int {
	bits := m.rowZeros[i*m.words : (i+1)*m.words]
	for w, word := range bits {
		for word != 0 {
			j := w<<6 + mathbits.TrailingZeros64(word)
			word &= word - 1
			if m.mat[j*m.n+i] != 0 {
				bits[w] &^= 1 << (j & 63)
			} else if !m.colCov[j] {
				return j
			}
		}
	}
	return -1
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
// top-down, columns from the last), resumed rather than restarted: during
// the step the matrix does not change, rows are only covered and columns
// only uncovered, so the rows above the last zero found hold no zero in
// the columns uncovered so far, and after a prime at row r whose star's
// column s is uncovered, the next search starts at row r+1 or at the
// first uncovered zero of column s, whichever comes first. Each row is
// searched a word of bits at a time (rowZeros and openBits). Right after
// step 6 (shifted) the covers are those the step left (m.open, openBits)
// and the search starts at the first row where step 6 made an uncovered
// zero (no uncovered zero was left before it).
func (m *refMunkres) primeZeros(shifted bool) (row, col int, found bool) {
	from := m.shiftedFrom
	if !shifted {
		m.open = m.uncoveredColumns()
		clear(m.openBits)
		for _, j := range m.open {
			m.openBits[j>>6] |= 1 << (j & 63)
		}
		from = 0
	}
	for {
		row, col = m.openZeroFrom(from)
		if row == m.n {
			return 0, 0, false
		}
		m.prime[row] = col
		star := m.starCol[row]
		if star < 0 {
			return row, col, true
		}
		m.rowCov[row] = true
		m.rowCovBits[row>>6] |= 1 << (row & 63)
		m.colCov[star] = false
		m.openBits[star>>6] |= 1 << (star & 63)
		m.open = append(m.open, star)
		from = min(row+1, m.zeroBelow(0, star))
	}
}

// openZeroFrom returns the first uncovered zero in an uncovered column of
// the reference's scan (rows top-down, in a row the columns from the last)
// from row from on, or row n when there is none. A stale bit met is
// cleared.
func (m *refMunkres) openZeroFrom(from int) (row, col int) {
	n, words := m.n, m.words
	rowCov, openBits := m.rowCov[:n], m.openBits[:words]
	for i := from; i < n; i++ {
		if rowCov[i] {
			continue
		}
		bits := m.rowZeros[i*words : (i+1)*words]
		bits = bits[:len(openBits)]
		for w := len(bits) - 1; w >= 0; w-- {
			word := bits[w] & openBits[w]
			for word != 0 {
				j := w<<6 + 63 - mathbits.LeadingZeros64(word)
				if m.mat[j*n+i] == 0 {
					return i, j
				}
				bits[w] &^= 1 << (j & 63)
				word &^= 1 << (j & 63)
			}
		}
	}
	return n, -1
}

// zeroBelow returns the first uncovered row from row from on holding a
// zero in column j, or n. A set bit may be stale (its element no longer
// 0, after step 6): it is checked against the matrix and cleared. A zero
// always has its bit set: zeros appear only in step 1 and, in uncovered
// columns, in step 6, which set them.
func (m *refMunkres) zeroBelow(from, j int) int {
	col := m.zeros[j*m.words : (j+1)*m.words]
	for w := from >> 6; w < m.words; w++ {
		word := col[w] &^ m.rowCovBits[w]
		if w == from>>6 {
			word &= ^uint64(0) << (from & 63)
		}
		for word != 0 {
			i := w<<6 + mathbits.TrailingZeros64(word)
			if m.mat[j*m.n+i] == 0 {
				return i
			}
			col[w] &^= 1 << (i & 63)
			word &= word - 1
		}
	}
	return m.n
}

// markZero sets the bits of element (i, j) in zeros and rowZeros when it
// is 0. A bit is never cleared here: a stale one costs a check.
func (m *refMunkres) markZero(i, j int) {
	if m.mat[j*m.n+i] == 0 {
		m.setZero(i, j)
	}
}

// setZero sets the bits of element (i, j) in zeros and rowZeros.
func (m *refMunkres) setZero(i, j int) {
	m.zeros[j*m.words+i>>6] |= 1 << (i & 63)
	m.rowZeros[i*m.words+j>>6] |= 1 << (j & 63)
}

// uncoveredColumns lists the uncovered columns in increasing order, into
// a scratch array that the next call reuses.
func (m *refMunkres) uncoveredColumns() []int {
	open := m.open[:0]
	for j := range m.n {
		if !m.colCov[j] {
			open = append(open, j)
		}
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
//
// Columns that reduceSparse wrote as copies of one column (m.plain) and
// that hold no star are equal element for element at every step 6: a
// column never starred was never covered (a starred column stays starred:
// step 5 moves a column's star within the column), so each step 6 did the
// same to all of them. The first of each kind met is computed, in the
// search for the minimum and in the subtraction, and the others, its
// twins, copied from it.
//
// It runs right after step 4, whose last uncovered columns are m.open (in
// no particular order: nothing here depends on it), and leaves in
// m.shiftedFrom the first uncovered row where it made a zero, or n, for the
// next step 4.
func (m *refMunkres) shiftByMinimum() {
	n := m.n
	open := m.open
	rowCov := m.rowCov[:n]
	first := [3]int{-1, -1, -1} // the column computed for each kind of m.plain
	twins := m.twins[:0]
	least := math.Inf(1) // the value of the first smallest one met: the same
	for _, j := range open {
		if k := m.plain[j]; k != 0 && m.starRow[j] < 0 {
			if first[k] >= 0 {
				twins = append(twins, j)
				continue
			}
			first[k] = j
		}
		least = uncoveredLeast(m.mat[j*n:(j+1)*n], rowCov, least)
	}
	m.twins = twins
	// Covered columns here only grow (least > 0: no uncovered zero was
	// left), so their zeros' bits go stale.
	mat := m.mat[:n*n]
	for i, c := range rowCov {
		if c {
			for k := i; k < len(mat); k += n {
				mat[k] += least
			}
		}
	}
	shiftedFrom, words := n, m.words
	for _, j := range open {
		if k := m.plain[j]; k != 0 && m.starRow[j] < 0 && first[k] != j {
			continue // a twin
		}
		col := m.mat[j*n : (j+1)*n]
		colZeros := m.zeros[j*words : (j+1)*words]
		rowWord, rowBit := j>>6, uint64(1)<<(j&63) // (i, j)'s in rowZeros
		for i, x := range col {
			x -= least
			col[i] = x
			if x == 0 {
				colZeros[i>>6] |= 1 << (i & 63)
				m.rowZeros[i*words+rowWord] |= rowBit
				if i < shiftedFrom && !rowCov[i] {
					shiftedFrom = i
				}
			}
		}
	}
	for _, j := range twins {
		from := first[m.plain[j]]
		copy(m.mat[j*n:(j+1)*n], m.mat[from*n:(from+1)*n])
		colZeros := m.zeros[j*words : (j+1)*words]
		copy(colZeros, m.zeros[from*words:(from+1)*words])
		rowWord, rowBit := j>>6, uint64(1)<<(j&63)
		for w, word := range colZeros {
			for word != 0 {
				i := w<<6 + mathbits.TrailingZeros64(word)
				word &= word - 1
				m.rowZeros[i*words+rowWord] |= rowBit
			}
		}
	}
	m.shiftedFrom = shiftedFrom
}

// uncoveredLeast returns the least of least and the elements of col in
// the rows that rowCov does not cover (its first len(col) rows), four
// elements a turn: step 6's search for its minimum.
func uncoveredLeast(col []float64, rowCov []bool, least float64) float64 {
	rowCov = rowCov[:len(col)]
	i := 0
	for ; i+4 <= len(col); i += 4 {
		c := col[i : i+4 : i+4]
		if c[0] < least && !rowCov[i] {
			least = c[0]
		}
		if c[1] < least && !rowCov[i+1] {
			least = c[1]
		}
		if c[2] < least && !rowCov[i+2] {
			least = c[2]
		}
		if c[3] < least && !rowCov[i+3] {
			least = c[3]
		}
	}
	for ; i < len(col); i++ {
		if col[i] < least && !rowCov[i] {
			least = col[i]
		}
	}
	return least
}

// clearCovers uncovers every row and column.
func (m *refMunkres) clearCovers() {
	clear(m.rowCov)
	clear(m.rowCovBits)
	clear(m.colCov)
}
