package gocore

import (
	"cmp"
	"math"
	"slices"

	"github.com/corefscore/corefscore/gocore/assign"
)

// Mention matching runs in NewTable after repeated mentions and (under
// SingletonsExclude) singletons are removed, and before the contingency
// table is built: each response mention that is paired with a key mention
// takes that key mention's id, every other response mention gets an id that
// no key mention has. Every metric then scores matched mentions unchanged.
//
// The stages are those of the CorefUD scorer v1.2 (from the Universal
// Anaphora scorer 2.0):
//
//  1. ZeroDependent: the zero mentions (head an empty node) of the key and
//     the response are aligned one-to-one within each sentence, maximising
//     Σ 10·F1(DEPS items) + F1(DEPS parents) over the pairs; a pair scores
//     only when positive.
//  2. Mentions left are paired when they have the same id (the same nodes);
//     under MatchHead the heads must be equal too.
//  3. MatchPartial and MatchHead: mentions left are aligned one-to-one,
//     maximising the total weight |K ∩ R| / |K| over the candidate pairs:
//     partial, R ⊆ K and K's head ∈ R; head, the same head node.
//
// Stages 1 and 3 are maximum-weight assignments. Where several assignments
// reach the maximum, the scorer's own choice is taken: it sorts each side's
// mentions (first node, last node, length) and solves the dense matrix of
// negated weights with SciPy's linear_sum_assignment, whose steps
// assign.SciPyLSAP repeats (solveTies). Only beyond sciPyMaxCells cells
// (thousands of mentions left on both sides) does a rule of our own break
// the ties: the mentions of the side with fewer unmatched mentions (the key
// on equal counts), taken in document order, each take in turn the
// earliest mention of the other side that still allows a maximum total.

// needsShapes reports whether the options need mention shapes: partial and
// head matching need every mention's nodes and head. (The dependent zero
// alignment has nothing to do on input without shapes: it has no zeros.)
func needsShapes(opt *Options) bool { return opt.Match != MatchExact }

// matches reports whether the options pair mentions other than by id.
func matches(opt *Options) bool { return opt.Match != MatchExact || opt.ZeroMatch.aligns() }

// docShapes is what matching leaves for the Table: the shape of every kept
// mention of each side and the MOR counts.
type docShapes struct {
	key, resp []*Shape
	mor       [4]float64
	// lookupsDiffer: the CorefUD scorer's key and response lookups are not
	// one pairing (scorerLookups); this table holds one of them.
	// zeroDiffers: its zero score's lookup differs from its key lookups.
	// keyManyToOne: its key lookups send two key mentions to one response
	// mention, so that no pairing of mentions is them (keyLookupsMany).
	lookupsDiffer, zeroDiffers, keyManyToOne bool
	// lookupPairs, when not nil, are the (key mention, response mention)
	// pairs of a lookup that sends two mentions to one: the table's cells
	// are counted from them (lookupCells) instead of from its pairing.
	lookupPairs [][2]int32
	// zeroLookup, when not nil, is the response mention (an index into
	// resp) that each key mention finds in the zero score's lookup, which
	// sends two key mentions to one response mention (Table.zeroLookup).
	zeroLookup []int32
}

// lookupView names the pairing a table is built with under the dependent
// zero alignment: the CorefUD scorer's key-side lookups (the default), its
// response-side lookups, or its zero score's lookups.
type lookupView int8

const (
	keyLookups lookupView = iota
	responseLookups
	zeroLookups
	// keyLookupsMany: the key lookups where they send two key mentions to
	// one response mention (docShapes.keyManyToOne).
	keyLookupsMany
)

// place stores the shapes in t by union mention index.
func (sh *docShapes) place(t *Table, key, resp *sideIndex, respPos []int32) {
	n := len(t.KeyOf)
	t.KeyShapes = make([]*Shape, n)
	t.RespShapes = make([]*Shape, n)
	copy(t.KeyShapes, sh.key)
	for rp, u := range respPos {
		t.RespShapes[u] = sh.resp[rp]
	}
	mor := sh.mor
	t.MOR = &mor
	t.lookupsDiffer, t.zeroDiffers, t.keyManyToOne = sh.lookupsDiffer, sh.zeroDiffers, sh.keyManyToOne
	if sh.zeroLookup != nil {
		t.zeroLookup = make([]int32, len(sh.zeroLookup))
		for k, r := range sh.zeroLookup {
			t.zeroLookup[k] = -1
			if r >= 0 {
				t.zeroLookup[k] = respPos[r]
			}
		}
	}
}

// lookupCells replaces the cells of t by those of the lookup pairs of
// sh (key mention, response mention; key mention k is t's mention k):
// n_ij counts the pairs of a key mention of K_i and a response mention of
// R_j, so that a mention met by two pairs counts twice, as the CorefUD
// scorer's lookups count it. Only the cells and NumBoth change: the
// cluster sizes and mention counts stay those of the two sides.
func (sh *docShapes) lookupCells(t *Table, resp *sideIndex) {
	count := map[Cell]int32{}
	for _, p := range sh.lookupPairs {
		count[Cell{K: t.KeyOf[p[0]], R: resp.clusters[p[1]]}]++
	}
	cells := make([]Cell, 0, len(count))
	for c, n := range count {
		c.N = n
		cells = append(cells, c)
	}
	slices.SortFunc(cells, func(a, b Cell) int {
		if a.K != b.K {
			return cmp.Compare(a.K, b.K)
		}
		return cmp.Compare(a.R, b.R)
	})
	t.Cells, t.NumBoth, t.cellsFromLookups = cells, len(sh.lookupPairs), true
}

// sideShapes returns the shape of each kept mention of a side, or nil when
// the side has none (an empty side always has them).
func sideShapes(s *Side, idx *sideIndex) []*Shape {
	if len(idx.ids) == 0 {
		return []*Shape{}
	}
	if s.Shapes == nil {
		return nil
	}
	out := make([]*Shape, len(idx.ids))
	for i, p := range idx.orig {
		out[i] = &s.Shapes[p]
	}
	return out
}

// matchMentions applies the matching stages of opt to the kept mentions of
// a document, renaming the response ids in resp, and computes MOR. It
// returns nil (and changes nothing) when a side has no shapes and the
// options do not need them.
func matchMentions(d *Document, key, resp *sideIndex, opt *Options, sl *slab) (*docShapes, error) {
	ks, rs := sideShapes(&d.Key, key), sideShapes(&d.Response, resp)
	if ks == nil || rs == nil {
		if needsShapes(opt) {
			e := newError(KindMissingHeads, "%s needs the words and head of every mention, which this input lacks: "+
				"score CoNLL-U files (the Entity annotation gives heads) or CoNLL-2012 files with a POS column "+
				"(heads by a rule over the tags); mention arrays and jsonlines files allow match=exact and zero_match=linear only",
				opt.Match.String()+" matching")
			e.Side = int(KeySide)
			if ks != nil {
				e.Side = int(ResponseSide)
			}
			return nil, e
		}
		return nil, nil
	}
	if opt.Match != MatchExact {
		for i, s := range ks {
			if !s.HasHead || s.Size() == 0 {
				return nil, inputError(KindMissingHeads, KeySide, int(key.orig[i]), "%s matching needs the head of every mention; this one has none", opt.Match)
			}
		}
		for i, s := range rs {
			if !s.HasHead || s.Size() == 0 {
				return nil, inputError(KindMissingHeads, ResponseSide, int(resp.orig[i]), "%s matching needs the head of every mention; this one has none", opt.Match)
			}
		}
	}
	sh := &docShapes{key: ks, resp: rs}
	if opt.Metrics.Has(metricIndex("mor")) {
		sh.mor = morCounts(ks, rs, key, resp)
	}
	if !matches(opt) {
		return sh, nil
	}
	nk, nr := len(ks), len(rs)
	partner := make([]int32, nr) // key index of each response mention, -1 if none
	for i := range partner {
		partner[i] = -1
	}
	taken := make([]bool, nk)
	pair := func(k, r int32) {
		partner[r] = k
		taken[k] = true
	}
	if opt.ZeroMatch.aligns() {
		alignZeros(ks, rs, pair)
	}
	// Stage 2: the same nodes (equal ids), and under head matching the same
	// head, by a merge of the two id orders.
	k := 0
	for _, r := range resp.byID {
		id := resp.ids[r]
		for k < nk && key.ids[key.byID[k]] < id {
			k++
		}
		if k < nk && key.ids[key.byID[k]] == id {
			kp := key.byID[k]
			if partner[r] < 0 && !taken[kp] && (opt.Match != MatchHead || ks[kp].Head == rs[r].Head) {
				pair(kp, r)
			}
		}
	}
	if opt.Match != MatchExact {
		alignRest(ks, rs, taken, partner, opt.Match, pair)
	}
	if opt.ZeroMatch == ZeroDependent {
		// A lookup that sends two mentions to one is no renaming: its
		// table keeps a pairing (the key lookups' where they are one, else
		// the alignment) and counts its cells from the lookup's pairs.
		fromKey, fromResp, fromKeyZero := scorerLookups(ks, rs, key, resp, partner, opt.Match == MatchHead)
		keyOK, respOK, zeroOK := injective(fromKey, nr), injective(fromResp, nk), injective(fromKeyZero, nr)
		recallView := partner
		if keyOK {
			recallView = inverse(fromKey, nr)
		}
		precisionView, zeroView := recallView, recallView
		if respOK {
			precisionView = fromResp
		}
		if zeroOK {
			zeroView = inverse(fromKeyZero, nr)
		}
		sh.keyManyToOne = !keyOK
		sh.lookupsDiffer = !respOK || !slices.Equal(recallView, precisionView)
		sh.zeroDiffers = !zeroOK || !slices.Equal(recallView, zeroView)
		switch opt.lookupView {
		case responseLookups:
			partner = precisionView
			if !respOK {
				for r, k := range fromResp {
					if k >= 0 {
						sh.lookupPairs = append(sh.lookupPairs, [2]int32{k, int32(r)})
					}
				}
			}
		case zeroLookups:
			partner = zeroView
			if !zeroOK {
				sh.zeroLookup = fromKeyZero
			}
		case keyLookupsMany:
			partner = recallView
			for k, r := range fromKey {
				if r >= 0 {
					sh.lookupPairs = append(sh.lookupPairs, [2]int32{int32(k), r})
				}
			}
		default:
			partner = recallView
		}
	}
	renameResponse(key, resp, partner, sl)
	return sh, nil
}

// scorerLookups returns the pairings that the CorefUD scorer's metrics
// actually use, given its alignment partner (the key mention of each
// response mention, -1 if none). The scorer keeps the pairs of the
// alignment whose mentions differ in one dictionary, first key → response,
// then response → key, keyed by a mention's position (its nodes; and its
// head under head matching), so that a response entry overwrites a key
// entry at the same position. A metric then maps a key mention k through
// the dictionary (or leaves it) and looks the result up by position among
// the response mentions; a response mention likewise among the key's. When
// the dependent alignment pairs a key zero with a response zero at another
// position while another zero sits at the first one's position, those
// lookups differ from the alignment: in a sentence with key zeros 1.1 and
// 2.1 and response zeros 1.1 and 2.1 where both key zeros are best aligned
// with response 2.1, the alignment pairs key 1.1 with it and leaves key 2.1
// out, but the lookups pair key 2.1 with response 1.1 as well.
//
// It returns fromKey, the response mention each key mention looks up (-1:
// none; the recall side of MUC, B-cubed and LEA, and CEAF and BLANC
// entirely) and fromResp, the key mention each response mention looks up
// (the precision side of MUC, B-cubed and LEA). When they are inverse maps
// they are one pairing; when not, each is a renaming of its own and the
// document is scored twice (Table.lookupsDiffer). fromKeyZero is the
// lookup of the scorer's zero score: by position first, and through the
// dictionary only for a key mention with no response mention at its
// position (Table.zeroDiffers: its own table). A lookup may send two
// mentions to one (a key zero aligned elsewhere whose position the
// dictionary sends to a response mention that another key mention finds
// by position): the scorer then credits both, and so do the tables built
// from it (docShapes.lookupPairs, docShapes.zeroLookup).
func scorerLookups(ks, rs []*Shape, key, resp *sideIndex, partner []int32, byHead bool) (fromKey, fromResp, fromKeyZero []int32) {
	type position struct {
		id   int64
		head Node
	}
	posK := func(k int32) position {
		p := position{id: key.ids[k]}
		if byHead {
			p.head = ks[k].Head
		}
		return p
	}
	posR := func(r int32) position {
		p := position{id: resp.ids[r]}
		if byHead {
			p.head = rs[r].Head
		}
		return p
	}
	dict := map[position]position{}
	for r, k := range partner {
		if k >= 0 && posK(k) != posR(int32(r)) {
			dict[posK(k)] = posR(int32(r))
		}
	}
	if len(dict) == 0 { // every pair at one position: the lookups are the alignment
		return inverse(partner, len(ks)), partner, inverse(partner, len(ks))
	}
	for r, k := range partner {
		if k >= 0 && posK(k) != posR(int32(r)) {
			dict[posR(int32(r))] = posK(k)
		}
	}
	keyAt := make(map[position]int32, len(ks))
	for k := range ks {
		keyAt[posK(int32(k))] = int32(k)
	}
	respAt := make(map[position]int32, len(rs))
	for r := range rs {
		respAt[posR(int32(r))] = int32(r)
	}
	lookup := func(p position, at map[position]int32) int32 {
		if q, ok := dict[p]; ok {
			p = q
		}
		if m, ok := at[p]; ok {
			return m
		}
		return -1
	}
	fromKey = make([]int32, len(ks)) // the response mention each key mention looks up
	for k := range ks {
		fromKey[k] = lookup(posK(int32(k)), respAt)
	}
	fromResp = make([]int32, len(rs))
	for r := range rs {
		fromResp[r] = lookup(posR(int32(r)), keyAt)
	}
	fromKeyZero = make([]int32, len(ks))
	for k := range ks {
		r, ok := respAt[posK(int32(k))]
		if !ok {
			r = -1
			if q, in := dict[posK(int32(k))]; in {
				if m, found := respAt[q]; found {
					r = m
				}
			}
		}
		fromKeyZero[k] = r
	}
	return fromKey, fromResp, fromKeyZero
}

// injective reports whether no two entries of f (values in [0, n), -1 for
// none) are equal.
func injective(f []int32, n int) bool {
	seen := make([]bool, n)
	for _, x := range f {
		if x >= 0 {
			if seen[x] {
				return false
			}
			seen[x] = true
		}
	}
	return true
}

// inverse returns, for the injective partial map f from key to response
// mentions, the key mention of each of the n response mentions (-1: none).
func inverse(f []int32, n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = -1
	}
	for k, r := range f {
		if r >= 0 {
			out[r] = int32(k)
		}
	}
	return out
}

// renameResponse gives each matched response mention its key partner's id
// and each other response mention that shares an id with a key mention a
// fresh id (above every id of the document), then re-sorts the response's id
// order. The clashes are found by a merge of the two id orders.
func renameResponse(key, resp *sideIndex, partner []int32, sl *slab) {
	maxID := int64(math.MinInt64)
	if n := len(key.byID); n > 0 {
		maxID = key.ids[key.byID[n-1]]
	}
	if n := len(resp.byID); n > 0 {
		maxID = max(maxID, resp.ids[resp.byID[n-1]])
	}
	ids := make([]int64, len(resp.ids))
	copy(ids, resp.ids)
	next := maxID + 1
	k := 0
	for _, r := range resp.byID {
		id := resp.ids[r]
		for k < len(key.byID) && key.ids[key.byID[k]] < id {
			k++
		}
		if partner[r] < 0 && k < len(key.byID) && key.ids[key.byID[k]] == id {
			ids[r] = next
			next++
		}
	}
	for r, p := range partner {
		if p >= 0 {
			ids[r] = key.ids[p]
		}
	}
	resp.ids = ids
	resp.byID, resp.sorted = sl.sortedOrderKeys(ids, nil)
}

// fscore is F1 between two sets given their sizes and common count; 0 when
// either is empty (the CorefUD scorer divides by zero there).
func fscore(common, a, b int) float64 {
	if common == 0 || a == 0 || b == 0 {
		return 0
	}
	p, r := float64(common)/float64(a), float64(common)/float64(b)
	return 2 * p * r / (p + r)
}

// zeroScore is the dependent alignment weight of key zero k and response
// zero r: 10·F1(DEPS items) + F1(DEPS parents), over the sets of items and
// of parents.
func zeroScore(k, r *Shape) float64 {
	if k.Sentence != r.Sentence {
		return 0
	}
	ki, ri := depItems(k.Deps), depItems(r.Deps)
	kp, rp := depParents(k.Deps), depParents(r.Deps)
	common := 0
	for _, x := range ki {
		if slices.Contains(ri, x) {
			common++
		}
	}
	cp := 0
	for _, x := range kp {
		if slices.Contains(rp, x) {
			cp++
		}
	}
	return 10*fscore(common, len(ki), len(ri)) + fscore(cp, len(kp), len(rp))
}

// depItems returns the distinct DEPS items.
func depItems(deps []Dep) []Dep {
	out := make([]Dep, 0, len(deps))
	for _, d := range deps {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// depParents returns the distinct DEPS parents.
func depParents(deps []Dep) []Node {
	out := make([]Node, 0, len(deps))
	for _, d := range deps {
		if !slices.Contains(out, d.Parent) {
			out = append(out, d.Parent)
		}
	}
	return out
}

// byOrder returns the indices of the shapes (those for which keep is true)
// in the scorer's mention order.
func byOrder(s []*Shape, keep func(int) bool) []int32 {
	var out []int32
	for i := range s {
		if keep(i) {
			out = append(out, int32(i))
		}
	}
	slices.SortStableFunc(out, func(a, b int32) int {
		switch {
		case s[a].less(s[b]):
			return -1
		case s[b].less(s[a]):
			return 1
		}
		return 0
	})
	return out
}

// alignZeros is stage 1: the dependent alignment of zeros.
func alignZeros(ks, rs []*Shape, pair func(k, r int32)) {
	kz := byOrder(ks, func(i int) bool { return ks[i].Zero() })
	rz := byOrder(rs, func(i int) bool { return rs[i].Zero() })
	if len(kz) == 0 || len(rz) == 0 {
		return
	}
	var edges []assign.Edge
	for a, k := range kz {
		for b, r := range rz {
			if w := zeroScore(ks[k], rs[r]); w > 0 {
				edges = append(edges, assign.Edge{Left: int32(a), Right: int32(b), Weight: w})
			}
		}
	}
	solveTies(kz, rz, edges, pair)
}

// alignRest is stage 3: partial or head matching of the mentions left.
func alignRest(ks, rs []*Shape, taken []bool, partner []int32, mode MatchMode, pair func(k, r int32)) {
	kl := byOrder(ks, func(i int) bool { return !taken[i] })
	rl := byOrder(rs, func(i int) bool { return partner[i] < 0 })
	if len(kl) == 0 || len(rl) == 0 {
		return
	}
	var edges []assign.Edge
	if mode == MatchHead {
		// Key mentions left, by head node.
		byHead := make(map[Node][]int32, len(kl))
		for a, k := range kl {
			byHead[ks[k].Head] = append(byHead[ks[k].Head], int32(a))
		}
		for b, r := range rl {
			for _, a := range byHead[rs[r].Head] {
				kn := ks[kl[a]]
				if o := shapeOverlap(kn, rs[r]); o > 0 {
					edges = append(edges, assign.Edge{Left: a, Right: int32(b), Weight: float64(o) / float64(kn.Size())})
				}
			}
		}
		solveTies(kl, rl, edges, pair)
		return
	}
	// Partial: the key mentions left in order of head node (then of a), so
	// that those whose head lies within a response mention's bounds are a
	// run found by binary search, in the order of the response's nodes.
	byHead := make([]int32, len(kl))
	for a := range byHead {
		byHead[a] = int32(a)
	}
	slices.SortStableFunc(byHead, func(a, b int32) int { return cmp.Compare(ks[kl[a]].Head, ks[kl[b]].Head) })
	for b, r := range rl {
		rm := rs[r]
		first, last, ok := rm.bounds()
		if !ok {
			continue
		}
		size := rm.Size()
		i, _ := slices.BinarySearchFunc(byHead, first, func(a int32, x Node) int { return cmp.Compare(ks[kl[a]].Head, x) })
		for ; i < len(byHead) && ks[kl[byHead[i]]].Head <= last; i++ {
			a := byHead[i]
			kn := ks[kl[a]]
			if rm.hasNode(kn.Head) && size <= kn.Size() && shapeOverlap(kn, rm) == size {
				edges = append(edges, assign.Edge{Left: a, Right: int32(b), Weight: float64(size) / float64(kn.Size())})
			}
		}
	}
	solveTies(kl, rl, edges, pair)
}

// solveTies finds a maximum-weight one-to-one assignment between left
// mentions lk (key indices, in mention order) and right mentions rr
// (response indices, in mention order) over edges (Left and Right index lk
// and rr) and reports each pair of positive weight. It takes the CorefUD
// scorer's own choice among equally good assignments: the scorer solves
// the dense matrix of negated weights (rows lk, columns rr, 0 where no
// edge) with SciPy's linear_sum_assignment, which assign.SciPyLSAP
// replays. A matrix of more than sciPyMaxCells cells (thousands of mentions
// left on both sides, where SciPy's dense solver itself takes seconds)
// takes solveTiesByComponent's assignment instead: the same total, ties
// broken by the rule of the package comment.
func solveTies(lk, rr []int32, edges []assign.Edge, pair func(k, r int32)) {
	if len(edges) == 0 {
		return
	}
	rows, cols := len(lk), len(rr)
	if rows*cols > sciPyMaxCells {
		solveTiesByComponent(lk, rr, edges, pair)
		return
	}
	cost := make([]float64, rows*cols)
	for _, e := range edges {
		cost[int(e.Left)*cols+int(e.Right)] = -e.Weight
	}
	rowTo, err := assign.SciPyLSAP(rows, cols, cost)
	if err != nil { // not for finite weights; keep an answer all the same
		solveTiesByComponent(lk, rr, edges, pair)
		return
	}
	for i, j := range rowTo {
		if j >= 0 && cost[i*cols+j] < 0 {
			pair(lk[i], rr[j])
		}
	}
}

// sciPyMaxCells bounds the dense matrix that solveTies solves as SciPy.
const sciPyMaxCells = 1 << 22

// solveTiesByComponent is solveTies for large matrices: each connected
// component of the edges solved on its own, with the tie rule of the
// package comment (lexFirst).
func solveTiesByComponent(lk, rr []int32, edges []assign.Edge, pair func(k, r int32)) {
	if len(edges) == 0 {
		return
	}
	transpose := len(lk) > len(rr)
	if transpose {
		for i := range edges {
			edges[i].Left, edges[i].Right = edges[i].Right, edges[i].Left
		}
	}
	emit := func(l, r int32) {
		if transpose {
			l, r = r, l
		}
		pair(lk[l], rr[r])
	}
	// Connected components, each solved on its own.
	nl := len(lk)
	if transpose {
		nl = len(rr)
	}
	parent := make(map[int64]int64)
	var find func(x int64) int64
	find = func(x int64) int64 {
		p, ok := parent[x]
		if !ok || p == x {
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	node := func(left bool, i int32) int64 {
		if left {
			return int64(i)
		}
		return int64(nl) + int64(i)
	}
	for _, e := range edges {
		a, b := find(node(true, e.Left)), find(node(false, e.Right))
		if a != b {
			parent[a] = b
		}
	}
	groups := make(map[int64][]assign.Edge)
	var roots []int64
	for _, e := range edges {
		r := find(node(true, e.Left))
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], e)
	}
	for _, r := range roots {
		g := groups[r]
		if len(g) == 1 {
			emit(g[0].Left, g[0].Right)
			continue
		}
		for l, c := range lexFirst(g) {
			emit(l, c)
		}
	}
}

// lexFirstLimit bounds the edges of a component that lexFirst refines; a
// larger component keeps assign.MaxWeight's own (deterministic) optimum.
const lexFirstLimit = 256

// lexFirst returns, for the edges of one component, the maximum-weight
// matching that is lexicographically first: left vertices in increasing
// order each take the lowest right vertex that still allows the maximum.
// It maps left vertex to right vertex.
func lexFirst(edges []assign.Edge) map[int32]int32 {
	// Relabel densely.
	lefts, rights := map[int32]int32{}, map[int32]int32{}
	var lv, rv []int32
	for _, e := range edges {
		if _, ok := lefts[e.Left]; !ok {
			lefts[e.Left] = 0
			lv = append(lv, e.Left)
		}
		if _, ok := rights[e.Right]; !ok {
			rights[e.Right] = 0
			rv = append(rv, e.Right)
		}
	}
	slices.Sort(lv)
	slices.Sort(rv)
	for i, v := range lv {
		lefts[v] = int32(i)
	}
	for i, v := range rv {
		rights[v] = int32(i)
	}
	local := make([]assign.Edge, len(edges))
	for i, e := range edges {
		local[i] = assign.Edge{Left: lefts[e.Left], Right: rights[e.Right], Weight: e.Weight}
	}
	slices.SortFunc(local, func(a, b assign.Edge) int {
		if a.Left != b.Left {
			return int(a.Left - b.Left)
		}
		return int(a.Right - b.Right)
	})
	nL, nR := len(lv), len(rv)
	out := make(map[int32]int32)
	total, rowCol, err := assign.MaxWeight(nL, nR, local)
	if err != nil {
		return out
	}
	if len(local) > lexFirstLimit {
		for l, c := range rowCol {
			if c >= 0 {
				out[lv[l]] = rv[c]
			}
		}
		return out
	}
	tol := 1e-9 * math.Max(1, total)
	used := make([]bool, nR)
	fixed := 0.0
	sub := make([]assign.Edge, 0, len(local))
	for l := int32(0); l < int32(nL); l++ {
		for _, e := range local {
			if e.Left != l || used[e.Right] {
				continue
			}
			sub = sub[:0]
			for _, f := range local {
				if f.Left > l && !used[f.Right] && f.Right != e.Right {
					sub = append(sub, f)
				}
			}
			rest, _, err := assign.MaxWeight(nL, nR, sub)
			if err != nil {
				continue
			}
			if fixed+e.Weight+rest >= total-tol {
				used[e.Right] = true
				fixed += e.Weight
				out[lv[l]] = rv[e.Right]
				break
			}
		}
	}
	return out
}

// morCounts returns the mention overlap ratio counts (recall numerator,
// recall denominator, precision numerator, precision denominator): the
// largest total overlap |K ∩ R| of a one-to-one pairing of key and response
// mentions, against the total size of the key mentions and of the response
// mentions. Sizes count words and empty nodes. key and resp give the
// mentions' ids (equal ids, equal nodes) in id order (byID).
//
// Mentions with equal nodes are paired first: some maximum pairing always
// holds them (for K = R paired elsewhere with R' and K', swapping gains
// |K| + |K' ∩ R'| - |K ∩ R'| - |K ∩ K'| ≥ 0, since |K ∩ R'| + |K ∩ K'| ≤
// |K| + |K' ∩ R'|). The others go to assign.MaxWeight over the pairs that
// overlap, found by overlappingPairs from the mentions' bounds. Time is
// O(n log n) plus the overlapping pairs of mentions left unpaired; memory
// is O(n) plus those pairs, whatever the mentions' lengths.
func morCounts(ks, rs []*Shape, key, resp *sideIndex) [4]float64 {
	var kd, rd float64
	for _, s := range ks {
		kd += float64(s.Size())
	}
	for _, s := range rs {
		rd += float64(s.Size())
	}
	if len(ks) == 0 || len(rs) == 0 {
		return [4]float64{0, kd, 0, rd}
	}
	total := 0.0
	kUsed := make([]bool, len(ks))
	rUsed := make([]bool, len(rs))
	k := 0
	for _, r := range resp.byID {
		id := resp.ids[r]
		for k < len(key.byID) && key.ids[key.byID[k]] < id {
			k++
		}
		if k < len(key.byID) && key.ids[key.byID[k]] == id {
			kp := key.byID[k]
			kUsed[kp], rUsed[r] = true, true
			total += float64(ks[kp].Size())
		}
	}
	kLeft, rLeft := slices.Contains(kUsed, false), slices.Contains(rUsed, false)
	if !kLeft || !rLeft {
		return [4]float64{total, kd, total, rd}
	}
	edges := overlappingPairs(ks, rs, kUsed, rUsed)
	if len(edges) > 0 {
		rest, _, err := assign.MaxWeight(len(ks), len(rs), edges)
		if err == nil {
			total += rest
		}
	}
	return [4]float64{total, kd, total, rd}
}

// overlappingPairs returns an edge, weighted |K ∩ R|, for every key mention
// K and response mention R not used that share a node. A sweep over the
// mentions' bounds (first node to last node) finds the pairs whose bounds
// meet: when a mention's bounds open, it meets every mention of the other
// side whose bounds are open. Time O(n log n) plus the pairs whose bounds
// meet (each costs one overlap).
func overlappingPairs(ks, rs []*Shape, kUsed, rUsed []bool) []assign.Edge {
	type event struct {
		at    Node
		close bool  // opens sort before closes at one node: bounds are inclusive
		side  int8  // 0 key, 1 response
		m     int32 // mention index on its side
	}
	var events []event
	add := func(side int8, s []*Shape, used []bool) {
		for i, sh := range s {
			if used[i] {
				continue
			}
			if first, last, ok := sh.bounds(); ok {
				events = append(events, event{first, false, side, int32(i)}, event{last, true, side, int32(i)})
			}
		}
	}
	add(0, ks, kUsed)
	add(1, rs, rUsed)
	slices.SortFunc(events, func(a, b event) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		if a.close != b.close {
			if a.close {
				return 1
			}
			return -1
		}
		if a.side != b.side {
			return int(a.side - b.side)
		}
		return int(a.m - b.m)
	})
	// open[side] holds the mentions whose bounds are open; slot[side][m] is
	// m's position there, for removal by swapping with the last.
	var open [2][]int32
	slot := [2][]int32{make([]int32, len(ks)), make([]int32, len(rs))}
	var edges []assign.Edge
	for _, e := range events {
		side := e.side
		if e.close {
			at := slot[side][e.m]
			last := open[side][len(open[side])-1]
			open[side][at] = last
			slot[side][last] = at
			open[side] = open[side][:len(open[side])-1]
			continue
		}
		for _, o := range open[1-side] {
			kk, rr := e.m, o
			if side == 1 {
				kk, rr = o, e.m
			}
			if w := shapeOverlap(ks[kk], rs[rr]); w > 0 {
				edges = append(edges, assign.Edge{Left: kk, Right: rr, Weight: float64(w)})
			}
		}
		slot[side][e.m] = int32(len(open[side]))
		open[side] = append(open[side], e.m)
	}
	return edges
}
