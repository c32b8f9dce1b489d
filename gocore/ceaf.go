package gocore

import "github.com/corefscore/corefscore/gocore/assign"

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
// Under Options.ReferenceSums, Φ(g*) is summed as refCeafeNum says.
func ceafeCounts(t *Table, opt *Options, out []float64) error {
	phi := func(c Cell) float64 {
		return 2 * float64(c.N) / float64(t.KeySize[c.K]+t.RespSize[c.R])
	}
	var sim float64
	var err error
	if opt.ReferenceSums {
		sim, err = refCeafeNum(t, phi)
	} else {
		sim, err = alignedSimilarity(t, phi)
	}
	if err != nil {
		return err
	}
	writeRP(out, sim, float64(len(t.KeySize)), sim, float64(len(t.RespSize)))
	return nil
}

// alignedSimilarity returns the total similarity of the optimal alignment.
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
