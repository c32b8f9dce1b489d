package gocore

import (
	"slices"

	"github.com/pkg/errors"
)

// The two measures of the CRAC 2022 shared task (Žabokrtský et al. 2022)
// that the CorefUD scorer reports besides the classic metrics.

// shapesUsable decides whether a metric that reads mention shapes can run,
// as typesUsable does for types: skipped (columns left at zero) on a
// document without shapes when every metric is selected implicitly, refused
// with ErrMissingShapes when it was asked for by name.
func shapesUsable(t *Table, opt *Options, name string) (bool, error) {
	if t.KeyShapes != nil || t.NumMentions() == 0 {
		return true, nil
	}
	if opt.Metrics == 0 {
		return false, nil
	}
	return false, errors.Wrapf(ErrMissingShapes, "%s needs the words of every mention (CoNLL-U files give them; this input does not)", name)
}

// morCountsMetric writes the mention overlap ratio (MOR): the largest total
// overlap Σ |K ∩ R| of a one-to-one pairing of the key and response mentions
// (by words and empty nodes), as recall over Σ |K| and as precision over
// Σ |R|. It does not depend on the matching mode; it does on the singleton
// policy (mentions of dropped singletons are not counted).
//
//	recall = Σ_(K,R) |K ∩ R| / Σ_K |K|    precision = Σ_(K,R) |K ∩ R| / Σ_R |R|
func morCountsMetric(t *Table, opt *Options, out []float64) error {
	if ok, err := shapesUsable(t, opt, "mor"); !ok {
		return err
	}
	if t.MOR == nil {
		writeRP(out, 0, 0, 0, 0)
		return nil
	}
	m := t.MOR
	writeRP(out, m[0], m[1], m[2], m[3])
	return nil
}

// zeroCounts writes the anaphor-decomposable score restricted to zero
// anaphors (CRAC 2022; the CorefUD scorer's "zero"): every key mention but
// the first of its cluster (in document order) that is a zero is an anaphor;
// it is correct (tp) when its matched response mention is not the first of
// its response cluster and that cluster holds the match of an earlier key
// mention of the same key cluster, a wrong link (wl) when it is matched but
// that cluster holds no such match, missed (fn) when unmatched or matched to
// a first response mention; a response zero that is not first in its
// cluster and is no key anaphor's match is spurious (fp).
//
//	recall = tp / (tp + fn + wl)    precision = tp / (tp + fp + wl)
func zeroCounts(t *Table, opt *Options, out []float64) error {
	if ok, err := shapesUsable(t, opt, "zero"); !ok {
		return err
	}
	if t.KeyShapes == nil {
		writeRP(out, 0, 0, 0, 0)
		return nil
	}
	n := len(t.KeyOf)
	anyZero := false
	for m := range n {
		if (t.KeyShapes[m] != nil && t.KeyShapes[m].Zero()) || (t.RespShapes[m] != nil && t.RespShapes[m].Zero()) {
			anyZero = true
			break
		}
	}
	if !anyZero { // no anaphor to score, no spurious one
		writeRP(out, 0, 0, 0, 0)
		return nil
	}
	order := func(side []*Shape, of []int32, nClusters int) [][]int32 {
		cl := make([][]int32, nClusters)
		for m := range n {
			if c := of[m]; c >= 0 {
				cl[c] = append(cl[c], int32(m))
			}
		}
		for _, ms := range cl {
			slices.SortStableFunc(ms, func(a, b int32) int {
				switch {
				case side[a].less(side[b]):
					return -1
				case side[b].less(side[a]):
					return 1
				}
				return 0
			})
		}
		return cl
	}
	keyCl := order(t.KeyShapes, t.KeyOf, len(t.KeySize))
	respCl := order(t.RespShapes, t.RespOf, len(t.RespSize))
	firstResp := make([]bool, n)
	for _, ms := range respCl {
		if len(ms) > 0 {
			firstResp[ms[0]] = true
		}
	}
	covered := make([]bool, n)
	var tp, fp, fn, wl float64
	prev := map[int32]bool{}
	for _, ms := range keyCl {
		clear(prev)
		for i, m := range ms {
			rc := t.RespOf[m] // the matched response mention is m itself
			if i > 0 && t.KeyShapes[m].Zero() {
				switch {
				case rc < 0 || firstResp[m]:
					fn++
				case !prev[rc]:
					wl++
				default:
					tp++
				}
				if rc >= 0 {
					covered[m] = true
				}
			}
			if rc >= 0 {
				prev[rc] = true
			}
		}
	}
	for m := range n {
		if t.RespOf[m] >= 0 && !firstResp[m] && !covered[m] && t.RespShapes[m].Zero() {
			fp++
		}
	}
	writeRP(out, tp, tp+fn+wl, tp, tp+fp+wl)
	return nil
}
