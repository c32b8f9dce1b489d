package gocore

import (
	"github.com/corefscore/corefscore/gocore/assign"
	"github.com/corefscore/corefscore/gocore/internal/exactsum"
)

// ceafmCounts scores mention-based CEAF (Luo 2005; Pradhan et al. 2014 §4.3):
// the one-to-one alignment g* of key to response clusters that maximises
// Φ(g) = Σ φ3(K_i, R_g(i)) with φ3(K, R) = |K ∩ R|, then
//
//	recall = Φ(g*) / Σ_i |K_i|,   precision = Φ(g*) / Σ_j |R_j|
//
// The alignment is exact (assign.MaxWeight), never greedy.
func ceafmCounts(t *Table, _ *Options, out []float64) error {
	sim, err := alignedSimilarity(t, func(c Cell) float64 { return float64(c.N) })
	if err != nil {
		return err
	}
	writeRP(out, sim, float64(t.NumKey), sim, float64(t.NumResp))
	return nil
}

// ceafeCounts scores entity-based CEAF with φ4(K, R) = 2|K ∩ R| / (|K| + |R|):
//
//	recall = Φ(g*) / #key clusters,   precision = Φ(g*) / #response clusters
//
// Φ(g*) is the exact sum of the exact quotients 2|K ∩ R| / (|K| + |R|) of
// the aligned pairs, rounded once (alignExact): the same bits whatever the
// order of clusters and mentions, and for every optimal alignment, since
// tied alignments have the same rational total. Under Options.ReferenceSums,
// Φ(g*) is summed as refCeafeNum says instead.
func ceafeCounts(t *Table, opt *Options, out []float64) error {
	phi := t.phi4
	var sim float64
	var err error
	switch {
	case opt.ReferenceSums && opt.ReferenceTotals:
		sim, err = refCeafeLow(t, phi)
	case opt.ReferenceSums:
		sim, err = refCeafeNum(t, phi)
	default:
		sim, err = alignExact(t,
			func(_ int, c Cell) float64 { return phi(c) },
			func(_ int, c Cell) (float64, float64) {
				return 2 * float64(c.N), float64(t.KeySize[c.K] + t.RespSize[c.R])
			})
	}
	if err != nil {
		return err
	}
	writeRP(out, sim, float64(len(t.KeySize)), sim, float64(len(t.RespSize)))
	return nil
}

// phi4 is CEAF_e's similarity of the pair of a cell, 2|K ∩ R| / (|K| + |R|).
func (t *Table) phi4(c Cell) float64 {
	return 2 * float64(c.N) / float64(t.KeySize[c.K]+t.RespSize[c.R])
}

// alignedSimilarity returns the total similarity of the optimal alignment,
// as the solver sums it (in order of key cluster): exact for integer
// similarities (φ3), whose sums are exact in any order.
// Clusters that share no mention have similarity 0 under both φ3 and φ4, so
// only the cells of the contingency table are edges: the solver never sees a
// dense |K| × |R| matrix. Cost: that of assign.MaxWeight on len(t.Cells)
// edges; no allocation when they are fewer than smallEdges.
func alignedSimilarity(t *Table, phi func(Cell) float64) (float64, error) {
	var small [smallEdges]assign.Edge // a small document's edges stay on the stack
	edges := small[:0]
	if len(t.Cells) > len(small) {
		edges = make([]assign.Edge, 0, len(t.Cells))
	}
	for _, c := range t.Cells {
		edges = append(edges, assign.Edge{Left: c.K, Right: c.R, Weight: phi(c)})
	}
	return assign.MaxWeightTotalPoll(len(t.KeySize), len(t.RespSize), edges, t.stop)
}

// smallEdges is the number of alignment edges (contingency cells) that an
// alignment keeps in an array on its stack (1 KiB) rather than allocating.
const smallEdges = 64

// alignExact returns the total of the optimal one-to-one alignment of key to
// response clusters, the weight of a pair being weight of its cell (pairs
// with no cell, or a weight of 0, are never aligned), summed exactly: the
// term of each aligned cell is the exact quotient num / den that term gives
// (den 1 for a weight used as is), whose rounding is the weight, and the
// terms are added with an exactsum.Sum and rounded once. So the total is
// independent of the order of the cells and of which optimal alignment the
// solver returns among tied ones. Cost: that of assign.MaxWeightPoll on the
// positive cells, plus O(cells); the matching it returns is the one
// allocation.
func alignExact(t *Table, weight func(ci int, c Cell) float64, term func(ci int, c Cell) (num, den float64)) (float64, error) {
	var small [smallEdges]assign.Edge // a small document's edges stay on the stack
	edges := small[:0]
	if len(t.Cells) > len(small) {
		edges = make([]assign.Edge, 0, len(t.Cells))
	}
	for ci, c := range t.Cells {
		if w := weight(ci, c); w > 0 {
			edges = append(edges, assign.Edge{Left: c.K, Right: c.R, Weight: w})
		}
	}
	_, match, err := assign.MaxWeightPoll(len(t.KeySize), len(t.RespSize), edges, t.stop)
	if err != nil {
		return 0, err
	}
	// The cells are distinct pairs, so a positive cell whose key cluster is
	// matched to its response cluster is the matched edge.
	var total exactsum.Sum
	for ci, c := range t.Cells {
		if match[c.K] == c.R && weight(ci, c) > 0 {
			total.AddQuotient(term(ci, c))
		}
	}
	return total.Value(), nil
}
