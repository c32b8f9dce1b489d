package gocore

import "math"

// scipyOrderAssign solves the rectangular assignment problem of minimum
// total cost on a rows x cols row-major cost matrix (finite costs) and
// returns the assigned (row, column) pairs in row order, min(rows, cols) of
// them. It is the shortest augmenting path method of Crouse (2016, "On
// implementing 2D rectangular assignment algorithms"), the method of SciPy's
// linear_sum_assignment, run in the same order: the longer side is the
// columns (the matrix is transposed when it has more rows), rows are added
// one at a time from the first, and each search scans the columns still
// open from the last to the first, taking a strictly cheaper column, or an
// equally cheap one that is free. Among equally good assignments it
// therefore chooses the one SciPy chooses, which is what makes the UA
// scorer's split-antecedent alignment (a maximum-F1 assignment computed
// with SciPy) reproducible when two pairings tie. O(rows² cols).
func scipyOrderAssign(rows, cols int, cost []float64) [][2]int {
	if rows == 0 || cols == 0 {
		return nil
	}
	transposed := rows > cols
	at := func(i, j int) float64 { return cost[i*cols+j] }
	nr, nc := rows, cols
	if transposed {
		nr, nc = cols, rows
		at = func(i, j int) float64 { return cost[j*cols+i] }
	}
	u := make([]float64, nr)
	v := make([]float64, nc)
	shortest := make([]float64, nc)
	path := make([]int, nc)
	col4row := make([]int, nr)
	row4col := make([]int, nc)
	for i := range col4row {
		col4row[i] = -1
	}
	for j := range row4col {
		row4col[j] = -1
	}
	inRow := make([]bool, nr)
	inCol := make([]bool, nc)
	remaining := make([]int, nc)
	for cur := 0; cur < nr; cur++ {
		minVal := 0.0
		open := nc
		for k := 0; k < nc; k++ {
			remaining[k] = nc - k - 1
			shortest[k] = math.Inf(1)
			inCol[k] = false
		}
		for i := range inRow {
			inRow[i] = false
		}
		sink, i := -1, cur
		for sink == -1 {
			index, lowest := -1, math.Inf(1)
			inRow[i] = true
			for k := 0; k < open; k++ {
				j := remaining[k]
				r := minVal + at(i, j) - u[i] - v[j]
				if r < shortest[j] {
					path[j] = i
					shortest[j] = r
				}
				if shortest[j] < lowest || (shortest[j] == lowest && row4col[j] == -1) {
					lowest = shortest[j]
					index = k
				}
			}
			minVal = lowest
			j := remaining[index]
			if row4col[j] == -1 {
				sink = j
			} else {
				i = row4col[j]
			}
			inCol[j] = true
			open--
			remaining[index] = remaining[open]
		}
		u[cur] += minVal
		for r := 0; r < nr; r++ {
			if inRow[r] && r != cur {
				u[r] += minVal - shortest[col4row[r]]
			}
		}
		for c := 0; c < nc; c++ {
			if inCol[c] {
				v[c] -= minVal - shortest[c]
			}
		}
		for j := sink; ; {
			r := path[j]
			row4col[j] = r
			col4row[r], j = j, col4row[r]
			if r == cur {
				break
			}
		}
	}
	pairs := make([][2]int, 0, nr)
	if !transposed {
		for r, c := range col4row {
			pairs = append(pairs, [2]int{r, c})
		}
		return pairs
	}
	for c := 0; c < nc; c++ { // original rows are the columns here, in order
		if row4col[c] >= 0 {
			pairs = append(pairs, [2]int{c, row4col[c]})
		}
	}
	return pairs
}
