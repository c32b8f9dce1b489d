package gocore

import "github.com/corefscore/corefscore/gocore/assign"

// scipyOrderAssign solves the rectangular assignment problem of minimum
// total cost on a rows x cols row-major cost matrix (finite costs) and
// returns the assigned (row, column) pairs in row order, min(rows, cols) of
// them: the assignment SciPy's linear_sum_assignment returns
// (assign.SciPyLSAP), which is what makes the UA scorer's split-antecedent
// alignment (a maximum-F1 assignment computed with SciPy) reproducible when
// two pairings tie. O(rows² cols).
func scipyOrderAssign(rows, cols int, cost []float64) [][2]int {
	rowTo, err := assign.SciPyLSAP(rows, cols, cost)
	if err != nil {
		panic(err) // the caller's costs are finite and rows*cols long: a bug, recovered at the boundary
	}
	var pairs [][2]int
	for i, j := range rowTo {
		if j >= 0 {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	return pairs
}
