package conll

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/corefscore/corefscore/gocore"
)

// discontinuousBit marks the ids of interned discontinuous mentions.
const discontinuousBit = int64(1) << 62

// Pair matches the documents of a key and a response by name and returns one
// gocore.Document per key document, in key order, with the warnings met:
//
//   - a key document missing from the response is scored against an empty
//     response, as the reference scorer does;
//   - failing an exact match, names are compared without the CoNLL-2012
//     decoration ("(NAME); part 000" and "NAME", see canonicalName), when
//     that pairs them unambiguously;
//   - a response document missing from the key is ignored;
//   - a key and a response document of the same name whose token counts are
//     both known and differ is an error naming the document;
//   - a key and a response that both have documents but pair none of them
//     are refused with an error of kind KindParse naming the first few
//     names of each side: they cannot be meant as a key and its response.
//
// Each of the first three is one warning for all the documents it concerns
// (their count and the first few names), not one per document.
//
// Mention ids: a contiguous span packs as Start<<32 | End; a discontinuous
// mention is interned, per document pair, to 1<<62 | k (k counting distinct
// word sets from 0, key first), so equal word sets get equal ids on both
// sides; a CoNLL-U mention with empty nodes is interned by its words and
// empty nodes when both documents are CoNLL-U (an empty node inside a span
// belongs to the mention, as in the CorefUD scorer), by its words alone when
// the other document cannot have empty nodes. Both sides of a CoNLL-U pair
// carry gocore.Side.Shapes (nodes, heads, DEPS of empty heads) for mention
// matching, MOR and the zero score. Cluster ids are the readers' dense entity indices. Types are given
// (Side.Types non-nil) when at least one mention of the side has a known
// type. Time and memory are linear in the number of mentions.
func Pair(key, response []Doc) ([]gocore.Document, []string, error) {
	docs, _, ws, err := pair(key, response, pairing{})
	warnings := make([]string, len(ws))
	for i, w := range ws {
		warnings[i] = w.Msg
	}
	return docs, warnings, err
}

// pairing holds the choices of pair beyond the two sides' documents.
type pairing struct {
	// spanShapes gives documents that are not CoNLL-U shapes too when every
	// mention has a head (CoNLL-2012 with POS tags), for partial and head
	// matching.
	spanShapes bool
	// allowDisjoint scores a key and a response with no document in common
	// (every key document against an empty response) instead of refusing
	// them.
	allowDisjoint bool
}

// namesShown is how many document names a pairing warning or error lists.
const namesShown = 3

// pair is Pair with the warnings as records and, for each key document, the
// index of its response document (-1: none).
func pair(key, response []Doc, how pairing) ([]gocore.Document, []int, []gocore.Warning, error) {
	var warnings []gocore.Warning
	var missing, renamed []int // key documents without a response, paired by canonical name
	byName := make(map[string]int, len(response))
	for i := range response {
		byName[response[i].Name] = i
	}
	var byCanon map[string]int // built on the first miss
	used := make([]bool, len(response))
	docs := make([]gocore.Document, len(key))
	respOf := make([]int, len(key))
	for i := range key {
		k := &key[i]
		var r *Doc
		respOf[i] = -1
		if j, ok := byName[k.Name]; ok {
			r = &response[j]
			used[j] = true
			respOf[i] = j
		} else {
			if byCanon == nil {
				byCanon = canonicalIndex(key, response)
			}
			if j, ok := byCanon[canonicalName(k.Name)]; ok && j >= 0 && !used[j] {
				r = &response[j]
				used[j] = true
				respOf[i] = j
				renamed = append(renamed, i)
			} else {
				missing = append(missing, i)
			}
		}
		if r != nil && k.NumTokens >= 0 && r.NumTokens >= 0 && k.NumTokens != r.NumTokens {
			e := gocore.NewError(gocore.KindParse, "document %q has %d tokens in the key (%s:%d) but %d in the response (%s:%d)",
				k.Name, k.NumTokens, k.Path, k.Line, r.NumTokens, r.Path, r.Line)
			e.Doc, e.Name, e.Side, e.Path, e.Line = i, k.Name, 1, r.Path, r.Line
			return nil, nil, warnings, e
		}
		docs[i].Name = k.Name
	}
	var responseOnly []int
	for j := range response {
		if !used[j] {
			responseOnly = append(responseOnly, j)
		}
	}
	if len(missing) == len(key) && len(key) > 0 && len(response) > 0 && !how.allowDisjoint {
		e := gocore.NewError(gocore.KindParse, "the key and the response have no document name in common "+
			"(key: %s; response: %s): check that the files belong together; the option allow_disjoint scores "+
			"every key document against an empty response", docNames(key, missing), docNames(response, responseOnly))
		e.Path, e.Line = key[0].Path, key[0].Line
		return nil, nil, nil, e
	}
	if len(renamed) > 0 {
		warnings = append(warnings, gocore.Warning{Kind: gocore.WarnNamePairing, Side: -1, Doc: renamed[0], Count: 1,
			Msg: fmt.Sprintf("%d of %d key documents %s paired with a response document by the same name without "+
				"CoNLL-2012 decoration (%s)", len(renamed), len(key), isAre(len(renamed)),
				pairedNames(key, response, respOf, renamed))})
	}
	if len(missing) > 0 {
		warnings = append(warnings, gocore.Warning{Kind: gocore.WarnOther, Side: 0, Doc: missing[0], Count: 1,
			Line: key[missing[0]].Line,
			Msg: fmt.Sprintf("%d of %d key documents %s not in the response (%s): scored against an empty response",
				len(missing), len(key), isAre(len(missing)), docNames(key, missing))})
	}
	if len(responseOnly) > 0 {
		warnings = append(warnings, gocore.Warning{Kind: gocore.WarnResponseOnly, Side: 1, Doc: -1, Count: 1,
			Line: response[responseOnly[0]].Line,
			Msg: fmt.Sprintf("%d of %d response documents %s not in the key (%s): ignored",
				len(responseOnly), len(response), isAre(len(responseOnly)), docNames(response, responseOnly))})
	}
	// The documents' mentions are converted concurrently: each pair on its own.
	forEach(len(key), func(i int) {
		k := &key[i]
		var r *Doc
		if j := respOf[i]; j >= 0 {
			r = &response[j]
		}
		// Empty nodes count in a mention's identity only when both sides
		// are CoNLL-U (know them); otherwise a mention is its words.
		in := interner{wordsOnly: r != nil && !(hasNodes(k) && hasNodes(r)), spanShapes: how.spanShapes}
		if r != nil && len(k.rare) == 0 && len(r.rare) == 0 && len(k.Mentions)+len(r.Mentions) >= sidesApart {
			// Every mention a span: the sides share no interned id, and a
			// large document's two sides are converted at once.
			rin := in
			done := make(chan struct{})
			var fault any // a panic of the response's goroutine, raised again here (see forEach)
			go func() {
				defer close(done)
				defer func() { fault = recover() }()
				docs[i].Response = rin.side(r)
			}()
			docs[i].Key = in.side(k)
			<-done
			if fault != nil {
				panic(fault)
			}
			return
		}
		docs[i].Key = in.side(k)
		if r != nil {
			docs[i].Response = in.side(r)
		}
	})
	return docs, respOf, warnings, nil
}

// sidesApart is the number of mentions (both sides) from which a document
// whose mentions are all spans has its two sides converted concurrently
// (on the 1M-mention document the two take about 30 ms one after the other).
const sidesApart = 1 << 16

// isAre is the verb after a count of n.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// docNames lists the quoted names of the first namesShown documents of
// which (indices into docs), "and n more" after them; "none" when empty.
func docNames(docs []Doc, which []int) string {
	if len(which) == 0 {
		return "none"
	}
	var b strings.Builder
	for n, i := range which[:min(len(which), namesShown)] {
		if n > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", docs[i].Name)
	}
	if len(which) > namesShown {
		fmt.Fprintf(&b, " and %d more", len(which)-namesShown)
	}
	return b.String()
}

// pairedNames lists the first namesShown of the key documents which with the
// response documents they are paired with: "KEY" with "RESPONSE".
func pairedNames(key, response []Doc, respOf, which []int) string {
	var b strings.Builder
	for n, i := range which[:min(len(which), namesShown)] {
		if n > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q with %q", key[i].Name, response[respOf[i]].Name)
	}
	if len(which) > namesShown {
		fmt.Fprintf(&b, " and %d more", len(which)-namesShown)
	}
	return b.String()
}

// forEach calls f(0) ... f(n-1), on up to GOMAXPROCS goroutines; a panic
// in f is raised again on the caller's goroutine (where the C API recovers
// it).
func forEach(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var fault atomic.Pointer[any]
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					fault.CompareAndSwap(nil, &r)
					next.Store(int64(n)) // the others stop at their next document
				}
			}()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
	if r := fault.Load(); r != nil {
		panic(*r)
	}
}

// canonicalName strips the CoNLL-2012 decoration from a document name:
// "(NAME); part 0" (any number of zeros) becomes "NAME", so that a CoNLL-2012
// file can be paired with a CoNLL-U or jsonlines file that names the
// document NAME. Other names are returned unchanged.
func canonicalName(name string) string {
	if !strings.HasPrefix(name, "(") {
		return name
	}
	inner, part, ok := strings.Cut(name[1:], "); part ")
	if !ok || inner == "" || strings.Trim(part, "0") != "" || part == "" {
		return name
	}
	return inner
}

// canonicalIndex maps the canonical names of the response documents that
// no key document names exactly to their index, -1 for a canonical name
// shared by several of them (never paired that way).
func canonicalIndex(key, response []Doc) map[string]int {
	keyNames := make(map[string]bool, len(key))
	for i := range key {
		keyNames[key[i].Name] = true
	}
	m := make(map[string]int, len(response))
	for i := range response {
		if keyNames[response[i].Name] {
			continue
		}
		c := canonicalName(response[i].Name)
		if _, dup := m[c]; dup {
			m[c] = -1
			continue
		}
		m[c] = i
	}
	return m
}

// hasNodes reports whether a document comes with mention nodes and heads
// (CoNLL-U).
func hasNodes(d *Doc) bool { return d.emptyNodes }

// interner gives discontinuous mentions of one document pair their ids.
type interner struct {
	words      map[string]int64 // a discontinuous list of words, by its words
	nodes      map[string]int64 // a mention with empty nodes, by nodeKey
	buf        []byte
	wordsOnly  bool // ignore empty nodes (the other side does not know them)
	spanShapes bool // give shapes to documents that are not CoNLL-U too
}

// id returns the id of m, a mention of d.
func (in *interner) id(d *Doc, m *Mention) int64 {
	r := d.rare.of(m)
	if r == nil {
		return packSpan(m.Start, m.End)
	}
	hasEmpty := len(r.nodes) > 0
	if r.words == nil && (!hasEmpty || (in.wordsOnly && m.End >= m.Start)) {
		return packSpan(m.Start, m.End)
	}
	table := &in.words
	if hasEmpty && !(in.wordsOnly && m.End >= m.Start) {
		table = &in.nodes
		in.buf = nodeKey(in.buf[:0], m, r)
	} else {
		in.buf = in.buf[:0]
		for _, w := range r.words {
			in.buf = binary.LittleEndian.AppendUint32(in.buf, uint32(w))
		}
	}
	if id, ok := (*table)[string(in.buf)]; ok {
		return id
	}
	if *table == nil {
		*table = make(map[string]int64)
	}
	id := discontinuousBit | int64(len(in.words)+len(in.nodes))
	(*table)[string(in.buf)] = id
	return id
}

// nodeKey appends to buf a key of the set of m's words and empty nodes (r
// is m's rare part): equal keys, equal sets. Contiguous words are their
// count and first word (not their list: the key of a span is short whatever
// its length), other words their list; the empty nodes follow.
func nodeKey(buf []byte, m *Mention, r *mentionRare) []byte {
	switch {
	case r.words != nil:
		buf = append(buf, 'l')
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(r.words)))
		for _, w := range r.words {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(w))
		}
	case m.End >= m.Start:
		buf = append(buf, 'c')
		buf = binary.LittleEndian.AppendUint32(buf, uint32(m.End-m.Start)+1)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(m.Start))
	default: // a zero mention: no words
		buf = append(buf, 'z')
	}
	for _, x := range r.nodes {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(x))
	}
	return buf
}

// shapes builds the gocore shapes of a document's mentions, without empty
// nodes when wordsOnly; nil when some mention has no head (jsonlines,
// CoNLL-2012 without POS tags). A shape shares its mention's word list and
// empty nodes (nothing is copied): memory is O(1) per mention.
func shapes(d *Doc, wordsOnly bool) []gocore.Shape {
	for i := range d.Mentions {
		if !d.Mentions[i].HasHead {
			return nil
		}
	}
	out := make([]gocore.Shape, len(d.Mentions))
	for i := range d.Mentions {
		m := &d.Mentions[i]
		sh := gocore.Shape{Start: m.Start, End: m.End, Words: d.Words(m), Head: m.Head, Sentence: d.HeadSentence(m), Deps: d.HeadDeps(m)}
		if !wordsOnly {
			sh.Empty = d.EmptyNodes(m)
		}
		sh.HasHead = sh.Size() > 0 && (!wordsOnly || !m.Head.Empty())
		out[i] = sh
	}
	return out
}

// side converts the mentions of one document.
func (in *interner) side(d *Doc) gocore.Side {
	n := len(d.Mentions)
	s := gocore.Side{Mentions: make([]int64, n), Clusters: make([]int64, n)}
	typed := false
	for i := range d.Mentions {
		m := &d.Mentions[i]
		s.Mentions[i] = in.id(d, m)
		s.Clusters[i] = m.Cluster
		if m.Type != gocore.TypeUnknown {
			typed = true
		}
	}
	if n > 0 && ((d.emptyNodes && !in.wordsOnly) || in.spanShapes) {
		s.Shapes = shapes(d, in.wordsOnly)
	}
	if typed {
		s.Types = make([]gocore.MentionType, n)
		for i := range d.Mentions {
			s.Types[i] = d.Mentions[i].Type
		}
	}
	return s
}

// checkHeads refuses partial and head matching on files whose mentions have
// no heads, with an error of kind KindMissingHeads that names the document
// and the mention and says where heads come from.
func checkHeads(key, resp []Doc, respOf []int, opt gocore.Options) error {
	for i := range key {
		for side, d := range []*Doc{&key[i], nil} {
			if side == 1 {
				if respOf[i] < 0 {
					continue
				}
				d = &resp[respOf[i]]
			}
			for j := range d.Mentions {
				m := &d.Mentions[j]
				if m.HasHead {
					continue
				}
				e := gocore.NewError(gocore.KindMissingHeads,
					"%s matching needs the head of every mention, and this file gives none: heads come from CoNLL-U "+
						"(the Entity annotation) or from the POS column of CoNLL-2012 files; "+
						"jsonlines files and CoNLL-2012 files without POS tags can be scored with match=exact only",
					opt.Match)
				e.Doc, e.Name, e.Side, e.Path = i, key[i].Name, side, d.Path
				e.Line, e.Start, e.End = d.Line, int64(m.Start), int64(m.End)
				if m.Line > 0 {
					e.Line = int(m.Line)
				}
				return e
			}
		}
	}
	return nil
}
