package gocore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docOf builds a document from clusters of named mentions; equal names on the
// two sides are the same mention. Cluster ids are the cluster's position.
func docOf(key, response [][]string) Document {
	ids := map[string]int64{}
	side := func(clusters [][]string) Side {
		var s Side
		for c, cluster := range clusters {
			for _, m := range cluster {
				id, ok := ids[m]
				if !ok {
					id = int64(len(ids))
					ids[m] = id
				}
				s.Mentions = append(s.Mentions, id)
				s.Clusters = append(s.Clusters, int64(c))
			}
		}
		return s
	}
	return Document{Name: "example", Key: side(key), Response: side(response)}
}

// frac is an expected fraction num/den of one score.
type frac struct{ num, den float64 }

// assertFrac checks that a metric's recall or precision (which is "recall" or
// "precision", prefix the column prefix such as "muc" or "blanc.coref")
// equals want as a fraction: the ratio exactly (to rounding), and the
// counts themselves when want.den is the engine's denominator.
func assertFrac(t *testing.T, row map[string]float64, prefix, which string, want frac) {
	t.Helper()
	num, den := row[prefix+"."+which+"_num"], row[prefix+"."+which+"_den"]
	require.NotZero(t, den, "%s.%s denominator", prefix, which)
	assert.InDelta(t, want.num/want.den, num/den, 1e-12, "%s %s = %v/%v, want %v/%v", prefix, which, num, den, want.num, want.den)
}

// TestVilainExamples reproduces the MUC examples of Vilain et al. (1995),
// seed 004. The figures are missing from the extraction; the links in the
// section titles and the prose give the classes. Mentions that a side does
// not mention are twinless (they form implicit singleton parts).
func TestVilainExamples(t *testing.T) {
	tests := []struct {
		name          string
		key, response [][]string
		recall        frac
		precision     frac
	}{
		{
			// Key links <A-B B-C B-D>, response <A-B C-D>: "the precision
			// score for this response should be 2/2", recall 2/3.
			name:      "spanning tree",
			key:       [][]string{{"A", "B", "C", "D"}},
			response:  [][]string{{"A", "B"}, {"C", "D"}},
			recall:    frac{2, 3},
			precision: frac{2, 2},
		},
		{
			// Key <A-B B-C>, response <A-C>: p(S) = {A C}{B}, recall 1/2. The
			// response class {A C} lies inside the key class: precision 1/1.
			name:      "missing link",
			key:       [][]string{{"A", "B", "C"}},
			response:  [][]string{{"A", "C"}},
			recall:    frac{1, 2},
			precision: frac{1, 1},
		},
		{
			// Precision case of the same section: response class {A B C}
			// partitioned by the key into {B C} and an implicit {A}: 1/2.
			name:      "precision error",
			key:       [][]string{{"B", "C"}},
			response:  [][]string{{"A", "B", "C"}},
			recall:    frac{1, 1},
			precision: frac{1, 2},
		},
		{
			// Key <B-C C-D D-E E-G G-H H-J>, response <A-B B-C D-E E-F G-H H-I>:
			// p(S) has four parts {B C}{D E}{G H}{J}: recall (7-4)/6; each of
			// the three response classes splits in two: precision 3/6.
			name:      "one key class, three response classes",
			key:       [][]string{{"B", "C", "D", "E", "G", "H", "J"}},
			response:  [][]string{{"A", "B", "C"}, {"D", "E", "F"}, {"G", "H", "I"}},
			recall:    frac{3, 6},
			precision: frac{3, 6},
		},
		{
			// Key <A-B B-C D-E E-F F-G>, response <A-B C-D F-G G-H>: recall
			// ((3-2)+(4-3))/((3-1)+(4-1)) = 2/5, precision
			// ((2-1)+(2-2)+(3-2))/((2-1)+(2-1)+(3-1)) = 2/4.
			name:      "several classes on both sides",
			key:       [][]string{{"A", "B", "C"}, {"D", "E", "F", "G"}},
			response:  [][]string{{"A", "B"}, {"C", "D"}, {"F", "G", "H"}},
			recall:    frac{2, 5},
			precision: frac{2, 4},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			row := scoreRow(t, docOf(tc.key, tc.response), Options{})
			assertFrac(t, row, "muc", "recall", tc.recall)
			assertFrac(t, row, "muc", "precision", tc.precision)
			// The engine's MUC denominators are the link counts themselves.
			assert.Equal(t, tc.recall.den, row["muc.recall_den"])
			assert.Equal(t, tc.precision.den, row["muc.precision_den"])
		})
	}
}

// baggaTruth is Figure 1 of Bagga & Baldwin (1998), seed 000: three classes
// {1..5}, {6, 7}, {8, 9, A, B, C}.
var baggaTruth = [][]string{{"1", "2", "3", "4", "5"}, {"6", "7"}, {"8", "9", "A", "B", "C"}}

// TestBaggaBaldwinFigure6 reproduces Figure 6 and the prose around it: MUC
// 9/10 precision for both responses, B-cubed with equal weight per entity
// (bcub: 16/21 and 7/12) and with equal weight per equivalence class
// (bcub_entity: 39/49 and 3/4); recall is 100% everywhere.
func TestBaggaBaldwinFigure6(t *testing.T) {
	tests := []struct {
		name          string
		response      [][]string
		bcubP, classP frac
	}{
		{
			// Figure 2: the small chain {6, 7} joins a large one.
			name:     "example 1 (figure 2)",
			response: [][]string{{"1", "2", "3", "4", "5"}, {"6", "7", "8", "9", "A", "B", "C"}},
			bcubP:    frac{16, 21},
			// Per class: (1 + (2²+5²)/7²) / 2 = (1 + 29/49) / 2 = 39/49.
			classP: frac{39, 49},
		},
		{
			// Figure 4: the two large chains are joined.
			name:     "example 2 (figure 4)",
			response: [][]string{{"1", "2", "3", "4", "5", "8", "9", "A", "B", "C"}, {"6", "7"}},
			bcubP:    frac{7, 12},
			// Per class: ((5²+5²)/10² + 1) / 2 = 3/4.
			classP: frac{3, 4},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			row := scoreRow(t, docOf(baggaTruth, tc.response), Options{})
			assertFrac(t, row, "muc", "recall", frac{9, 9})
			assertFrac(t, row, "muc", "precision", frac{9, 10})
			assertFrac(t, row, "bcub", "recall", frac{1, 1})
			assertFrac(t, row, "bcub", "precision", tc.bcubP)
			assertFrac(t, row, "bcub_entity", "recall", frac{1, 1})
			assertFrac(t, row, "bcub_entity", "precision", tc.classP)
			// The per-entity variant weighs each of the 12 entities 1/12.
			assert.Equal(t, 12.0, row["bcub.precision_den"])
			// The per-class variant's denominators are the class counts.
			assert.Equal(t, 3.0, row["bcub_entity.recall_den"])
			assert.Equal(t, 2.0, row["bcub_entity.precision_den"])
		})
	}
}

// TestPradhanSection4 reproduces the worked example of Pradhan et al. (2014,
// §4), seed 001: K = {a b c}{d e f g}, R = {a b}{c d}{f g h i}; e is missing
// from the response, h and i are spurious.
//
// Printed values that were rounded: B³ recall "≈ 0.42" is 35/84 = 0.41666…;
// the printed B³ F1 0.46 comes from the rounded 0.42 (2·.42·.5/.92 = .4565),
// the exact F1 is 5/11 = 0.4545…; CEAF_m recall "≈ 0.57" is 4/7; CEAF_e
// precision "≈ 0.43" is 13/30; BLANC Fc "≈ 0.23" comes from the rounded .22
// and .25 (exact 4/17 = 0.2353).
func TestPradhanSection4(t *testing.T) {
	key := [][]string{{"a", "b", "c"}, {"d", "e", "f", "g"}}
	response := [][]string{{"a", "b"}, {"c", "d"}, {"f", "g", "h", "i"}}
	row := scoreRow(t, docOf(key, response), Options{})

	tests := []struct {
		prefix            string
		recall, precision frac
	}{
		// §4.1: ((3-2)+(4-3))/((3-1)+(4-1)) and ((2-1)+(2-2)+(4-3))/((2-1)+(2-1)+(4-1)).
		{"muc", frac{2, 5}, frac{2, 5}},
		// §4.2: (1/7)(4/3+1/3+1/4+4/4) = 35/84; (1/8)(4/2+1/2+1/2+4/4) = 4/8.
		{"bcub", frac{35, 84}, frac{4, 8}},
		// §4.3.1: (2+2)/(3+4), (2+2)/(2+2+4).
		{"ceafm", frac{4, 7}, frac{4, 8}},
		// §4.3.2: (4/5 + 4/8)/2 = 0.65 and /3 = 13/30.
		{"ceafe", frac{13, 20}, frac{13, 30}},
		// §4.4: Rc 2/9, Pc 2/8.
		{"blanc.coref", frac{2, 9}, frac{2, 8}},
		// §4.4: Rn 8/12, Pn 8/20.
		{"blanc.noncoref", frac{8, 12}, frac{8, 20}},
		// Mention detection: 7 key mentions, 8 response mentions, 6 common.
		{"mentions", frac{6, 7}, frac{6, 8}},
	}
	for _, tc := range tests {
		t.Run(tc.prefix, func(t *testing.T) {
			assertFrac(t, row, tc.prefix, "recall", tc.recall)
			assertFrac(t, row, tc.prefix, "precision", tc.precision)
		})
	}
	// BLANC's counts are the link counts themselves, not only their ratios.
	assert.Equal(t, []float64{2, 9, 2, 8, 8, 12, 8, 20}, []float64{
		row["blanc.coref.recall_num"], row["blanc.coref.recall_den"],
		row["blanc.coref.precision_num"], row["blanc.coref.precision_den"],
		row["blanc.noncoref.recall_num"], row["blanc.noncoref.recall_den"],
		row["blanc.noncoref.precision_num"], row["blanc.noncoref.precision_den"],
	})
	// Exact F1 values behind the printed (rounded) ones.
	f1 := func(p string) float64 {
		r := row[p+".recall_num"] / row[p+".recall_den"]
		q := row[p+".precision_num"] / row[p+".precision_den"]
		return 2 * r * q / (r + q)
	}
	assert.InDelta(t, 0.40, f1("muc"), 1e-12)
	assert.InDelta(t, 5.0/11, f1("bcub"), 1e-12)
	assert.InDelta(t, 8.0/15, f1("ceafm"), 1e-12)
	assert.InDelta(t, 0.52, f1("ceafe"), 1e-12)
	assert.InDelta(t, 4.0/17, f1("blanc.coref"), 1e-12)
}
