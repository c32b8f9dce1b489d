package gocore

import (
	"slices"
)

// The two measures of the CRAC 2022 shared task (Žabokrtský et al. 2022)
// that the CorefUD scorer reports besides the classic metrics.

// shapesUsable decides whether a metric that reads mention shapes can run,
// as typesUsable does for types: skipped (errSkipped: left out of the whole
// batch, see Score) on a document without shapes when every metric is
// selected implicitly, refused with an error of kind KindMissingHeads when
// it was asked for by name.
func shapesUsable(t *Table, opt *Options, name string) (bool, error) {
	if t.KeyShapes != nil || t.NumMentions() == 0 {
		return true, nil
	}
	if opt.Metrics == 0 {
		return false, errSkipped
	}
	return false, newError(KindMissingHeads, "metric %s needs the words of every mention, which this input lacks: "+
		"score CoNLL-U files, or CoNLL-2012 files with a POS column and match=partial or head", name)
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
	// Only key clusters with a zero need their order; of the response
	// clusters only the first mention of each matters.
	keyZero := make([]bool, len(t.KeySize))
	anyZero := false
	for m := range n {
		if t.KeyOf[m] >= 0 && t.KeyShapes[m].Zero() {
			keyZero[t.KeyOf[m]] = true
			anyZero = true
		}
		if t.RespOf[m] >= 0 && t.RespShapes[m].Zero() {
			anyZero = true
		}
	}
	if !anyZero { // no anaphor to score, no spurious one
		writeRP(out, 0, 0, 0, 0)
		return nil
	}
	byOrder := func(side []*Shape) func(a, b int32) int {
		return func(a, b int32) int {
			switch {
			case side[a].less(side[b]):
				return -1
			case side[b].less(side[a]):
				return 1
			}
			return int(a - b)
		}
	}
	keyCl := make([][]int32, len(t.KeySize))
	for m := range n {
		if c := t.KeyOf[m]; c >= 0 && keyZero[c] {
			keyCl[c] = append(keyCl[c], int32(m))
		}
	}
	cmpKey := byOrder(t.KeyShapes)
	for _, ms := range keyCl {
		slices.SortFunc(ms, cmpKey)
	}
	firstOf := make([]int32, len(t.RespSize))
	for i := range firstOf {
		firstOf[i] = -1
	}
	cmpResp := byOrder(t.RespShapes)
	for m := range n {
		if c := t.RespOf[m]; c >= 0 && (firstOf[c] < 0 || cmpResp(int32(m), firstOf[c]) < 0) {
			firstOf[c] = int32(m)
		}
	}
	firstResp := make([]bool, n)
	for _, m := range firstOf {
		if m >= 0 {
			firstResp[m] = true
		}
	}
	covered := make([]bool, n)
	var tp, fp, fn, wl float64
	prev := map[int32]bool{}
	for _, ms := range keyCl {
		clear(prev)
		for i, m := range ms {
			// The matched response mention is m itself, or the one the
			// scorer's zero lookup finds (which may be another key
			// mention's too).
			sm := m
			if t.zeroLookup != nil {
				sm = t.zeroLookup[m]
			}
			rc := int32(-1)
			if sm >= 0 {
				rc = t.RespOf[sm]
			}
			if i > 0 && t.KeyShapes[m].Zero() {
				switch {
				case rc < 0 || firstResp[sm]:
					fn++
				case !prev[rc]:
					wl++
				default:
					tp++
				}
				if rc >= 0 {
					covered[sm] = true
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
