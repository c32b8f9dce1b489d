package conll

import (
	"bytes"
	"slices"

	"github.com/corefscore/corefscore/gocore"
)

// tokenClass is what the mention-type rule needs to know about a token's
// part-of-speech tag, as a bit set. The zero value means "no tag".
type tokenClass uint8

const (
	classKnown   tokenClass = 1 << iota // the token has a tag
	classProper                         // proper noun: PTB NNP, NNPS (UPOS PROPN)
	classPronoun                        // personal, possessive or wh- pronoun: PTB PRP, PRP$, WP, WP$
	classStop                           // ends the head region: IN, TO, CC, WDT, WP, WP$, WRB, ",", ":", -LRB-
	classSkip                           // never a head: POS, punctuation
	classNoun                           // common or proper noun: NN, NNS, NNP, NNPS (UPOS NOUN, PROPN)
	classTrail                          // may follow a noun head in a noun phrase: CD, FW, JJ, SYM (UPOS NUM, X, ADJ, SYM)
	classBarrier                        // never crossed in search of a noun head: POS, $
)

// classifyPTB returns the class of a Penn Treebank tag ("_" and "-" and ""
// mean no tag).
func classifyPTB(tag []byte) tokenClass {
	switch string(tag) {
	case "", "_", "-":
		return 0
	case "NNP", "NNPS":
		return classKnown | classProper | classNoun
	case "NN", "NNS":
		return classKnown | classNoun
	case "PRP", "PRP$":
		return classKnown | classPronoun
	case "WP", "WP$":
		return classKnown | classPronoun | classStop
	case "IN", "TO", "CC", "WDT", "WRB", ",", ":", "-LRB-":
		return classKnown | classStop
	case "CD", "FW", "JJ", "SYM":
		return classKnown | classTrail
	case "POS", "$":
		return classKnown | classSkip | classBarrier
	case ".", "``", "''", "-RRB-", "HYPH", "NFP", "#":
		return classKnown | classSkip
	}
	return classKnown
}

// classifyUD returns the class of a CoNLL-U word: its XPOS when it has one
// (read as a Penn Treebank tag), otherwise its UPOS (PROPN proper noun; NOUN
// noun; PRON pronoun; ADP, SCONJ, CCONJ stop; PUNCT, PART skip; NUM, X, ADJ,
// SYM may trail a noun head).
func classifyUD(upos, xpos []byte) tokenClass {
	if c := classifyPTB(xpos); c != 0 {
		return c
	}
	switch string(upos) {
	case "", "_":
		return 0
	case "PROPN":
		return classKnown | classProper | classNoun
	case "NOUN":
		return classKnown | classNoun
	case "PRON":
		return classKnown | classPronoun
	case "ADP", "SCONJ", "CCONJ":
		return classKnown | classStop
	case "PUNCT", "PART":
		return classKnown | classSkip
	case "NUM", "X", "ADJ", "SYM":
		return classKnown | classTrail
	}
	return classKnown
}

// MentionTypeOf returns the type of a mention from the classes of its tokens
// (in order) and whether its span is exactly a named-entity span of the file.
// It is the one rule used by every reader:
//
//	unknown  if some token has no part-of-speech tag
//	pronoun  if the mention is one token tagged PRP, PRP$, WP or WP$
//	         (for CoNLL-U: that XPOS, or UPOS PRON when XPOS is absent)
//	name     if the span is a named-entity span, or its head is a proper noun
//	         (NNP, NNPS; UPOS PROPN when XPOS is absent)
//	nominal  otherwise
//
// For CoNLL-2012, namedEntity means that the span is exactly a bracketed span
// of the named-entity column; for CoNLL-U, which has no such column, that the
// mention's head word (see headWord) has UPOS PROPN, the rule by which the
// shared gum-pos NE column was made from the same GUM trees.
//
// The head is found without a parse: the head region is the mention up to,
// not including, its first token after the first that is tagged IN, TO, CC,
// WDT, WP, WP$, WRB, "," ":" or -LRB- (so "the president of France" has head
// "president", "Bank of America" has head "Bank", "the man who saw Paris"
// has head "man"); the head is the last token of that region that is not a
// possessive ending or punctuation ("John 's" has head "John"), except that
// a noun (NN, NNS, NNP, NNPS) followed up to that token only by numbers,
// foreign words, adjectives, symbols and punctuation (not a possessive
// ending or a currency sign) is the head, as in Collins's (1999)
// noun-phrase rule ("Internet Explorer 6", "August 2011", "STS - 135",
// "Lewis et al.", "May 30th" have heads "Explorer", "August", "STS",
// "Lewis", "May"; "Cara will do it", "England winning 2 - 1", "King
// Alphonso 's deaf and mute son" and "US $ 10 billion" keep "it", "1",
// "deaf" and "billion"). Time is linear in the mention's length.
func mentionTypeOf(classes []tokenClass, namedEntity bool) gocore.MentionType {
	if len(classes) == 0 {
		return gocore.TypeUnknown
	}
	for _, c := range classes {
		if c&classKnown == 0 {
			return gocore.TypeUnknown
		}
	}
	if len(classes) == 1 && classes[0]&classPronoun != 0 {
		return gocore.TypePronoun
	}
	if namedEntity {
		return gocore.TypeName
	}
	h := simpleHead(classes)
	if classes[h]&classProper != 0 {
		return gocore.TypeName
	}
	return gocore.TypeNominal
}

// simpleHead returns the position in the mention of its head by the rule
// of mentionTypeOf (the head region up to the first stop tag, its last
// token that is not a possessive ending or punctuation, a noun's trailing
// numbers and adjectives skipped). classes must be non-empty. It is also
// the head of a CoNLL-2012 mention for partial and head matching.
func simpleHead(classes []tokenClass) int {
	end := len(classes)
	for i := 1; i < len(classes); i++ {
		if classes[i]&classStop != 0 {
			end = i
			break
		}
	}
	h := end - 1
	for h > 0 && classes[h]&classSkip != 0 {
		h--
	}
	n := h
	for n > 0 && classes[n]&(classSkip|classTrail) != 0 && classes[n]&classBarrier == 0 {
		n--
	}
	if classes[n]&classNoun != 0 {
		h = n
	}
	return h
}

// spanHead returns the head word of a contiguous or discontinuous mention by
// simpleHead, and false when some word has no tag (or classes is nil). A
// long contiguous mention is read from idx (when not nil) in O(log n).
func spanHead(m *Mention, words []int32, classes []tokenClass, scratch []tokenClass, idx *spanIndex) (int32, bool, []tokenClass) {
	if classes == nil {
		return 0, false, scratch
	}
	if idx != nil && words == nil && m.Start >= 0 && int(m.End) < len(classes) && m.End-m.Start >= longSpan {
		idx.extend(classes)
		if !idx.tagged(m.Start, m.End) {
			return 0, false, scratch
		}
		return idx.head(classes, m.Start, m.End), true, scratch
	}
	scratch = scratch[:0]
	word := func(i int) int32 { return m.Start + int32(i) }
	n := int(m.End-m.Start) + 1
	if words != nil {
		n = len(words)
		word = func(i int) int32 { return words[i] }
	}
	for i := range n {
		w := word(i)
		if w < 0 || int(w) >= len(classes) || classes[w]&classKnown == 0 {
			return 0, false, scratch
		}
		scratch = append(scratch, classes[w])
	}
	if len(scratch) == 0 {
		return 0, false, scratch
	}
	return word(simpleHead(scratch)), true, scratch
}

// headAttr says which attribute of a CoNLL-U Entity= value gives a
// mention's head, as declared by the file's "# global.Entity = ..." line.
// The zero value means none.
type headAttr struct {
	field   int  // index among the "-"-separated fields of "(ID-a1-a2..." (0 is the id); 0: none
	minspan bool // GUM's minspan (a list of positions), not CorefUD's head (one position)
}

// parseEntityDecl reads the rest of a "# global.Entity = A0-A1-..." line
// (after "global.Entity"): the attribute named "head" (CorefUD's usual
// eid-etype-head-other) or, failing that, "minspan" (GUM's
// GRP-etype-infstat-salience-centering-minspan-link-identity). Anything else
// gives the zero headAttr. Time is linear in the line.
func parseEntityDecl(after []byte) headAttr {
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(after), []byte("="))
	if !ok {
		return headAttr{}
	}
	var a headAttr
	for i, name := range bytes.Split(bytes.TrimSpace(rest), []byte{'-'}) {
		switch {
		case i == 0:
		case string(name) == "head":
			return headAttr{field: i}
		case string(name) == "minspan" && a.field == 0:
			a = headAttr{field: i, minspan: true}
		}
	}
	return a
}

// value returns the head attribute of an opening bracket's content
// "ID-a1-a2..." (nil when there is none or no attribute is declared), a
// sub-slice of content: no copy is made.
func (a headAttr) value(content []byte) []byte {
	if a.field == 0 {
		return nil
	}
	for i := 0; i < a.field; i++ {
		k := bytes.IndexByte(content, '-')
		if k < 0 {
			return nil
		}
		content = content[k+1:]
	}
	if k := bytes.IndexByte(content, '-'); k >= 0 {
		content = content[:k]
	}
	return content
}

// headWord returns the document index of the head word of a CoNLL-U
// mention, or -1 when it has none. deps[w] is the document index of word w's
// dependency head (-1 for a root). The word is chosen by the first rule that
// applies:
//
//	head     (CorefUD, spec "k"): the mention's k-th word (1-based)
//	minspan  (GUM, spec "k1,k2,..."): the first of those words whose
//	         dependency head lies outside the mention, else the first of them
//	none     the mention's first word whose dependency head lies outside it
//
// A spec that is empty, not a list of positive integers, or points past
// the mention's length is ignored (the last rule applies). The attributes
// matter where a mention has several words governed from outside it
// ("February 1700" whose two words both hang off "8"; "technical skills in
// DH" inside a coordination): the annotators' head wins over word order.
// Time is O(n log n) in the mention's length n (O(n) when contiguous; far
// less for a contiguous mention of longSpan words or more, whose last rule
// asks idx when it is not nil) plus linear in the spec; nothing is
// allocated.
func headWord(m *Mention, words []int32, minspan bool, spec []byte, deps []int32, idx *depIndex) int32 {
	n := int(m.End-m.Start) + 1
	if words != nil {
		n = len(words)
	}
	at := func(k int) int32 { // k-th word, 0-based
		if words != nil {
			return words[k]
		}
		return m.Start + int32(k)
	}
	inside := func(w int32) bool {
		if words != nil {
			_, ok := slices.BinarySearch(words, w)
			return ok
		}
		return w >= m.Start && w <= m.End
	}
	outside := func(w int32) bool {
		return int(w) < len(deps) && w >= 0 && !inside(deps[w])
	}
	if first, ok := validPositions(spec, n, !minspan); ok {
		for rest := spec; len(rest) > 0; {
			var k int
			k, rest, _ = nextPosition(rest)
			if outside(at(k)) {
				return at(k)
			}
		}
		return at(first)
	}
	if idx != nil && words == nil && n >= longSpan && m.Start >= 0 && int(m.End) < len(deps) {
		idx.extend(deps)
		return idx.firstOutside(deps, m.Start, m.End)
	}
	for k := range n {
		if outside(at(k)) {
			return at(k)
		}
	}
	return -1
}

// validPositions reports whether spec is a comma-separated list of 1-based
// positions in a mention of n words (exactly one position when one is set),
// and returns the first of them, 0-based. An empty spec is not valid.
func validPositions(spec []byte, n int, one bool) (first int, ok bool) {
	if len(spec) == 0 {
		return 0, false
	}
	count := 0
	for rest := spec; len(rest) > 0 || count == 0; count++ {
		var k int
		k, rest, ok = nextPosition(rest)
		if !ok || k >= n {
			return 0, false
		}
		if count == 0 {
			first = k
		}
	}
	if one && count != 1 {
		return 0, false
	}
	return first, true
}

// nextPosition parses the 1-based position at the start of a comma-separated
// list and returns it 0-based with the rest of the list after its comma; ok
// is false for an empty, non-numeric, zero or overlong item, or a trailing
// comma.
func nextPosition(spec []byte) (k int, rest []byte, ok bool) {
	item := spec
	if c := bytes.IndexByte(spec, ','); c >= 0 {
		item, rest = spec[:c], spec[c+1:]
		if len(rest) == 0 {
			return 0, nil, false
		}
	}
	if len(item) == 0 || len(item) > 9 || digitsAt(item, 0) != len(item) {
		return 0, nil, false
	}
	for _, b := range item {
		k = 10*k + int(b-'0')
	}
	if k < 1 {
		return 0, nil, false
	}
	return k - 1, rest, true
}

// spanType returns the type of mention m given the document's token classes
// (nil when the file has no tags) and whether the mention is a named entity
// (an NE span of a CoNLL-2012 file, a PROPN-headed mention of a CoNLL-U
// file). scratch is reused for discontinuous mentions and returned. A long
// contiguous mention is read from idx (when not nil) in O(log n).
func spanType(m *Mention, words []int32, classes []tokenClass, isNE bool, scratch []tokenClass, idx *spanIndex) (gocore.MentionType, []tokenClass) {
	if classes == nil {
		return gocore.TypeUnknown, scratch
	}
	var cs []tokenClass
	if words == nil {
		if int(m.End) >= len(classes) || m.Start < 0 {
			return gocore.TypeUnknown, scratch
		}
		if idx != nil && m.End-m.Start >= longSpan {
			idx.extend(classes)
			return idx.typeOf(classes, m.Start, m.End, isNE), scratch
		}
		cs = classes[m.Start : m.End+1]
	} else {
		scratch = scratch[:0]
		for _, w := range words {
			if int(w) >= len(classes) || w < 0 {
				return gocore.TypeUnknown, scratch
			}
			scratch = append(scratch, classes[w])
		}
		cs = scratch
	}
	return mentionTypeOf(cs, isNE), scratch
}

// packSpan packs a contiguous span into a mention id: start<<32 | end.
func packSpan(start, end int32) int64 { return int64(start)<<32 | int64(end) }

// longSpan is the length from which a contiguous mention's type and head
// are read from a spanIndex instead of by a walk over its tokens: nested
// mentions (n mentions over the same last words) would otherwise cost time
// quadratic in the file.
const longSpan = 32

// spanIndex answers mentionTypeOf and simpleHead for a contiguous span of a
// document's tokens in O(log n) time, from running counts over the tokens'
// classes: 16 bytes per token, built only when a long mention is met
// (extend catches up with the tokens read since).
type spanIndex struct {
	untagged []int32 // untagged[w] = number of tokens before w without a tag
	stops    []int32 // the tokens with classStop, increasing
	headable []int32 // per token, the last token at or before it that is not classSkip (-1: none)
	nounStop []int32 // per token, the last token at or before it where the noun search stops (-1: none)
}

// reset empties x for a new document, keeping its buffers.
func (x *spanIndex) reset() {
	x.untagged, x.stops, x.headable, x.nounStop = x.untagged[:0], x.stops[:0], x.headable[:0], x.nounStop[:0]
}

// extend adds the tokens of classes that x does not cover yet.
func (x *spanIndex) extend(classes []tokenClass) {
	if len(x.untagged) == 0 {
		x.untagged = append(x.untagged, 0)
	}
	for w := int32(len(x.headable)); int(w) < len(classes); w++ {
		c := classes[w]
		u := x.untagged[w]
		if c&classKnown == 0 {
			u++
		}
		x.untagged = append(x.untagged, u)
		if c&classStop != 0 {
			x.stops = append(x.stops, w)
		}
		h, n := int32(-1), int32(-1)
		if w > 0 {
			h, n = x.headable[w-1], x.nounStop[w-1]
		}
		if c&classSkip == 0 {
			h = w
		}
		if c&(classSkip|classTrail) == 0 || c&classBarrier != 0 {
			n = w
		}
		x.headable = append(x.headable, h)
		x.nounStop = append(x.nounStop, n)
	}
}

// tagged reports whether every token of start..end has a tag.
func (x *spanIndex) tagged(start, end int32) bool { return x.untagged[end+1] == x.untagged[start] }

// head returns simpleHead of the tokens start..end, as a token index.
func (x *spanIndex) head(classes []tokenClass, start, end int32) int32 {
	last := end // the head region is start..last: up to the first stop after start
	if i, _ := slices.BinarySearch(x.stops, start+1); i < len(x.stops) && x.stops[i] <= end {
		last = x.stops[i] - 1
	}
	h := max(x.headable[last], start)
	if n := max(x.nounStop[h], start); classes[n]&classNoun != 0 {
		h = n
	}
	return h
}

// typeOf returns mentionTypeOf of the tokens start..end.
func (x *spanIndex) typeOf(classes []tokenClass, start, end int32, namedEntity bool) gocore.MentionType {
	switch {
	case !x.tagged(start, end):
		return gocore.TypeUnknown
	case start == end && classes[start]&classPronoun != 0:
		return gocore.TypePronoun
	case namedEntity:
		return gocore.TypeName
	case classes[x.head(classes, start, end)]&classProper != 0:
		return gocore.TypeName
	}
	return gocore.TypeNominal
}

// depBlock and depSuper are the sizes of the blocks of a depIndex: the
// tokens of a block, and the blocks of a super-block.
const (
	depBlock = 64
	depSuper = 64
)

// depIndex finds, in a long contiguous mention, its first word whose
// dependency head lies outside it (headWord's last rule) without a walk
// over every word: it keeps the least and the greatest head of each block
// of 64 words and of each super-block of 64 blocks, so that a query skips
// every block whose heads all lie inside the mention. Time O(depBlock +
// depSuper + n / (depBlock·depSuper)) per query for a mention of n words;
// built on the first long mention and extended as words come.
type depIndex struct {
	n                  int // words covered
	blockMin, blockMax []int32
	superMin, superMax []int32
}

// reset empties x for a new document, keeping its buffers.
func (x *depIndex) reset() {
	x.n = 0
	x.blockMin, x.blockMax = x.blockMin[:0], x.blockMax[:0]
	x.superMin, x.superMax = x.superMin[:0], x.superMax[:0]
}

// extend adds the words of deps that x does not cover yet.
func (x *depIndex) extend(deps []int32) {
	for ; x.n < len(deps); x.n++ {
		h := deps[x.n]
		if b := x.n / depBlock; b == len(x.blockMin) {
			x.blockMin, x.blockMax = append(x.blockMin, h), append(x.blockMax, h)
		} else {
			x.blockMin[b], x.blockMax[b] = min(x.blockMin[b], h), max(x.blockMax[b], h)
		}
		if s := x.n / (depBlock * depSuper); s == len(x.superMin) {
			x.superMin, x.superMax = append(x.superMin, h), append(x.superMax, h)
		} else {
			x.superMin[s], x.superMax[s] = min(x.superMin[s], h), max(x.superMax[s], h)
		}
	}
}

// firstOutside returns the first word w of start..end whose head deps[w]
// lies outside start..end (a root's -1 does), or -1. deps must be covered
// (extend) and end < len(deps).
func (x *depIndex) firstOutside(deps []int32, start, end int32) int32 {
	out := func(h int32) bool { return h < start || h > end }
	for w := start; w <= end; {
		if w%(depBlock*depSuper) == 0 && w+depBlock*depSuper-1 <= end {
			if s := w / (depBlock * depSuper); !out(x.superMin[s]) && !out(x.superMax[s]) {
				w += depBlock * depSuper
				continue
			}
		}
		if w%depBlock == 0 && w+depBlock-1 <= end {
			if b := w / depBlock; !out(x.blockMin[b]) && !out(x.blockMax[b]) {
				w += depBlock
				continue
			}
		}
		if out(deps[w]) {
			return w
		}
		w++
	}
	return -1
}
