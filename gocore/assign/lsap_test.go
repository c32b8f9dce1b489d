package assign

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headTieCosts returns a rows × cols matrix of negated CorefUD match scores
// (0, -1 or -a/b for small a ≤ b), most of them 0, so that many
// assignments tie.
func headTieCosts(rng *rand.Rand, rows, cols int) []float64 {
	cost := make([]float64, rows*cols)
	for k := range cost {
		if rng.IntN(3) == 0 {
			b := 1 + rng.IntN(5)
			cost[k] = -float64(1+rng.IntN(b)) / float64(b)
		}
	}
	return cost
}

// TestSciPyLSAPOptimal: the assignment is optimal (brute force) and
// complete on the smaller side.
func TestSciPyLSAPOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4)) //nolint:gosec // test data
	for trial := range 1000 {
		rows, cols := 1+rng.IntN(6), 1+rng.IntN(6)
		cost := headTieCosts(rng, rows, cols)
		got, err := SciPyLSAP(rows, cols, cost)
		require.NoError(t, err)
		var edges []Edge
		for k, c := range cost {
			if c < 0 {
				edges = append(edges, Edge{Left: int32(k / cols), Right: int32(k % cols), Weight: -c})
			}
		}
		used := map[int]bool{}
		total, assigned := 0.0, 0
		for i, j := range got {
			if j >= 0 {
				require.False(t, used[j], "trial %d: column %d twice", trial, j)
				used[j] = true
				total -= cost[i*cols+j]
				assigned++
			}
		}
		assert.Equal(t, min(rows, cols), assigned, "trial %d", trial)
		assert.InDelta(t, bruteForce(rows, cols, edges), total, 1e-12, "trial %d", trial)
	}
	_, err := SciPyLSAP(1, 1, []float64{-1, 0})
	require.ErrorIs(t, err, ErrInvalidGraph)
}

// TestSciPyLSAPAgainstSciPy compares the assignments with SciPy's own on
// 3,000 random tied matrices. It needs a Python with SciPy, named by
// COREFSCORE_COREFUD_PYTHON (the interpreter that runs the CorefUD scorer).
func TestSciPyLSAPAgainstSciPy(t *testing.T) {
	python := os.Getenv("COREFSCORE_COREFUD_PYTHON")
	if python == "" {
		t.Skip("COREFSCORE_COREFUD_PYTHON is unset: set it to a Python with scipy to compare with SciPy")
	}
	if err := exec.Command(python, "-c", "import scipy.optimize").Run(); err != nil {
		t.Skipf("%s cannot import scipy: %v", python, err)
	}
	rng := rand.New(rand.NewPCG(23, 5)) //nolint:gosec // test data
	type problem struct {
		Rows, Cols int
		Cost       []float64
	}
	var problems []problem
	for trial := range 3000 {
		rows, cols := 1+rng.IntN(9), 1+rng.IntN(9)
		if trial%20 == 0 {
			rows, cols = 10+rng.IntN(30), 10+rng.IntN(30)
		}
		problems = append(problems, problem{rows, cols, headTieCosts(rng, rows, cols)})
	}
	in, err := json.Marshal(problems)
	require.NoError(t, err)
	// Row i's column in SciPy's answer, -1 when unassigned.
	const program = `
import json, sys
import numpy as np
from scipy.optimize import linear_sum_assignment
out = []
for p in json.load(sys.stdin):
    cost = np.array(p["Cost"], dtype=float).reshape(p["Rows"], p["Cols"])
    rows, cols = linear_sum_assignment(cost)
    col = [-1] * p["Rows"]
    for r, c in zip(rows, cols):
        col[int(r)] = int(c)
    out.append(col)
json.dump(out, sys.stdout)
`
	cmd := exec.Command(python, "-c", program)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	require.NoError(t, err)
	var want [][]int
	require.NoError(t, json.Unmarshal(out, &want))
	require.Len(t, want, len(problems))
	for k, p := range problems {
		got, err := SciPyLSAP(p.Rows, p.Cols, p.Cost)
		require.NoError(t, err)
		require.Equal(t, want[k], got, "problem %d: %d x %d %v", k, p.Rows, p.Cols, p.Cost)
	}
}
