package gocore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// daScores are DA's quantities computed from summed columns as the Python
// side does.
type daScores struct {
	recallNum, recallDen, precisionNum, precisionDen float64
	incorrect, spurious, missing, errors             float64
	substitution, overgeneration, undergeneration    float64
}

func daScore(t *testing.T, docs []Document, opt Options) daScores {
	t.Helper()
	set, err := ParseMetrics([]string{"da"})
	require.NoError(t, err)
	opt.Metrics = set
	counts := make([]float64, len(docs)*NumColumns())
	_, err = ScoreBatch(docs, opt, counts)
	require.NoError(t, err)
	col := func(name string) float64 {
		i := ColumnIndex("da." + name)
		require.GreaterOrEqual(t, i, 0, name)
		s := 0.0
		for d := range docs {
			s += counts[d*NumColumns()+i]
		}
		return s
	}
	// Every key assignment is correct, incorrect or missing and every
	// response assignment correct, incorrect or spurious, in every document.
	start := ColumnIndex("da.recall_num")
	for d := range docs {
		row := counts[d*NumColumns()+start : d*NumColumns()+start+8]
		correct, possible, actual := row[0], row[1], row[3]
		incorrect, spurious, missing := row[4], row[5], row[6]
		require.Equal(t, correct, row[2], "document %d: correct", d)
		require.Equal(t, possible, correct+incorrect+missing, "document %d: possible", d)
		require.Equal(t, actual, correct+incorrect+spurious, "document %d: actual", d)
		require.Equal(t, row[7], incorrect+spurious+missing, "document %d: errors", d)
	}
	s := daScores{
		recallNum: col("recall_num"), recallDen: col("recall_den"),
		precisionNum: col("precision_num"), precisionDen: col("precision_den"),
		incorrect: col("incorrect"), spurious: col("spurious"), missing: col("missing"), errors: col("errors"),
	}
	s.substitution = lmRatio(s.incorrect, s.errors)
	s.overgeneration = lmRatio(s.spurious, s.errors)
	s.undergeneration = lmRatio(s.missing, s.errors)
	return s
}

// namedMention is a mention of a hand-built document: an expression, its
// type, and its chains on each side ("" when absent from that side).
type namedMention struct {
	text      string
	ty        MentionType
	key, resp string
}

// namedDoc builds a document from named mentions in text order; mention ids
// are positions. keyTyped and respTyped say whether each side carries types.
func namedDoc(name string, ms []namedMention, keyTyped, respTyped bool) Document {
	d := Document{Name: name}
	add := func(s *Side, m namedMention, i int, chain string, typed bool) {
		if chain == "" {
			return
		}
		s.Mentions = append(s.Mentions, int64(i))
		s.Clusters = append(s.Clusters, int64(chainLabel(chain)))
		if typed {
			s.Types = append(s.Types, m.ty)
		}
	}
	for i, m := range ms {
		add(&d.Key, m, i, m.key, keyTyped)
		add(&d.Response, m, i, m.resp, respTyped)
	}
	return d
}

// chainLabel turns a chain name into a cluster id.
func chainLabel(s string) int {
	h := 0
	for _, r := range s {
		h = h*131 + int(r)
	}
	return h & 0x7fffffff
}

// trouilleuxExample is the text of Figure 1 of Trouilleux et al. (2000) with
// its key (Figure 1) and response (Figure 2). Every expression of the figure
// that is bracketed in either annotation is a mention; the others are
// singletons on both sides and change nothing. Types: Mandela and Clinton
// are proper names, African Americans, slavery and Africans lexical NPs,
// his, he and it pronouns. The singleton chains of expressions bracketed
// only in the other annotation ({Mandela}, {African Americans}, {Africans}
// in the key; {Clinton}, {slavery}, {it} in the response) are listed; see
// trouilleuxVariants for the figures as printed.
var trouilleuxExample = []namedMention{
	{"Mandela", TypeName, "Mandela", "o1'"},
	{"Clinton", TypeName, "o1", "Clinton"},
	{"his", TypePronoun, "o1", "o1'"},
	{"African Americans", TypeNominal, "African Americans", "o2'"},
	{"slavery", TypeNominal, "o2", "slavery"},
	{"he", TypePronoun, "o1", "o1'"},
	{"Africans", TypeNominal, "Africans", "o2'"},
	{"it", TypePronoun, "o2", "it"},
}

// trouilleuxVariants returns the example with the singleton chains of
// expressions bracketed only on the other side listed on both sides, on the
// key side only, on the response side only, or on neither (the figures as
// printed: only bracketed expressions are mentions).
func trouilleuxVariants() map[string][]namedMention {
	out := map[string][]namedMention{}
	for _, v := range []struct {
		name      string
		key, resp bool
	}{{"both listed", true, true}, {"key listed", true, false}, {"response listed", false, true}, {"as printed", false, false}} {
		ms := append([]namedMention(nil), trouilleuxExample...)
		for i := range ms {
			if !v.key && ms[i].key == ms[i].text {
				ms[i].key = ""
			}
			if !v.resp && ms[i].resp == ms[i].text {
				ms[i].resp = ""
			}
		}
		out[v.name] = ms
	}
	return out
}

// TestTrouilleuxExample reproduces §5 of Trouilleux et al. (2000): recall =
// precision = 0/3, 2 incorrect, 1 spurious, 1 missing, substitution .5,
// overgeneration .25, undergeneration .25, with the optimal and the greedy
// correspondence, whether or not the one-sided singletons are listed; and
// MUC .33 (Table 1, situation 0).
func TestTrouilleuxExample(t *testing.T) {
	for name, ms := range trouilleuxVariants() {
		d := namedDoc("trouilleux-fig1", ms, true, true)
		for _, greedy := range []bool{false, true} {
			s := daScore(t, []Document{d}, Options{DAGreedy: greedy})
			assert.Equal(t, daScores{
				recallNum: 0, recallDen: 3, precisionNum: 0, precisionDen: 3,
				incorrect: 2, spurious: 1, missing: 1, errors: 4,
				substitution: 0.5, overgeneration: 0.25, undergeneration: 0.25,
			}, s, "%s, greedy %v", name, greedy)
		}
		muc := scoreRPF(t, []Document{d}, Options{}, "muc")["muc"]
		assert.InDelta(t, 33, muc.R, 0.5, name)
		assert.InDelta(t, 33, muc.P, 0.5, name)
	}
}

// TestTrouilleuxFigure3 checks the correspondence of Figure 3, including the
// tie between {African Americans} and {Africans}, which the figure resolves
// to the first, whether or not the one-sided singletons are listed.
func TestTrouilleuxFigure3(t *testing.T) {
	want := map[string]string{
		"{Mandela}":           "{Mandela, his, he}",
		"{Clinton, his, he}":  "{Clinton}",
		"{African Americans}": "{African Americans, Africans}",
		"{slavery, it}":       "{slavery}",
		"{Africans}":          "∅",
		"∅":                   "{it}",
	}
	for name, ms := range trouilleuxVariants() {
		d := namedDoc("trouilleux-fig1", ms, true, true)
		for _, greedy := range []bool{false, true} {
			got := daCorrespondenceNamed(t, d, ms, greedy)
			assert.Equal(t, want, got, "%s, greedy %v", name, greedy)
		}
	}
}

// TestDAImplicitSingletons: a mention present on one side only is a
// singleton chain on the other, which can take a chain's correspondence
// (issue 11). Counts are correct, incorrect, spurious, missing.
func TestDAImplicitSingletons(t *testing.T) {
	tests := []struct {
		name string
		ms   []namedMention
		want [4]float64
	}{
		{
			// The key chain corresponds to the implicit response singleton
			// {a} (similarity .6 against .1 for {b, c}): c is incorrect, b
			// (the representative of the unmatched {b, c}) missing.
			name: "missing name",
			ms: []namedMention{
				{"a", TypeName, "K", ""},
				{"b", TypePronoun, "K", "R"},
				{"c", TypePronoun, "K", "R"},
			},
			want: [4]float64{0, 1, 0, 1},
		},
		{
			// The implicit key singleton {x} takes the response chain (.6
			// against .4): b is spurious (the unmatched key chain is
			// represented by its nominal), c incorrect.
			name: "predicted name",
			ms: []namedMention{
				{"x", TypeName, "", "R"},
				{"b", TypeNominal, "K", "R"},
				{"c", TypePronoun, "K", "R"},
			},
			want: [4]float64{0, 1, 1, 0},
		},
		{
			name: "Figures 1-2, bracketed expressions only",
			ms:   trouilleuxVariants()["as printed"],
			want: [4]float64{0, 2, 1, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := namedDoc(tt.name, tt.ms, true, true)
			for _, greedy := range []bool{false, true} {
				s := daScore(t, []Document{d}, Options{DAGreedy: greedy})
				assert.Equal(t, tt.want, [4]float64{s.recallNum, s.incorrect, s.spurious, s.missing}, "greedy %v", greedy)
			}
		})
	}
}

// daCorrespondenceNamed returns the correspondence of a named document as
// "{expressions}" strings, "∅" for the empty set; implicit singleton chains
// are named like explicit ones.
func daCorrespondenceNamed(t *testing.T, d Document, ms []namedMention, greedy bool) map[string]string {
	t.Helper()
	var dups []Duplicate
	orig, err := NewTable(&d, 0, &Options{}, &dups)
	require.NoError(t, err)
	mode, err := daModeOf(orig, &Options{Metrics: 1})
	require.NoError(t, err)
	tab := daTable(orig)
	tc := newTypeCounts(tab)
	w, err := daWeightsOf(&Options{})
	require.NoError(t, err)
	keyTo, respTo, err := daCorrespondence(tab, daSimilarities(tab, tc, w, mode), greedy)
	require.NoError(t, err)
	// Mention ids are positions in ms; rebuild the texts of each chain.
	keyChain := make([][]string, len(tab.KeySize))
	respChain := make([][]string, len(tab.RespSize))
	for m, id := range tab.IDs {
		keyChain[tab.KeyOf[m]] = append(keyChain[tab.KeyOf[m]], ms[id].text)
		respChain[tab.RespOf[m]] = append(respChain[tab.RespOf[m]], ms[id].text)
	}
	name := func(c []string) string { return "{" + strings.Join(c, ", ") + "}" }
	out := map[string]string{}
	for k, r := range keyTo {
		if r < 0 {
			out[name(keyChain[k])] = "∅"
		} else {
			out[name(keyChain[k])] = name(respChain[r])
		}
	}
	for r, k := range respTo {
		if k < 0 {
			out["∅"] = name(respChain[r]) // at most one in the examples
		}
	}
	return out
}

// walkthrough builds a document shaped like the MUC-6 walkthrough article of
// Trouilleux et al. §6.1: 15 chains, 147 expressions, 50 of them pronouns in
// 5 of the chains. The article itself is not in the paper; the chain sizes
// are ours, except that the chain a single all-embracing response chain
// corresponds to must have 36 expressions, which the printed DA scores of
// situation 2 (.27 recall, .24 precision) imply: 35/132 and 35/146. Chain 0
// (10 names, 6 nominals, 20 pronouns) has the most expressions of every type,
// so it is that chain; chains 1-14 have 3 names and 3 or 2 nominals, and
// chains 1-4 also 8, 8, 7, 7 pronouns. situation chooses the response.
func walkthrough(situation int) Document {
	type chain struct{ names, nominals, pronouns int }
	chains := []chain{{10, 6, 20}}
	pron := []int{8, 8, 7, 7}
	for i := 1; i <= 14; i++ {
		c := chain{names: 3, nominals: 3}
		if i > 11 {
			c.nominals = 2
		}
		if i <= 4 {
			c.pronouns = pron[i-1]
		}
		chains = append(chains, c)
	}
	d := Document{Name: "walkthrough"}
	id := int64(0)
	add := func(k int, ty MentionType) {
		d.Key.Mentions = append(d.Key.Mentions, id)
		d.Key.Clusters = append(d.Key.Clusters, int64(k))
		d.Key.Types = append(d.Key.Types, ty)
		var r int64
		switch situation {
		case 1: // every expression a singleton
			r = 1000 + id
		case 2: // one chain
			r = 0
		case 3: // non-pronouns correct, pronouns in a 16th chain
			r = int64(k)
			if ty == TypePronoun {
				r = 99
			}
		case 4: // non-pronouns correct, pronouns singletons
			r = int64(k)
			if ty == TypePronoun {
				r = 1000 + id
			}
		}
		d.Response.Mentions = append(d.Response.Mentions, id)
		d.Response.Clusters = append(d.Response.Clusters, r)
		id++
	}
	// Interleave the chains' mentions through the text: a name first, as in
	// news prose, then the rest round-robin.
	left := append([]chain(nil), chains...)
	for more := true; more; {
		more = false
		for k := range left {
			switch {
			case left[k].names > 0:
				add(k, TypeName)
				left[k].names--
			case left[k].nominals > 0:
				add(k, TypeNominal)
				left[k].nominals--
			case left[k].pronouns > 0:
				add(k, TypePronoun)
				left[k].pronouns--
			default:
				continue
			}
			more = true
		}
	}
	return d
}

// TestTrouilleuxTable1 reproduces the MUC and DA columns of Table 1 of
// Trouilleux et al. (2000) for situations 1-4, to the printed two decimals
// ("–" is a zero precision denominator).
func TestTrouilleuxTable1(t *testing.T) {
	tests := []struct {
		situation            int
		mucR, mucP           float64
		daR, daP             float64
		daPrecisionUndefined bool
		ug, og, sub          float64
	}{
		{situation: 1, mucR: 0, daR: 0, daPrecisionUndefined: true, ug: 1, og: 0, sub: 0},
		{situation: 2, mucR: 1, mucP: .90, daR: .27, daP: .24, ug: 0, og: .13, sub: .87},
		{situation: 3, mucR: .96, mucP: .97, daR: .62, daP: .63, ug: .02, og: 0, sub: .98},
		{situation: 4, mucR: .62, mucP: 1, daR: .62, daP: 1, ug: 1, og: 0, sub: 0},
	}
	const tol = 0.005 + 1e-9
	for _, tt := range tests {
		d := walkthrough(tt.situation)
		require.Len(t, d.Key.Mentions, 147)
		s := daScore(t, []Document{d}, Options{})
		assert.Equal(t, 132.0, s.recallDen, "situation %d: possible", tt.situation)
		assert.InDelta(t, tt.daR, s.recallNum/s.recallDen, tol, "situation %d: DA recall", tt.situation)
		if tt.daPrecisionUndefined {
			assert.Zero(t, s.precisionDen, "situation %d", tt.situation)
		} else {
			assert.InDelta(t, tt.daP, s.precisionNum/s.precisionDen, tol, "situation %d: DA precision", tt.situation)
		}
		assert.InDelta(t, tt.ug, s.undergeneration, tol, "situation %d: undergeneration", tt.situation)
		assert.InDelta(t, tt.og, s.overgeneration, tol, "situation %d: overgeneration", tt.situation)
		assert.InDelta(t, tt.sub, s.substitution, tol, "situation %d: substitution", tt.situation)
		muc := scoreRPF(t, []Document{d}, Options{}, "muc")["muc"]
		assert.InDelta(t, tt.mucR, muc.R/100, tol, "situation %d: MUC recall", tt.situation)
		if tt.situation != 1 {
			assert.InDelta(t, tt.mucP, muc.P/100, tol, "situation %d: MUC precision", tt.situation)
		}
	}
}

// TestDAUntypedResponse: a response without types uses the paper's variant,
// PN(R), NP(R), PRO(R) replaced by R, for its mentions without a key twin;
// mentions with a key twin take the key's type.
func TestDAUntypedResponse(t *testing.T) {
	ms := []namedMention{
		{"Clinton", TypeName, "o1", "r1"},
		{"he", TypePronoun, "o1", "r1"},
		{"it", TypePronoun, "", "r1"}, // twinless
	}
	tests := []struct {
		name      string
		respTyped bool
		mode      daMode
		sim       float64
	}{
		// Typed: PN 2·1/(1+1), PRO 2·1/(1+2).
		{"typed", true, daTyped, 0.6*1 + 0.1*2.0/3},
		// Variant: PN 2·1/(1+3), PRO 2·1/(1+3).
		{"untyped", false, daUntyped, 0.6*0.5 + 0.1*0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := namedDoc("untyped", ms, true, tt.respTyped)
			var dups []Duplicate
			tab, err := NewTable(&d, 0, &Options{}, &dups)
			require.NoError(t, err)
			mode, err := daModeOf(tab, &Options{Metrics: 1})
			require.NoError(t, err)
			assert.Equal(t, tt.mode, mode)
			sims := daSimilarities(tab, newTypeCounts(tab), DefaultDAWeights, mode)
			require.Len(t, sims, 1)
			assert.InDelta(t, tt.sim, sims[0], 1e-12)
			// Either way: "he" correct, "it" spurious.
			s := daScore(t, []Document{d}, Options{})
			assert.Equal(t, [4]float64{1, 1, 1, 2}, [4]float64{s.recallNum, s.recallDen, s.precisionNum, s.precisionDen})
			assert.Equal(t, [3]float64{0, 1, 0}, [3]float64{s.incorrect, s.spurious, s.missing})
		})
	}
}

// TestDAMissingTypes: DA needs every key mention typed, and response types
// for all twinless mentions or none; the error names the document and the
// mention. Among all metrics implicitly, DA is skipped instead.
func TestDAMissingTypes(t *testing.T) {
	keyUntyped := namedDoc("key-untyped", trouilleuxExample, true, false)
	keyUntyped.Key.Types[2] = TypeUnknown
	partial := namedDoc("partial", []namedMention{
		{"Clinton", TypeName, "o1", "r1"},
		{"it", TypePronoun, "", "r1"},
		{"they", TypePronoun, "", "r1"},
	}, true, true)
	partial.Response.Types[2] = TypeUnknown
	bare := namedDoc("bare", trouilleuxExample, false, false)
	tests := []struct {
		name      string
		doc       Document
		want      string
		side, pos int // the mention named
	}{
		{"key mention untyped", keyUntyped, "this one has none", 0, 2},
		{"partial response types", partial, fmt.Sprintf("this one has none, response mention %d has one",
			partial.Response.Mentions[1]), 1, 2},
		{"no types", bare, "no mention types were given", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := ParseMetrics([]string{"da"})
			require.NoError(t, err)
			counts := make([]float64, NumColumns())
			_, err = ScoreBatch([]Document{tt.doc}, Options{Metrics: set}, counts)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrMissingTypes)
			assert.Contains(t, err.Error(), tt.doc.Name)
			assert.Contains(t, err.Error(), tt.want)
			e := AsError(err)
			assert.Equal(t, []int{0, tt.side, tt.pos}, []int{e.Doc, e.Side, e.Mention})

			_, err = ScoreBatch([]Document{tt.doc}, Options{}, counts)
			require.NoError(t, err)
			assert.Zero(t, counts[ColumnIndex("da.recall_den")])
			assert.Greater(t, counts[ColumnIndex("mentions.recall_den")], 0.0)
		})
	}
}

// TestDAWeightsInvalid: the constraints of §4.1.
func TestDAWeightsInvalid(t *testing.T) {
	d := namedDoc("w", trouilleuxExample, true, true)
	tests := []struct {
		name string
		w    [3]float64
		want string
	}{
		{"sum above 1", [3]float64{0.6, 0.3, 0.2}, "sum to 1"},
		{"sum below 1", [3]float64{0.5, 0.3, 0.1}, "sum to 1"},
		{"a = b", [3]float64{0.45, 0.45, 0.1}, "a > b > c >= 0"},
		{"b < c", [3]float64{0.6, 0.1, 0.3}, "a > b > c >= 0"},
		{"c negative", [3]float64{0.8, 0.3, -0.1}, "a > b > c >= 0"},
		{"a not above b + c", [3]float64{0.5, 0.3, 0.2}, "a > b + c"},
		{"NaN", [3]float64{math.NaN(), 0.3, 0.1}, "finite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := ParseMetrics([]string{"da"})
			require.NoError(t, err)
			counts := make([]float64, NumColumns())
			_, err = ScoreBatch([]Document{d}, Options{Metrics: set, DAWeights: tt.w}, counts)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalidInput)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	// Valid non-default weights, with c = 0, are accepted.
	s := daScore(t, []Document{d}, Options{DAWeights: [3]float64{0.7, 0.3, 0}})
	assert.Equal(t, 3.0, s.recallDen)
}

// TestDAPerfect: a perfect typed response scores 1 whenever the key has a
// chain of two or more mentions, with no errors.
func TestDAPerfect(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		d := lmSynthDoc(seed, 300)
		d.Response = d.Key
		for _, greedy := range []bool{false, true} {
			for _, sing := range []SingletonPolicy{SingletonsKeep, SingletonsExclude} {
				s := daScore(t, []Document{d}, Options{DAGreedy: greedy, Singletons: sing})
				require.Greater(t, s.recallDen, 0.0)
				assert.Equal(t, s.recallDen, s.recallNum, "seed %d", seed)
				assert.Equal(t, s.precisionDen, s.precisionNum, "seed %d", seed)
				assert.Zero(t, s.errors, "seed %d", seed)
			}
		}
	}
}

// TestDAIdentities: every key assignment is correct, incorrect or missing and
// every response assignment correct, incorrect or spurious, on perturbed
// synthetic documents, typed and untyped responses, optimal and greedy.
func TestDAIdentities(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		d := lmSynthDoc(seed, 400)
		for _, untyped := range []bool{false, true} {
			doc := d
			if untyped {
				doc.Response.Types = nil
			}
			for _, greedy := range []bool{false, true} {
				s := daScore(t, []Document{doc}, Options{DAGreedy: greedy})
				assert.Equal(t, s.recallNum, s.precisionNum)
				assert.Equal(t, s.recallDen, s.recallNum+s.incorrect+s.missing, "seed %d", seed)
				assert.Equal(t, s.precisionDen, s.precisionNum+s.incorrect+s.spurious, "seed %d", seed)
				assert.Equal(t, s.errors, s.incorrect+s.spurious+s.missing)
				assert.Greater(t, s.spurious, 0.0)
				assert.Greater(t, s.missing, 0.0)
				assert.Greater(t, s.incorrect, 0.0)
			}
		}
	}
}

// daBrute returns the maximum total similarity of a one-to-one
// correspondence by trying every injective map of key to response chains.
func daBrute(nKey, nResp int, sim map[[2]int32]float64) float64 {
	used := make([]bool, nResp)
	var rec func(k int) float64
	rec = func(k int) float64 {
		if k == nKey {
			return 0
		}
		best := rec(k + 1) // K_k corresponds to the empty set
		for r := 0; r < nResp; r++ {
			s, ok := sim[[2]int32{int32(k), int32(r)}]
			if used[r] || !ok {
				continue
			}
			used[r] = true
			best = math.Max(best, s+rec(k+1))
			used[r] = false
		}
		return best
	}
	return rec(0)
}

// TestDACorrespondenceOptimal checks the optimal correspondence against brute
// force on small random typed documents, and that the greedy heuristic
// never does better.
func TestDACorrespondenceOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := 0; trial < 300; trial++ {
		n := 2 + rng.IntN(9)
		d := Document{Name: "small"}
		for m := 0; m < n; m++ {
			ty := MentionType(1 + rng.IntN(3))
			d.Key.Mentions = append(d.Key.Mentions, int64(m))
			d.Key.Clusters = append(d.Key.Clusters, int64(rng.IntN(4)))
			d.Key.Types = append(d.Key.Types, ty)
			d.Response.Mentions = append(d.Response.Mentions, int64(m))
			d.Response.Clusters = append(d.Response.Clusters, int64(rng.IntN(4)))
			d.Response.Types = append(d.Response.Types, ty)
		}
		var dups []Duplicate
		tab, err := NewTable(&d, 0, &Options{}, &dups)
		require.NoError(t, err)
		sims := daSimilarities(tab, newTypeCounts(tab), DefaultDAWeights, daTyped)
		bySim := map[[2]int32]float64{}
		for ci, c := range tab.Cells {
			bySim[[2]int32{c.K, c.R}] = sims[ci]
		}
		total := func(keyTo []int32) float64 {
			s := 0.0
			for k, r := range keyTo {
				if r >= 0 {
					s += bySim[[2]int32{int32(k), r}]
				}
			}
			return s
		}
		opt, _, err := daCorrespondence(tab, sims, false)
		require.NoError(t, err)
		greedy, _, err := daCorrespondence(tab, sims, true)
		require.NoError(t, err)
		best := daBrute(len(tab.KeySize), len(tab.RespSize), bySim)
		// The tie-breaking bonus (at most 1e-9 a pair) may only choose
		// among equal totals.
		assert.InDelta(t, best, total(opt), 1e-12, "trial %d", trial)
		assert.LessOrEqual(t, total(greedy), best+1e-12, "trial %d", trial)
	}
}

// TestDAGreedyDiffers: a case where the greedy heuristic is suboptimal and
// the two correspondences give different counts. Key {a, b, c} and {d}, all
// names; response {a, b, d} and {c}: sim({a,b,c}, {a,b,d}) = .4 is taken
// first by the heuristic, while {a,b,c}-{c} and {d}-{a,b,d} (.3 + .3) is
// optimal.
func TestDAGreedyDiffers(t *testing.T) {
	ms := []namedMention{
		{"a", TypeName, "K1", "R1"},
		{"b", TypeName, "K1", "R1"},
		{"c", TypeName, "K1", "R2"},
		{"d", TypeName, "K2", "R1"},
	}
	d := namedDoc("greedy", ms, true, true)
	optimal := daScore(t, []Document{d}, Options{})
	greedy := daScore(t, []Document{d}, Options{DAGreedy: true})
	// Optimal: a and b are assigned to the referent of K2 in the response.
	assert.Equal(t, [4]float64{0, 2, 2, 0}, [4]float64{optimal.recallNum, optimal.recallDen, optimal.incorrect, optimal.spurious + optimal.missing})
	// Greedy: b correct, c missing, d spurious.
	assert.Equal(t, [5]float64{1, 2, 0, 1, 1}, [5]float64{greedy.recallNum, greedy.recallDen, greedy.incorrect, greedy.spurious, greedy.missing})
}

// TestDARenumbering: DA depends neither on the order of the input arrays,
// nor on cluster ids, nor on mention ids beyond their order (ties are broken
// in mention-id order, see daTable).
func TestDARenumbering(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for seed := uint64(1); seed <= 5; seed++ {
		d := lmSynthDoc(seed, 200)
		for _, greedy := range []bool{false, true} {
			want := daScore(t, []Document{d}, Options{DAGreedy: greedy})
			got := daScore(t, []Document{daRenumber(rng, d)}, Options{DAGreedy: greedy})
			assert.Equal(t, want, got, "seed %d", seed)
		}
	}
}

// daRenumber returns d with its input arrays shuffled, new cluster ids, and
// new mention ids in the same order as the old ones.
func daRenumber(rng *rand.Rand, d Document) Document {
	var ids []int64
	for _, s := range []Side{d.Key, d.Response} {
		ids = append(ids, s.Mentions...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	newID := map[int64]int64{}
	next := rng.Int64N(1 << 20)
	for _, m := range ids {
		newID[m] = next
		next += 1 + rng.Int64N(1<<20)
	}
	side := func(s Side) Side {
		labels := map[int64]int64{}
		out := Side{Types: slices.Clone(s.Types)}
		for i, m := range s.Mentions {
			c, ok := labels[s.Clusters[i]]
			if !ok {
				c = rng.Int64N(1 << 50)
				labels[s.Clusters[i]] = c
			}
			out.Mentions = append(out.Mentions, newID[m])
			out.Clusters = append(out.Clusters, c)
		}
		rng.Shuffle(len(out.Mentions), func(i, j int) {
			out.Mentions[i], out.Mentions[j] = out.Mentions[j], out.Mentions[i]
			out.Clusters[i], out.Clusters[j] = out.Clusters[j], out.Clusters[i]
			if out.Types != nil {
				out.Types[i], out.Types[j] = out.Types[j], out.Types[i]
			}
		})
		return out
	}
	return Document{Name: d.Name, Key: side(d.Key), Response: side(d.Response)}
}

// TestDARepresentative: an unmatched chain is represented by its most
// specific expression. With implicit singletons this changes a count only
// where an expression of the chain adds nothing to any similarity, as an
// untyped response mention does. Key {Clinton, he, him}; untyped response
// {Clinton, him} and {he, x}, x predicted. The key chain takes {Clinton,
// him} (.45 against .05); {he, x} is unmatched and represented by the typed
// "he", so the key's assignment of "he" is missing and the response's of x
// spurious. (With x as representative, "he" would be incorrect instead.)
func TestDARepresentative(t *testing.T) {
	ms := []namedMention{
		{"Clinton", TypeName, "K1", "R1"},
		{"he", TypePronoun, "K1", "R2"},
		{"him", TypePronoun, "K1", "R1"},
		{"x", TypeNominal, "", "R2"},
	}
	d := namedDoc("rep", ms, true, false)
	got := daCorrespondenceNamed(t, d, ms, false)
	require.Equal(t, "{Clinton, him}", got["{Clinton, he, him}"], "%v", got)
	require.Equal(t, "{he, x}", got["∅"], "%v", got)
	s := daScore(t, []Document{d}, Options{})
	assert.Equal(t, daScores{
		recallNum: 1, recallDen: 2, precisionNum: 1, precisionDen: 2,
		incorrect: 0, spurious: 1, missing: 1, errors: 2,
		substitution: 0, overgeneration: 0.5, undergeneration: 0.5,
	}, s)
}

// daSingletonVariant returns d with each singleton chain of a mention absent
// from the other side (an explicit one-sided singleton) dropped or kept, and
// an explicit singleton chain added at a random place for each mention
// present on the other side only, each with probability 1/2. Added
// mentions take the type of their twin.
func daSingletonVariant(rng *rand.Rand, d Document) Document {
	return daSingletonVariantSides(rng, d, true)
}

// daSingletonVariantSides is daSingletonVariant, on the response side only
// when key is false.
func daSingletonVariantSides(rng *rand.Rand, d Document, key bool) Document {
	has := func(s Side) map[int64]int {
		out := map[int64]int{}
		for i, m := range s.Mentions {
			out[m] = i
		}
		return out
	}
	sizes := func(s Side) map[int64]int {
		out := map[int64]int{}
		for _, c := range s.Clusters {
			out[c]++
		}
		return out
	}
	inKey, inResp := has(d.Key), has(d.Response)
	vary := func(s Side, other Side, inOther map[int64]int) Side {
		size := sizes(s)
		in := has(s)
		var out Side
		for i, m := range s.Mentions {
			_, twin := inOther[m]
			if size[s.Clusters[i]] == 1 && twin && rng.IntN(2) == 0 {
				continue // an explicit singleton of a mention of the other side
			}
			out.Mentions = append(out.Mentions, m)
			out.Clusters = append(out.Clusters, s.Clusters[i])
			if s.Types != nil {
				out.Types = append(out.Types, s.Types[i])
			}
		}
		for i, m := range other.Mentions {
			if _, here := in[m]; here || rng.IntN(2) == 0 {
				continue
			}
			at := rng.IntN(len(out.Mentions) + 1)
			out.Mentions = slices.Insert(out.Mentions, at, m)
			out.Clusters = slices.Insert(out.Clusters, at, 1<<40+rng.Int64N(1<<40))
			if s.Types != nil {
				out.Types = slices.Insert(out.Types, at, other.Types[i])
			}
		}
		return out
	}
	out := Document{Name: d.Name, Key: d.Key, Response: vary(d.Response, d.Key, inKey)}
	if key {
		out.Key = vary(d.Key, d.Response, inResp)
	}
	return out
}

// TestDAExplicitSingletons: DA is the same whether the singleton chains of
// mentions present on one side only are listed on the other side or not
// (issue 11), with the optimal and the greedy correspondence, on random
// typed documents with predicted mentions, small and large.
func TestDAExplicitSingletons(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 2000))
	var docs []Document
	for i := 0; i < 400; i++ {
		docs = append(docs, lmSmallDoc(rng))
	}
	for seed := uint64(1); seed <= 20; seed++ {
		docs = append(docs, lmSynthDoc(seed, 30+10*int(seed)))
	}
	changed := 0
	for i, d := range docs {
		for _, greedy := range []bool{false, true} {
			want := daScore(t, []Document{d}, Options{DAGreedy: greedy})
			for v := 0; v < 3; v++ {
				dv := daSingletonVariant(rng, d)
				if len(dv.Key.Mentions) != len(d.Key.Mentions) || len(dv.Response.Mentions) != len(d.Response.Mentions) {
					changed++
				}
				got := daScore(t, []Document{dv}, Options{DAGreedy: greedy})
				require.Equal(t, want, got, "document %d greedy %v\nkey %+v\nresponse %+v\nvariant key %+v\nvariant response %+v",
					i, greedy, d.Key, d.Response, dv.Key, dv.Response)
			}
			// Dropping every one-mention chain (the CorefUD convention)
			// leaves DA unchanged too: a dropped singleton becomes implicit.
			got := daScore(t, []Document{d}, Options{DAGreedy: greedy, Singletons: SingletonsExclude})
			require.Equal(t, want, got, "document %d greedy %v, singletons excluded", i, greedy)
		}
	}
	assert.Greater(t, changed, len(docs)) // the variants did vary
	// An untyped response (the paper's variant): response-side singletons
	// of key mentions, which the key types.
	for i, d := range docs {
		d.Response.Types = nil
		want := daScore(t, []Document{d}, Options{})
		for v := 0; v < 3; v++ {
			dv := daSingletonVariantSides(rng, d, false)
			require.Equal(t, want, daScore(t, []Document{dv}, Options{}), "document %d untyped response\nkey %+v\nresponse %+v\nvariant response %+v",
				i, d.Key, d.Response, dv.Response)
		}
	}
}

// TestDAColumns: the DA columns are registered under their names, in order.
func TestDAColumns(t *testing.T) {
	var got []string
	for _, c := range Columns() {
		if strings.HasPrefix(c, "da.") {
			got = append(got, c)
		}
	}
	want := []string{"da.recall_num", "da.recall_den", "da.precision_num", "da.precision_den",
		"da.incorrect", "da.spurious", "da.missing", "da.errors"}
	assert.Equal(t, want, got)
	names := MetricNames()
	assert.Contains(t, names, "da")
	for _, m := range lmAll {
		assert.Contains(t, names, m)
	}
}

// daOracle computes DA's counts of a small document straight from the
// definitions of Trouilleux et al. (2000) on explicit sets: similarities by
// Dice over the typed subsets, every injective correspondence tried, and the
// denotation assignments listed as statements "e denotes o" on each side;
// every expression left out by one side is a singleton chain there. It
// returns ok = false when two different correspondences reach the best total
// (then the answer depends on the tie rule, which the oracle does not
// model). Mention ids must be positions, added in increasing order to each
// side, as lmSmallDoc does. The key must be typed; a response without types
// uses the paper's variant when some response mention has no key twin.
func daOracle(d Document, w [3]float64) (counts [8]float64, ok bool) {
	typeOf := map[int64]MentionType{}
	inKey := map[int64]bool{}
	for i, m := range d.Key.Mentions {
		typeOf[m] = d.Key.Types[i]
		inKey[m] = true
	}
	untyped := false
	for i, m := range d.Response.Mentions {
		if !inKey[m] {
			if d.Response.Types == nil {
				untyped = true
			} else {
				typeOf[m] = d.Response.Types[i]
			}
		}
	}
	chains := func(s Side) [][]int64 {
		at := map[int64]int{}
		var out [][]int64
		for i, m := range s.Mentions {
			c, seen := at[s.Clusters[i]]
			if !seen {
				c = len(out)
				at[s.Clusters[i]] = c
				out = append(out, nil)
			}
			out[c] = append(out[c], m)
		}
		return out
	}
	keys, resps := chains(d.Key), chains(d.Response)
	// An expression left out by one side is a singleton chain there.
	inResp := map[int64]bool{}
	for _, m := range d.Response.Mentions {
		inResp[m] = true
		if !inKey[m] {
			keys = append(keys, []int64{m})
		}
	}
	for _, m := range d.Key.Mentions {
		if !inResp[m] {
			resps = append(resps, []int64{m})
		}
	}
	of := func(c []int64, ty MentionType) map[int64]bool {
		out := map[int64]bool{}
		for _, m := range c {
			if ty == TypeUnknown || typeOf[m] == ty {
				out[m] = true
			}
		}
		return out
	}
	dice := func(x, y map[int64]bool) float64 {
		n := 0
		for m := range x {
			if y[m] {
				n++
			}
		}
		if n == 0 {
			return 0
		}
		return 2 * float64(n) / float64(len(x)+len(y))
	}
	sim := make([][]float64, len(keys))
	for i, k := range keys {
		sim[i] = make([]float64, len(resps))
		for j, r := range resps {
			for x, ty := range []MentionType{TypeName, TypeNominal, TypePronoun} {
				rt := ty
				if untyped {
					rt = TypeUnknown // the whole of R
				}
				sim[i][j] += w[x] * dice(of(k, ty), of(r, rt))
			}
		}
	}
	// Every injective correspondence over pairs of positive similarity.
	best, nBest := -1.0, 0
	var bestMatch []int
	match := make([]int, len(keys))
	used := make([]bool, len(resps))
	var rec func(i int, total float64)
	rec = func(i int, total float64) {
		if i == len(keys) {
			switch {
			case total > best+1e-12:
				best, nBest = total, 1
				bestMatch = append(bestMatch[:0], match...)
			case total > best-1e-12:
				nBest++
			}
			return
		}
		match[i] = -1
		rec(i+1, total)
		for j := range resps {
			if !used[j] && sim[i][j] > 0 {
				used[j], match[i] = true, j
				rec(i+1, total+sim[i][j])
				used[j] = false
			}
		}
		match[i] = -1
	}
	rec(0, 0)
	if nBest != 1 {
		return counts, false
	}
	respMatch := make([]int, len(resps))
	for j := range respMatch {
		respMatch[j] = -1
	}
	for i, j := range bestMatch {
		if j >= 0 {
			respMatch[j] = i
		}
	}
	// Representatives: a common expression for a pair; otherwise the most
	// specific, then the first in text order (ids are positions).
	before := func(a, b int64) bool {
		if ra, rb := specificity(typeOf[a]), specificity(typeOf[b]); ra != rb {
			return ra < rb
		}
		return a < b
	}
	lone := func(c []int64) int64 {
		rep := c[0]
		for _, m := range c[1:] {
			if before(m, rep) {
				rep = m
			}
		}
		return rep
	}
	keyRep := make([]int64, len(keys))
	respRep := make([]int64, len(resps))
	for i, k := range keys {
		if j := bestMatch[i]; j >= 0 {
			inR := of(resps[j], TypeUnknown)
			for _, m := range k {
				if inR[m] {
					keyRep[i], respRep[j] = m, m
					break
				}
			}
		} else {
			keyRep[i] = lone(k)
		}
	}
	for j, r := range resps {
		if respMatch[j] < 0 {
			respRep[j] = lone(r)
		}
	}
	// Statements "e denotes o": o is a key chain index, or -1-j for a
	// response chain j that corresponds to nothing.
	keyStmt, respStmt := map[int64]int{}, map[int64]int{}
	for i, k := range keys {
		for _, m := range k {
			if len(k) > 1 && m != keyRep[i] {
				keyStmt[m] = i
			}
		}
	}
	for j, r := range resps {
		o := respMatch[j]
		if o < 0 {
			o = -1 - j
		}
		for _, m := range r {
			if len(r) > 1 && m != respRep[j] {
				respStmt[m] = o
			}
		}
	}
	var correct, incorrect, spurious, missing float64
	for m, o := range respStmt {
		ko, has := keyStmt[m]
		switch {
		case has && ko == o:
			correct++
		case has:
			incorrect++
		default:
			spurious++
		}
	}
	for m := range keyStmt {
		if _, has := respStmt[m]; !has {
			missing++
		}
	}
	return [8]float64{correct, float64(len(keyStmt)), correct, float64(len(respStmt)),
		incorrect, spurious, missing, incorrect + spurious + missing}, true
}

// TestDAOracle compares the engine with daOracle on random small documents
// with predicted mentions, typed and untyped responses, whenever the optimal
// correspondence is unique.
func TestDAOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(2000, 5))
	set, err := ParseMetrics([]string{"da"})
	require.NoError(t, err)
	compared := 0
	const trials = 3000
	for trial := 0; trial < trials; trial++ {
		d := lmSmallDoc(rng)
		if trial%2 == 1 {
			d.Response.Types = nil
		}
		w := [][3]float64{DefaultDAWeights, {0.7, 0.2, 0.1}, {0.55, 0.3, 0.15}}[trial%3]
		w[2] = 1 - w[0] - w[1]
		want, ok := daOracle(d, w)
		if !ok {
			continue
		}
		compared++
		counts := make([]float64, NumColumns())
		_, err := ScoreBatch([]Document{d}, Options{Metrics: set, DAWeights: w}, counts)
		require.NoError(t, err)
		start := ColumnIndex("da.recall_num")
		var got [8]float64
		copy(got[:], counts[start:start+8])
		require.Equal(t, want, got, "trial %d w %v\nkey %+v\nresponse %+v", trial, w, d.Key, d.Response)
	}
	// Ties must not be the rule, or the comparison means little.
	assert.Greater(t, compared, trials/2)
}
