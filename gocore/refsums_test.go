package gocore

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/corefscore/corefscore/gocore/assign"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// truncPct is the reference scorer's printed percentage, int(n / d * 10000)
// / 100.
func truncPct(n, d float64) float64 { return math.Trunc(n/d*10000) / 100 }

// TestReferenceSumsIssueCase is the smallest case of issue 11: key {t0..t4}
// plus four singletons, response {t0, t1, t2}, one 9-token document. Perl
// adds 3/5 once per response mention (1.7999999999999998) and prints
// B-cubed recall (1.8 / 9) 19.99%; one term n²/|K| per cell gives exactly
// 1.8 and 20%.
func TestReferenceSumsIssueCase(t *testing.T) {
	d := Document{
		Key:      Side{Mentions: []int64{0, 1, 2, 3, 4, 5, 6, 7, 8}, Clusters: []int64{0, 0, 0, 0, 0, 1, 2, 3, 4}},
		Response: Side{Mentions: []int64{0, 1, 2}, Clusters: []int64{0, 0, 0}},
	}
	col := ColumnIndex("bcub.recall_num")
	row := func(opt Options) []float64 {
		counts := make([]float64, NumColumns())
		_, err := ScoreBatch([]Document{d}, opt, counts)
		require.NoError(t, err)
		return counts
	}
	ref, exact := row(Options{ReferenceSums: true}), row(Options{})
	perl, term := 0.0, 3.0/5 // float64 arithmetic, not exact constants
	for range 3 {
		perl += term
	}
	require.NotEqual(t, 1.8, perl)
	assert.Equal(t, perl, ref[col])
	assert.Equal(t, 9.0/5, exact[col])
	assert.Equal(t, 19.99, truncPct(ref[col], ref[col+1]))
	assert.Equal(t, 20.0, truncPct(exact[col], exact[col+1]))
	// Only the B-cubed and CEAF_e numerators may differ, and only in the
	// last bits.
	for c, name := range Columns() {
		assert.InDelta(t, exact[c], ref[c], 1e-12, name)
	}
}

// TestReferenceSumsTerms checks the two reference sums on random documents
// against a direct transcription of the reference's loops: B-cubed one term
// per response mention in chain order, CEAF_e 1 - (1 - φ4) per key chain in
// order; and that they stay within rounding of the default sums.
func TestReferenceSumsTerms(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		d := lmSynthDoc(seed, 20+5*int(seed))
		counts := make([]float64, 2*NumColumns())
		_, err := ScoreBatch([]Document{d}, Options{ReferenceSums: true}, counts[:NumColumns()])
		require.NoError(t, err)
		_, err = ScoreBatch([]Document{d}, Options{}, counts[NumColumns():])
		require.NoError(t, err)
		ref, exact := counts[:NumColumns()], counts[NumColumns():]

		// The reference's BCUBED, on the response's chains in order of
		// first appearance.
		keyOf := map[int64]int64{}
		keySize := map[int64]int{}
		for i, m := range d.Key.Mentions {
			keyOf[m] = d.Key.Clusters[i]
			keySize[d.Key.Clusters[i]]++
		}
		var order []int64
		chains := map[int64][]int64{}
		for i, m := range d.Response.Mentions {
			c := d.Response.Clusters[i]
			if _, ok := chains[c]; !ok {
				order = append(order, c)
			}
			chains[c] = append(chains[c], m)
		}
		var r, p float64
		for _, c := range order {
			for _, m := range chains[c] {
				k, ok := keyOf[m]
				if !ok {
					continue
				}
				ci := 0
				for _, o := range chains[c] {
					if ko, ok := keyOf[o]; ok && ko == k {
						ci++
					}
				}
				p += float64(ci) / float64(len(chains[c]))
				r += float64(ci) / float64(keySize[k])
			}
		}
		assert.Equal(t, r, ref[ColumnIndex("bcub.recall_num")], "seed %d", seed)
		assert.Equal(t, p, ref[ColumnIndex("bcub.precision_num")], "seed %d", seed)
		for _, c := range []string{"bcub.recall_num", "bcub.precision_num", "ceafe.recall_num", "ceafe.precision_num"} {
			assert.InDelta(t, exact[ColumnIndex(c)], ref[ColumnIndex(c)], 1e-9, "seed %d %s", seed, c)
		}
	}
}

// TestRefCeafeUniqueAgreesWithTheMunkresReplay: when refCeafeUnique takes a
// document (every component a star with a strictly best pair), its CEAF_e
// numerator is the reference Munkres replay's, bit for bit; on documents it
// leaves alone (a component with two chains on both sides, or a tie) it says
// so. Random documents of a few to a few dozen mentions, both kinds common.
func TestRefCeafeUniqueAgreesWithTheMunkresReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	opt := Options{ReferenceSums: true}
	taken, left := 0, 0
	for i := range 3000 {
		d := randomDoc(rng, 4+i%40, 1+i%12, false)
		tab, err := NewTable(&d, 0, &opt, nil)
		require.NoError(t, err)
		phi := func(c Cell) float64 { return 2 * float64(c.N) / float64(tab.KeySize[c.K]+tab.RespSize[c.R]) }
		got, ok := refCeafeUnique(tab, phi)
		if !ok {
			left++
			continue
		}
		taken++
		nk, nr := len(tab.KeySize), len(tab.RespSize)
		cols := max(nk, nr)
		cost := make([]float64, nk*cols)
		for j := range cost {
			cost[j] = 1
		}
		for _, c := range tab.Cells {
			cost[int(c.K)*cols+int(c.R)] = 1 - phi(c)
		}
		rowTo, err := assign.ReferenceMunkres(nk, cols, cost, nil)
		require.NoError(t, err)
		var want float64
		for r, j := range rowTo {
			x := 1.0
			if j >= 0 {
				x = cost[r*cols+j]
			}
			want += 1 - x
		}
		require.Equal(t, math.Float64bits(want), math.Float64bits(got), "document %d: %v vs %v", i, got, want)
	}
	assert.Greater(t, taken, 300, "documents the shortcut takes")
	assert.Greater(t, left, 300, "documents left to the replay")
}
