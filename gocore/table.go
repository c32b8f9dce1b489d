package gocore

import "github.com/pkg/errors"

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
	KeyOf    []int32
	RespOf   []int32
	Types    []MentionType // per mention; the key's type, else the response's
	KeySize  []int32       // size of each key cluster
	RespSize []int32       // size of each response cluster
	Cells    []Cell        // ordered by key cluster, then by first meeting
	NumKey   int           // mentions on the key side
	NumResp  int           // mentions on the response side
	NumBoth  int           // mentions on both sides
	HasTypes bool          // every mention has a known type
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
}

// buildSide validates a side, removes repeated mentions (keeping the first),
// numbers its clusters densely and applies the singleton policy.
func buildSide(s Side, kind SideKind, doc int, opt *Options, dups *[]Duplicate) (*sideIndex, error) {
	n := len(s.Mentions)
	if len(s.Clusters) != n {
		return nil, invalidf("%s has %d mention ids but %d cluster ids", kind, n, len(s.Clusters))
	}
	if s.Types != nil && len(s.Types) != n {
		return nil, invalidf("%s has %d mention ids but %d mention types", kind, n, len(s.Types))
	}
	first := make(map[int64]int32, n) // mention id -> position of first occurrence
	clusterOf := make(map[int64]int32)
	out := &sideIndex{ids: make([]int64, 0, n), clusters: make([]int32, 0, n)}
	if s.Types != nil {
		out.types = make([]MentionType, 0, n)
	}
	for i, m := range s.Mentions {
		c := s.Clusters[i]
		if c < 0 {
			return nil, invalidf("%s mention %d has negative cluster id %d", kind, m, c)
		}
		if s.Types != nil && (s.Types[i] < TypeUnknown || s.Types[i] > TypePronoun) {
			return nil, invalidf("%s mention %d has mention type %d, not one of 0..3", kind, m, s.Types[i])
		}
		if at, seen := first[m]; seen {
			if opt.Duplicates == DuplicatesError {
				return nil, errors.Wrapf(ErrDuplicateMention, "%s mention %d is repeated (clusters %d and %d)",
					kind, m, out.labels[out.clusters[at]], c)
			}
			*dups = append(*dups, Duplicate{Doc: doc, Side: kind, Mention: m,
				FirstCluster: out.labels[out.clusters[at]], Cluster: c})
			continue
		}
		ci, ok := clusterOf[c]
		if !ok {
			ci = int32(len(out.labels))
			clusterOf[c] = ci
			out.labels = append(out.labels, c)
			out.sizes = append(out.sizes, 0)
		}
		first[m] = int32(len(out.ids))
		out.ids = append(out.ids, m)
		out.clusters = append(out.clusters, ci)
		out.sizes[ci]++
		if s.Types != nil {
			out.types = append(out.types, s.Types[i])
		}
	}
	if opt.Singletons == SingletonsExclude {
		out.dropSingletons()
	}
	return out, nil
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
	kept := 0
	for i, c := range s.clusters {
		if renumber[c] < 0 {
			continue
		}
		s.ids[kept] = s.ids[i]
		s.clusters[kept] = renumber[c]
		if s.types != nil {
			s.types[kept] = s.types[i]
		}
		kept++
	}
	s.ids, s.clusters = s.ids[:kept], s.clusters[:kept]
	if s.types != nil {
		s.types = s.types[:kept]
	}
	s.sizes, s.labels = sizes, labels
}

// NewTable prepares one document for scoring. Repeated mentions are appended
// to dups (or refused, per opt.Duplicates); doc is the document's index, used
// in those reports.
func NewTable(d *Document, doc int, opt *Options, dups *[]Duplicate) (*Table, error) {
	key, err := buildSide(d.Key, KeySide, doc, opt, dups)
	if err != nil {
		return nil, err
	}
	resp, err := buildSide(d.Response, ResponseSide, doc, opt, dups)
	if err != nil {
		return nil, err
	}
	nk, nr := len(key.ids), len(resp.ids)
	t := &Table{NumKey: nk, NumResp: nr, KeySize: key.sizes, RespSize: resp.sizes}
	index := make(map[int64]int32, nk)
	t.KeyOf = make([]int32, nk, nk+nr)
	t.RespOf = make([]int32, nk, nk+nr)
	for i, m := range key.ids {
		index[m] = int32(i)
		t.KeyOf[i] = key.clusters[i]
		t.RespOf[i] = -1
	}
	// Response mentions: a twin fills in RespOf, a twinless one is appended.
	respPos := make([]int32, nr) // union index of each response mention
	for i, m := range resp.ids {
		u, ok := index[m]
		if ok {
			t.RespOf[u] = resp.clusters[i]
			t.NumBoth++
		} else {
			u = int32(len(t.KeyOf))
			t.KeyOf = append(t.KeyOf, -1)
			t.RespOf = append(t.RespOf, resp.clusters[i])
		}
		respPos[i] = u
	}
	t.fillTypes(key, resp, respPos)
	t.Cells = buildCells(t.KeyOf[:nk], t.RespOf[:nk], len(key.sizes), len(resp.sizes))
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
// by response cluster: linear time, no map.
func buildCells(keyOf, respOf []int32, nKeyClusters, nRespClusters int) []Cell {
	start := make([]int32, nKeyClusters+1)
	for _, k := range keyOf {
		start[k+1]++
	}
	for k := 0; k < nKeyClusters; k++ {
		start[k+1] += start[k]
	}
	fill := append([]int32(nil), start[:nKeyClusters]...)
	byKey := make([]int32, len(keyOf)) // response cluster of each key mention, grouped by key cluster
	for m, k := range keyOf {
		byKey[fill[k]] = respOf[m]
		fill[k]++
	}
	count := make([]int32, nRespClusters)
	var cells []Cell
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
