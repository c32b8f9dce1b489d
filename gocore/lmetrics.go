package gocore

import (
	"math"

	"github.com/corefscore/corefscore/gocore/internal/exactsum"
)

// This file holds the linguistically aware metrics of Chen & Ng (2013):
// LMUC, LB3, LCEAF_m and LCEAF_e. The four share one framework (their §2.5
// and §3): MUC, B-cubed and both CEAFs only ever look at a cluster through
// three weight functions, w_c of a common subset C_j^i = K_i ∩ S_j, w_k of a
// key chain and w_s of a response ("system") chain, and the linguistically
// aware versions replace them by w_c^L, w_k^L and w_s^L built from link
// weights that depend on mention types.
//
// Link weights. A link between two mentions weighs, by the first rule that
// applies (§3.1):
//
//	w_nam  if either mention is a NAME
//	w_nom  if either mention is a NOMINAL
//	w_pro  otherwise (two PRONOUNs)
//
// and a one-mention chain weighs w_sing. W = (w_nam, w_nom, w_pro, w_sing) is
// Options.LinkWeights, by default W4 = (1.0, 0.75, 0.5, 1.0).
//
// The weight functions (eqs. 8-11), with MST(X) the weight of a maximum
// spanning tree of the complete graph over the mentions of X:
//
//	w_c^L(C_j^i) = MST(C_j^i)   if |C_j^i| > 1
//	             = w_sing       if |C_j^i| = |K_i| = |S_j| = 1
//	             = 0            otherwise
//	w_k^L(K_i)   = MST(K_i) if |K_i| > 1, else w_sing
//	w_s^L(S_j)   = Σ_i w_c^L(C_j^i) + Σ_{e ∈ E_t(S_j)} w_l(e)   if |S_j| > 1
//	             = w_sing                                        if |S_j| = 1
//
// where E_t(S_j) is the heaviest set of ne_j - 1 spurious links that connects
// the ne_j non-empty parts of the partition P(S_j) of S_j by the key chains.
// E_t(S_j) is a maximum spanning tree of the complete graph whose vertices are
// the parts and whose edge between two parts weighs the heaviest link between
// a mention of one and a mention of the other.
//
// Predicted mentions: see newLWeights.
//
// Computing MST(X). The link weight depends only on the types of the two
// mentions, so a maximum spanning tree of a complete graph is found by
// Kruskal's rule on the few distinct weights, counting components instead of
// edges: with weights ω_1 > ω_2 > ... and c_k the number of connected
// components of the graph restricted to edges of weight ≥ ω_k (c_0 = |X|),
//
//	MST(X) = Σ_k ω_k · (c_{k-1} - c_k)
//
// The same rule, applied to the parts of P(S_j) grouped by the set of mention
// types they contain (7 possible sets), gives the weight of E_t(S_j). Every
// weight function is therefore O(1) from per-cluster and per-cell type
// counts, and a document costs time linear in its mentions plus the CEAF
// alignment.

// typeBit returns the signature bit of a known mention type: 1 for a name, 2
// for a nominal, 4 for a pronoun, 0 otherwise.
func typeBit(ty MentionType) uint8 {
	if ty < TypeName || ty > TypePronoun {
		return 0
	}
	return 1 << uint(ty-TypeName)
}

// sigCounts counts vertices by signature: sigCounts[s] vertices carry the
// set s ⊆ {name, nominal, pronoun} of mention types (bit 1 name, 2 nominal,
// 4 pronoun). A mention has a one-type signature; a part of P(S_j) has the
// set of the types of its mentions.
type sigCounts [8]int32

// linkWeighter holds the link weights of one W and the derived weight
// between two signatures.
type linkWeighter struct {
	sing float64
	// sig[a][b] is the heaviest link between a mention with a type in set a
	// and one with a type in set b.
	sig [8][8]float64
}

// newLinkWeighter derives the signature weights from W = (w_nam, w_nom,
// w_pro, w_sing).
func newLinkWeighter(w [4]float64) *linkWeighter {
	lw := &linkWeighter{sing: w[3]}
	pair := func(a, b int) float64 { // a, b are type bits 1, 2, 4
		switch {
		case a == 1 || b == 1:
			return w[0]
		case a == 2 || b == 2:
			return w[1]
		}
		return w[2]
	}
	for a := 1; a < 8; a++ {
		for b := 1; b < 8; b++ {
			best := math.Inf(-1)
			for x := 1; x <= 4; x <<= 1 {
				for y := 1; y <= 4; y <<= 1 {
					if a&x != 0 && b&y != 0 && pair(x, y) > best {
						best = pair(x, y)
					}
				}
			}
			lw.sig[a][b] = best
		}
	}
	return lw
}

// span returns the weight of a maximum spanning tree of the complete graph
// whose vertices are counted by signature in c, an edge weighing
// lw.sig[a][b] between a vertex of signature a and one of signature b:
//
//	span = Σ_k ω_k · (comps(≥ ω_{k-1}) - comps(≥ ω_k))
//
// over the distinct weights ω_1 > ω_2 > ... of the edges present. With n
// vertices the tree has n - 1 edges; n ≤ 1 gives 0. Cost O(1): at most 28
// distinct weights, 7 groups each.
func (lw *linkWeighter) span(c *sigCounts) float64 {
	var groups [7]int
	ng := 0
	var n int64
	for s := 1; s < 8; s++ {
		if c[s] > 0 {
			groups[ng] = s
			ng++
			n += int64(c[s])
		}
	}
	if n <= 1 {
		return 0
	}
	// Distinct weights of the edges present, in decreasing order.
	var ws [28]float64
	nw := 0
	for x := 0; x < ng; x++ {
		for y := x; y < ng; y++ {
			a, b := groups[x], groups[y]
			if a == b && c[a] < 2 {
				continue // no edge inside a group of one
			}
			w := lw.sig[a][b]
			dup := false
			for i := 0; i < nw; i++ {
				if ws[i] == w {
					dup = true
					break
				}
			}
			if !dup {
				ws[nw] = w
				nw++
			}
		}
	}
	for i := 1; i < nw; i++ { // insertion sort, decreasing
		for j := i; j > 0 && ws[j] > ws[j-1]; j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
	total := 0.0
	prev := n
	for _, w := range ws[:nw] {
		comps := lw.components(c, groups[:ng], w)
		total += w * float64(prev-comps)
		prev = comps
	}
	return total
}

// components returns the number of connected components of the graph of
// span restricted to edges of weight ≥ thr. Two non-empty groups joined by a
// heavy enough edge merge completely (every vertex of one is adjacent to every
// vertex of the other); a group joined to no other group is one component if
// its internal edges are heavy enough, else one per vertex.
func (lw *linkWeighter) components(c *sigCounts, groups []int, thr float64) int64 {
	var parent [7]int
	for i := range groups {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			x = parent[x]
		}
		return x
	}
	for x := range groups {
		for y := x + 1; y < len(groups); y++ {
			if lw.sig[groups[x]][groups[y]] >= thr {
				if a, b := find(x), find(y); a != b {
					parent[a] = b
				}
			}
		}
	}
	var size [7]int
	for x := range groups {
		size[find(x)]++
	}
	var comps int64
	for x, g := range groups {
		switch {
		case find(x) != x:
		case size[x] > 1 || lw.sig[g][g] >= thr:
			comps++
		default:
			comps += int64(c[g])
		}
	}
	return comps
}

// lweights holds the three weight functions of one document: w_c^L per cell
// of the contingency table, w_k^L per key chain, w_s^L per response chain.
type lweights struct {
	wc, wk, ws []float64
}

// linkWeightsOf returns the link weights of opt (W4 when unset) scaled so
// that the largest is 1, after checking that each is finite and positive: a
// zero weight can leave a chain weighing nothing and B-cubed's per-mention
// ratios undefined (Chen & Ng, footnote 8, use 1e-20 rather than 0 for that
// reason). Every L-metric is a ratio of sums of link weights, so scaling W
// changes no score (up to rounding), and weights of at most 1 keep every sum
// of a document below its number of mentions: W = (1e308, 1e308, 1e308,
// 1e308) scores exactly as (1, 1, 1, 1) instead of overflowing. The counts
// columns of the L-metrics are therefore in units of the largest weight;
// W4 and W1-W5 of the paper, whose largest weight is 1, are used as given.
func linkWeightsOf(opt *Options) ([4]float64, error) {
	w := opt.LinkWeights
	if w == ([4]float64{}) {
		w = DefaultLinkWeights
	}
	if err := checkLinkWeights(w); err != nil {
		return w, err
	}
	return scaleLinkWeights(w), nil
}

// checkLinkWeights checks that each of W = (w_nam, w_nom, w_pro, w_sing) is
// finite and > 0, and stays > 0 once scaled by the largest.
func checkLinkWeights(w [4]float64) error {
	names := [4]string{"w_nam", "w_nom", "w_pro", "w_sing"}
	for i, x := range w {
		if !(x > 0) || math.IsInf(x, 1) {
			return newError(KindOption, "link weight %s = %v must be finite and > 0 (weights are (w_nam, w_nom, w_pro, w_sing) = %v)", names[i], x, w)
		}
	}
	for i, x := range scaleLinkWeights(w) {
		if !(x > 0) {
			return newError(KindOption, "link weight %s = %v is too small beside the largest weight (%v): their ratio underflows", names[i], w[i], max(w[0], w[1], w[2], w[3]))
		}
	}
	return nil
}

// scaleLinkWeights divides W by its largest weight (W unchanged when that
// is 1).
func scaleLinkWeights(w [4]float64) [4]float64 {
	top := max(w[0], w[1], w[2], w[3])
	if top == 1 {
		return w
	}
	for i := range w {
		w[i] /= top
	}
	return w
}

// typesUsable decides whether a metric that needs a type for every mention
// can run: yes when every mention has one (vacuously so in an empty
// document). Otherwise the metric is skipped (errSkipped) when it was not
// asked for by name (opt.Metrics is the zero set, "every metric") and the
// caller did not promise types (opt.TypesGiven), so that untyped documents
// still score with the classic metrics; else the error is of kind
// KindMissingTypes and names the first untyped mention.
func typesUsable(t *Table, opt *Options) (ok bool, err error) {
	if t.HasTypes || t.NumMentions() == 0 {
		return true, nil
	}
	if opt.Metrics == 0 && !opt.TypesGiven {
		return false, errSkipped
	}
	m := 0
	for t.Types != nil && m < len(t.Types) && t.Types[m] != TypeUnknown {
		m++
	}
	e := newError(KindMissingTypes, "a type is needed for every mention; this one has none")
	if t.Types == nil {
		e.Msg = "a type is needed for every mention; no mention types were given"
	}
	e.tableMention = m
	return false, e
}

// newLWeights computes w_c^L, w_k^L and w_s^L (eqs. 8, 9, 11) for every cell,
// key chain and response chain of t, whose mentions are all typed:
//
//	w_c^L(C_j^i) = MST(C_j^i) if |C_j^i| > 1;  w_sing if |C_j^i| = |K_i| = |S_j| = 1;  else 0
//	w_k^L(K_i)   = MST(K_i) if |K_i| > 1, else w_sing
//	w_s^L(S_j)   = Σ_i w_c^L(C_j^i) + weight of E_t(S_j) if |S_j| > 1, else w_sing
//
// Predicted mentions. Chen & Ng define the metrics on gold mentions (§5).
// With predicted mentions this function reads them as follows: a response
// mention that is in no key chain forms a part of P(S_j) of its own; that
// part earns nothing (w_c^L = 0, even when S_j is a one-mention chain), and
// the links that join it to the rest of S_j are spurious, so they enter
// E_t(S_j) (with the weight its type gives them). A key mention missing from
// the response is in no common subset, so it only weighs in w_k^L of its key
// chain, exactly as an unresolved mention does.
//
// Linear in the number of mentions.
func newLWeights(t *Table, w [4]float64) *lweights {
	lw := newLinkWeighter(w)
	tc := t.cachedTypeCounts()
	out := &lweights{
		wc: make([]float64, len(t.Cells)),
		wk: make([]float64, len(t.KeySize)),
		ws: make([]float64, len(t.RespSize)),
	}
	for i, size := range t.KeySize {
		if size == 1 {
			out.wk[i] = lw.sing
		} else {
			out.wk[i] = lw.span(&tc.key[i])
		}
	}
	for ci, c := range t.Cells {
		switch {
		case c.N > 1:
			out.wc[ci] = lw.span(&tc.cell[ci])
		case t.KeySize[c.K] == 1 && t.RespSize[c.R] == 1:
			out.wc[ci] = lw.sing
		}
	}
	// w_s^L(S_j) adds the w_c^L of its cells, which t.Cells lists by key
	// chain: the cells of each response chain are gathered (a counting
	// sort) and summed exactly, so that w_s^L does not depend on the order
	// of the key chains.
	start := make([]int32, len(t.RespSize)+1)
	for _, c := range t.Cells {
		start[c.R+1]++
	}
	for j := range t.RespSize {
		start[j+1] += start[j]
	}
	byResp := make([]int32, len(t.Cells))
	fill := append([]int32(nil), start[:len(t.RespSize)]...)
	for ci, c := range t.Cells {
		byResp[fill[c.R]] = int32(ci)
		fill[c.R]++
	}
	var chain exactsum.Sum
	for j, size := range t.RespSize {
		if size == 1 {
			out.ws[j] = lw.sing
			continue
		}
		cells := byResp[start[j]:start[j+1]]
		if len(cells) == 1 { // two terms: IEEE addition commutes, no order to fix
			out.ws[j] = out.wc[cells[0]] + lw.span(&tc.parts[j])
			continue
		}
		chain.Reset()
		for _, ci := range cells {
			chain.Add(out.wc[ci])
		}
		chain.Add(lw.span(&tc.parts[j]))
		out.ws[j] = chain.Value()
	}
	return out
}

// typeCounts holds mention-type signatures counted per key chain, per cell and
// per response chain, and the parts of each response chain's partition by the
// key chains counted by signature.
type typeCounts struct {
	key   []sigCounts // key[i][bit]: mentions of K_i of that type
	cell  []sigCounts // cell[c][bit]: mentions of the cell of that type
	resp  []sigCounts // resp[j][bit]: mentions of S_j of that type
	parts []sigCounts // parts[j][s]: parts of P(S_j) whose set of types is s
	// cellOf[m] is the cell of key mention m, or -1 when m is not in the
	// response; its length is t.NumKey.
	cellOf []int32
}

// newTypeCounts counts the types of t's mentions per chain and per cell. The
// key mentions are grouped by key chain with a counting sort; the cells of a
// key chain are contiguous in t.Cells, so a scratch array indexed by response
// chain finds each mention's cell: linear time, no map.
func newTypeCounts(t *Table) *typeCounts {
	nk := t.NumKey
	tc := &typeCounts{
		key:    make([]sigCounts, len(t.KeySize)),
		cell:   make([]sigCounts, len(t.Cells)),
		resp:   make([]sigCounts, len(t.RespSize)),
		parts:  make([]sigCounts, len(t.RespSize)),
		cellOf: make([]int32, nk),
	}
	typeOf := func(m int) MentionType {
		if t.Types == nil {
			return TypeUnknown
		}
		return t.Types[m]
	}
	// Key mentions grouped by key chain.
	start := make([]int32, len(t.KeySize)+1)
	for _, k := range t.KeyOf[:nk] {
		start[k+1]++
	}
	for k := range t.KeySize {
		start[k+1] += start[k]
	}
	// Each key mention goes to its chain's slot with its response chain and
	// type bit: read in mention order, so the loop below reads its chains'
	// members in order instead of looking them up at random.
	type member struct {
		m, r int32
		bit  uint8
	}
	fill := append([]int32(nil), start[:len(t.KeySize)]...)
	byKey := make([]member, nk)
	respOf := t.RespOf[:nk]
	for m, k := range t.KeyOf[:nk] {
		byKey[fill[k]] = member{m: int32(m), r: respOf[m], bit: typeBit(typeOf(m))}
		fill[k]++
	}
	// Cells of each key chain: t.Cells is ordered by key chain.
	cellStart := make([]int32, len(t.KeySize)+1)
	for _, c := range t.Cells {
		cellStart[c.K+1]++
	}
	for k := range t.KeySize {
		cellStart[k+1] += cellStart[k]
	}
	slot := make([]int32, len(t.RespSize))
	for k := range t.KeySize {
		for ci := cellStart[k]; ci < cellStart[k+1]; ci++ {
			slot[t.Cells[ci].R] = ci
		}
		for _, x := range byKey[start[k]:start[k+1]] {
			tc.key[k][x.bit]++
			tc.cellOf[x.m] = -1
			if x.r >= 0 {
				ci := slot[x.r]
				tc.cellOf[x.m] = ci
				tc.cell[ci][x.bit]++
			}
		}
	}
	for m, r := range t.RespOf {
		if r < 0 {
			continue
		}
		bit := typeBit(typeOf(m))
		tc.resp[r][bit]++
		if m >= nk { // twinless: a part of its own
			tc.parts[r][bit]++
		}
	}
	for ci, c := range t.Cells {
		var s uint8
		for bit := 1; bit < 8; bit <<= 1 {
			if tc.cell[ci][bit] > 0 {
				s |= uint8(bit)
			}
		}
		tc.parts[c.R][s]++
	}
	return tc
}

// prepareL validates the weights and the types for one L-metric and returns
// the weight functions, or nil when the metric is skipped.
func prepareL(t *Table, opt *Options) (*lweights, error) {
	w, err := linkWeightsOf(opt)
	if err != nil {
		return nil, err
	}
	if ok, err := typesUsable(t, opt); !ok {
		return nil, err
	}
	return t.cachedLWeights(w), nil
}

// cachedTypeCounts returns newTypeCounts(t), computed once per table: the
// four L-metrics and DA all read the same counts. Read-only for callers;
// safe for the concurrent metrics of one document.
func (t *Table) cachedTypeCounts() *typeCounts {
	t.tcMu.Lock()
	defer t.tcMu.Unlock()
	if t.tc == nil {
		t.tc = newTypeCounts(t)
	}
	return t.tc
}

// cachedLWeights returns newLWeights(t, w), computed once per table and link
// weights: LMUC, LB3, LCEAF_m and LCEAF_e share it. Read-only for callers;
// safe for the concurrent metrics of one document.
func (t *Table) cachedLWeights(w [4]float64) *lweights {
	t.lwMu.Lock() // taken before tcMu (newLWeights reads the type counts)
	defer t.lwMu.Unlock()
	if t.lw == nil || t.lwFor != w {
		t.lw, t.lwFor = newLWeights(t, w), w
	}
	return t.lw
}

// lmucCounts scores LMUC (Chen & Ng 2013, eqs. 2-4 with 8, 9, 11):
//
//	recall    = Σ_ij w_c^L(C_j^i) / Σ_i w_k^L(K_i)
//	precision = Σ_ij w_c^L(C_j^i) / Σ_j w_s^L(S_j)
//
// Preconditions: every mention typed (see typesUsable); link weights finite
// and positive. Response mentions with no key twin and key mentions missing
// from the response are read as newLWeights documents. With W1 = (1, 1, 1,
// 1e-20) it is MUC up to the w_sing terms. Linear in the number of mentions.
func lmucCounts(t *Table, opt *Options, out []float64) error {
	lw, err := prepareL(t, opt)
	if lw == nil {
		return err
	}
	common := sum(lw.wc)
	writeRP(out, common, sum(lw.wk), common, sum(lw.ws))
	return nil
}

// lbcubCounts scores LB3 (Chen & Ng 2013, eq. 5 with 8, 9, 11): mention m of
// C_j^i has R(m) = w_c^L(C_j^i) / w_k^L(K_i) and P(m) = w_c^L(C_j^i) /
// w_s^L(S_j), averaged over the mentions of each side:
//
//	recall    = Σ_ij |C_j^i| · w_c^L(C_j^i) / w_k^L(K_i)  /  Σ_i |K_i|
//	precision = Σ_ij |C_j^i| · w_c^L(C_j^i) / w_s^L(S_j)  /  Σ_j |S_j|
//
// A mention on one side only scores 0 and counts in that side's denominator.
// The numerators add the per-cell terms exactly (exactsum), independent of
// the order of chains and mentions. Preconditions as lmucCounts. Linear in
// the number of mentions.
func lbcubCounts(t *Table, opt *Options, out []float64) error {
	lw, err := prepareL(t, opt)
	if lw == nil {
		return err
	}
	var r, p exactsum.Sum
	for ci, c := range t.Cells {
		if lw.wc[ci] == 0 {
			continue
		}
		n := float64(c.N)
		r.Add(n * lw.wc[ci] / lw.wk[c.K])
		p.Add(n * lw.wc[ci] / lw.ws[c.R])
	}
	writeRP(out, r.Value(), float64(t.NumKey), p.Value(), float64(t.NumResp))
	return nil
}

// lceafmCounts scores LCEAF_m (Chen & Ng 2013, eq. 6 with 8, 9, 11): the
// one-to-one alignment g* of key to response chains that maximises
// Φ(g) = Σ_i φ3(K_i, g(K_i)) with φ3(K_i, S_j) = w_c^L(C_j^i), then
//
//	recall = Φ(g*) / Σ_i w_k^L(K_i),   precision = Φ(g*) / Σ_j w_s^L(S_j)
//
// Preconditions as lmucCounts. Linear plus the alignment, which is solved per
// connected component of the overlap graph.
func lceafmCounts(t *Table, opt *Options, out []float64) error {
	lw, err := prepareL(t, opt)
	if lw == nil {
		return err
	}
	sim, err := alignExact(t,
		func(ci int, _ Cell) float64 { return lw.wc[ci] },
		func(ci int, _ Cell) (float64, float64) { return lw.wc[ci], 1 })
	if err != nil {
		return err
	}
	writeRP(out, sim, sum(lw.wk), sim, sum(lw.ws))
	return nil
}

// lceafeCounts scores LCEAF_e (Chen & Ng 2013, eq. 7 with 8, 9, 11): the
// optimal alignment under
//
//	φ4(K_i, S_j) = 2 · w_c^L(C_j^i) / (w_k^L(K_i) + w_s^L(S_j))
//
// then recall = Φ(g*) / #key chains and precision = Φ(g*) / #response chains
// (φ4 of a chain with itself is 1). Preconditions as lmucCounts.
func lceafeCounts(t *Table, opt *Options, out []float64) error {
	lw, err := prepareL(t, opt)
	if lw == nil {
		return err
	}
	sim, err := alignExact(t,
		func(ci int, c Cell) float64 { return 2 * lw.wc[ci] / (lw.wk[c.K] + lw.ws[c.R]) },
		func(ci int, c Cell) (float64, float64) { return 2 * lw.wc[ci], lw.wk[c.K] + lw.ws[c.R] })
	if err != nil {
		return err
	}
	writeRP(out, sim, float64(len(t.KeySize)), sim, float64(len(t.RespSize)))
	return nil
}

// sum returns Σ xs exactly, rounded once: the same bits in any order.
func sum(xs []float64) float64 { return exactsum.Of(xs) }
