package assign

import (
	"math"

	"github.com/pkg/errors"
)

// SciPyLSAP minimises the total cost of a one-to-one assignment on the
// row-major rows × cols matrix cost and returns the column of each row (-1
// for a row left out when rows > cols): the very assignment that SciPy's
// scipy.optimize.linear_sum_assignment returns, which the CorefUD scorer
// takes to pair mentions. It repeats the steps of SciPy's solver (Crouse's
// shortest augmenting path, rectangular_lsap.cpp) in float64 arithmetic:
//
//   - a matrix with more rows than columns is solved transposed;
//   - rows are placed in order, each by a Dijkstra search over the columns
//     with reduced costs minVal + c(i, j) - u(i) - v(j); the columns still
//     to visit are scanned in an order that starts from the last column and
//     changes as visited ones are swapped out; the next column is the first
//     one met with the lowest distance, or with that distance and no row yet;
//   - the duals are updated and the path flipped as SciPy does.
//
// Among equally cheap assignments, that order decides which one is
// returned. Costs must be finite. Cost: O(rows² · cols) time for rows ≤ cols,
// O(rows · cols) memory.
func SciPyLSAP(rows, cols int, cost []float64) ([]int, error) {
	if rows < 0 || cols < 0 || len(cost) != rows*cols {
		return nil, errors.Wrapf(ErrInvalidGraph, "lsap needs rows*cols costs; got %d x %d with %d", rows, cols, len(cost))
	}
	for _, c := range cost {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return nil, errors.Wrapf(ErrInvalidGraph, "lsap cost %v", c)
		}
	}
	rowTo := make([]int, rows)
	for i := range rowTo {
		rowTo[i] = -1
	}
	if rows == 0 || cols == 0 {
		return rowTo, nil
	}
	nr, nc, c := rows, cols, cost
	transpose := cols < rows
	if transpose {
		c = make([]float64, rows*cols)
		for i := range rows {
			for j := range cols {
				c[j*rows+i] = cost[i*cols+j]
			}
		}
		nr, nc = cols, rows
	}
	col4row := lsapSolve(nr, nc, c)
	if transpose {
		for i, j := range col4row { // row i of the transpose is column i
			rowTo[j] = i
		}
	} else {
		copy(rowTo, col4row)
	}
	return rowTo, nil
}

// lsapSolve is SciPy's solve on nr ≤ nc: the column of each row.
func lsapSolve(nr, nc int, cost []float64) []int {
	u := make([]float64, nr)
	v := make([]float64, nc)
	dist := make([]float64, nc) // shortestPathCosts
	path := make([]int, nc)
	col4row := make([]int, nr)
	row4col := make([]int, nc)
	sr := make([]bool, nr)
	sc := make([]bool, nc)
	remaining := make([]int, nc)
	for j := range nc {
		path[j], row4col[j] = -1, -1
	}
	for i := range nr {
		col4row[i] = -1
	}
	for cur := range nr {
		// The shortest augmenting path from row cur.
		minVal := 0.0
		left := nc
		for it := range nc {
			remaining[it] = nc - it - 1
		}
		clear(sr)
		clear(sc)
		for j := range dist {
			dist[j] = math.Inf(1)
		}
		sink, i := -1, cur
		for sink == -1 {
			index, lowest := -1, math.Inf(1)
			sr[i] = true
			for it := range left {
				j := remaining[it]
				r := minVal + cost[i*nc+j] - u[i] - v[j]
				if r < dist[j] {
					path[j] = i
					dist[j] = r
				}
				if dist[j] < lowest || (dist[j] == lowest && row4col[j] == -1) {
					lowest = dist[j]
					index = it
				}
			}
			minVal = lowest
			j := remaining[index]
			if row4col[j] == -1 {
				sink = j
			} else {
				i = row4col[j]
			}
			sc[j] = true
			left--
			remaining[index] = remaining[left]
		}
		// The duals.
		u[cur] += minVal
		for i := range nr {
			if sr[i] && i != cur {
				u[i] += minVal - dist[col4row[i]]
			}
		}
		for j := range nc {
			if sc[j] {
				v[j] -= minVal - dist[j]
			}
		}
		// The augmentation.
		for j := sink; ; {
			i := path[j]
			row4col[j] = i
			col4row[i], j = j, col4row[i]
			if i == cur {
				break
			}
		}
	}
	return col4row
}
