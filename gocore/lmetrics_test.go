package gocore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The weight vectors of Chen & Ng (2013), §4.1.
var (
	lmW1 = [4]float64{1.0, 1.0, 1.0, 1e-20}
	lmW2 = [4]float64{1.0, 1.0, 1.0, 0.5}
	lmW3 = [4]float64{1.0, 1.0, 1.0, 1.0}
	lmW4 = [4]float64{1.0, 0.75, 0.5, 1.0}
	lmW5 = [4]float64{1.0, 0.5, 0.25, 1.0}
)

// letterDoc builds a document over one-letter mentions from a type string
// and two chain lists. types gives, per letter in order from 'a', its type
// code: 'N' name, 'O' nominal, 'P' pronoun, '-' none. A chain list is
// chains separated by spaces, e.g. "abc defg"; a mention of the type string
// in no chain of a side is a singleton on that side, unless the side's list
// of absent mentions names it. Mention ids are letter - 'a'; the types go on
// both sides.
func letterDoc(name, types, key, resp, keyAbsent, respAbsent string) Document {
	side := func(chains, absent string) Side {
		var s Side
		in := map[rune]bool{}
		cluster := int64(0)
		add := func(r rune, c int64) {
			s.Mentions = append(s.Mentions, int64(r-'a'))
			s.Clusters = append(s.Clusters, c)
			s.Types = append(s.Types, lmTypeCode(types[r-'a']))
			in[r] = true
		}
		for _, ch := range strings.Fields(chains) {
			for _, r := range ch {
				add(r, cluster)
			}
			cluster++
		}
		for i := range types {
			r := rune('a' + i)
			if !in[r] && !strings.ContainsRune(absent, r) {
				add(r, cluster)
				cluster++
			}
		}
		return s
	}
	return Document{Name: name, Key: side(key, keyAbsent), Response: side(resp, respAbsent)}
}

func lmTypeCode(b byte) MentionType {
	switch b {
	case 'N':
		return TypeName
	case 'O':
		return TypeNominal
	case 'P':
		return TypePronoun
	}
	return TypeUnknown
}

// rpf holds recall, precision and F1 in percent.
type rpf struct{ R, P, F float64 }

// scoreRPF scores one document and returns each metric's recall, precision
// and F1 in percent, computed from its columns as the Python side does.
func scoreRPF(t *testing.T, docs []Document, opt Options, metrics ...string) map[string]rpf {
	t.Helper()
	set, err := ParseMetrics(metrics)
	require.NoError(t, err)
	opt.Metrics = set
	counts := make([]float64, len(docs)*NumColumns())
	_, err = ScoreBatch(docs, opt, counts)
	require.NoError(t, err)
	out := map[string]rpf{}
	for _, m := range metrics {
		sum := func(suffix string) float64 {
			col := ColumnIndex(m + "." + suffix)
			require.GreaterOrEqual(t, col, 0, m+"."+suffix)
			s := 0.0
			for d := range docs {
				s += counts[d*NumColumns()+col]
			}
			return s
		}
		r := lmRatio(sum("recall_num"), sum("recall_den"))
		p := lmRatio(sum("precision_num"), sum("precision_den"))
		out[m] = rpf{100 * r, 100 * p, 100 * lmRatio(2*r*p, r+p)}
	}
	return out
}

func lmRatio(n, d float64) float64 {
	if d == 0 {
		return 0
	}
	return n / d
}

// chenNgTypes are the types of the 20 mentions a..t of Figure 1 of Chen & Ng
// (2013): Jesus, he, I, Jerusalem, the city, it, you ×5 with your ×2 (g..m),
// your enemies, They, peace, now, A time, all sides, all your people. The
// prose says 19 mentions but names 20. "now" (q) is a singleton in every
// response, so its type changes nothing; it is given as a nominal.
const chenNgTypes = "NPPNOPPPPPPPPOPOOOOO"

// chenNgKey is the key of Figure 2: chains 1-3, and singletons p..t.
const chenNgKey = "abc defghijklm no"

// chenNgResponses rebuilds responses (a)-(e) from §4.1: S_you = {g..m} and
// {b, c} in (a); (b), (c), (d) link S_you to the pronoun f, the nominal e and
// the name d; (e) finds the informative antecedents of b, c (a), e, f (d) and
// o (n) but wrongly links S_you to a, b, c.
var chenNgResponses = []struct{ name, chains string }{
	{"a", "ghijklm bc"},
	{"b", "fghijklm bc"},
	{"c", "eghijklm bc"},
	{"d", "dghijklm bc"},
	{"e", "abcghijklm def no"},
}

// TestChenNgTable1 reproduces every number of Table 1 of Chen & Ng (2013):
// the original metrics (from the registry's muc, bcub, ceafm, ceafe) and the
// linguistically aware ones with W4, to the printed 0.1.
func TestChenNgTable1(t *testing.T) {
	// Rows of Table 1 in the paper's column order.
	table1 := map[string][8]rpf{
		"a": {{58.3, 100, 73.7}, {50.7, 58.6, 54.4}, {64.3, 100, 78.3}, {39.2, 70.0, 50.2},
			{75.0, 75.0, 75.0}, {50.7, 58.6, 54.4}, {91.1, 56.1, 69.4}, {73.8, 45.4, 56.2}},
		"b": {{66.7, 100, 80.0}, {53.7, 64.3, 58.5}, {71.3, 100, 83.3}, {43.1, 75.0, 54.7},
			{80.0, 80.0, 80.0}, {53.7, 64.3, 58.5}, {91.9, 61.3, 73.6}, {74.5, 49.7, 59.6}},
		"c": {{66.7, 100, 80.0}, {64.2, 68.3, 66.2}, {71.3, 100, 83.3}, {50.8, 75.0, 60.6},
			{80.0, 80.0, 80.0}, {64.2, 68.3, 66.2}, {91.9, 61.3, 73.6}, {76.7, 51.1, 61.4}},
		"d": {{66.7, 100, 80.0}, {74.6, 71.4, 73.0}, {71.3, 100, 83.3}, {58.6, 75.0, 65.8},
			{80.0, 80.0, 80.0}, {74.6, 71.4, 73.0}, {91.9, 61.3, 73.6}, {78.4, 52.3, 62.8}},
		"e": {{91.7, 91.7, 91.7}, {76.1, 92.7, 83.6}, {79.0, 79.0, 79.0}, {65.0, 72.5, 68.5},
			{70.0, 70.0, 70.0}, {58.2, 70.9, 63.9}, {86.5, 86.5, 86.5}, {85.8, 85.8, 85.8}},
	}
	metrics := []string{"muc", "lmuc", "bcub", "lbcub", "ceafm", "lceafm", "ceafe", "lceafe"}
	for _, resp := range chenNgResponses {
		t.Run(resp.name, func(t *testing.T) {
			d := letterDoc(resp.name, chenNgTypes, chenNgKey, resp.chains, "", "")
			got := scoreRPF(t, []Document{d}, Options{LinkWeights: lmW4}, metrics...)
			for i, m := range metrics {
				want := table1[resp.name][i]
				g := got[m]
				const tol = 0.05 + 1e-9 // printed to 0.1
				assert.InDelta(t, want.R, g.R, tol, "%s recall", m)
				assert.InDelta(t, want.P, g.P, tol, "%s precision", m)
				assert.InDelta(t, want.F, g.F, tol, "%s F1", m)
			}
		})
	}
}

// TestChenNgClaims asserts the qualitative claims of §4.2 and §4.3.
func TestChenNgClaims(t *testing.T) {
	scores := func(w [4]float64) map[string]map[string]rpf {
		out := map[string]map[string]rpf{}
		for _, resp := range chenNgResponses {
			d := letterDoc(resp.name, chenNgTypes, chenNgKey, resp.chains, "", "")
			out[resp.name] = scoreRPF(t, []Document{d}, Options{LinkWeights: w},
				"muc", "bcub", "lmuc", "lbcub", "lceafm", "lceafe")
		}
		return out
	}
	w1, w2, w3, w4, w5 := scores(lmW1), scores(lmW2), scores(lmW3), scores(lmW4), scores(lmW5)
	lmetrics := []string{"lmuc", "lbcub", "lceafm", "lceafe"}

	t.Run("w_sing leaves LB3 and LCEAF_e unchanged", func(t *testing.T) {
		for _, resp := range chenNgResponses {
			for _, m := range []string{"lbcub", "lceafe"} {
				for _, other := range []map[string]map[string]rpf{w2, w3} {
					assert.InDelta(t, w1[resp.name][m].R, other[resp.name][m].R, 1e-9, "%s (%s)", m, resp.name)
					assert.InDelta(t, w1[resp.name][m].P, other[resp.name][m].P, 1e-9, "%s (%s)", m, resp.name)
				}
			}
		}
	})
	t.Run("w_sing moves LMUC and LCEAF_m", func(t *testing.T) {
		// LMUC(W1) is almost MUC; W2 and W3 lower (a)-(d), and (e) scores
		// above MUC under W3.
		for _, resp := range chenNgResponses {
			assert.InDelta(t, w1[resp.name]["muc"].F, w1[resp.name]["lmuc"].F, 1e-9, resp.name)
			if resp.name != "e" {
				assert.Less(t, w2[resp.name]["lmuc"].F, w1[resp.name]["lmuc"].F, resp.name)
				assert.Less(t, w3[resp.name]["lmuc"].F, w1[resp.name]["lmuc"].F, resp.name)
			}
		}
		assert.Greater(t, w3["e"]["lmuc"].F, w3["e"]["muc"].F)
		// LCEAF_m(W1) prefers (a) to (e); LCEAF_m(W3) prefers (e) to (a).
		assert.Greater(t, w1["a"]["lceafm"].F, w1["e"]["lceafm"].F)
		assert.Greater(t, w3["e"]["lceafm"].F, w3["a"]["lceafm"].F)
	})
	t.Run("LB3 penalises the erroneous singletons of (a)", func(t *testing.T) {
		// B3 gives (e) only 0.7 points more than (a); LB3 much more.
		assert.InDelta(t, 0.7, w4["e"]["bcub"].F-w4["a"]["bcub"].F, 0.05+1e-9)
		assert.Greater(t, w4["e"]["lbcub"].F-w4["a"]["lbcub"].F, 10.0)
	})
	t.Run("W4 and W5 rank (d) > (c) > (b), W5 lower on (a)", func(t *testing.T) {
		for _, w := range []map[string]map[string]rpf{w4, w5} {
			for _, m := range lmetrics {
				assert.Greater(t, w["d"][m].F, w["c"][m].F, m)
				assert.Greater(t, w["c"][m].F, w["b"][m].F, m)
			}
		}
		for _, m := range lmetrics {
			assert.Less(t, w5["a"][m].F, w4["a"][m].F, m)
		}
	})
	t.Run("the gaps widen from W4 to W5", func(t *testing.T) {
		for _, m := range lmetrics {
			assert.Greater(t, w5["c"][m].F-w5["b"][m].F, w4["c"][m].F-w4["b"][m].F, m)
			assert.Greater(t, w5["d"][m].F-w5["c"][m].F, w4["d"][m].F-w4["c"][m].F, m)
		}
	})
}

// TestLWeightFunctions checks w_c^L, w_k^L and w_s^L on small cases worked
// by hand, including E_t(S_j) and twinless response mentions.
func TestLWeightFunctions(t *testing.T) {
	tests := []struct {
		name       string
		types      string
		key, resp  string
		respAbsent string
		keyAbsent  string
		wc         []float64 // per cell, in t.Cells order
		wk, ws     []float64
	}{
		{
			// Hillary Clinton, she, she (§1): R1 links the name and a pronoun.
			name: "R1 name-pronoun", types: "NPP", key: "abc", resp: "ab",
			wc: []float64{1.0, 0}, wk: []float64{2.0}, ws: []float64{1.0, 1.0},
		},
		{
			// R2 links the two pronouns.
			name: "R2 pronoun-pronoun", types: "NPP", key: "abc", resp: "bc",
			wc: []float64{0, 0.5}, wk: []float64{2.0}, ws: []float64{0.5, 1.0},
		},
		{
			// A nominal and two pronouns: both pronouns attach to the nominal.
			name: "nominal hub", types: "OPP", key: "abc", resp: "abc",
			wc: []float64{1.5}, wk: []float64{1.5}, ws: []float64{1.5},
		},
		{
			// One response chain over two key chains {a N, b P} and {c P, d P}:
			// the spurious link of E_t is the heaviest, name-pronoun (1.0).
			name: "spurious link", types: "NPPP", key: "ab cd", resp: "abcd",
			wc: []float64{1.0, 0.5}, wk: []float64{1.0, 0.5}, ws: []float64{1.0 + 0.5 + 1.0},
		},
		{
			// Three parts: {a, b} (N, O), {c} (P), {d} (P). E_t joins both
			// pronoun parts to the name part: 1.0 + 1.0.
			name: "three parts", types: "NOPP", key: "ab c d", resp: "abcd",
			wc: []float64{1.0, 0, 0}, wk: []float64{1.0, 1.0, 1.0}, ws: []float64{1.0 + 2.0},
		},
		{
			// Pronoun parts only: E_t weighs w_pro per link.
			name: "pronoun parts", types: "PPPP", key: "ab c d", resp: "abcd",
			wc: []float64{0.5, 0, 0}, wk: []float64{0.5, 1.0, 1.0}, ws: []float64{0.5 + 1.0},
		},
		{
			// Twinless response mention e (a name) joins key chain {a P, b P}:
			// its part earns nothing and the link to it is spurious (1.0).
			name: "twinless name", types: "PPN", key: "ab", keyAbsent: "c", resp: "abc",
			wc: []float64{0.5}, wk: []float64{0.5}, ws: []float64{0.5 + 1.0},
		},
		{
			// A twinless singleton earns nothing but weighs w_sing.
			name: "twinless singleton", types: "NP", key: "a", keyAbsent: "b", resp: "a b",
			wc: []float64{1.0}, wk: []float64{1.0}, ws: []float64{1.0, 1.0},
		},
		{
			// A key mention missing from the response weighs in w_k only.
			name: "missing key mention", types: "NPP", key: "abc", resp: "ab", respAbsent: "c",
			wc: []float64{1.0}, wk: []float64{2.0}, ws: []float64{1.0},
		},
		{
			// A singleton cell of a larger key chain earns nothing.
			name: "broken singleton", types: "NO", key: "ab", resp: "a b",
			wc: []float64{0, 0}, wk: []float64{1.0}, ws: []float64{1.0, 1.0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := letterDoc(tt.name, tt.types, tt.key, tt.resp, tt.keyAbsent, tt.respAbsent)
			var dups []Duplicate
			tab, err := NewTable(&d, 0, &Options{}, &dups)
			require.NoError(t, err)
			lw := newLWeights(tab, lmW4)
			assert.InDeltaSlice(t, tt.wc, lw.wc, 1e-12, "w_c")
			assert.InDeltaSlice(t, tt.wk, lw.wk, 1e-12, "w_k")
			assert.InDeltaSlice(t, tt.ws, lw.ws, 1e-12, "w_s")
		})
	}
}

// primMaxSpan is Prim's algorithm for the weight of a maximum spanning
// tree of the complete graph on n vertices with edge weights edge(i, j).
func primMaxSpan(n int, edge func(i, j int) float64) float64 {
	if n < 2 {
		return 0
	}
	in := make([]bool, n)
	best := make([]float64, n)
	in[0] = true
	for j := 1; j < n; j++ {
		best[j] = edge(0, j)
	}
	total := 0.0
	for step := 1; step < n; step++ {
		pick := -1
		for j := 0; j < n; j++ {
			if !in[j] && (pick < 0 || best[j] > best[pick]) {
				pick = j
			}
		}
		in[pick] = true
		total += best[pick]
		for j := 0; j < n; j++ {
			if !in[j] {
				best[j] = math.Max(best[j], edge(pick, j))
			}
		}
	}
	return total
}

// lmBruteSpan is a second, simpler implementation of the maximum spanning
// tree: Prim's algorithm on the explicit complete graph over the mentions.
func lmBruteSpan(types []MentionType, w [4]float64) float64 {
	link := func(a, b MentionType) float64 {
		switch {
		case a == TypeName || b == TypeName:
			return w[0]
		case a == TypeNominal || b == TypeNominal:
			return w[1]
		}
		return w[2]
	}
	return primMaxSpan(len(types), func(i, j int) float64 { return link(types[i], types[j]) })
}

// lmBrutePartsSpan is the explicit form of E_t(S_j): Prim's algorithm over
// the parts, the edge between two parts being the heaviest link between
// their mentions.
func lmBrutePartsSpan(parts [][]MentionType, w [4]float64) float64 {
	return primMaxSpan(len(parts), func(x, y int) float64 {
		best := math.Inf(-1)
		for _, a := range parts[x] {
			for _, b := range parts[y] {
				best = math.Max(best, lmBruteSpan([]MentionType{a, b}, w))
			}
		}
		return best
	})
}

// TestSpanAgainstPrim checks the counting form of Kruskal's rule against
// Prim's algorithm on explicit graphs, for random type mixes and weight
// vectors, including weights that are not ordered name > nominal > pronoun.
func TestSpanAgainstPrim(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 2000; trial++ {
		w := [4]float64{rng.Float64() + 0.01, rng.Float64() + 0.01, rng.Float64() + 0.01, 1}
		if trial%3 == 0 { // ties
			w[1] = w[0]
		}
		lw := newLinkWeighter(w)
		// A chain.
		n := rng.IntN(9)
		types := make([]MentionType, n)
		var c sigCounts
		for i := range types {
			types[i] = MentionType(1 + rng.IntN(3))
			c[typeBit(types[i])]++
		}
		require.InDelta(t, lmBruteSpan(types, w), lw.span(&c), 1e-12, "chain %v w %v", types, w)
		// Parts of a response chain.
		np := rng.IntN(7)
		parts := make([][]MentionType, np)
		var pc sigCounts
		for i := range parts {
			var sig uint8
			for len(parts[i]) == 0 || rng.IntN(3) == 0 {
				ty := MentionType(1 + rng.IntN(3))
				parts[i] = append(parts[i], ty)
				sig |= typeBit(ty)
			}
			pc[sig]++
		}
		require.InDelta(t, lmBrutePartsSpan(parts, w), lw.span(&pc), 1e-12, "parts %v w %v", parts, w)
	}
}

// lmSynthDoc returns a seeded synthetic typed document of about n key
// mentions and a perturbed response: some key mentions dropped, some
// twinless response mentions added, some mentions moved between chains.
// Mention ids are sparse and shuffled relative to the chains.
func lmSynthDoc(seed uint64, n int) Document {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	d := Document{Name: fmt.Sprintf("synth-%d-%d", seed, n)}
	typeOf := func() MentionType {
		// Roughly the shares of OntoNotes: names, nominals, pronouns.
		switch u := rng.Float64(); {
		case u < 0.3:
			return TypeName
		case u < 0.65:
			return TypeNominal
		}
		return TypePronoun
	}
	cluster := int64(0)
	for len(d.Key.Mentions) < n {
		size := 1
		if rng.Float64() < 0.5 {
			size = 2 + rng.IntN(6)
		}
		for i := 0; i < size && len(d.Key.Mentions) < n; i++ {
			d.Key.Mentions = append(d.Key.Mentions, int64(len(d.Key.Mentions))*13+5)
			d.Key.Clusters = append(d.Key.Clusters, cluster)
			d.Key.Types = append(d.Key.Types, typeOf())
		}
		cluster++
	}
	rng.Shuffle(len(d.Key.Mentions), func(i, j int) {
		d.Key.Clusters[i], d.Key.Clusters[j] = d.Key.Clusters[j], d.Key.Clusters[i]
		d.Key.Types[i], d.Key.Types[j] = d.Key.Types[j], d.Key.Types[i]
	})
	nClusters := cluster
	for i, m := range d.Key.Mentions {
		if rng.Float64() < 0.07 {
			continue // missing from the response
		}
		c := d.Key.Clusters[i]*3 + 1
		if rng.Float64() < 0.1 {
			c = rng.Int64N(nClusters)*3 + 1 // moved
		}
		d.Response.Mentions = append(d.Response.Mentions, m)
		d.Response.Clusters = append(d.Response.Clusters, c)
		d.Response.Types = append(d.Response.Types, d.Key.Types[i])
		if rng.Float64() < 0.07 { // a twinless mention next to it
			d.Response.Mentions = append(d.Response.Mentions, m+1)
			c2 := c
			if rng.IntN(2) == 0 {
				c2 = nClusters*3 + 2 + int64(len(d.Response.Mentions))*3
			}
			d.Response.Clusters = append(d.Response.Clusters, c2)
			d.Response.Types = append(d.Response.Types, typeOf())
		}
	}
	return d
}

// lmAll lists the metrics of this issue.
var lmAll = []string{"lmuc", "lbcub", "lceafm", "lceafe"}

// TestLMetricsPerfect: a perfect typed response scores 1 on every L-metric,
// for every weight vector, with and without singletons.
func TestLMetricsPerfect(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		d := lmSynthDoc(seed, 300)
		d.Response = d.Key
		for _, w := range [][4]float64{lmW1, lmW2, lmW3, lmW4, lmW5} {
			for _, sing := range []SingletonPolicy{SingletonsKeep, SingletonsExclude} {
				got := scoreRPF(t, []Document{d}, Options{LinkWeights: w, Singletons: sing}, lmAll...)
				for _, m := range lmAll {
					assert.InDelta(t, 100, got[m].R, 1e-9, "%s recall seed %d w %v", m, seed, w)
					assert.InDelta(t, 100, got[m].P, 1e-9, "%s precision seed %d w %v", m, seed, w)
				}
			}
		}
	}
}

// TestLMUCW1IsMUC: with W1 LMUC equals MUC (Chen & Ng §4.2) when key and
// response hold the same mentions and both have a link.
func TestLMUCW1IsMUC(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		d := lmSynthDoc(seed, 200)
		// Same mentions on both sides: the key's, clustered as the response.
		resp := map[int64]int64{}
		for i, m := range d.Response.Mentions {
			resp[m] = d.Response.Clusters[i]
		}
		d.Response = Side{}
		for i, m := range d.Key.Mentions {
			c, ok := resp[m]
			if !ok {
				c = 1_000_000 + int64(i) // a singleton of its own
			}
			d.Response.Mentions = append(d.Response.Mentions, m)
			d.Response.Clusters = append(d.Response.Clusters, c)
		}
		got := scoreRPF(t, []Document{d}, Options{LinkWeights: lmW1}, "muc", "lmuc")
		assert.InDelta(t, got["muc"].R/100, got["lmuc"].R/100, 1e-9, "recall seed %d", seed)
		assert.InDelta(t, got["muc"].P/100, got["lmuc"].P/100, 1e-9, "precision seed %d", seed)
	}
}

// lmRenumber returns d with mention ids and cluster ids replaced through
// random bijections and both sides' arrays shuffled.
func lmRenumber(rng *rand.Rand, d Document, shuffle bool) Document {
	ids := map[int64]int64{}
	newID := func(m int64) int64 {
		if v, ok := ids[m]; ok {
			return v
		}
		v := rng.Int64N(1 << 40)
		for {
			clash := false
			for _, u := range ids {
				if u == v {
					clash = true
					break
				}
			}
			if !clash {
				break
			}
			v = rng.Int64N(1 << 40)
		}
		ids[m] = v
		return v
	}
	side := func(s Side) Side {
		labels := map[int64]int64{}
		out := Side{Types: append([]MentionType(nil), s.Types...)}
		for i, m := range s.Mentions {
			c, ok := labels[s.Clusters[i]]
			if !ok {
				c = rng.Int64N(1 << 50)
				labels[s.Clusters[i]] = c
			}
			out.Mentions = append(out.Mentions, newID(m))
			out.Clusters = append(out.Clusters, c)
		}
		if shuffle {
			rng.Shuffle(len(out.Mentions), func(i, j int) {
				out.Mentions[i], out.Mentions[j] = out.Mentions[j], out.Mentions[i]
				out.Clusters[i], out.Clusters[j] = out.Clusters[j], out.Clusters[i]
				if out.Types != nil {
					out.Types[i], out.Types[j] = out.Types[j], out.Types[i]
				}
			})
		}
		return out
	}
	return Document{Name: d.Name, Key: side(d.Key), Response: side(d.Response)}
}

// TestLMetricsRenumbering: the L-metrics depend neither on mention or cluster
// ids nor on the order of the input arrays.
func TestLMetricsRenumbering(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for seed := uint64(1); seed <= 5; seed++ {
		d := lmSynthDoc(seed, 150)
		want := lmCounts(t, []Document{d}, Options{})
		got := lmCounts(t, []Document{lmRenumber(rng, d, true)}, Options{})
		for _, m := range lmAll {
			for _, c := range rpColumns {
				col := ColumnIndex(m + "." + c)
				assert.InDelta(t, want[col], got[col], 1e-9, "%s.%s seed %d", m, c, seed)
			}
		}
	}
}

// lmCounts scores docs with every metric of this issue and DA and returns the
// column sums.
func lmCounts(t *testing.T, docs []Document, opt Options) []float64 {
	t.Helper()
	set, err := ParseMetrics(append(append([]string{}, lmAll...), "da"))
	require.NoError(t, err)
	opt.Metrics = set
	counts := make([]float64, len(docs)*NumColumns())
	_, err = ScoreBatch(docs, opt, counts)
	require.NoError(t, err)
	sum := make([]float64, NumColumns())
	for d := range docs {
		for c := range sum {
			sum[c] += counts[d*NumColumns()+c]
		}
	}
	return sum
}

// TestLMetricsAddUp: the counts of a batch are the sums of the counts of its
// documents, scored one at a time.
func TestLMetricsAddUp(t *testing.T) {
	var docs []Document
	for seed := uint64(1); seed <= 6; seed++ {
		docs = append(docs, lmSynthDoc(seed, 50+int(seed)*40))
	}
	for _, resp := range chenNgResponses {
		docs = append(docs, letterDoc(resp.name, chenNgTypes, chenNgKey, resp.chains, "", ""))
	}
	whole := lmCounts(t, docs, Options{Workers: 3})
	sum := make([]float64, NumColumns())
	for _, d := range docs {
		one := lmCounts(t, []Document{d}, Options{Workers: 1})
		for c := range sum {
			sum[c] += one[c]
		}
	}
	assert.InDeltaSlice(t, sum, whole, 1e-9)
	// A few columns must be non-trivial for the check to mean something.
	for _, m := range append(append([]string{}, lmAll...), "da") {
		assert.Greater(t, whole[ColumnIndex(m+".recall_num")], 0.0, m)
	}
}

// TestLMetricsMissingTypes: asked for by name, an L-metric refuses a document
// with an untyped mention and says which; among all metrics implicitly it is
// skipped and the classic metrics still score.
func TestLMetricsMissingTypes(t *testing.T) {
	d := letterDoc("untyped", "NPP", "abc", "ab", "", "")
	d.Key.Types[1] = TypeUnknown
	d.Response.Types = nil
	tests := []struct {
		name string
		doc  Document
		want string
		pos  int // position of the untyped mention in the key
	}{
		{"one untyped mention", d, "this one has none", 1},
		{"no types", Document{Name: "bare", Key: Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}},
			Response: Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}}}, "no mention types were given", 0},
	}
	for _, tt := range tests {
		for _, m := range lmAll {
			t.Run(tt.name+"/"+m, func(t *testing.T) {
				set, err := ParseMetrics([]string{m})
				require.NoError(t, err)
				counts := make([]float64, NumColumns())
				_, err = ScoreBatch([]Document{tt.doc}, Options{Metrics: set}, counts)
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrMissingTypes)
				assert.Contains(t, err.Error(), tt.doc.Name)
				assert.Contains(t, err.Error(), m)
				assert.Contains(t, err.Error(), tt.want)
				e := AsError(err)
				assert.Equal(t, KindMissingTypes, e.Kind)
				assert.Equal(t, []int{0, int(KeySide), tt.pos}, []int{e.Doc, e.Side, e.Mention})
			})
		}
		t.Run(tt.name+"/all metrics", func(t *testing.T) {
			counts := make([]float64, NumColumns())
			_, err := ScoreBatch([]Document{tt.doc}, Options{}, counts)
			require.NoError(t, err)
			assert.Greater(t, counts[ColumnIndex("muc.recall_den")], 0.0)
			for _, m := range lmAll {
				assert.Zero(t, counts[ColumnIndex(m+".recall_den")], m)
			}
		})
	}
}

// TestLinkWeightsInvalid: each weight must be finite and positive.
func TestLinkWeightsInvalid(t *testing.T) {
	d := letterDoc("w", "NPP", "abc", "ab", "", "")
	tests := []struct {
		name string
		w    [4]float64
		want string
	}{
		{"negative w_nam", [4]float64{-1, 0.75, 0.5, 1}, "w_nam"},
		{"zero w_pro", [4]float64{1, 0.75, 0, 1}, "w_pro"},
		{"zero w_sing", [4]float64{1, 0.75, 0.5, 0}, "w_sing"},
		{"NaN w_nom", [4]float64{1, math.NaN(), 0.5, 1}, "w_nom"},
		{"infinite w_sing", [4]float64{1, 0.75, 0.5, math.Inf(1)}, "w_sing"},
	}
	for _, tt := range tests {
		for _, m := range lmAll {
			t.Run(tt.name+"/"+m, func(t *testing.T) {
				set, err := ParseMetrics([]string{m})
				require.NoError(t, err)
				counts := make([]float64, NumColumns())
				_, err = ScoreBatch([]Document{d}, Options{Metrics: set, LinkWeights: tt.w}, counts)
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrInvalidInput)
				assert.Contains(t, err.Error(), tt.want)
			})
		}
	}
}

// TestLMetricsDefaultWeights: the zero LinkWeights mean W4, also when a
// Table is scored directly without ScoreBatch's defaults.
func TestLMetricsDefaultWeights(t *testing.T) {
	d := letterDoc("c", chenNgTypes, chenNgKey, "eghijklm bc", "", "")
	var dups []Duplicate
	tab, err := NewTable(&d, 0, &Options{}, &dups)
	require.NoError(t, err)
	out := make([]float64, 4)
	require.NoError(t, lmucCounts(tab, &Options{Metrics: 1}, out))
	// Response (c) of Table 1: LMUC recall 64.2, precision 68.3 with W4.
	assert.InDelta(t, 64.2, 100*out[0]/out[1], 0.05)
	assert.InDelta(t, 68.3, 100*out[2]/out[3], 0.05)
}

// lmBenchSizes is the size ladder of the benchmarks: key mentions in one
// document.
var lmBenchSizes = []int{1_000, 10_000, 100_000}

// BenchmarkLMetrics scores each L-metric and DA (optimal and greedy) on its
// own on a seeded synthetic typed document, table building included.
func BenchmarkLMetrics(b *testing.B) {
	for _, name := range []string{"lmuc", "lbcub", "lceafm", "lceafe", "da", "da-greedy"} {
		metric := strings.TrimSuffix(name, "-greedy")
		set, err := ParseMetrics([]string{metric})
		if err != nil {
			b.Fatal(err)
		}
		opt := Options{Metrics: set, DAGreedy: metric != name}
		for _, n := range lmBenchSizes {
			d := lmSynthDoc(uint64(n), n)
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				docs := []Document{d}
				counts := make([]float64, NumColumns())
				b.ReportAllocs()
				for b.Loop() {
					if _, err := ScoreBatch(docs, opt, counts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// lmOracle computes the four L-metrics' counts of a small document straight
// from the definitions of Chen & Ng (2013), on explicit sets of mention ids:
// spanning trees by Prim's algorithm (lmBruteSpan, lmBrutePartsSpan), the
// partition P(S_j) with one part per key chain met and one per response
// mention in no key chain, and the CEAF alignments by trying every injective
// map. It assumes distinct mention ids on each side.
func lmOracle(d Document, w [4]float64) map[string][4]float64 {
	type chain struct {
		ids   []int64
		types []MentionType
	}
	group := func(s Side) ([]chain, map[int64]int) {
		byLabel := map[int64]int{}
		var chains []chain
		of := map[int64]int{}
		for i, m := range s.Mentions {
			c, ok := byLabel[s.Clusters[i]]
			if !ok {
				c = len(chains)
				byLabel[s.Clusters[i]] = c
				chains = append(chains, chain{})
			}
			chains[c].ids = append(chains[c].ids, m)
			chains[c].types = append(chains[c].types, s.Types[i])
			of[m] = c
		}
		return chains, of
	}
	keys, keyOf := group(d.Key)
	resps, _ := group(d.Response)
	wc := make([][]float64, len(keys)) // wc[i][j]
	for i := range wc {
		wc[i] = make([]float64, len(resps))
	}
	common := make([][]int, len(keys))
	for i := range common {
		common[i] = make([]int, len(resps))
	}
	ws := make([]float64, len(resps))
	for j, s := range resps {
		byKey := map[int][]MentionType{}
		var order []int
		var parts [][]MentionType
		for x, m := range s.ids {
			if i, ok := keyOf[m]; ok {
				if _, seen := byKey[i]; !seen {
					order = append(order, i)
				}
				byKey[i] = append(byKey[i], s.types[x])
			} else {
				parts = append(parts, []MentionType{s.types[x]}) // twinless: its own part
			}
		}
		for _, i := range order {
			c := byKey[i]
			common[i][j] = len(c)
			switch {
			case len(c) > 1:
				wc[i][j] = lmBruteSpan(c, w)
			case len(keys[i].ids) == 1 && len(s.ids) == 1:
				wc[i][j] = w[3]
			}
			parts = append(parts, c)
			ws[j] += wc[i][j]
		}
		if len(s.ids) == 1 {
			ws[j] = w[3]
		} else {
			ws[j] += lmBrutePartsSpan(parts, w)
		}
	}
	wk := make([]float64, len(keys))
	for i, k := range keys {
		wk[i] = w[3]
		if len(k.ids) > 1 {
			wk[i] = lmBruteSpan(k.types, w)
		}
	}
	var sumC, sumK, sumS, b3r, b3p float64
	for i := range keys {
		sumK += wk[i]
		for j := range resps {
			sumC += wc[i][j]
			if wc[i][j] > 0 {
				b3r += float64(common[i][j]) * wc[i][j] / wk[i]
				b3p += float64(common[i][j]) * wc[i][j] / ws[j]
			}
		}
	}
	for j := range resps {
		sumS += ws[j]
	}
	align := func(phi func(i, j int) float64) float64 {
		used := make([]bool, len(resps))
		var rec func(i int) float64
		rec = func(i int) float64 {
			if i == len(keys) {
				return 0
			}
			best := rec(i + 1)
			for j := range resps {
				if !used[j] && common[i][j] > 0 {
					used[j] = true
					best = math.Max(best, phi(i, j)+rec(i+1))
					used[j] = false
				}
			}
			return best
		}
		return rec(0)
	}
	phi3 := align(func(i, j int) float64 { return wc[i][j] })
	phi4 := align(func(i, j int) float64 { return 2 * wc[i][j] / (wk[i] + ws[j]) })
	return map[string][4]float64{
		"lmuc":   {sumC, sumK, sumC, sumS},
		"lbcub":  {b3r, float64(len(d.Key.Mentions)), b3p, float64(len(d.Response.Mentions))},
		"lceafm": {phi3, sumK, phi3, sumS},
		"lceafe": {phi4, float64(len(keys)), phi4, float64(len(resps))},
	}
}

// lmSmallDoc returns a random small typed document with predicted mentions:
// up to 9 mentions, each in the key, the response or both, in up to 4
// chains a side.
func lmSmallDoc(rng *rand.Rand) Document {
	d := Document{Name: "small"}
	n := 1 + rng.IntN(9)
	for m := 0; m < n; m++ {
		ty := MentionType(1 + rng.IntN(3))
		where := rng.IntN(6) // 0: key only, 1: response only, else both
		if where != 1 {
			d.Key.Mentions = append(d.Key.Mentions, int64(m))
			d.Key.Clusters = append(d.Key.Clusters, int64(rng.IntN(4)))
			d.Key.Types = append(d.Key.Types, ty)
		}
		if where != 0 {
			d.Response.Mentions = append(d.Response.Mentions, int64(m))
			d.Response.Clusters = append(d.Response.Clusters, int64(rng.IntN(4)))
			d.Response.Types = append(d.Response.Types, ty)
		}
	}
	return d
}

// TestLMetricsOracle compares the engine with lmOracle on random small
// documents with predicted mentions, for W1-W5 and random weights.
func TestLMetricsOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(2013, 7))
	set, err := ParseMetrics(lmAll)
	require.NoError(t, err)
	for trial := 0; trial < 3000; trial++ {
		d := lmSmallDoc(rng)
		ws := [][4]float64{lmW1, lmW2, lmW3, lmW4, lmW5,
			{0.1 + rng.Float64(), 0.1 + rng.Float64(), 0.1 + rng.Float64(), 0.1 + rng.Float64()}}
		w := ws[trial%len(ws)]
		want := lmOracle(d, scaleLinkWeights(w)) // counts are in units of the largest weight
		counts := make([]float64, NumColumns())
		_, err := ScoreBatch([]Document{d}, Options{Metrics: set, LinkWeights: w}, counts)
		require.NoError(t, err)
		for _, m := range lmAll {
			start := ColumnIndex(m + ".recall_num")
			got := counts[start : start+4]
			for c := range got {
				require.InDelta(t, want[m][c], got[c], 1e-9*(1+math.Abs(want[m][c])),
					"trial %d %s.%s w %v\nkey %+v\nresponse %+v", trial, m, rpColumns[c], w, d.Key, d.Response)
			}
		}
	}
}
