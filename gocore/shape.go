package gocore

import "strings"

// Node is the position of a word or of an empty node (a CoNLL-U "N.k" line)
// in a document, ordered as in the file. NodeOf builds it.
type Node int64

// rootBit marks, in the low 16 bits of a Node, the nodes that sit before the
// first word of a sentence: the sentence's root (k = 0) and its empty nodes
// "0.k".
const rootBit = 0x8000

// NodeOf returns the node "n.k" of a sentence whose first word has the
// document index first (words counted from 0 across the document): n is the
// 1-based word id within the sentence (0 for the root), k the empty-node
// index (0 for the word itself). The result orders as the file does: word w
// of the document is (w+1)<<16, its empty nodes follow it, and the root and
// the "0.k" nodes of a sentence sit between the previous sentence's last
// node and the sentence's first word. k must be below 0x8000.
//
//	NodeOf(first, n, k) = (first+n)<<16 | k            n ≥ 1
//	NodeOf(first, 0, k) = first<<16 | 0x8000 | k
func NodeOf(first int32, n, k int) Node {
	if n >= 1 {
		return Node(int64(first)+int64(n))<<16 | Node(k)
	}
	return Node(first)<<16 | rootBit | Node(k)
}

// WordNode returns the node of word w (0-based across the document).
func WordNode(w int32) Node { return Node(int64(w)+1) << 16 }

// Empty reports whether n is an empty node (or a sentence root, which is
// never a mention's word).
func (n Node) Empty() bool { return n&0xffff != 0 }

// Dep is one enhanced dependency (a DEPS item) of an empty node: its parent
// node and relation.
type Dep struct {
	Parent Node
	Rel    string
}

// Shape is a mention as mention matching, MOR and the zero score see it:
// its nodes, its head, and for a zero mention the enhanced dependencies of
// its head. The zero Shape (no nodes) means "unknown".
type Shape struct {
	// Nodes are the mention's words and empty nodes, sorted and unique. An
	// empty node inside a span belongs to the mention.
	Nodes []Node
	// Head is the mention's head node, one of Nodes; HasHead is false when
	// the input gives no head.
	Head    Node
	HasHead bool
	// Sentence identifies the head's sentence: equal for nodes of one
	// sentence (the readers use the document index of its first word).
	Sentence int32
	// Deps are the DEPS of the head when it is an empty node; nil when the
	// file has none.
	Deps []Dep
}

// Zero reports whether the mention is a zero mention: its head is an empty
// node.
func (s *Shape) Zero() bool { return s.HasHead && s.Head.Empty() }

// less orders mentions as the CorefUD scorer does: by first node, then last
// node, then length.
func (s *Shape) less(o *Shape) bool {
	a, b := s.Nodes, o.Nodes
	if len(a) == 0 || len(b) == 0 {
		return len(a) < len(b)
	}
	if a[0] != b[0] {
		return a[0] < b[0]
	}
	if a[len(a)-1] != b[len(b)-1] {
		return a[len(a)-1] < b[len(b)-1]
	}
	return len(a) < len(b)
}

// nodeOverlap returns |a ∩ b| for sorted node lists. Time O(|a| + |b|).
func nodeOverlap(a, b []Node) int {
	if len(a) == 0 || len(b) == 0 || a[len(a)-1] < b[0] || b[len(b)-1] < a[0] {
		return 0
	}
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// contains reports whether sorted a holds node x.
func contains(a []Node, x Node) bool {
	lo, hi := 0, len(a)
	for lo < hi {
		m := (lo + hi) / 2
		if a[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(a) && a[lo] == x
}

// MatchMode is how key and response mentions are paired.
type MatchMode int8

const (
	// MatchExact pairs mentions with the same id (for files: the same set of
	// words and empty nodes), the CoNLL reference scorer's rule (the
	// default).
	MatchExact MatchMode = 0
	// MatchPartial pairs a response mention with a key mention that contains
	// all its nodes and whose head is among them (CRAC 2022).
	MatchPartial MatchMode = 1
	// MatchHead pairs mentions with the same head node (CRAC 2023-2024).
	MatchHead MatchMode = 2
)

// String returns "exact", "partial" or "head".
func (m MatchMode) String() string {
	switch m {
	case MatchPartial:
		return "partial"
	case MatchHead:
		return "head"
	}
	return "exact"
}

// ParseMatchMode reads "exact", "partial" or "head".
func ParseMatchMode(s string) (MatchMode, error) {
	switch strings.ToLower(s) {
	case "exact", "":
		return MatchExact, nil
	case "partial":
		return MatchPartial, nil
	case "head":
		return MatchHead, nil
	}
	return 0, invalidf("unknown mention matching %q; want exact, partial or head", s)
}

// ZeroMatch is how zero mentions of the key and the response are aligned.
type ZeroMatch int8

const (
	// ZeroLinear aligns zeros like any mention: by position (the id of the
	// empty node), the default.
	ZeroLinear ZeroMatch = 0
	// ZeroDependent first aligns the zeros of each sentence one-to-one,
	// maximising 10·F1(parent and relation) + F1(parent) over their DEPS;
	// zeros left over are then matched like other mentions. The metrics
	// then pair mentions as the CorefUD scorer's lookups do (see
	// scorerLookups), which can pair a key zero with the response zero at
	// its position that the alignment left out.
	ZeroDependent ZeroMatch = 1
	// ZeroDependentStrict is ZeroDependent with every metric following the
	// alignment itself: a zero the alignment leaves out stays unmatched.
	ZeroDependentStrict ZeroMatch = 2
)

// String returns "linear", "dependent" or "dependent-strict".
func (z ZeroMatch) String() string {
	switch z {
	case ZeroDependent:
		return "dependent"
	case ZeroDependentStrict:
		return "dependent-strict"
	}
	return "linear"
}

// aligns reports whether zeros are aligned by their DEPS first.
func (z ZeroMatch) aligns() bool { return z == ZeroDependent || z == ZeroDependentStrict }

// ParseZeroMatch reads "linear", "dependent" or "dependent-strict".
func ParseZeroMatch(s string) (ZeroMatch, error) {
	switch strings.ToLower(s) {
	case "linear", "":
		return ZeroLinear, nil
	case "dependent":
		return ZeroDependent, nil
	case "dependent-strict":
		return ZeroDependentStrict, nil
	}
	return 0, invalidf("unknown zero alignment %q; want linear, dependent or dependent-strict", s)
}

// ApplyPreset sets the options a named preset stands for. "crac" is the
// ranking setting of the CRAC 2023-2024 shared tasks: head matching,
// singletons excluded, dependent zero alignment. "conll" is the CoNLL
// reference scorer's (the defaults): exact matching, singletons kept,
// linear zero alignment. Other fields are left as they are.
func ApplyPreset(opt *Options, name string) error {
	switch strings.ToLower(name) {
	case "crac":
		opt.Match = MatchHead
		opt.Singletons = SingletonsExclude
		opt.ZeroMatch = ZeroDependent
		return nil
	case "conll":
		opt.Match = MatchExact
		opt.Singletons = SingletonsKeep
		opt.ZeroMatch = ZeroLinear
		return nil
	}
	return invalidf("unknown preset %q; want crac or conll", name)
}

// HasShapes reports whether both sides of d carry mention shapes (a side
// without mentions counts as having them): then the mor and zero metrics
// apply, and partial and head matching can run.
func (d *Document) HasShapes() bool {
	return (d.Key.Shapes != nil || len(d.Key.Mentions) == 0) &&
		(d.Response.Shapes != nil || len(d.Response.Mentions) == 0)
}
