package gocore

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// uaSide builds a side from clusters of one-token markables (token = the
// letter's position) and, per plural cluster, the clusters it is made of.
func uaSide(clusters [][]int32, plurals map[int32][]int32) UASide {
	var s UASide
	for e := range clusters {
		s.Entities = append(s.Entities, UAEntity{Name: fmt.Sprint(e)})
	}
	for e, c := range clusters {
		for _, tok := range c {
			s.Markables = append(s.Markables, UAMarkable{Start: tok, End: tok, MinStart: -1, MinEnd: -1, Entity: int32(e)})
		}
	}
	for p, antecedents := range plurals {
		for _, a := range antecedents {
			for i := range s.Markables {
				if s.Markables[i].Entity == a {
					s.Markables[i].ElementOf = append(s.Markables[i].ElementOf, p)
					break
				}
			}
		}
	}
	return s
}

// TestScoreUAPluralCase is the UA scorer's TC-PA-5 ({ab} {cd} {e} {{ac}fg}
// against {ab} {cd} {e} {{ace}fg}): the PluralTestCases.README values.
func TestScoreUAPluralCase(t *testing.T) {
	key := uaSide([][]int32{{0, 1}, {2, 3}, {4}, {5, 6}}, map[int32][]int32{3: {0, 1}})
	resp := uaSide([][]int32{{0, 1}, {2, 3}, {4}, {5, 6}}, map[int32][]int32{3: {0, 1, 2}})
	counts := make([]float64, NumColumns())
	_, err := ScoreUA([]UADocument{{Name: "TC-PA-5", Key: key, Response: resp}}, Options{}, counts)
	require.NoError(t, err)
	get := func(c string) float64 { return counts[ColumnIndex(c)] }
	assert.InDelta(t, 11.0/12, get("muc.precision_num")/get("muc.precision_den"), 1e-12)
	assert.InDelta(t, 7.6, get("lea.precision_num"), 1e-12)
	assert.InDelta(t, 0.95167, get("bcub.precision_num")/get("bcub.precision_den"), 5e-6)

	_, err = ScoreUA([]UADocument{{Key: key, Response: resp}}, Options{UA: UAOptions{Split: UASplitOnly}}, counts)
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 2, 2, 3}, counts[ColumnIndex("muc.recall_num"):ColumnIndex("muc.recall_num")+4])
}

// TestUANonLinkWeightByPairs checks the grouped sum of BLANC's weighted
// non-coreference links against the enumeration of every pair.
func TestUANonLinkWeightByPairs(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for trial := 0; trial < 200; trial++ {
		it := &uaItems{spans: map[[2]int32]int32{}, splits: map[string]int32{}}
		var clusters [][]int32
		toOther := map[int32]int32{}
		sm := map[int32]uaPartner{}
		n := 1 + rng.Intn(12)
		for i := 0; i < n; i++ {
			id := it.span([2]int32{int32(i), int32(i)})
			if rng.Intn(4) == 0 { // a split antecedent standing for item id with a score
				id = it.split([][]int32{{id}, {int32(100 + i)}})
				sm[id] = uaPartner{item: int32(i), score: rng.Float64()}
				toOther[int32(i)] = int32(rng.Intn(3))
			} else if rng.Intn(5) > 0 {
				toOther[id] = int32(rng.Intn(3))
			}
			if len(clusters) == 0 || rng.Intn(3) == 0 {
				clusters = append(clusters, nil)
			}
			clusters[len(clusters)-1] = append(clusters[len(clusters)-1], id)
		}
		want := 0.0
		wantLinks := 0.0
		for ci, c := range clusters {
			for i, m := range c {
				r1, w1 := resolve(m, sm, it)
				g1, ok1 := toOther[r1]
				for _, m2 := range c[i+1:] {
					r2, w2 := resolve(m2, sm, it)
					if g2, ok2 := toOther[r2]; ok1 && ok2 && g1 == g2 {
						wantLinks += w1 * w2
					}
				}
				for _, c2 := range clusters[ci+1:] {
					for _, m2 := range c2 {
						r2, w2 := resolve(m2, sm, it)
						if g2, ok2 := toOther[r2]; ok1 && ok2 && g1 != g2 {
							want += w1 * w2
						}
					}
				}
			}
		}
		assert.InDelta(t, want, uaNonLinkWeight(clusters, toOther, sm, it), 1e-9, "trial %d", trial)
		assert.InDelta(t, wantLinks, uaLinkWeight(clusters, toOther, sm, it), 1e-9, "trial %d", trial)
	}
}

// BenchmarkScoreUA scores a document of 20 plurals over 200 entities of
// 5 markables each in the default mode, every metric.
func BenchmarkScoreUA(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	var clusters [][]int32
	tok := int32(0)
	for e := 0; e < 200; e++ {
		var c []int32
		for k := 0; k < 5; k++ {
			c = append(c, tok)
			tok++
		}
		clusters = append(clusters, c)
	}
	plurals := map[int32][]int32{}
	for p := int32(180); p < 200; p++ {
		plurals[p] = []int32{int32(rng.Intn(180)), int32(rng.Intn(180)), int32(rng.Intn(180))}
	}
	key := uaSide(clusters, plurals)
	resp := uaSide(clusters, map[int32][]int32{})
	for p, a := range plurals {
		plurals[p] = a[:2]
	}
	resp = uaSide(clusters, plurals)
	docs := []UADocument{{Key: key, Response: resp}}
	counts := make([]float64, NumColumns())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ScoreUA(docs, Options{Workers: 1}, counts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestScipyOrderAssignTies: among equally good assignments the one SciPy's
// linear_sum_assignment returns (recorded from SciPy 1.17 on these
// matrices), which the UA scorer's split-antecedent alignment depends on.
func TestScipyOrderAssignTies(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		cost       []float64
		want       [][2]int
	}{
		{2, 1, []float64{-1, -1}, [][2]int{{0, 0}}},
		{1, 2, []float64{-1, -1}, [][2]int{{0, 0}}},
		{2, 3, []float64{-1, -1, 0, -1, -1, 0}, [][2]int{{0, 0}, {1, 1}}},
		{3, 2, []float64{-0.5, -0.5, -0.5, -0.5, -0.5, -0.5}, [][2]int{{0, 0}, {1, 1}}},
		{3, 3, []float64{0, -1, -1, -1, 0, -1, -1, -1, 0}, [][2]int{{0, 2}, {1, 0}, {2, 1}}},
		{2, 3, []float64{-2.0 / 3, -2.0 / 3, 0, 0, -2.0 / 3, -2.0 / 3}, [][2]int{{0, 0}, {1, 1}}},
	} {
		assert.Equal(t, tc.want, scipyOrderAssign(tc.rows, tc.cols, tc.cost), "%v", tc.cost)
	}
}

// TestScipyOrderAssignOptimal: the total equals the brute-force optimum
// over every assignment, on random small matrices with many ties.
func TestScipyOrderAssignOptimal(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	values := []float64{0, -0.25, -0.5, -2.0 / 3, -1}
	for trial := 0; trial < 500; trial++ {
		rows, cols := 1+rng.Intn(5), 1+rng.Intn(5)
		cost := make([]float64, rows*cols)
		for i := range cost {
			cost[i] = values[rng.Intn(len(values))]
		}
		got := 0.0
		pairs := scipyOrderAssign(rows, cols, cost)
		require.Len(t, pairs, min(rows, cols))
		for _, p := range pairs {
			got += cost[p[0]*cols+p[1]]
		}
		assert.InDelta(t, bruteAssign(rows, cols, cost, 0, make([]bool, cols)), got, 1e-12, "trial %d", trial)
	}
}

// bruteAssign is the minimum total cost assigning rows from r on, each to
// a distinct free column (rows left over when columns run out are free).
func bruteAssign(rows, cols int, cost []float64, r int, used []bool) float64 {
	if r == rows {
		return 0
	}
	free := 0
	for _, u := range used {
		if !u {
			free++
		}
	}
	best := math.Inf(1)
	if rows-r > free { // this row may stay unassigned
		best = bruteAssign(rows, cols, cost, r+1, used)
	}
	for j := 0; j < cols; j++ {
		if !used[j] {
			used[j] = true
			best = math.Min(best, cost[r*cols+j]+bruteAssign(rows, cols, cost, r+1, used))
			used[j] = false
		}
	}
	return best
}
