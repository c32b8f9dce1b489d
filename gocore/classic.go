package gocore

import (
	"github.com/corefscore/corefscore/gocore/internal/exactsum"
	"github.com/corefscore/corefscore/gocore/internal/pages"
)

// mentionCounts scores mention detection by exact identity:
//
//	recall = |key ∩ response| / |key|,  precision = |key ∩ response| / |response|
//
// Cost: O(1) from the table.
func mentionCounts(t *Table, _ *Options, out []float64) error {
	both := float64(t.NumBoth)
	writeRP(out, both, float64(t.NumKey), both, float64(t.NumResp))
	return nil
}

// mucCounts scores MUC (Vilain et al. 1995) on predicted mentions as the
// reference scorer does (Pradhan et al. 2014, §4.1). The relative partition
// p(K_i) of a key cluster has one part per response cluster it meets plus one
// per key mention missing from the response, so
//
//	Σ_i (|K_i| - |p(K_i)|) = Σ_ij (n_ij - 1)   over non-empty cells,
//
// and symmetrically for precision: the two numerators are equal.
//
//	recall    = Σ_ij (n_ij - 1) / Σ_i (|K_i| - 1)
//	precision = Σ_ij (n_ij - 1) / Σ_j (|R_j| - 1)
//
// Both denominators are 0 when a side has only singletons (0/0, scored 0 by
// the arithmetic). Cost: O(cells + clusters).
func mucCounts(t *Table, _ *Options, out []float64) error {
	var correct, keyLinks, respLinks float64
	for _, c := range t.Cells {
		correct += float64(c.N - 1)
	}
	for _, s := range t.KeySize {
		keyLinks += float64(s - 1)
	}
	for _, s := range t.RespSize {
		respLinks += float64(s - 1)
	}
	writeRP(out, correct, keyLinks, correct, respLinks)
	return nil
}

// bcubCounts scores B-cubed with a weight per mention (Bagga & Baldwin 1998,
// Pradhan et al. 2014 §4.2):
//
//	recall    = Σ_ij n_ij² / |K_i|  /  Σ_i |K_i|
//	precision = Σ_ij n_ij² / |R_j|  /  Σ_j |R_j|
//
// Mentions on one side only count in that side's denominator. Each
// numerator adds one term per cluster, Σ_j n_ij² / |K_i| for K_i (see
// squaredOverlaps) and Σ_i n_ij² / |R_j| for R_j, exactly (exactsum) and
// rounds once: a function of the partitions, the same bits whatever the
// order of clusters and mentions. Cost: O(cells + clusters), or
// O(mentions) under Options.ReferenceSums (refBcubNums, which sums in the
// reference scorer's order instead).
func bcubCounts(t *Table, opt *Options, out []float64) error {
	if opt.ReferenceSums {
		r, p := refBcubNums(t)
		writeRP(out, r, float64(t.NumKey), p, float64(t.NumResp))
		return nil
	}
	var small [2 * smallClusters]float64 // a small document's sums stay on the stack
	keySq, respSq := squaredOverlaps(t, small[:])
	var r, p exactsum.Sum
	for i, sq := range keySq {
		r.Add(sq / float64(t.KeySize[i]))
	}
	for j, sq := range respSq {
		p.Add(sq / float64(t.RespSize[j]))
	}
	writeRP(out, r.Value(), float64(t.NumKey), p.Value(), float64(t.NumResp))
	return nil
}

// squaredOverlaps returns Σ_j n_ij² for each key cluster K_i and Σ_i n_ij²
// for each response cluster R_j, integers (exact in a float64 for clusters
// of up to 10^7 mentions), in arrays carved from small (zeroed) when it is
// long enough. B-cubed then adds one term per cluster rather than per cell:
// fewer terms, each a function of one cluster.
func squaredOverlaps(t *Table, small []float64) (keySq, respSq []float64) {
	keySq, respSq = splitSmall(small, len(t.KeySize), len(t.RespSize))
	for _, c := range t.Cells {
		n2 := float64(c.N) * float64(c.N)
		keySq[c.K] += n2
		respSq[c.R] += n2
	}
	return keySq, respSq
}

// bcubEntityCounts scores B-cubed with equal weight per equivalence class, the
// information-retrieval variant of Bagga & Baldwin (1998, §"weighting"): a
// mention of key cluster K_i weighs 1 / (#key clusters · |K_i|), so
//
//	recall    = Σ_ij n_ij² / |K_i|²  /  #key clusters
//	precision = Σ_ij n_ij² / |R_j|²  /  #response clusters
//
// The cluster counts are the denominators so that documents add up. On
// Figure 6 of the paper this gives precision 39/49 and 3/4. The numerators
// add Σ_j n_ij² / |K_i|², one term per cluster, exactly, as in bcubCounts.
// Cost: O(cells + clusters).
func bcubEntityCounts(t *Table, _ *Options, out []float64) error {
	var small [2 * smallClusters]float64 // a small document's sums stay on the stack
	keySq, respSq := squaredOverlaps(t, small[:])
	var r, p exactsum.Sum
	for i, sq := range keySq {
		k := float64(t.KeySize[i])
		r.Add(sq / (k * k))
	}
	for j, sq := range respSq {
		s := float64(t.RespSize[j])
		p.Add(sq / (s * s))
	}
	writeRP(out, r.Value(), float64(len(t.KeySize)), p.Value(), float64(len(t.RespSize)))
	return nil
}

// blancColumns are BLANC's counts: the coreference links and the
// non-coreference links, each as recall and precision fractions.
var blancColumns = []string{
	"coref.recall_num", "coref.recall_den", "coref.precision_num", "coref.precision_den",
	"noncoref.recall_num", "noncoref.recall_den", "noncoref.precision_num", "noncoref.precision_den",
}

// blancCounts counts BLANC's links (Luo et al. 2014, Pradhan et al. 2014
// §4.4) from the contingency table, without enumerating pairs. With a_i the
// common mentions of K_i, b_j those of R_j and c all common mentions:
//
//	correct coreference links      = Σ_ij C(n_ij, 2)
//	key / response coref links     = Σ_i C(|K_i|, 2),  Σ_j C(|R_j|, 2)
//	key non-coreference links      = C(|key|, 2) - Σ_i C(|K_i|, 2)
//	response non-coreference links = C(|resp|, 2) - Σ_j C(|R_j|, 2)
//	correct non-coreference links  = C(c, 2) - Σ_i C(a_i, 2) - Σ_j C(b_j, 2) + Σ_ij C(n_ij, 2)
//
// How the two halves combine when a side has no links is a matter of
// arithmetic on the summed counts, not of the counts themselves. Cost:
// O(cells + clusters).
func blancCounts(t *Table, _ *Options, out []float64) error {
	var correctCoref, keyCoref, respCoref float64
	var small [2 * smallClusters]int32 // a small document's sums stay on the stack
	keyCommon, respCommon := splitSmall(small[:], len(t.KeySize), len(t.RespSize))
	for _, c := range t.Cells {
		correctCoref += link(c.N)
		keyCommon[c.K] += c.N
		respCommon[c.R] += c.N
	}
	correctNon := link(int32(t.NumBoth)) + correctCoref
	for i, s := range t.KeySize {
		keyCoref += link(s)
		correctNon -= link(keyCommon[i])
	}
	for j, s := range t.RespSize {
		respCoref += link(s)
		correctNon -= link(respCommon[j])
	}
	keyNon := link(int32(t.NumKey)) - keyCoref
	respNon := link(int32(t.NumResp)) - respCoref
	writeRP(out[:4], correctCoref, keyCoref, correctCoref, respCoref)
	writeRP(out[4:], correctNon, keyNon, correctNon, respNon)
	return nil
}

// leaCounts scores LEA (Moosavi & Strube 2016), link-based entity-aware:
//
//	recall    = Σ_i |K_i| · Σ_j link(n_ij) / link(K_i)  /  Σ_i |K_i|
//	precision = Σ_j |R_j| · Σ_i link(n_ij) / link(R_j)  /  Σ_j |R_j|
//
// with link(n) = n(n-1)/2. A one-mention cluster has one self-link, resolved
// only when its mention is a one-mention cluster on the other side too (as in
// the reference scorer's LEA branch). Cost: O(cells + clusters).
func leaCounts(t *Table, _ *Options, out []float64) error {
	var small [2 * smallClusters]float64 // a small document's sums stay on the stack
	keyResolved, respResolved := splitSmall(small[:], len(t.KeySize), len(t.RespSize))
	for _, c := range t.Cells {
		if c.N == 1 && t.KeySize[c.K] == 1 && t.RespSize[c.R] == 1 {
			keyResolved[c.K]++
			respResolved[c.R]++
			continue
		}
		keyResolved[c.K] += link(c.N)
		respResolved[c.R] += link(c.N)
	}
	writeRP(out, leaSum(t.KeySize, keyResolved), float64(t.NumKey),
		leaSum(t.RespSize, respResolved), float64(t.NumResp))
	return nil
}

// smallClusters is the number of clusters per side whose per-cluster sums
// a metric keeps in an array on its stack rather than allocating.
const smallClusters = 64

// splitSmall returns two zeroed arrays of nk and nr elements, carved from
// small (zeroed) when it is long enough, else allocated.
func splitSmall[T int32 | float64](small []T, nk, nr int) ([]T, []T) {
	buf := small
	if nk+nr > len(small) {
		buf = pages.Make[T](nk + nr) // counted into (+=): see package pages
	}
	return buf[:nk:nk], buf[nk : nk+nr : nk+nr]
}

// leaSum returns Σ |E| · resolved(E) / links(E) over the clusters of one
// side, the terms added exactly and the total rounded once (exactsum), so
// that it does not depend on the order of the clusters. For |E| > 1 the term
// is written 2 · resolved(E) / (|E| - 1), the same rational with an integer
// numerator that stays exact in a float64 for clusters of up to 10^7
// mentions; a one-mention cluster weighs its one self-link, resolved or not.
func leaSum(sizes []int32, resolved []float64) float64 {
	var sum exactsum.Sum
	for e, s := range sizes {
		if resolved[e] == 0 {
			continue // a term of 0 leaves the exact sum as it is
		}
		if s > 1 {
			sum.Add(2 * resolved[e] / float64(s-1))
		} else {
			sum.Add(resolved[e])
		}
	}
	return sum.Value()
}
