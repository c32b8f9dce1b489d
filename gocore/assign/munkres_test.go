package assign

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plainMunkres is the reference's Munkres written as plainly as possible,
// with a mark matrix and a full rescan for every uncovered zero: the oracle
// of ReferenceMunkres, which keeps marks per row and column and resumes its
// scans.
func plainMunkres(rows, cols int, cost []float64) []int {
	n := max(rows, cols)
	mat := make([][]float64, n)
	mask := make([][]int, n)
	for i := range mat {
		mat[i], mask[i] = make([]float64, n), make([]int, n)
		if i < rows {
			copy(mat[i], cost[i*cols:(i+1)*cols])
		}
	}
	rowCov, colCov := make([]bool, n), make([]bool, n)
	clearCovers := func() { rowCov, colCov = make([]bool, n), make([]bool, n) }
	for _, row := range mat {
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
	for i := range n {
		for j := range n {
			if mat[i][j] == 0 && !rowCov[i] && !colCov[j] {
				mask[i][j], rowCov[i], colCov[j] = 1, true, true
			}
		}
	}
	clearCovers()
	find := func(line []int, mark int) int {
		for j, x := range line {
			if x == mark {
				return j
			}
		}
		return -1
	}
	column := func(j int) []int {
		c := make([]int, n)
		for i := range n {
			c[i] = mask[i][j]
		}
		return c
	}
	for {
		stars := 0
		for i := range n {
			for j := range n {
				if mask[i][j] == 1 {
					colCov[j] = true
					stars++
				}
			}
		}
		if stars >= n {
			break
		}
		var zr, zc int
		for {
			zr, zc = -1, -1
			for i := 0; i < n && zr < 0; i++ {
				for j := n - 1; j >= 0 && !rowCov[i]; j-- {
					if !colCov[j] && mat[i][j] == 0 {
						zr, zc = i, j
						break
					}
				}
			}
			if zr < 0 { // step 6
				least, seen := 0.0, false
				for i := range n {
					for j := range n {
						if !rowCov[i] && !colCov[j] && (!seen || least > mat[i][j]) {
							least, seen = mat[i][j], true
						}
					}
				}
				for i := range n {
					for j := range n {
						if rowCov[i] {
							mat[i][j] += least
						}
						if !colCov[j] {
							mat[i][j] -= least
						}
					}
				}
				continue
			}
			mask[zr][zc] = 2
			star := find(mask[zr], 1)
			if star < 0 {
				break
			}
			rowCov[zr], colCov[star] = true, false
		}
		path := [][2]int{{zr, zc}}
		for {
			r := find(column(path[len(path)-1][1]), 1)
			if r < 0 {
				break
			}
			path = append(path, [2]int{r, path[len(path)-1][1]})
			path = append(path, [2]int{r, find(mask[r], 2)})
		}
		for _, p := range path {
			if mask[p[0]][p[1]] == 1 {
				mask[p[0]][p[1]] = 0
			} else {
				mask[p[0]][p[1]] = 1
			}
		}
		clearCovers()
		for i := range n {
			for j := range n {
				if mask[i][j] == 2 {
					mask[i][j] = 0
				}
			}
		}
	}
	out := make([]int, rows)
	for i := range out {
		out[i] = -1
		if j := find(mask[i], 1); j >= 0 && j < cols {
			out[i] = j
		}
	}
	return out
}

// tiedCosts returns a rows × cols matrix of CEAF_e-like costs 1 - 2a/b with
// small a and b, so that many assignments tie.
func tiedCosts(rng *rand.Rand, rows, cols int) []float64 {
	cost := make([]float64, rows*cols)
	for k := range cost {
		cost[k] = 1
		if rng.IntN(3) == 0 {
			b := 2 + rng.IntN(6)
			a := 1 + rng.IntN(b/2)
			cost[k] = 1 - 2*float64(a)/float64(b)
		}
	}
	return cost
}

func TestReferenceMunkresAgainstPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1)) //nolint:gosec // test data
	for trial := range 3000 {
		rows, cols := 1+rng.IntN(12), 1+rng.IntN(12)
		if trial%10 == 0 {
			rows, cols = 20+rng.IntN(30), 20+rng.IntN(30)
		}
		cost := tiedCosts(rng, rows, cols)
		got, err := ReferenceMunkres(rows, cols, cost, nil)
		require.NoError(t, err)
		require.Equal(t, plainMunkres(rows, cols, cost), got, "trial %d: %d x %d %v", trial, rows, cols, cost)
	}
}

// ceafCosts returns a rows × cols matrix shaped like a document's CEAF_e
// costs: 1 (no common mention) almost everywhere, a few pairs per row at
// 1 - 2a/b, rows with none.
func ceafCosts(rng *rand.Rand, rows, cols int) []float64 {
	cost := make([]float64, rows*cols)
	for i := range cost {
		cost[i] = 1
	}
	for i := range rows {
		for k := rng.IntN(4); k > 0; k-- {
			b := 2 + rng.IntN(8)
			a := 1 + rng.IntN(b/2)
			cost[i*cols+rng.IntN(cols)] = 1 - 2*float64(a)/float64(b)
		}
	}
	return cost
}

// TestReferenceMunkresAgainstPlainOnCEAFShapes: the same on larger
// matrices shaped like documents (mostly cost 1, which leaves most columns
// starred and covered: the case the scans over uncovered columns only are
// for), wider and taller.
func TestReferenceMunkresAgainstPlainOnCEAFShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4)) //nolint:gosec // test data
	for trial := range 300 {
		rows, cols := 10+rng.IntN(70), 10+rng.IntN(70)
		cost := ceafCosts(rng, rows, cols)
		got, err := ReferenceMunkres(rows, cols, cost, nil)
		require.NoError(t, err)
		require.Equal(t, plainMunkres(rows, cols, cost), got, "trial %d: %d x %d", trial, rows, cols)
	}
}

// TestReferenceMunkresSparseAgainstDense: the sparse form takes the dense
// form's assignment on the same matrices, square, wide and tall, with
// background 1 (CEAF_e's) and 0.5, rows with no listed element, and a row
// entirely listed.
func TestReferenceMunkresSparseAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 8)) //nolint:gosec // test data
	for trial := range 1500 {
		rows, cols := 1+rng.IntN(60), 1+rng.IntN(60)
		background := 1.0
		if trial%3 == 0 {
			background = 0.5
		}
		cost := make([]float64, rows*cols)
		for k := range cost {
			cost[k] = background
		}
		var sparse []SparseCost
		for i := range rows {
			listed := map[int]bool{}
			for k := rng.IntN(4); k > 0; k-- {
				listed[rng.IntN(cols)] = true
			}
			if trial%50 == 1 && i == 0 {
				for j := range cols {
					listed[j] = true
				}
			}
			for j := range cols {
				if listed[j] {
					b := 2 + rng.IntN(8)
					c := 1 - 2*float64(1+rng.IntN(b/2))/float64(b)
					cost[i*cols+j] = c
					sparse = append(sparse, SparseCost{Row: int32(i), Col: int32(j), Cost: c})
				}
			}
		}
		want, err := ReferenceMunkres(rows, cols, cost, nil)
		require.NoError(t, err)
		got, err := ReferenceMunkresSparse(rows, cols, background, sparse, nil)
		require.NoError(t, err)
		require.Equal(t, want, got, "trial %d: %d x %d", trial, rows, cols)
	}
	_, err := ReferenceMunkresSparse(2, 2, 1, []SparseCost{{Row: 1, Col: 0}, {Row: 0, Col: 0}}, nil)
	require.ErrorIs(t, err, ErrInvalidGraph, "out of row order")
	_, err = ReferenceMunkresSparse(2, 2, 1, []SparseCost{{Row: 0, Col: 2}}, nil)
	require.ErrorIs(t, err, ErrInvalidGraph, "out of range")
}

// TestReferenceMunkresOptimal: on integer costs (exact arithmetic) the
// assignment is optimal, checked by brute force.
func TestReferenceMunkresOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 2)) //nolint:gosec // test data
	for trial := range 500 {
		rows, cols := 1+rng.IntN(6), 1+rng.IntN(6)
		cost := make([]float64, rows*cols)
		var edges []Edge
		for k := range cost {
			cost[k] = float64(rng.IntN(5))
			edges = append(edges, Edge{Left: int32(k / cols), Right: int32(k % cols), Weight: 4 - cost[k]})
		}
		got, err := ReferenceMunkres(rows, cols, cost, nil)
		require.NoError(t, err)
		used := map[int]bool{}
		weight := 0.0
		for i, j := range got {
			if j >= 0 {
				require.False(t, used[j], "trial %d: column %d twice", trial, j)
				used[j] = true
				weight += 4 - cost[i*cols+j]
			}
		}
		assert.Equal(t, bruteForce(rows, cols, edges), weight, "trial %d", trial)
	}
}

// TestReferenceMunkresTieChoice: ties as the reference breaks them. All
// costs 0: step 2 stars the diagonal. A row of equal costs takes its first
// column.
func TestReferenceMunkresTieChoice(t *testing.T) {
	got, err := ReferenceMunkres(2, 2, []float64{0, 0, 0, 0}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, got)
	got, err = ReferenceMunkres(2, 2, []float64{1, 0, 0, 0}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 0}, got)
	got, err = ReferenceMunkres(1, 3, []float64{0.5, 0.5, 0.5}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{0}, got)
	_, err = ReferenceMunkres(2, 2, []float64{0}, nil)
	require.ErrorIs(t, err, ErrInvalidGraph)
}

func TestReferenceMunkresStops(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3)) //nolint:gosec // test data
	cost := tiedCosts(rng, 200, 200)
	_, err := ReferenceMunkres(200, 200, cost, func() bool { return true })
	require.ErrorIs(t, err, ErrStopped)
}

// TestReferenceMunkresAgainstPlainOnEmptyRowsAndPadding: documents as the
// CEAF_e replay sees them with many key chains that overlap nothing (rows
// of cost 1) and padding columns (cost 1, when there are fewer response
// than key chains), up to 150 chains (three words of zero bits), solved in
// the sparse and the dense form against the plain transcription.
func TestReferenceMunkresAgainstPlainOnEmptyRowsAndPadding(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 2)) //nolint:gosec // test data
	for trial := range 200 {
		n := 20 + rng.IntN(131)
		responses := n/3 + rng.IntN(n-n/3+1) // the other columns pad
		emptyShare := 0.2 + 0.5*rng.Float64()
		cost := make([]float64, n*n)
		for k := range cost {
			cost[k] = 1
		}
		var sparse []SparseCost
		for i := range n {
			if rng.Float64() < emptyShare {
				continue
			}
			listed := map[int]bool{}
			for k := 1 + rng.IntN(3); k > 0; k-- {
				listed[rng.IntN(responses)] = true
			}
			for j := range responses {
				if listed[j] {
					b := 2 + rng.IntN(8)
					c := 1 - 2*float64(1+rng.IntN(b/2))/float64(b)
					cost[i*n+j] = c
					sparse = append(sparse, SparseCost{Row: int32(i), Col: int32(j), Cost: c})
				}
			}
		}
		want := plainMunkres(n, n, cost)
		got, err := ReferenceMunkresSparse(n, n, 1, sparse, nil)
		require.NoError(t, err)
		require.Equal(t, want, got, "trial %d: sparse, %d chains, %d responses", trial, n, responses)
		got, err = ReferenceMunkres(n, n, cost, nil)
		require.NoError(t, err)
		require.Equal(t, want, got, "trial %d: dense, %d chains, %d responses", trial, n, responses)
	}
}
