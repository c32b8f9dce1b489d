package gocore

import (
	"cmp"
	"math"
	"slices"

	"github.com/corefscore/corefscore/gocore/assign"
)

// This file holds the sums of Options.ReferenceSums: the B-cubed and CEAF_e
// numerators added term by term in the order of the CoNLL reference scorer
// v8.01 (CorScorer.pm), so that they are the same float64 numbers as Perl's.
// Every other numerator of the reference is a sum of integers, exact in any
// order. The reference prints a percentage as int(n / d * 10000) / 100,
// truncated, so a numerator one ulp off can print 19.99% as 20%.
//
// The reference's order is that of its chains: entities in the order in
// which it first sees their ids, mentions of an entity in the order it
// stores them. gocore/conll emits the mentions of a document in that order,
// and a Table numbers chains in order of first appearance, so the chain
// numbering of a Table built from a reader's document is the reference's.

// refBcubNums returns the B-cubed numerators as the reference's BCUBED sums
// them: one term per response mention m, response chains in order, the
// mentions of a chain in response input order, starting from 0:
//
//	recall_num    += |R(m) ∩ K(m)| / |K(m)|   (m in a key chain K(m))
//	precision_num += |R(m) ∩ K(m)| / |R(m)|   (0 when m has no key twin)
//
// Adding 0 leaves a sum unchanged, so twinless mentions are skipped. Key
// mentions missing from the response add nothing, as in the reference. The
// exact value is Σ_ij n_ij² / |K_i| (and / |R_j|), as in bcubCounts. Each
// response chain's |R ∩ K| are counted from its own mentions, in a slot per
// key chain cleared after the chain. Cost: O(mentions).
func refBcubNums(t *Table) (r, p float64) {
	nk, nr := t.NumKey, len(t.RespSize)
	// Response mentions grouped by response chain, in input order within
	// a chain (a stable counting sort of t.RespOrder).
	start := make([]int32, nr+1)
	for _, m := range t.RespOrder {
		start[t.RespOf[m]+1]++
	}
	for j := range nr {
		start[j+1] += start[j]
	}
	byResp := make([]int32, len(t.RespOrder))
	fill := start[:nr] // advanced to each chain's end, which is start[j+1]
	for _, m := range t.RespOrder {
		j := t.RespOf[m]
		byResp[fill[j]] = m
		fill[j]++
	}
	common := make([]int32, len(t.KeySize)) // |R ∩ K| of the chain R being summed
	from := int32(0)
	for j := range nr {
		chain := byResp[from:fill[j]]
		from = fill[j]
		for _, m := range chain {
			if int(m) < nk {
				common[t.KeyOf[m]]++
			}
		}
		size := float64(t.RespSize[j])
		for _, m := range chain {
			if int(m) >= nk {
				continue // twinless: adds 0 / |R| to precision
			}
			k := t.KeyOf[m]
			c := float64(common[k])
			p += c / size
			r += c / float64(t.KeySize[k])
		}
		for _, m := range chain {
			if int(m) < nk {
				common[t.KeyOf[m]] = 0
			}
		}
	}
	return r, p
}

// refCeafeNum returns the CEAF numerator as the reference's CEAF sums it:
// the solver's cost of pair (K_i, R_j) is 1 - φ(K_i, R_j) and the numerator
// adds 1 - cost once per key chain, in key chain order, starting from 0:
//
//	Φ = Σ_i (1 - (1 - φ(K_i, R_g(i))))   (a term 1 - 1 = 0 when K_i is unaligned)
//
// 1 - (1 - x) is not always x in floating point, hence this form. Which
// chain is aligned where matters too: when two alignments tie, the same
// terms sit at other places in the sum, and the printed percentage can
// move (key (3)(1)(5)(2)(3)(0)(0)(4) against response (1)(0)(3)(3)(2)(0)(2)(1)
// prints 62.5% with the reference's alignment and 62.49% with another one
// of the same total). So g is the reference's own alignment. When every
// optimal alignment gives each key chain the same similarity
// (refCeafeUnique), any one of them is; otherwise refCeafeReplayNum
// replays the reference's Munkres on the whole document. That replay is
// dense, so a document with more than refMunkresMaxChains chains on a side
// (where the reference itself runs for minutes) takes refTieBreakNum's
// alignment instead: the same optimal total, ties broken by a rule of our
// own.
func refCeafeNum(t *Table, phi func(Cell) float64) (float64, error) {
	if sum, ok, err := refCeafeUnique(t, phi); ok || err != nil {
		return sum, err
	}
	return refCeafeOwn(t, phi)
}

// refCeafeReplayNum is refCeafeNum on the reference's own alignment: its
// cost matrix as CorScorer.pm builds it (a row per key chain, a column per
// response chain, both in chain order, cost 1 - φ, and 1 for a pair with no
// common mention and for the padding columns when there are fewer response
// than key chains) solved by assign.ReferenceMunkresSparse, which replays
// the reference's Munkres step by step (given the cells, not the matrix).
// The whole matrix is needed: solved alone, a tied component of the
// overlap graph takes another alignment than within its document in about
// 2.5% of random tied documents (TestRefCeafeReplayNeedsTheWholeDocument;
// the chains with no common mention take part in the reference's steps),
// and so, in as many, did the tied components solved together, with or
// without the chains with no common mention.
func refCeafeReplayNum(t *Table, phi func(Cell) float64) (float64, error) {
	nk, nr := len(t.KeySize), len(t.RespSize)
	costs := make([]assign.SparseCost, len(t.Cells)) // in key chain order, as t.Cells
	for i, c := range t.Cells {
		costs[i] = assign.SparseCost{Row: c.K, Col: c.R, Cost: 1 - phi(c)}
	}
	rowTo, err := assign.ReferenceMunkresSparse(nk, max(nk, nr), 1, costs, t.stop)
	if err != nil {
		return 0, err
	}
	x := make([]float64, nk) // the cost of each key chain's pair
	for i := range x {
		x[i] = 1 // an unassigned row, or a pair with no common mention, adds 1 - 1
	}
	for _, c := range costs {
		if rowTo[c.Row] == int(c.Col) {
			x[c.Row] = c.Cost
		}
	}
	var sum float64
	for _, xi := range x {
		sum += 1 - xi
	}
	return sum, nil
}

// refCeafeLow is refCeafeNum under Options.ReferenceTotals: the least of
// the sums of the candidate alignments (refCeafeProfiles, refTiedSums),
// the greatest recorded in t.refHigh (t.refTied) when they differ, for
// refSettleTotals; the reference's own sum where the candidates are not
// found (refCeafeNum's replay, or its rule for the largest documents).
func refCeafeLow(t *Table, phi func(Cell) float64) (float64, error) {
	aligned, ties, ok, err := refCeafeProfiles(t, phi)
	if err != nil {
		return 0, err
	}
	if ok {
		if low, high, ok := refTiedSums(aligned, ties, false); ok {
			t.refTied, t.refHigh = low != high, high
			return low, nil
		}
	}
	return refCeafeOwn(t, phi)
}

// refCeafeOwn is refCeafeNum's sum for a document left to the reference's
// Munkres: the replay, or refTieBreakNum above refMunkresMaxChains chains
// on a side.
func refCeafeOwn(t *Table, phi func(Cell) float64) (float64, error) {
	if len(t.KeySize) > refMunkresMaxChains || len(t.RespSize) > refMunkresMaxChains {
		return refTieBreakNum(t, phi)
	}
	return refCeafeReplayNum(t, phi)
}

// ceafeIndex is CEAF_e's place in the registry.
var ceafeIndex = metricIndex("ceafe")

// refSettleTotals makes the CEAF_e totals of a batch scored under
// Options.ReferenceTotals the reference's: each row holds its document's
// numerator, or for a document whose candidates differ the least of them
// (refCeafeLow) and its result the greatest. Adding the rows in order from
// 0 is monotone in each term, so when the totals of the least and of the
// greatest candidates have the same bits, every choice of candidates, the
// reference's included, has that total. Otherwise the tied documents are
// replayed, the widest range first, each then holding the reference's own
// numerator, until the two totals agree (at the latest when none is left).
// Cost: O(documents) per replayed document, besides the replay.
func refSettleTotals(docs []Document, opt *Options, counts []float64, results []docResult) error {
	ncol, col := NumColumns(), columnStart[ceafeIndex] // recall_num; precision_num is col+2
	var tied []int
	for i := range results {
		if results[i].ceafeTied {
			tied = append(tied, i)
		}
	}
	slices.SortStableFunc(tied, func(a, b int) int {
		return cmp.Compare(results[b].ceafeHigh-counts[b*ncol+col], results[a].ceafeHigh-counts[a*ncol+col])
	})
	totals := func() (low, high float64) {
		for i := range docs {
			x := counts[i*ncol+col]
			low += x
			if results[i].ceafeTied {
				x = results[i].ceafeHigh
			}
			high += x
		}
		return low, high
	}
	for _, i := range tied {
		if low, high := totals(); math.Float64bits(low) == math.Float64bits(high) {
			return nil
		}
		t, err := NewTable(&docs[i], i, opt, nil)
		if err != nil {
			return &DocError{Doc: i, Name: docs[i].Name, Err: err}
		}
		t.stop = opt.Stop
		own, err := refCeafeOwn(t, t.phi4)
		if err != nil {
			return &DocError{Doc: i, Name: docs[i].Name, Err: t.locate(&docs[i], err, "ceafe")}
		}
		counts[i*ncol+col], counts[i*ncol+col+2] = own, own
		results[i].ceafeTied = false
	}
	return nil
}

// refCeafeUnique is refCeafeNum without the reference's Munkres for a
// document whose optimal alignments all give the same numerator: the
// numerator adds, in key chain order, the similarity aligned to each key
// chain, so which optimal alignment the reference takes matters only when
// two of them give a sum of other bits.
//
// The alignment decomposes over the connected components of the overlap
// graph (key and response chains, an edge per contingency cell): chains in
// different components share no mention, so a pair across components adds
// 0, and an alignment is optimal when it is on each component. A
// component's profile is the similarity x aligned to each of its key
// chains (x = 0: unaligned). Every alignment whose total is within
// refTieMargin of a component's best is a candidate for the reference's
// (the reference's own is optimal, up to its rounding), so the sum is the
// reference's when the candidates' profiles, combined across components
// and added in key chain order, 1 - (1 - x) each as refCeafeNum adds them,
// all give the same float64. Most components have one profile (two
// response chains of the same similarity to a key chain, the common tie,
// do not change it); a tied component has a few (two key chains of the
// same similarity to one response chain), which may or may not move the
// sum's bits: refTiedSum adds every combination of them. A component's
// profiles are found from its pairs when it is a star (one key chain or
// one response chain; refStarProfiles), by listing its alignments when it
// is small (refListProfiles), or, when that search declines, by the exact
// solver, which only tells one profile from more (refSolveUnique). It
// reports false, leaving the document to the replay, when a component too
// large to list has more than one profile, a component has more than
// refMaxProfiles, the combinations are more than refMaxCombinations, or
// two combinations give different sums.
// Cost: O(cells + chains) with a union-find over the chains, plus the
// search or the solves of the components that are not stars (a component
// of more than refSolveMaxKeys key chains that the search cannot decide
// is left to the replay), plus O(chains) per combination of tied profiles.
func refCeafeUnique(t *Table, phi func(Cell) float64) (float64, bool, error) {
	aligned, ties, ok, err := refCeafeProfiles(t, phi)
	if !ok || err != nil {
		return 0, false, err
	}
	sum, ok := refTiedSum(aligned, ties)
	return sum, ok, nil
}

// refCeafeProfiles is the first part of refCeafeUnique: the similarity
// aligned to each key chain in the components of one candidate profile (0
// in the others) and the components of several; false when a component
// leaves the document to the replay.
func refCeafeProfiles(t *Table, phi func(Cell) float64) (aligned []float64, ties []refTie, ok bool, err error) {
	nk, nr := len(t.KeySize), len(t.RespSize)
	comp := refComponents(t)
	aligned = make([]float64, nk)
	local := make([]int32, nk+nr) // a chain's index within its component, -1
	for i := range local {
		local[i] = -1
	}
	star := func(c int) bool { return comp.keys[c] == 1 || comp.resps[c] == 1 }
	// The stars first: they are cheap, and most tied documents have a tied
	// star.
	for c := range comp.keys {
		if star(c) && !refStarProfiles(t, comp.cells[comp.start[c]:comp.start[c+1]], phi, aligned, &ties) {
			return nil, nil, false, nil
		}
	}
	var edges []assign.Edge
	var keyOf []int32 // the key chain of each local key
	var profiles refProfiles
	for c := range comp.keys {
		if star(c) {
			continue
		}
		cells := comp.cells[comp.start[c]:comp.start[c+1]]
		edges, keyOf = edges[:0], keyOf[:0]
		var lr int32
		for _, ci := range cells {
			cell := t.Cells[ci]
			k, r := cell.K, int32(nk)+cell.R
			if local[k] < 0 {
				local[k] = int32(len(keyOf))
				keyOf = append(keyOf, k)
			}
			if local[r] < 0 {
				local[r], lr = lr, lr+1
			}
			edges = append(edges, assign.Edge{Left: local[k], Right: local[r], Weight: phi(cell)})
		}
		for _, ci := range cells {
			local[t.Cells[ci].K], local[int32(nk)+t.Cells[ci].R] = -1, -1
		}
		if !refListProfiles(edges, len(keyOf), int(lr), &profiles) {
			if len(keyOf) > refSolveMaxKeys {
				return nil, nil, false, nil // a solve per key chain: left to the replay
			}
			profile := make([]float64, len(keyOf))
			unique, err := refSolveUnique(edges, len(keyOf), int(lr), profile, t.stop)
			if err != nil || !unique {
				return nil, nil, false, err
			}
			profiles = refProfiles{width: len(keyOf), values: profile}
		}
		if profiles.count() == 1 {
			for i, x := range profiles.values {
				aligned[keyOf[i]] = x
			}
			continue
		}
		ties = append(ties, refTie{keys: slices.Clone(keyOf), profiles: slices.Clone(profiles.values)})
	}
	return aligned, ties, true, nil
}

// refTie is a component with more than one candidate profile: its key
// chains and the profiles, len(keys) values each, one after the other.
type refTie struct {
	keys     []int32
	profiles []float64
}

func (t refTie) count() int { return len(t.profiles) / len(t.keys) }

// refMaxProfiles is the most profiles of one component, and
// refMaxCombinations the most combinations of the tied components'
// profiles, that refCeafeUnique adds up before leaving a document to the
// replay (a combination costs a sum over the key chains; the replay costs
// up to the fourth power of their number).
const (
	refMaxProfiles     = 16
	refMaxCombinations = 1024
)

// refTiedSum returns the numerator with aligned (each key chain's
// similarity, the untied components' written in) completed by every
// combination of the ties' profiles, and whether they all gave the same
// bits (refTiedSums, stopped at the first that differs).
func refTiedSum(aligned []float64, ties []refTie) (float64, bool) {
	low, high, ok := refTiedSums(aligned, ties, true)
	return low, ok && low == high
}

// refTiedSums returns the least and the greatest numerator of aligned
// completed by every combination of the ties' profiles, or false when they
// are more than refMaxCombinations; with firstDiffering, it returns as soon
// as two differ. Each tie is first turned alone, the others at their first
// profile: where sums differ, that usually shows at once. Then the
// combinations are taken in the order of an odometer whose fastest wheel is
// the tie whose first key chain comes last, so a turn adds again only from
// the first key chain it changed. It overwrites aligned and the ties'
// profiles with the terms they add, and reorders ties.
func refTiedSums(aligned []float64, ties []refTie, firstDiffering bool) (low, high float64, ok bool) {
	combinations := 1
	for _, tie := range ties {
		if combinations *= tie.count(); combinations > refMaxCombinations {
			return 0, 0, false
		}
	}
	refTerms(aligned)
	for _, tie := range ties {
		refTerms(tie.profiles)
	}
	slices.SortFunc(ties, func(a, b refTie) int { return cmp.Compare(b.keys[0], a.keys[0]) })
	for _, tie := range ties {
		copy2(aligned, tie.keys, tie.profiles)
	}
	before := make([]float64, len(aligned)+1) // the sum of the terms of the key chains before k
	low = refSumFrom(aligned, before, 0, true)
	high = low
	seen := func(sum float64) bool { // false: stop here
		low, high = min(low, sum), max(high, sum)
		return !firstDiffering || low == high
	}
	for _, tie := range ties {
		for p := 1; p < tie.count(); p++ {
			copy2(aligned, tie.keys, tie.profiles[p*len(tie.keys):])
			if !seen(refSumFrom(aligned, before, int(tie.keys[0]), false)) {
				return low, high, true
			}
		}
		copy2(aligned, tie.keys, tie.profiles)
	}
	if len(ties) <= 1 {
		return low, high, true
	}
	pick := make([]int, len(ties)) // the profile of each tie
	for {
		c := 0
		for ; c < len(ties); c++ {
			tie := ties[c]
			if pick[c]++; pick[c] == tie.count() {
				pick[c] = 0
			}
			copy2(aligned, tie.keys, tie.profiles[pick[c]*len(tie.keys):])
			if pick[c] != 0 {
				break
			}
		}
		if c == len(ties) {
			return low, high, true
		}
		// The ties before c start later.
		if !seen(refSumFrom(aligned, before, int(ties[c].keys[0]), true)) {
			return low, high, true
		}
	}
}

// refTerms replaces each similarity x of xs with the term the reference
// adds for it, 1 - (1 - x), and leaves 0 (a key chain unaligned) as it is.
func refTerms(xs []float64) {
	for k, x := range xs {
		if x != 0 {
			xs[k] = 1 - (1 - x)
		}
	}
}

// refSumFrom returns the numerator of terms (refTerms) added in key chain
// order, from the sum of those before key chain from in before[from]; with
// write, it records the sums before each later key chain in before too. A
// term 0 is added like the others: x + 0 is x, and the sum is never -0.
func refSumFrom(terms, before []float64, from int, write bool) float64 {
	sum := before[from]
	if write {
		for k, x := range terms[from:] {
			before[from+k] = sum
			sum += x
		}
		return sum
	}
	for _, x := range terms[from:] {
		sum += x
	}
	return sum
}

// copy2 writes values[i] into aligned[keys[i]] for each key.
func copy2(aligned []float64, keys []int32, values []float64) {
	for i, k := range keys {
		aligned[k] = values[i]
	}
}

// refProfiles is a list of distinct profiles of one width, one after the
// other in values.
type refProfiles struct {
	width  int
	values []float64
}

func (p *refProfiles) count() int { return len(p.values) / max(p.width, 1) }

// add appends profile unless it is listed already; false when that would
// make more than refMaxProfiles.
func (p *refProfiles) add(profile []float64) bool {
	for at := 0; at < len(p.values); at += p.width {
		if slices.Equal(p.values[at:at+p.width], profile) {
			return true
		}
	}
	if p.count() == refMaxProfiles {
		return false
	}
	p.values = append(p.values, profile...)
	return true
}

// refListProfiles finds the candidate profiles of a small component (lk
// key and lr response chains, its edges grouped by key chain in order) by
// listing its alignments: a depth-first search over the key chains, each
// aligned to a free partner or to none, cut where even the best partners
// of the key chains left cannot bring the total within refTieMargin of
// the best found. It writes into out the distinct profiles of the
// alignments within the margin of the best and reports whether it decided:
// false, out undefined, when the component has more than 64 chains on a
// side, the search would take more than refListBudget steps, or the
// profiles are more than refMaxProfiles.
func refListProfiles(edges []assign.Edge, lk, lr int, out *refProfiles) bool {
	out.width, out.values = lk, out.values[:0]
	if lk > 64 || lr > 64 {
		return false
	}
	var start [65]int32 // key chain i's edges are edges[start[i]:start[i+1]]
	var bound [65]float64
	for e, edge := range edges {
		start[edge.Left+1] = int32(e + 1)
		bound[edge.Left] = max(bound[edge.Left], edge.Weight)
	}
	for i := lk - 1; i >= 0; i-- {
		bound[i] += bound[i+1] // the most the key chains from i on can add
	}
	var cur [64]float64
	var totals []float64 // of each listed profile
	best, steps := -1.0, 0
	var walk func(i int, used uint64, total float64) bool // false: over a budget
	walk = func(i int, used uint64, total float64) bool {
		if steps++; steps > refListBudget {
			return false
		}
		if total+bound[i] < best-refTieMargin {
			return true
		}
		if i == lk {
			switch {
			case total > best+refTieMargin:
				// Every profile listed is more than the margin below.
				best, out.values, totals = total, out.values[:0], totals[:0]
			case total < best-refTieMargin:
				return true
			}
			best = max(best, total)
			n := out.count()
			if !out.add(cur[:lk]) {
				return false
			}
			if out.count() > n {
				totals = append(totals, total)
			}
			return true
		}
		for _, e := range edges[start[i]:start[i+1]] {
			if bit := uint64(1) << e.Right; used&bit == 0 {
				cur[i] = e.Weight
				if !walk(i+1, used|bit, total+e.Weight) {
					return false
				}
			}
		}
		cur[i] = 0
		return walk(i+1, used, total)
	}
	if !walk(0, 0, 0) {
		return false
	}
	// Profiles listed while the best was lower may have fallen out of the
	// margin since.
	kept := out.values[:0]
	for p, total := range totals {
		if total >= best-refTieMargin {
			kept = append(kept, out.values[p*lk:(p+1)*lk]...)
		}
	}
	out.values = kept
	return true
}

// refListBudget bounds the steps of refListProfiles's search; past it, the
// solver decides (refSolveUnique).
const refListBudget = 2000

// refSolveMaxKeys is the most key chains of a component that refCeafeUnique
// gives to refSolveUnique, which solves the component once per key chain.
const refSolveMaxKeys = 256

// refSolveUnique decides whether a component too large to list has one
// candidate profile, with the exact solver: for each key chain k and the
// similarity x it gets in the solver's optimum, written into profile, the
// best alignment with k's pairs of similarity x forbidden (k aligned) or
// with k aligned (a bonus above any total on k's pairs, k unaligned) must
// fall short of the optimum by more than refTieMargin. The edges are
// grouped by key chain; they are changed and restored.
func refSolveUnique(edges []assign.Edge, lk, lr int, profile []float64, stop func() bool) (bool, error) {
	best, match, err := assign.MaxWeightPoll(lk, lr, edges, stop)
	if err != nil {
		return false, err
	}
	for _, e := range edges {
		if match[e.Left] == e.Right {
			profile[e.Left] = e.Weight
		}
	}
	var saved []assign.Edge
	for from := 0; from < len(edges); {
		to := from + 1
		for to < len(edges) && edges[to].Left == edges[from].Left {
			to++
		}
		x := profile[edges[from].Left]
		saved = append(saved[:0], edges[from:to]...)
		for e := from; e < to; e++ {
			switch {
			case x == 0:
				edges[e].Weight += best + 1 // k aligned beats any alignment without it
			case edges[e].Weight == x:
				edges[e].Weight = 0 // a zero-weight edge is never aligned
			}
		}
		other, err := assign.MaxWeightTotalPoll(lk, lr, edges, stop)
		copy(edges[from:to], saved)
		if err != nil {
			return false, err
		}
		if x == 0 {
			other -= best + 1
		}
		if other >= best-refTieMargin {
			return false, nil
		}
		from = to
	}
	return true, nil
}

// refStarProfiles finds the candidate profiles of a star, a component with
// one key chain or one response chain, whose alignments are its single
// pairs: the pairs within refTieMargin of the best. Around one key chain,
// partners of exactly the best similarity give the same profile; around
// one response chain, each candidate key chain is a profile of its own. A
// star of one profile is written into aligned, one of several appended to
// ties; false when they are more than refMaxProfiles.
func refStarProfiles(t *Table, cells []int32, phi func(Cell) float64, aligned []float64, ties *[]refTie) bool {
	best, pick := -1.0, Cell{}
	for _, ci := range cells {
		if x := phi(t.Cells[ci]); x > best {
			best, pick = x, t.Cells[ci]
		}
	}
	tied := false
	for _, ci := range cells {
		c := t.Cells[ci]
		if x := phi(c); x >= best-refTieMargin && c != pick && (c.K != pick.K || x != best) {
			tied = true
			break
		}
	}
	if !tied {
		aligned[pick.K] = best
		return true
	}
	// The component's key chains in order (one, or the response chain's
	// partners in table order, which is key chain order), and a profile
	// per candidate pair (a key chain's partners of equal similarity make
	// one).
	var tie refTie
	for _, ci := range cells {
		if k := t.Cells[ci].K; len(tie.keys) == 0 || tie.keys[len(tie.keys)-1] != k {
			tie.keys = append(tie.keys, k)
		}
	}
	profiles := refProfiles{width: len(tie.keys)}
	profile := make([]float64, len(tie.keys))
	for _, ci := range cells {
		c := t.Cells[ci]
		x := phi(c)
		if x < best-refTieMargin {
			continue
		}
		clear(profile)
		profile[slices.Index(tie.keys, c.K)] = x
		if !profiles.add(profile) {
			return false
		}
	}
	tie.profiles = profiles.values
	*ties = append(*ties, tie)
	return true
}

// refTieMargin is how much an alignment's total must beat every other for
// refCeafeUnique to call it unique. The replay works in float64, where two
// totals closer than its rounding (about 1e-13 for a thousand chains) may
// compare either way; a margin far above that leaves such near ties to the
// replay too, which is only slower.
const refTieMargin = 1e-9

// refComponents groups the cells of t by connected component of the
// overlap graph (key and response chains, an edge per cell).
type refComponentCells struct {
	keys, resps []int32 // chains of each component on each side
	start       []int32 // component c's cells are cells[start[c]:start[c+1]]
	cells       []int32 // indices into t.Cells, in table order within a component
}

// refComponents numbers the components that hold a cell, in order of
// their first cell; chains with no cell belong to none. Cost: O(cells +
// chains).
func refComponents(t *Table) refComponentCells {
	nk, nr := len(t.KeySize), len(t.RespSize)
	parent := make([]int32, nk+nr)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, c := range t.Cells {
		a, b := find(c.K), find(int32(nk)+c.R)
		if a != b {
			parent[a] = b
		}
	}
	root := parent // from here on, each chain's root
	for i := range root {
		root[i] = find(int32(i))
	}
	id := make([]int32, nk+nr) // component number of each root, +1 (0: none yet)
	n := int32(0)
	for _, c := range t.Cells {
		if r := root[c.K]; id[r] == 0 {
			n++
			id[r] = n
		}
	}
	counts := make([]int32, 3*n+1)
	out := refComponentCells{keys: counts[:n], resps: counts[n : 2*n], start: counts[2*n:]}
	for _, c := range t.Cells {
		out.start[id[root[c.K]]]++
	}
	for k, r := range root {
		if i := id[r]; i > 0 {
			if k < nk {
				out.keys[i-1]++
			} else {
				out.resps[i-1]++
			}
		}
	}
	for c := range out.keys {
		out.start[c+1] += out.start[c]
	}
	fill := append([]int32(nil), out.start[:len(out.keys)]...)
	out.cells = make([]int32, len(t.Cells))
	for ci, c := range t.Cells {
		i := id[root[c.K]] - 1
		out.cells[fill[i]] = int32(ci)
		fill[i]++
	}
	return out
}

// refMunkresMaxChains is the largest number of chains on a side for which
// refCeafeNum replays the reference's Munkres (O(n²) memory, up to O(n⁴)
// time).
const refMunkresMaxChains = 1000

// refTieBreakNum is refCeafeNum's numerator for large documents: the
// optimal alignment that favours, among equal totals, the earlier key chain
// and then the earlier response chain (a bonus of at most refTieEps = 1e-9
// per pair, the rule of daCorrespondence), summed as the reference sums.
// On small random documents this rule took another alignment than the
// reference's in about 1 document in 1,200 (a tie resolved otherwise).
func refTieBreakNum(t *Table, phi func(Cell) float64) (float64, error) {
	edges := make([]assign.Edge, 0, len(t.Cells))
	nk, nr := float64(len(t.KeySize)), float64(len(t.RespSize))
	for _, c := range t.Cells {
		bonus := ((nk-float64(c.K))*(nr+1) - float64(c.R)) / (nk * (nr + 1))
		edges = append(edges, assign.Edge{Left: c.K, Right: c.R, Weight: phi(c) + refTieEps*bonus})
	}
	_, match, err := assign.MaxWeightPoll(len(t.KeySize), len(t.RespSize), edges, t.stop)
	if err != nil {
		return 0, err
	}
	aligned := make([]float64, len(t.KeySize))
	for _, c := range t.Cells {
		if match[c.K] == c.R {
			aligned[c.K] = phi(c)
		}
	}
	var sum float64
	for _, x := range aligned {
		sum += 1 - (1 - x)
	}
	return sum, nil
}

// refTieEps bounds the tie-breaking bonus of refTieBreakNum.
const refTieEps = 1e-9
