package gocore

import "github.com/corefscore/corefscore/gocore/assign"

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
// exact value is Σ_ij n_ij² / |K_i| (and / |R_j|), as in bcubCounts. Cost:
// O(mentions).
func refBcubNums(t *Table) (r, p float64) {
	nk := t.NumKey
	// n[m] = |K(m) ∩ R(m)| for each key mention in the response: the key
	// mentions grouped by key chain (counting sort), whose cells are
	// contiguous in t.Cells, and a slot per response chain.
	start := make([]int32, len(t.KeySize)+1)
	for _, k := range t.KeyOf[:nk] {
		start[k+1]++
	}
	for k := range t.KeySize {
		start[k+1] += start[k]
	}
	fill := append([]int32(nil), start[:len(t.KeySize)]...)
	byKey := make([]int32, nk)
	for m, k := range t.KeyOf[:nk] {
		byKey[fill[k]] = int32(m)
		fill[k]++
	}
	n := make([]int32, nk)
	slot := make([]int32, len(t.RespSize))
	ci := 0
	for k := range t.KeySize {
		for ; ci < len(t.Cells) && int(t.Cells[ci].K) == k; ci++ {
			slot[t.Cells[ci].R] = t.Cells[ci].N
		}
		for _, m := range byKey[start[k]:start[k+1]] {
			if r := t.RespOf[m]; r >= 0 {
				n[m] = slot[r]
			}
		}
	}
	// Response mentions grouped by response chain, in input order within
	// a chain (a stable counting sort of t.RespOrder).
	rstart := make([]int32, len(t.RespSize)+1)
	for _, m := range t.RespOrder {
		rstart[t.RespOf[m]+1]++
	}
	for j := range t.RespSize {
		rstart[j+1] += rstart[j]
	}
	byResp := make([]int32, len(t.RespOrder))
	for _, m := range t.RespOrder {
		j := t.RespOf[m]
		byResp[rstart[j]] = m
		rstart[j]++
	}
	for _, m := range byResp {
		if int(m) >= nk {
			continue // twinless: adds 0 / |R| to precision
		}
		c := float64(n[m])
		p += c / float64(t.RespSize[t.RespOf[m]])
		r += c / float64(t.KeySize[t.KeyOf[m]])
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
// of the same total). So g is the reference's own alignment: its cost
// matrix as CorScorer.pm builds it (a row per key chain, a column per
// response chain, both in chain order, cost 1 - φ, and 1 for a pair with no
// common mention and for the padding columns when there are fewer response
// than key chains) solved by assign.ReferenceMunkres, which replays the
// reference's Munkres step by step. That solver is dense and slow, so a
// document with more than refMunkresMaxChains chains on a side (where the
// reference itself runs for minutes) takes refTieBreakNum's alignment:
// the same optimal total, ties broken by a rule of our own.
func refCeafeNum(t *Table, phi func(Cell) float64) (float64, error) {
	nk, nr := len(t.KeySize), len(t.RespSize)
	if sum, ok := refCeafeUnique(t, phi); ok {
		return sum, nil
	}
	if nk > refMunkresMaxChains || nr > refMunkresMaxChains {
		return refTieBreakNum(t, phi)
	}
	cols := max(nk, nr)
	cost := make([]float64, nk*cols)
	for i := range cost {
		cost[i] = 1
	}
	for _, c := range t.Cells {
		cost[int(c.K)*cols+int(c.R)] = 1 - phi(c)
	}
	rowTo, err := assign.ReferenceMunkres(nk, cols, cost, t.stop)
	if err != nil {
		return 0, err
	}
	var sum float64
	for i, j := range rowTo {
		x := 1.0 // an unassigned row adds 1 - 1
		if j >= 0 {
			x = cost[i*cols+j]
		}
		sum += 1 - x
	}
	return sum, nil
}

// refCeafeUnique is refCeafeNum without the reference's Munkres for the
// common document whose optimal alignment is unique by its shape: every
// connected component of the overlap graph has one key chain or one
// response chain (a star), and its centre's most similar partner is
// strictly the most similar. Any optimal assignment, the reference's
// included, then aligns exactly those pairs, so the sum is the reference's
// (key chains in order, 1 - (1 - φ) each, as refCeafeNum adds them). It
// reports false, leaving the document to the Munkres replay, as soon as a
// component has two chains on both sides or its best partner is tied.
// Cost: O(cells) with a union-find over the chains.
func refCeafeUnique(t *Table, phi func(Cell) float64) (float64, bool) {
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
	// Per component: how many key and response chains it has.
	keys := make([]int32, nk+nr)
	resps := make([]int32, nk+nr)
	for k := range nk {
		keys[find(int32(k))]++
	}
	for r := range nr {
		resps[find(int32(nk+r))]++
	}
	// The best partner of each star's centre, and whether it is tied.
	best := make([]float64, nk+nr)
	pick := make([]int32, nk+nr) // the key chain aligned in each component, +1 (0: none yet)
	tied := make([]bool, nk+nr)
	for _, c := range t.Cells {
		root := find(c.K)
		if keys[root] > 1 && resps[root] > 1 {
			return 0, false
		}
		x := phi(c)
		switch {
		case pick[root] == 0 || x > best[root]:
			best[root], pick[root], tied[root] = x, c.K+1, false
		case x == best[root]:
			tied[root] = true
		}
	}
	aligned := make([]float64, nk)
	for root, k := range pick {
		if k == 0 {
			continue
		}
		if tied[root] {
			return 0, false
		}
		aligned[k-1] = best[root]
	}
	var sum float64
	for _, x := range aligned {
		if x != 0 {
			sum += 1 - (1 - x)
		}
	}
	return sum, true
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
