package gocore

import (
	"math/bits"
	"sync"
)

// Cell is one non-empty cell of the contingency table: N mentions lie in key
// cluster K and response cluster R.
type Cell struct {
	K, R int32
	N    int32
}

// Table is a document prepared for scoring: duplicates removed, the singleton
// policy applied, mentions and clusters renumbered densely, and the sparse
// contingency table between key and response clusters.
//
// Mentions are numbered 0..NumMentions()-1: key mentions first, in input
// order, then response mentions with no key twin ("twinless"), in input
// order. KeyOf[m] and RespOf[m] give the dense cluster index of mention m on
// each side, or -1 when m is absent from that side. Clusters are numbered in
// order of first appearance on their side.
type Table struct {
	IDs      []int64 // mention id of each mention, for messages
	KeyOf    []int32
	RespOf   []int32
	Types    []MentionType // per mention; the key's type, else the response's
	KeySize  []int32       // size of each key cluster
	RespSize []int32       // size of each response cluster
	// KeyLabels and RespLabels give the caller's cluster id of each dense
	// cluster index, for reports (error analysis).
	KeyLabels  []int64
	RespLabels []int64
	Cells      []Cell // ordered by key cluster, then by first meeting
	// RespOrder lists the mention of each response mention in response
	// input order (after duplicates and the singleton policy).
	RespOrder []int32
	NumKey    int  // mentions on the key side
	NumResp   int  // mentions on the response side
	NumBoth   int  // mentions on both sides
	HasTypes  bool // every mention has a known type

	stop func() bool // Options.Stop, passed to the alignments
	// refTied and refHigh: under Options.ReferenceTotals, the CEAF_e
	// candidates' sums differ, and the greatest (refCeafeLow).
	refTied bool
	refHigh float64
	// syntax is the document's Syntax (nil without one), for the
	// Kummerfeld-Klein analysis.
	syntax *Syntax
	// lookupsDiffer: the mentions are paired as the CorefUD scorer's key
	// lookups pair them, and its response lookups pair them otherwise (see
	// scorerLookups); scoreDocOn then scores the response view too.
	// zeroDiffers: its zero score pairs them otherwise again.
	// keyManyToOne: its key lookups send two key mentions to one response
	// mention; scoreDocOn then scores them on a table of their own.
	lookupsDiffer, zeroDiffers, keyManyToOne bool
	// cellsFromLookups: the cells count the pairs of such a lookup
	// (docShapes.lookupCells), not the mentions' own sides.
	cellsFromLookups bool
	// zeroLookup, when not nil, gives for each key mention the mention
	// whose response side the CorefUD scorer's zero score finds for it
	// (-1: none), a lookup that sends two key mentions to one; zeroCounts
	// reads it instead of each mention's own response side.
	zeroLookup []int32

	// KeyShapes[m] and RespShapes[m] are the shapes of mention m on each
	// side (nil when absent from that side); both are nil when the document
	// has no shapes. MOR holds the mention-overlap counts, computed before
	// matching.
	KeyShapes  []*Shape
	RespShapes []*Shape
	MOR        *[4]float64

	// Computed on first use and shared by the typed metrics of one
	// document (the four L-metrics and DA), which may run concurrently:
	// see cachedTypeCounts and cachedLWeights.
	tcMu  sync.Mutex
	tc    *typeCounts
	lwMu  sync.Mutex
	lw    *lweights
	order []int32    // mention indices by increasing id, for the error analyses (analysisOrder)
	lwFor [4]float64 // the link weights lw was computed with
}

// NumMentions returns the number of distinct mentions on either side.
func (t *Table) NumMentions() int { return len(t.KeyOf) }

// sideIndex is one side after de-duplication and the singleton policy.
type sideIndex struct {
	ids      []int64
	clusters []int32 // dense cluster index per kept mention
	types    []MentionType
	sizes    []int32
	labels   []int64 // original cluster id per dense index
	byID     []int32 // positions in ids, ordered by mention id
	orig     []int32 // input position of each kept mention; nil when the side has no Shapes
	// sorted is ids in byID order (sorted[k] = ids[byID[k]]), so that the
	// merges read ids in sequence rather than through byID; nil when byID
	// changed after it was made (idsInOrder then gathers them).
	sorted []int64
}

// buildSide validates a side, removes repeated mentions (keeping the first),
// numbers its clusters densely in order of first appearance and applies the
// singleton policy. It sorts instead of hashing: the mention ids are ordered
// once (a radix sort, or nothing when they come in order), which finds the
// repeats here and the twins across sides in NewTable by a merge. Cost:
// O(n) for n mentions, a few sequential passes.
func buildSide(s Side, kind SideKind, doc int, opt *Options, dups *[]Duplicate, nDups *int64, sl *slab) (sideIndex, error) {
	pl := &poller{stop: opt.Stop}
	n := len(s.Mentions)
	if len(s.Clusters) != n {
		e := newError(KindArgument, "%s has %d mention ids but %d cluster ids", kind, n, len(s.Clusters))
		e.Side = int(kind)
		return sideIndex{}, e
	}
	if s.Types != nil && len(s.Types) != n {
		e := newError(KindArgument, "%s has %d mention ids but %d mention types", kind, n, len(s.Types))
		e.Side = int(kind)
		return sideIndex{}, e
	}
	if s.Shapes != nil && len(s.Shapes) != n {
		e := newError(KindArgument, "%s has %d mention ids but %d mention shapes", kind, n, len(s.Shapes))
		e.Side = int(kind)
		return sideIndex{}, e
	}
	for i, c := range s.Clusters {
		if c < 0 {
			return sideIndex{}, inputError(KindMention, kind, i, "negative cluster id %d", c)
		}
	}
	for i, ty := range s.Types {
		if ty < TypeUnknown || ty > TypePronoun {
			return sideIndex{}, inputError(KindMention, kind, i, "mention type %d is not one of 0..3", ty)
		}
	}
	if opt.stopped() {
		return sideIndex{}, errCancelled()
	}
	order, sorted := sl.sortedOrderKeys(s.Mentions, pl)
	if pl.halted() {
		return sideIndex{}, errCancelled()
	}
	// Within a run of equal ids the first position is the kept occurrence;
	// first[p] is that position for a repeat p, and -1 for a kept p.
	var first []int32
	for k := 1; k < n; k++ {
		if pl.halt() {
			return sideIndex{}, errCancelled()
		}
		if sorted[k] != sorted[k-1] {
			continue
		}
		p, head := order[k], order[k-1]
		if first == nil {
			first = make([]int32, n)
			for i := range first {
				first[i] = -1
			}
		}
		if first[head] >= 0 {
			head = first[head]
		}
		first[p] = head
	}
	var out sideIndex
	if first == nil {
		out.ids = s.Mentions
		out.byID, out.sorted = order, sorted
		out.types = s.Types
		out.clusters, out.labels, out.sizes = sl.denseClustersPoll(s.Clusters, pl)
		if s.Shapes != nil {
			out.orig = make([]int32, n)
			for i := range out.orig {
				out.orig[i] = int32(i)
			}
		}
	} else {
		if err := reportDuplicates(s, kind, doc, opt, first, dups, nDups); err != nil {
			return sideIndex{}, err
		}
		newPos := make([]int32, n)
		labels := make([]int64, 0, n)
		for p := range s.Mentions {
			if first[p] >= 0 {
				continue
			}
			newPos[p] = int32(len(out.ids))
			out.ids = append(out.ids, s.Mentions[p])
			labels = append(labels, s.Clusters[p])
			if s.Shapes != nil {
				out.orig = append(out.orig, int32(p))
			}
			if s.Types != nil {
				out.types = append(out.types, s.Types[p])
			}
		}
		out.byID = make([]int32, 0, len(out.ids))
		out.sorted = sorted[:0:0]
		for k, p := range order {
			if first[p] < 0 {
				out.byID = append(out.byID, newPos[p])
				out.sorted = append(out.sorted, sorted[k])
			}
		}
		out.clusters, out.labels, out.sizes = sl.denseClustersPoll(labels, pl)
	}
	if pl.halted() {
		return sideIndex{}, errCancelled()
	}
	if opt.Singletons == SingletonsExclude {
		out.dropSingletons()
	}
	return out, nil
}

// buildSides builds the key side on a new goroutine and the response side
// on the caller's, then reports as the two calls of buildSide in turn would:
// the key's error first, the key's repeated mentions before the response's,
// at most opt.MaxDuplicates records in all. The response side collects its
// records apart (capped alone, which keeps every record the shared cap
// would) and they are appended after the key's up to the cap.
func buildSides(d *Document, doc int, opt *Options, dups *[]Duplicate, nDups *int64) (key, resp sideIndex, err error) {
	var keyErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				keyErr = newError(KindInternal, "internal error: %v", p)
			}
		}()
		key, keyErr = buildSide(d.Key, KeySide, doc, opt, dups, nDups, nil)
	}()
	var respDups []Duplicate
	var respN int64
	var respErr error
	func() {
		defer func() { <-done }() // the key side is done before anything else, even on a panic here
		resp, respErr = buildSide(d.Response, ResponseSide, doc, opt, &respDups, &respN, nil)
	}()
	if keyErr != nil {
		return key, resp, keyErr
	}
	*nDups += respN
	for _, r := range respDups {
		if opt.Duplicates != DuplicatesError && opt.MaxDuplicates != 0 && len(*dups) >= max(opt.MaxDuplicates, 0) {
			break
		}
		*dups = append(*dups, r)
	}
	return key, resp, respErr
}

// reportDuplicates counts every repeated mention in *nDups and appends the
// first opt.MaxDuplicates of them (all when 0), in input order, to dups, or
// under DuplicatesError refuses the first one.
func reportDuplicates(s Side, kind SideKind, doc int, opt *Options, first []int32, dups *[]Duplicate, nDups *int64) error {
	for p, f := range first {
		if f < 0 {
			continue
		}
		m := s.Mentions[p]
		*nDups++
		if opt.Duplicates != DuplicatesError && opt.MaxDuplicates != 0 && len(*dups) >= max(opt.MaxDuplicates, 0) {
			continue
		}
		if opt.Duplicates == DuplicatesError {
			return inputError(KindDuplicate, kind, p, "the mention occurs twice (first in cluster %d, then in cluster %d)",
				s.Clusters[f], s.Clusters[p])
		}
		*dups = append(*dups, Duplicate{Doc: doc, Side: kind, Mention: m, Pos: p,
			FirstCluster: s.Clusters[f], Cluster: s.Clusters[p]})
	}
	return nil
}

// denseClusters numbers cluster labels densely in order of first appearance
// and returns the dense index of each position, the label of each index and
// the size of each cluster. Labels below 4n + 1024 are looked up in an array;
// others are sorted. Cost: O(n).
func denseClusters(labels []int64) (dense []int32, byIndex []int64, sizes []int32) {
	return (*slab)(nil).denseClusters(labels)
}

// numberInOrder writes to dense[p] the number of ids[p] in order of first
// appearance (0, 1, ...), using index (one slot per possible id, each below
// len(index)) as scratch, and returns how many distinct ids there are. dense
// may be ids itself. Cost: O(len(ids) + len(index)).
func numberInOrder[T int32 | int64](ids []T, index []int32, dense []int32, pl *poller) int32 {
	for i := range index {
		index[i] = -1
	}
	k := int32(0)
	for p, id := range ids {
		if pl.halt() {
			return k
		}
		d := index[id]
		if d < 0 {
			d = k
			index[id] = d
			k++
		}
		dense[p] = d
	}
	return k
}

// denseClusters is denseClusters with its arrays taken from sl.
func (sl *slab) denseClusters(labels []int64) (dense []int32, byIndex []int64, sizes []int32) {
	return sl.denseClustersPoll(labels, nil)
}

// denseClustersPoll is denseClusters polling p while it sorts; once p has
// stopped, its result is meaningless.
func (sl *slab) denseClustersPoll(labels []int64, p *poller) (dense []int32, byIndex []int64, sizes []int32) {
	n := len(labels)
	dense = sl.int32s(n)
	var maxLabel int64
	for _, c := range labels {
		maxLabel = max(maxLabel, c)
	}
	var k int32 // clusters numbered
	if maxLabel < int64(4*n+1024) {
		k = numberInOrder(labels, sl.int32s(int(maxLabel)+1), dense, p)
	} else {
		// Sorted runs of equal labels get provisional numbers, which are then
		// renumbered in order of first appearance.
		order := sl.sortedOrderPoll(labels, p)
		run := int32(-1)
		for i, p := range order {
			if i == 0 || labels[p] != labels[order[i-1]] {
				run++
			}
			dense[p] = run
		}
		k = numberInOrder(dense, sl.int32s(int(run)+1), dense, p)
	}
	if p != nil && p.hit { // stopped: dense is unfinished
		return dense, nil, nil
	}
	if k == 0 {
		return dense, nil, nil
	}
	byIndex, sizes = sl.int64s(int(k)), sl.int32s(int(k))
	for p, d := range dense {
		if sizes[d] == 0 {
			byIndex[d] = labels[p]
		}
		sizes[d]++
	}
	return dense, byIndex, sizes
}

// dropSingletons removes the mentions of one-mention clusters and renumbers
// the remaining clusters in order of first appearance.
func (s *sideIndex) dropSingletons() {
	renumber := make([]int32, len(s.sizes))
	var sizes []int32
	var labels []int64
	for c, size := range s.sizes {
		renumber[c] = -1
		if size > 1 {
			renumber[c] = int32(len(sizes))
			sizes = append(sizes, size)
			labels = append(labels, s.labels[c])
		}
	}
	if len(sizes) == len(s.sizes) {
		return
	}
	newPos := make([]int32, len(s.ids))
	ids := make([]int64, 0, len(s.ids))
	clusters := make([]int32, 0, len(s.ids))
	var types []MentionType
	var orig []int32
	for i, c := range s.clusters {
		if renumber[c] < 0 {
			newPos[i] = -1
			continue
		}
		newPos[i] = int32(len(ids))
		ids = append(ids, s.ids[i])
		if s.orig != nil {
			orig = append(orig, s.orig[i])
		}
		clusters = append(clusters, renumber[c])
		if s.types != nil {
			types = append(types, s.types[i])
		}
	}
	byID := make([]int32, 0, len(ids))
	var sorted []int64
	if s.sorted != nil {
		sorted = make([]int64, 0, len(ids))
	}
	for k, p := range s.byID {
		if newPos[p] >= 0 {
			byID = append(byID, newPos[p])
			if sorted != nil {
				sorted = append(sorted, s.sorted[k])
			}
		}
	}
	s.ids, s.clusters, s.types, s.byID, s.orig, s.sorted = ids, clusters, types, byID, orig, sorted
	s.sizes, s.labels = sizes, labels
}

// NewTable prepares one document for scoring. Repeated mentions are appended
// to dups (or refused, per opt.Duplicates); doc is the document's index, used
// in those reports. The input is never modified. Cost: O(n) for n mentions.
func NewTable(d *Document, doc int, opt *Options, dups *[]Duplicate) (*Table, error) {
	var n int64
	return newTable(d, doc, opt, dups, &n, 1, nil)
}

// parallelSideMentions is the number of mentions (both sides) from which
// newTable builds the two sides on two goroutines when it may.
var parallelSideMentions = 200_000

// newTable is NewTable that counts the repeated mentions in *nDups and keeps
// at most opt.MaxDuplicates records of them (all when it is 0). It polls
// opt.Stop between its passes. With workers > 1, a document of
// parallelSideMentions mentions or more has its two sides built
// concurrently; the table and the duplicates reported are the same. With sc
// not nil (a document of at most slabMentions mentions), the table and its
// arrays are made in sc's memory, which the caller must not reuse while
// the table is in use.
func newTable(d *Document, doc int, opt *Options, dups *[]Duplicate, nDups *int64, workers int, sc *docScratch) (*Table, error) {
	var sl *slab
	n := len(d.Key.Mentions) + len(d.Response.Mentions)
	switch {
	case sc != nil:
		sl = sc.slab(n)
	case n <= slabMentions:
		sl = newSlab(n)
	}
	var key, resp sideIndex
	var err error
	if workers > 1 && n >= parallelSideMentions && sl == nil {
		key, resp, err = buildSides(d, doc, opt, dups, nDups)
	} else {
		key, err = buildSide(d.Key, KeySide, doc, opt, dups, nDups, sl)
		if err == nil {
			if opt.stopped() {
				return nil, errCancelled()
			}
			resp, err = buildSide(d.Response, ResponseSide, doc, opt, dups, nDups, sl)
		}
	}
	if err != nil {
		return nil, err
	}
	if opt.stopped() {
		return nil, errCancelled()
	}
	var sh *docShapes
	if matches(opt) || d.Key.Shapes != nil || d.Response.Shapes != nil {
		if sh, err = matchMentions(d, &key, &resp, opt, sl); err != nil {
			return nil, err
		}
	}
	nk, nr := len(key.ids), len(resp.ids)
	var t *Table
	if sc != nil {
		t = &sc.t
	} else {
		t = new(Table)
	}
	*t = Table{NumKey: nk, NumResp: nr, KeySize: key.sizes, RespSize: resp.sizes, KeyLabels: key.labels, RespLabels: resp.labels,
		syntax: d.Syntax}
	// Twins: merge the two id orders. respPos is the union index of each
	// response mention, -1 until known.
	respPos := sl.int32s(nr)
	for i := range respPos {
		respPos[i] = -1
	}
	keySorted, respSorted := key.idsInOrder(), resp.idsInOrder()
	k := 0
	for j, rp := range resp.byID {
		id := respSorted[j]
		for k < nk && keySorted[k] < id {
			k++
		}
		if k < nk && keySorted[k] == id {
			respPos[rp] = key.byID[k]
			t.NumBoth++
		}
	}
	if opt.stopped() {
		return nil, errCancelled()
	}
	// The union: the key mentions, then the twinless response mentions in
	// input order, in arrays of its exact size.
	union := nk + nr - t.NumBoth
	t.IDs, t.KeyOf, t.RespOf = sl.int64s(union), sl.int32s(union), sl.int32s(union)
	copy(t.IDs, key.ids)
	copy(t.KeyOf, key.clusters)
	for i := range t.RespOf[:nk] {
		t.RespOf[i] = -1
	}
	next := int32(nk)
	for rp, u := range respPos {
		if u < 0 {
			u, respPos[rp] = next, next
			t.IDs[u], t.KeyOf[u] = resp.ids[rp], -1
			next++
		}
		t.RespOf[u] = resp.clusters[rp]
	}
	t.RespOrder = respPos
	t.fillTypes(&key, &resp, respPos)
	if sh != nil {
		sh.place(t, &key, &resp, respPos)
	}
	if opt.stopped() {
		return nil, errCancelled()
	}
	t.Cells = sl.buildCells(t.KeyOf[:nk], t.RespOf[:nk], len(key.sizes), len(resp.sizes))
	if sh != nil && sh.lookupPairs != nil {
		sh.lookupCells(t, &resp)
	}
	return t, nil
}

// fillTypes merges mention types: the key's type where known, else the
// response's. HasTypes is true when every mention ends with a known type.
func (t *Table) fillTypes(key, resp *sideIndex, respPos []int32) {
	if key.types == nil && resp.types == nil {
		return
	}
	t.Types = make([]MentionType, len(t.KeyOf))
	if key.types != nil {
		copy(t.Types, key.types)
	}
	if resp.types != nil {
		for i, u := range respPos {
			if t.Types[u] == TypeUnknown {
				t.Types[u] = resp.types[i]
			}
		}
	}
	t.HasTypes = true
	for _, ty := range t.Types {
		if ty == TypeUnknown {
			t.HasTypes = false
			break
		}
	}
}

// buildCells counts the contingency table from the key mentions, grouped by
// key cluster with a counting sort and counted with a scratch array indexed
// by response cluster: linear time, no map. Its arrays come from sl.
func (sl *slab) buildCells(keyOf, respOf []int32, nKeyClusters, nRespClusters int) []Cell {
	start := sl.int32s(nKeyClusters + 1)
	for _, k := range keyOf {
		start[k+1]++
	}
	for k := 0; k < nKeyClusters; k++ {
		start[k+1] += start[k]
	}
	fill := sl.int32s(nKeyClusters)
	copy(fill, start)
	byKey := sl.int32s(len(keyOf)) // response cluster of each key mention, grouped by key cluster
	for m, k := range keyOf {
		byKey[fill[k]] = respOf[m]
		fill[k]++
	}
	count := sl.int32s(nRespClusters)
	var cells []Cell
	if sl != nil { // a small document: at most one cell per key mention
		if cap(sl.cells) < len(keyOf) {
			sl.cells = make([]Cell, 0, len(keyOf))
		}
		cells = sl.cells[:0:len(keyOf)]
	}
	for k := 0; k < nKeyClusters; k++ {
		members := byKey[start[k]:start[k+1]]
		first := len(cells)
		for _, r := range members {
			if r < 0 {
				continue
			}
			if count[r] == 0 {
				cells = append(cells, Cell{K: int32(k), R: r})
			}
			count[r]++
		}
		for i := first; i < len(cells); i++ {
			cells[i].N = count[cells[i].R]
			count[cells[i].R] = 0
		}
	}
	return cells
}

// sortedOrder returns the positions 0..n-1 of keys ordered by key, equal keys
// in position order. Keys already in order cost one pass; otherwise it is a
// most-significant-digit radix sort (msdSort) whose first pass makes about
// n/4 buckets, so that the rest of the work happens in cache. Cost: O(n) for
// keys spread over their range (each key moves about twice); at worst one
// pass per 2 to 8 bits in which the keys differ.
func sortedOrder(keys []int64) []int32 { return (*slab)(nil).sortedOrder(keys) }

// sortedOrder is sortedOrder with the order taken from sl.
func (sl *slab) sortedOrder(keys []int64) []int32 { return sl.sortedOrderPoll(keys, nil) }

// sortedOrderPoll is sortedOrder polling p while it sorts; once p has
// stopped, the order is meaningless.
func (sl *slab) sortedOrderPoll(keys []int64, p *poller) []int32 {
	order, _ := sl.sortOrder(keys, p, false)
	return order
}

// sortedOrderKeys is sortedOrderPoll that also returns the keys in that
// order (sorted[k] = keys[order[k]]; keys itself when they come in order),
// which the radix sort has at hand: reading them in sequence is cheaper
// than through order once keys outgrow the caches.
func (sl *slab) sortedOrderKeys(keys []int64, p *poller) (order []int32, sorted []int64) {
	return sl.sortOrder(keys, p, true)
}

// sortOrder is sortedOrderKeys, whose sorted keys are nil unless
// withKeys.
func (sl *slab) sortOrder(keys []int64, p *poller, withKeys bool) (order []int32, sorted []int64) {
	n := len(keys)
	order = sl.int32s(n)
	inOrder := true
	for i := range order {
		order[i] = int32(i)
		if i > 0 && keys[i] < keys[i-1] {
			inOrder = false
		}
	}
	if inOrder {
		if withKeys {
			sorted = keys
		}
		return order, sorted
	}
	if n < 256 {
		smallOrder(order, keys)
		if withKeys {
			sorted = sl.int64s(n)
			for i := range sorted {
				sorted[i] = keys[order[i]]
			}
		}
		return order, sorted
	}
	// The keys are sorted in a copy, their positions moving along in order:
	// the two arrays are the results.
	if withKeys {
		sorted = sl.int64s(n)
	} else {
		sorted = make([]int64, n)
	}
	copy(sorted, keys)
	msdSort(sorted, order, make([]int64, n), make([]int32, n), 16, p)
	if !withKeys {
		sorted = nil
	}
	return order, sorted
}

// idsInOrder returns the side's ids in byID order: s.sorted, or gathered
// through byID when it is nil.
func (s *sideIndex) idsInOrder() []int64 {
	if s.sorted != nil || len(s.byID) == 0 {
		return s.sorted
	}
	out := make([]int64, len(s.byID))
	for k, p := range s.byID {
		out[k] = s.ids[p]
	}
	return out
}

// msdSort sorts keys by (key, position), moving pos (the positions, in
// increasing order among equal keys) along, with scratch arrays as long.
// One radix pass distributes the pairs into about len(keys)/4 buckets (at
// most 2^maxWidth) on the highest bits in which the keys differ, keeping
// input order within a bucket; each bucket is then sorted the same way (at
// most 2^8 buckets), by insertion sort when small, or not at all when its
// keys are all equal. The keys and positions live in two arrays rather than
// one of pairs: a third less memory to move, and both are results as they
// stand.
func msdSort(keys []int64, pos []int32, keyScratch []int64, posScratch []int32, maxWidth int, p *poller) {
	if p.halt() {
		return
	}
	if len(keys) <= 32 {
		insertionSort(keys, pos)
		return
	}
	var diff uint64
	for _, k := range keys {
		diff |= uint64(k ^ keys[0])
	}
	if diff == 0 {
		return // equal keys, already in position order
	}
	top := 64 - bits.LeadingZeros64(diff) // keys agree above bit top
	width := min(maxWidth, bits.Len(uint(len(keys)))-2)
	shift := max(top-width, 0)
	nb := 1 << (top - shift)
	mask := uint64(nb - 1)
	var small [257]int32
	start := small[:]
	if nb+1 > len(small) {
		start = make([]int32, nb+1)
	}
	start = start[:nb+1]
	for _, k := range keys {
		start[(unsignedKey(k)>>shift)&mask+1]++
	}
	for v := 0; v < nb; v++ {
		start[v+1] += start[v]
	}
	for i, k := range keys { // stable scatter; start[v] ends at the end of bucket v
		v := (unsignedKey(k) >> shift) & mask
		d := start[v]
		keyScratch[d], posScratch[d] = k, pos[i]
		start[v]++
	}
	copy(keys, keyScratch)
	copy(pos, posScratch)
	lo := int32(0)
	for v := 0; v < nb; v++ {
		hi := start[v]
		msdSort(keys[lo:hi], pos[lo:hi], keyScratch[lo:hi], posScratch[lo:hi], 8, p)
		lo = hi
	}
}

// unsignedKey maps an int64 to a uint64 in the same order, for the radix
// passes.
func unsignedKey(k int64) uint64 { return uint64(k) ^ (1 << 63) }

// insertionSort sorts keys by (key, position), moving pos along; for short
// arrays.
func insertionSort(keys []int64, pos []int32) {
	for i := 1; i < len(keys); i++ {
		k, q := keys[i], pos[i]
		j := i
		for j > 0 && (k < keys[j-1] || (k == keys[j-1] && q < pos[j-1])) {
			keys[j], pos[j] = keys[j-1], pos[j-1]
			j--
		}
		keys[j], pos[j] = k, q
	}
}

// slabMentions is the largest document (key plus response mentions, repeats
// included) whose table arrays are carved from one slab.
const slabMentions = 1024

// slab hands out the int32 and int64 arrays of one small document's table
// from two allocations instead of a dozen: for a document of a few mentions
// the allocations, not the counting, were most of the cost of NewTable. A
// nil *slab, used for large documents, allocates each array on its own.
// Every array it returns is zeroed, owned by its caller and capped at its
// length, so an append never runs into a neighbour.
type slab struct {
	i32   []int32
	i64   []int64
	cells []Cell // the array of buildCells when its capacity suffices
}

// newSlab returns a slab sized for a document of n mentions (both sides):
// enough for the arrays of buildSide, NewTable and buildCells when cluster
// labels are small; an array that does not fit is allocated on its own.
func newSlab(n int) *slab {
	return &slab{i32: make([]int32, 8*n+64), i64: make([]int64, 3*n)}
}

// int32s returns a zeroed []int32 of length and capacity n.
func (sl *slab) int32s(n int) []int32 {
	if sl == nil || n > len(sl.i32) {
		return make([]int32, n)
	}
	out := sl.i32[:n:n]
	sl.i32 = sl.i32[n:]
	return out
}

// int64s returns a zeroed []int64 of length and capacity n.
func (sl *slab) int64s(n int) []int64 {
	if sl == nil || n > len(sl.i64) {
		return make([]int64, n)
	}
	out := sl.i64[:n:n]
	sl.i64 = sl.i64[n:]
	return out
}

// docScratch is the memory of one small document's scoring (at most
// slabMentions mentions): its table, the arrays of its slab, and the
// per-metric outcomes of scoreDoc. It comes from docPool and goes back to
// it once the document is scored, so that scoring a small document
// allocates almost nothing; its arrays are sized by such a document (at
// most about 70 KiB).
type docScratch struct {
	t        Table
	opt      Options   // scoreDoc's copy of the caller's options
	r        docResult // scoreDoc's result until it is returned
	sl       slab
	i32      []int32 // the whole arrays that sl is carved from
	i64      []int64
	errs     [64]error // per registry position (a MetricSet has 64 bits)
	selected [64]int
}

var docPool = sync.Pool{New: func() any { return new(docScratch) }}

// slab returns sc's slab for a document of n mentions, its arrays zeroed
// (as newSlab's are), reusing sc's arrays when they are large enough.
func (sc *docScratch) slab(n int) *slab {
	sc.i32 = zeroed(sc.i32, 8*n+64)
	sc.i64 = zeroed(sc.i64, 3*n)
	sc.sl.i32, sc.sl.i64 = sc.i32, sc.i64
	return &sc.sl
}

// release forgets the document (the table's references to the caller's
// arrays and its caches) and puts sc back in docPool.
func (sc *docScratch) release() {
	sc.t, sc.opt, sc.r = Table{}, Options{}, docResult{}
	sc.sl.i32, sc.sl.i64 = nil, nil
	clear(sc.errs[:len(registry)])
	docPool.Put(sc)
}

// zeroed returns buf resized to n zeroed elements, reusing its array when
// it is large enough.
func zeroed[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}
