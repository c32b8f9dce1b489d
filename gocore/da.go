package gocore

import (
	"cmp"
	"math"
	"slices"

	"github.com/corefscore/corefscore/gocore/assign"
)

// This file holds the denotation-assignment metric DA of Trouilleux, Gaussier,
// Bès & Zaenen (2000). A chain of n expressions makes n - 1 denotation
// assignments ("e denotes o"): one expression, the representative, is
// interpreted to identify the referent o and the others are assigned to it.
// Key and response chains are put in a one-to-one correspondence that
// maximises a similarity favouring the most specific expressions (proper
// names, then lexical noun phrases, then pronouns); a response assignment is
// correct when the key makes the same assignment to the corresponding chain.
//
// Chains are the paper's referential chains, singletons included: an
// expression that one side leaves out is a singleton chain on that side (see
// daTable).

// daColumns are DA's counts: recall and precision over denotation
// assignments, then the error counts. errors = incorrect + spurious + missing
// is the denominator of the substitution, overgeneration and undergeneration
// ratios.
var daColumns = []string{
	"recall_num", "recall_den", "precision_num", "precision_den",
	"incorrect", "spurious", "missing", "errors",
}

// daWeightsOf returns the DA weights of opt ((0.6, 0.3, 0.1) when unset)
// after checking the constraints of Trouilleux et al. (2000, §4.1):
//
//	a + b + c = 1 (to 1e-9),  a > b > c ≥ 0,  a > b + c
//
// The last one is the paper's "strong reading of condition (iii)": a common
// proper name outweighs any agreement on the other two classes.
func daWeightsOf(opt *Options) ([3]float64, error) {
	w := opt.DAWeights
	if w == ([3]float64{}) {
		w = DefaultDAWeights
	}
	a, b, c := w[0], w[1], w[2]
	for _, x := range w {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return w, newError(KindOption, "da weights (a, b, c) = %v must be finite", w)
		}
	}
	switch {
	case math.Abs(a+b+c-1) > 1e-9:
		return w, newError(KindOption, "da weights (a, b, c) = %v must sum to 1; they sum to %v", w, a+b+c)
	case !(a > b && b > c && c >= 0):
		return w, newError(KindOption, "da weights (a, b, c) = %v must satisfy a > b > c >= 0", w)
	case !(a > b+c):
		return w, newError(KindOption, "da weights (a, b, c) = %v must satisfy a > b + c", w)
	}
	return w, nil
}

// daMode says how DA reads mention types for one document.
type daMode int8

const (
	daSkip    daMode = iota // not scored: types missing and DA not asked for by name
	daTyped                 // every mention typed: the similarity of §4.1
	daUntyped               // response untyped: the paper's variant
)

// daModeOf decides how DA uses the mention types of t. A mention's type is
// its key type, else its response type (see Table.Types), so a response
// mention with a key twin always has the twin's type.
//
//   - Every key mention must have a type (the paper assumes "this information
//     at least for the key").
//   - If every response mention without a key twin also has one, the
//     similarity is the typed one of §4.1.
//   - If none of them has one, the response is untyped and DA uses the
//     paper's variant, PN(R), NP(R) and PRO(R) replaced by R.
//   - Some typed and some not is refused: give a type to every response
//     mention or to none.
//
// A document with gold mentions therefore never needs response types. When a
// requirement fails, DA is skipped (columns left at zero) if it was not asked
// for by name (opt.Metrics is the zero set), and otherwise the error wraps
// ErrMissingTypes and names the mention.
func daModeOf(t *Table, opt *Options) (daMode, error) {
	if t.HasTypes || t.NumMentions() == 0 {
		return daTyped, nil
	}
	// The error is built only when it is returned: it would dominate the
	// cost of a small untyped document.
	skipped := opt.Metrics == 0 && !opt.TypesGiven
	missing := func(m int, format string, args ...any) (daMode, error) {
		if skipped {
			return daSkip, errSkipped
		}
		e := newError(KindMissingTypes, format, args...)
		e.tableMention = m
		return daSkip, e
	}
	if t.Types == nil {
		if t.NumKey > 0 {
			return missing(0, "a type is needed for every key mention; no mention types were given")
		}
		// No key mention and no type anywhere: an untyped document like any
		// other, so DA is left out of the default set here as it is for an
		// untyped document with key mentions. Deciding by the key's size
		// made a batch's rows depend on its other documents (the batch
		// leaves DA out when one document skips it).
		if skipped {
			return daSkip, errSkipped
		}
		return daUntyped, nil // asked for by name: nothing can correspond
	}
	for m := 0; m < t.NumKey; m++ {
		if t.Types[m] == TypeUnknown {
			return missing(m, "a type is needed for every key mention; this one has none")
		}
	}
	typed, untyped := -1, -1
	for m := t.NumKey; m < t.NumMentions(); m++ {
		if t.Types[m] == TypeUnknown {
			untyped = m
		} else {
			typed = m
		}
	}
	if t.NumKey == 0 && typed < 0 && skipped {
		return daSkip, errSkipped // as above: types were given, but to no mention of this document
	}
	if typed >= 0 && untyped >= 0 {
		return missing(untyped, "a type is needed for every response mention without a key twin, or for none; this one has none, response mention %d has one", t.IDs[typed])
	}
	return daUntyped, nil
}

// daTable returns the chains DA puts in correspondence: the chains of t and,
// for every mention present on one side only, a singleton chain {m} on the
// other side. Trouilleux et al. (2000) define chains over the expressions of
// the text, not over what an annotation brackets:
//
//   - §1: "A referential chain may be a singleton"; the example text "also
//     contains a number of singleton referential chains; the set {Mandela},
//     for instance, is one of them", although Figure 1 does not bracket
//     Mandela.
//   - §3.2: the response chain {Mandela, his, he} "corresponds to the
//     singleton referential chain {Mandela} in the key".
//   - §5, Figure 3 pairs {Mandela} with {Mandela, his, he}, {Clinton, his,
//     he} with {Clinton} and the empty set with {it}; §5.2 defines spurious
//     and missing assignments through chains "mapped to the empty set",
//     which assumes that every expression has a chain on both sides.
//   - §6.3, Figure 4 rejects the pairing {Clinton, his, he} <-> {Mandela,
//     his, he} of the "Exclusive Core-MR" method.
//
// So a key mention missing from the response has the response chain {m},
// and a response mention with no key twin the key chain {m}. Such a chain
// takes part in the similarities and the correspondence like any other, is
// its own representative, and makes no denotation assignment (|{m}| - 1 =
// 0). The result is the same whether a caller lists such singletons or
// leaves them out, and so, where both sides give a mention the same type,
// under either singleton policy.
//
// The returned table is canonical: its mentions are numbered in order of
// mention id (text order for spans packed as start<<32 | end), its chains on
// each side in order of their first mention, and every mention is on both
// sides. The tie rules of daCorrespondence and daRepresentatives read this
// numbering, so DA depends neither on the input order of mentions and
// chains, nor on cluster ids, nor on the mention ids beyond their order.
// Types are those of t. When t is already canonical, t itself is returned
// (its cached type counts are then shared with the L-metrics).
//
// Cost: O(n) for n mentions (a radix sort of the ids and a few passes).
func daTable(t *Table) *Table {
	if daCanonical(t) {
		return t
	}
	n := t.NumMentions()
	order := sortedOrder(t.IDs)
	d := &Table{NumKey: n, NumResp: n, NumBoth: n, HasTypes: t.HasTypes, stop: t.stop} // stop: its alignment polls
	d.IDs = make([]int64, n)
	if t.Types != nil {
		d.Types = make([]MentionType, n)
	}
	d.KeyOf, d.RespOf = make([]int32, n), make([]int32, n)
	nk, nr := int32(len(t.KeySize)), int32(len(t.RespSize))
	for i, p := range order {
		d.IDs[i] = t.IDs[p]
		if d.Types != nil {
			d.Types[i] = t.Types[p]
		}
		// A one-sided mention gets a label of its own past the real chains.
		d.KeyOf[i], d.RespOf[i] = t.KeyOf[p], t.RespOf[p]
		if d.KeyOf[i] < 0 {
			d.KeyOf[i] = nk + int32(i)
		}
		if d.RespOf[i] < 0 {
			d.RespOf[i] = nr + int32(i)
		}
	}
	d.KeySize = chainSizes(d.KeyOf, numberInOrder(d.KeyOf, make([]int32, int(nk)+n), d.KeyOf, nil))
	d.RespSize = chainSizes(d.RespOf, numberInOrder(d.RespOf, make([]int32, int(nr)+n), d.RespOf, nil))
	d.Cells = (*slab)(nil).buildCells(d.KeyOf, d.RespOf, len(d.KeySize), len(d.RespSize))
	return d
}

// daCanonical reports whether t is already what daTable would build: every
// mention on both sides, mention ids increasing, and the chains of each side
// numbered in order of their first mention.
func daCanonical(t *Table) bool {
	if t.NumBoth != t.NumMentions() {
		return false
	}
	var nextK, nextR int32
	for m := range t.KeyOf {
		if m > 0 && t.IDs[m] <= t.IDs[m-1] {
			return false
		}
		switch k := t.KeyOf[m]; {
		case k == nextK:
			nextK++
		case k > nextK:
			return false
		}
		switch r := t.RespOf[m]; {
		case r == nextR:
			nextR++
		case r > nextR:
			return false
		}
	}
	return true
}

// chainSizes returns the size of each of n chains given the chain of each
// mention.
func chainSizes(of []int32, n int32) []int32 {
	sizes := make([]int32, n)
	for _, c := range of {
		sizes[c]++
	}
	return sizes
}

// daSimilarities returns the similarity of the key and response chains of
// each cell of t (Trouilleux et al. 2000, §4.1):
//
//	sim(K, R) = a · Dice(PN(K), PN(R)) + b · Dice(NP(K), NP(R)) + c · Dice(PRO(K), PRO(R))
//	Dice(X, Y) = 2 |X ∩ Y| / (|X| + |Y|)
//
// with PN, NP and PRO the names, nominals and pronouns of a chain. Readings:
//
//   - Dice of two empty sets is 0 (the term is absent). The formula as
//     printed then gives chains with no mention in common a similarity of 0
//     (the paper's condition (i)), so only the cells of the contingency table
//     can correspond; the price is that a chain without names has a
//     similarity below 1 with itself, which only matters relatively.
//   - In the untyped variant (mode daUntyped) PN(R), NP(R) and PRO(R) are all
//     R: Dice(PN(K), R) = 2 |PN(K) ∩ R| / (|PN(K)| + |R|), and so on. The
//     implicit key chain {m} of an untyped response mention m (see daTable)
//     has no name, nominal or pronoun, so its similarity is 0 with every
//     chain: it corresponds to nothing and changes no count.
//
// Linear in the number of mentions.
func daSimilarities(t *Table, tc *typeCounts, w [3]float64, mode daMode) []float64 {
	sims := make([]float64, len(t.Cells))
	for ci, c := range t.Cells {
		var s float64
		for i, bit := range [3]int{1, 2, 4} {
			common := tc.cell[ci][bit]
			if common == 0 {
				continue
			}
			resp := tc.resp[c.R][bit]
			if mode == daUntyped {
				resp = t.RespSize[c.R]
			}
			s += w[i] * 2 * float64(common) / float64(tc.key[c.K][bit]+resp)
		}
		sims[ci] = s
	}
	return sims
}

// daCorrespondence returns, for each key chain of t (a table built by
// daTable), the response chain it corresponds to (-1 for the empty set), and
// the converse, given the similarity of each cell.
//
// Optimal (greedy false): the one-to-one correspondence C maximising
// Σ_{(K,R) ∈ C} sim(K, R) (§4.2), solved exactly by assign.MaxWeight per
// connected component of the overlap graph. Greedy: the paper's heuristic,
// pairs taken in decreasing order of similarity, each kept when neither chain
// is taken yet.
//
// A pair of similarity 0 (chains sharing only a class of weight 0) never
// corresponds: its chains map to the empty set.
//
// Ties, which the paper leaves open, are broken by the numbering of daTable:
// K_i is the i-th key chain and R_j the j-th response chain in order of
// their first mention (text order), 0 ≤ i < n_K, 0 ≤ j < n_R. Greedy takes
// pairs of equal similarity in order of i, then of j. The optimal solver
// maximises
//
//	Σ_{(K_i,R_j) ∈ C} (sim(K_i, R_j) + ε·b(i, j)),   ε = daTieEps = 1e-9,
//	b(i, j) = ((n_K - i)(n_R + 1) - j) / (n_K (n_R + 1)),   0 < b ≤ 1,
//
// b strictly decreasing in (i, j) taken lexicographically. So among
// correspondences of equal total similarity it returns one with the largest
// Σ b over its pairs:
//
//   - Where two chains compete for one partner and the rest is equal, the
//     earlier chain wins. In Figure 3 the key singletons {African Americans}
//     and {Africans} tie for {African Americans, Africans}; the first takes
//     it, as printed (either choice gives the same counts there).
//   - Between correspondences made of different pairs, Σ b decides. It
//     usually, not always, favours the one with more pairs: every b is in
//     (0, 1], so one pair of large b can outweigh two of small b.
//   - A total lower by less than ε times the difference of the Σ b (at most
//     ε per pair) is read as a tie too.
//   - Correspondences equal in Σ (sim + ε·b) are decided by the solver's
//     deterministic order; daTable's numbering gives it the same input for
//     documents that differ only in the order of their input arrays, in
//     their mention ids but not the ids' order, in their cluster ids, or in
//     which one-sided singletons they list.
func daCorrespondence(t *Table, sims []float64, greedy bool) (keyTo, respTo []int32, err error) {
	keyTo = make([]int32, len(t.KeySize))
	respTo = make([]int32, len(t.RespSize))
	for i := range keyTo {
		keyTo[i] = -1
	}
	for j := range respTo {
		respTo[j] = -1
	}
	if greedy {
		type pair struct {
			sim  float64
			k, r int32
		}
		pairs := make([]pair, 0, len(t.Cells))
		for ci, c := range t.Cells {
			if sims[ci] > 0 {
				pairs = append(pairs, pair{sims[ci], c.K, c.R})
			}
		}
		slices.SortFunc(pairs, func(a, b pair) int {
			if c := cmp.Compare(b.sim, a.sim); c != 0 {
				return c
			}
			if c := cmp.Compare(a.k, b.k); c != 0 {
				return c
			}
			return cmp.Compare(a.r, b.r)
		})
		for _, p := range pairs {
			if keyTo[p.k] < 0 && respTo[p.r] < 0 {
				keyTo[p.k], respTo[p.r] = p.r, p.k
			}
		}
		return keyTo, respTo, nil
	}
	edges := make([]assign.Edge, 0, len(t.Cells))
	nk, nr := float64(len(t.KeySize)), float64(len(t.RespSize))
	for ci, c := range t.Cells {
		if sims[ci] > 0 {
			// Tie-break bonus in (0, 1]: earlier key chain first, then
			// earlier response chain.
			bonus := ((nk-float64(c.K))*(nr+1) - float64(c.R)) / (nk * (nr + 1))
			edges = append(edges, assign.Edge{Left: c.K, Right: c.R, Weight: sims[ci] + daTieEps*bonus})
		}
	}
	_, match, err := assign.MaxWeightPoll(len(t.KeySize), len(t.RespSize), edges, t.stop)
	if err != nil {
		return nil, nil, err
	}
	for i, j := range match {
		if j >= 0 {
			keyTo[i], respTo[j] = j, int32(i)
		}
	}
	return keyTo, respTo, nil
}

// daTieEps bounds the tie-breaking bonus added to each similarity by the
// optimal correspondence (see daCorrespondence).
const daTieEps = 1e-9

// specificity ranks mention types for the choice of a representative: a
// proper name identifies its referent best, then a lexical noun phrase, then
// a pronoun; an unknown type ranks last.
func specificity(ty MentionType) int {
	switch ty {
	case TypeName:
		return 0
	case TypeNominal:
		return 1
	case TypePronoun:
		return 2
	}
	return 3
}

// daRepresentatives returns the representative expression (a mention of t,
// a table built by daTable) of every key and response chain, -1 for none.
// Readings (§5 of the paper says only that one is "selected"):
//
//   - Chains in correspondence share a representative, an expression of both
//     (their common referent is identified once). Which common expression it
//     is does not change any count: the others are correct either way. The
//     first in text order is taken.
//   - A chain mapped to the empty set is represented by its most specific
//     expression (name, then nominal, then pronoun, by the descriptive
//     specificity of §3.2; an untyped one last), the first in text order
//     among equals. The choice decides which expression of an unmatched key
//     chain has no key assignment (so that a response assignment to it is
//     spurious) and which of an unmatched response chain has no response
//     assignment (so that a key assignment to it is missing). Because every
//     expression has a chain on both sides, it changes a count only through
//     expressions that add nothing to any similarity: an untyped response
//     mention in the untyped variant, or a type of weight 0. (Any other
//     expression of an unmatched chain lies, on the other side, in a chain
//     of positive similarity with it, which the correspondence therefore
//     matched elsewhere: the expression carries an assignment there, and
//     the chain's errors are the same whichever representative it has.)
//   - A singleton chain, implicit or not, is its own representative.
//
// Text order is the numbering of daTable: mentions in order of mention id.
func daRepresentatives(t *Table, keyTo, respTo []int32) (keyRep, respRep []int32) {
	keyRep = make([]int32, len(t.KeySize))
	respRep = make([]int32, len(t.RespSize))
	for i := range keyRep {
		keyRep[i] = -1
	}
	for j := range respRep {
		respRep[j] = -1
	}
	rank := func(m int) int {
		if t.Types == nil {
			return specificity(TypeUnknown)
		}
		return specificity(t.Types[m])
	}
	for m := range t.KeyOf {
		k, r := t.KeyOf[m], t.RespOf[m]
		if k >= 0 {
			if keyTo[k] >= 0 {
				if keyTo[k] == r && keyRep[k] < 0 {
					keyRep[k], respRep[r] = int32(m), int32(m)
				}
			} else if keyRep[k] < 0 || rank(m) < rank(int(keyRep[k])) {
				keyRep[k] = int32(m)
			}
		}
		if r >= 0 && respTo[r] < 0 && (respRep[r] < 0 || rank(m) < rank(int(respRep[r]))) {
			respRep[r] = int32(m)
		}
	}
	return keyRep, respRep
}

// daCounts scores DA (Trouilleux et al. 2000, §4-5). After the
// correspondence C and the representatives, each expression e other than the
// representative of its chain carries one denotation assignment per side
// where its chain has two or more expressions. Then
//
//	possible = Σ_i (|K_i| - 1),  actual = Σ_j (|R_j| - 1)
//	correct  = Σ_{(K,R) ∈ C} (|K ∩ R| - 1)        (e assigned to K and to C(K))
//	recall   = correct / possible,  precision = correct / actual
//	incorrect: e has an assignment on both sides, to chains not in correspondence
//	spurious:  e has a response assignment and no key assignment
//	missing:   e has a key assignment and no response assignment
//	errors   = incorrect + spurious + missing
//
// over the chains of daTable (implicit singletons make no assignment), so
// that possible = correct + incorrect + missing and actual = correct +
// incorrect + spurious. A chain mapped to the empty set contributes nothing to
// correct (the paper's |K ∩ C(K)| - 1 would be -1 there; the empty set is not
// a chain). The corpus ratios are substitution = Σ incorrect / Σ errors,
// overgeneration = Σ spurious / Σ errors, undergeneration = Σ missing /
// Σ errors. See daModeOf for types, daSimilarities, daCorrespondence and
// daRepresentatives for the readings of ambiguous points. Options.DAGreedy
// selects the greedy correspondence.
//
// Cost: linear in the number of mentions plus the correspondence.
func daCounts(t *Table, opt *Options, out []float64) error {
	w, err := daWeightsOf(opt)
	if err != nil {
		return err
	}
	mode, err := daModeOf(t, opt)
	if mode == daSkip {
		return err
	}
	t = daTable(t)
	tc := t.cachedTypeCounts()
	sims := daSimilarities(t, tc, w, mode)
	keyTo, respTo, err := daCorrespondence(t, sims, opt.DAGreedy)
	if err != nil {
		return err
	}
	keyRep, respRep := daRepresentatives(t, keyTo, respTo)
	var correct, incorrect, spurious, missing, possible, actual float64
	for m := range t.KeyOf {
		k, r := t.KeyOf[m], t.RespOf[m]
		keyAssigned := k >= 0 && t.KeySize[k] > 1 && keyRep[k] != int32(m)
		respAssigned := r >= 0 && t.RespSize[r] > 1 && respRep[r] != int32(m)
		switch {
		case keyAssigned && respAssigned && keyTo[k] == r:
			correct++
		case keyAssigned && respAssigned:
			incorrect++
		case respAssigned:
			spurious++
		case keyAssigned:
			missing++
		}
		if keyAssigned {
			possible++
		}
		if respAssigned {
			actual++
		}
	}
	out[0], out[1], out[2], out[3] = correct, possible, correct, actual
	out[4], out[5], out[6], out[7] = incorrect, spurious, missing, incorrect+spurious+missing
	return nil
}
