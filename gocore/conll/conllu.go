package conll

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"io"
	"math/bits"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/corefscore/corefscore/gocore"
)

// ReadCoNLLU reads a CorefUD 1.x CoNLL-U file:
//
//   - "# newdoc id = NAME" starts a document ("# newdoc" without an id
//     starts one named PATH#N); a file without any "# newdoc" before its
//     first word holds one document named after the file (its base name
//     without extension);
//   - word lines have ten tab-separated columns; words are numbered from 0
//     across the document; multiword-token ranges ("15-16") are not words
//     and their MISC is ignored; empty nodes ("26.1", "0.1") are not words
//     either, but carry mentions: a mention holds every word and empty node
//     from the node it opens on to the node it closes on (so an empty node
//     inside a span belongs to it), and a mention on empty nodes alone is a
//     zero mention; the DEPS of empty nodes are kept for the dependent zero
//     alignment (gocore.ZeroDependent);
//   - coreference is the MISC attribute Entity=: "(ID-attrs..." opens a
//     mention of entity ID on this node, "ID)" closes the most recently
//     opened mention of ID, "(ID-attrs...)" is a one-node mention; the id
//     is up to the first "-"; of the attributes only the head one is read,
//     when a "# global.Entity = ..." line declares "head" (CorefUD) or
//     "minspan" (GUM) among them (see headWord). A discontinuous mention is written
//     in parts "(ID[k/n]-..." ... "ID[k/n])": the mention is the set of the
//     nodes of its n parts, complete when part n closes.
//
// Mentions are emitted grouped by entity, entities in order of first
// opening, mentions of an entity in closing order. UPOS (column 4), XPOS
// (column 5), HEAD (column 7) and the head attribute give the mention types
// (see mentionTypeOf and headWord; a zero mention is a pronoun). Each
// mention's head node (Mention.Head), for partial and head matching, is the
// CorefUD head attribute's node (its 1-based position among the mention's
// words and empty nodes, as the CorefUD scorer reads it; of a discontinuous
// mention, the last part's attribute), else headWord's word (GUM's minspan,
// else the word whose dependency head lies outside the mention), else the
// mention's first node.
//
// Errors (*ParseError): a closing bracket with no opening, a mention still
// open at the end of its document, a malformed Entity value, a word line
// without ten columns or with a non-numeric id, a repeated document name, a
// NUL byte, invalid UTF-8, an empty file.
func ReadCoNLLU(r io.Reader, path string) ([]Doc, error) {
	data, err := readAll(r, path)
	if err != nil {
		return nil, err
	}
	return parseCoNLLU(data, path, nil)
}

// udOpen is an open mention (or part of a discontinuous one).
type udOpen struct {
	start      int32 // first word (the next word when opened on an empty node)
	startEmpty int   // first empty node that can belong to it (index in conlluDoc.empties)
	line       int
	head       []byte // value of the declared head attribute (nil if none), within the file's bytes
}

// emptyNode is an empty node ("N.k" line) of the document being read.
type emptyNode struct {
	node gocore.Node
	deps []gocore.Dep
}

// udStackEntry is an entry of the stacks of open mentions: an udOpen
// without pointers (its head attribute as a place in conlluDoc.arena, which
// keeps its content when it grows: headLen -1 for none), so that the array
// holding a stack entry per open mention is neither scanned by the
// collector nor written through its barriers; and the entry below it in its
// entity's stack (index+1; 0: none), or the next free entry.
type udStackEntry struct {
	start, startEmpty, line int32
	headLen, below          int32
	headAt                  int
}

// udCursor is the node an Entity= value is read on: a word (empty < 0) or an
// empty node.
type udCursor struct {
	word  int32 // the word; for an empty node, the number of words before it
	empty int   // index in conlluDoc.empties, -1 for a word
}

// udPartial is a discontinuous mention whose parts are being read.
type udPartial struct {
	entity int32
	total  int
	parts  int // parts closed so far
	words  []int32
	empty  []int // indices in conlluDoc.empties
	line   int
	head   []byte // head attribute of part 1
	last   []byte // head attribute of the last part read (CorefUD's head index applies to the whole mention)
}

// conlluDoc is the state of the document being read.
type conlluDoc struct {
	name  string
	line  int
	words int32
	index map[string]int32
	ids   []string
	// The stacks of open mentions of plain ids, one per entity, share one
	// array (no slice per entity: a document of many entities allocates
	// nothing per entity or mention once it has grown): tops[e] is entity
	// e's top entry (index+1; 0: none); freed entries form a list from free.
	tops     []int32
	stack    []udStackEntry
	free     int32
	openPart map[string][]udOpen // id of a part ("ID[k/n]") -> stack
	nOpen    int
	partials []*udPartial
	ments    []Mention    // in closing order, Cluster the entity; grouped by entity in finish
	rare     rareTable    // the rare parts of ments (goes into the Doc: new for each document)
	attr     headAttr     // which Entity attribute gives the head (from "# global.Entity")
	classes  []tokenClass // per word; a word without tags has class 0, so a mention with one is untyped
	scratch  []tokenClass
	spans    spanIndex // the type of long mentions (see longSpan), built as they come
	depIdx   depIndex  // the dependency head of long mentions, built as they come
	heads    []int32   // per word, document index of its dependency head, -1 for the root or none
	propn    []bool    // per word, UPOS is PROPN
	sent     []int32   // per word, document index of the first word of its sentence
	empties  []emptyNode
	// emptyNodes are the nodes of empties, in file order (sorted): a
	// contiguous mention's empty nodes are a run of them, which its Mention
	// shares (so the array is new for each document, never reused).
	emptyNodes []gocore.Node
	nodeBuf    []gocore.Node // scratch for head positions
	arena      []byte        // copies of the head attributes of the document's mentions (keep)
}

func newConlluDoc(name string, line int) *conlluDoc {
	return &conlluDoc{name: name, line: line, index: make(map[string]int32)}
}

// reset makes d the state of a new document named name, starting on line,
// keeping the capacity of its per-word, per-entity and per-mention buffers:
// the documents of a file are read one after the other, and none of these
// buffers goes into a Doc (finish copies the mentions; ids are new).
func (d *conlluDoc) reset(name string, line int) {
	clear(d.index)
	d.spans.reset()
	d.depIdx.reset()
	*d = conlluDoc{
		name: name, line: line, index: d.index, tops: d.tops[:0], stack: d.stack[:0], partials: d.partials[:0], ments: d.ments[:0],
		classes: d.classes[:0], scratch: d.scratch[:0], heads: d.heads[:0], propn: d.propn[:0],
		empties: d.empties[:0], nodeBuf: d.nodeBuf[:0], arena: d.arena[:0], spans: d.spans, depIdx: d.depIdx,
	}
}

// keep returns a copy of b that lives as long as the document's state (b
// lies in a run of lines that may be gone when the mention closes): b is
// appended to d.arena, which only grows within a document, so an earlier
// copy stays valid when it moves. A nil or empty b is returned as it is.
func (d *conlluDoc) keep(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	start := len(d.arena)
	d.arena = append(d.arena, b...)
	return d.arena[start:len(d.arena):len(d.arena)]
}

// entity returns the index of entity id, numbering a new one (the lookup
// does not copy id; only a new entity's id is copied).
func (d *conlluDoc) entity(id []byte) int32 {
	if e, ok := d.index[string(id)]; ok {
		return e
	}
	e := int32(len(d.ids))
	s := string(id)
	d.index[s] = e
	d.ids = append(d.ids, s)
	d.tops = append(d.tops, 0)
	return e
}

// pushOpen opens mention o of entity e, in a free entry of d.stack when
// there is one.
func (d *conlluDoc) pushOpen(e int32, o udOpen) {
	entry := udStackEntry{start: o.start, startEmpty: int32(o.startEmpty), line: int32(o.line), headLen: -1, below: d.tops[e]}
	if o.head != nil { // o.head is the last copy keep made (or empty)
		entry.headAt, entry.headLen = len(d.arena)-len(o.head), int32(len(o.head))
	}
	if f := d.free; f > 0 {
		d.free = d.stack[f-1].below
		d.stack[f-1] = entry
		d.tops[e] = f
	} else {
		d.stack = append(d.stack, entry)
		d.tops[e] = int32(len(d.stack))
	}
	d.nOpen++
}

// popOpen closes the mention of entity e opened last and returns it; ok is
// false when e has none open.
func (d *conlluDoc) popOpen(e int32) (o udOpen, ok bool) {
	top := d.tops[e]
	if top == 0 {
		return udOpen{}, false
	}
	entry := &d.stack[top-1]
	o = udOpen{start: entry.start, startEmpty: int(entry.startEmpty), line: int(entry.line)}
	if entry.headLen >= 0 {
		o.head = d.arena[entry.headAt : entry.headAt+int(entry.headLen) : entry.headAt+int(entry.headLen)]
	}
	d.tops[e] = entry.below
	*entry = udStackEntry{below: d.free} // the entry joins the free list
	d.free = top
	d.nOpen--
	return o, true
}

func parseCoNLLU(data []byte, path string, stop func() bool) ([]Doc, error) {
	if err := checkEmpty(data, path); err != nil {
		return nil, err
	}
	p := newUDParser(path)
	if err := feedPolling(p, data, stop); err != nil {
		return nil, err
	}
	return p.end()
}

// readCoNLLUStream parses a CoNLL-U file as Parse parses it whole (a byte
// order mark, CR line endings), but reads it through a buffer of about
// readChunk bytes, parsing every run of complete lines as it comes: the
// reader never holds the whole file (34 MB for GUM's key and response, which
// the process would otherwise first touch and the heap hold until a
// collection). A NUL byte is refused as soon as it is read (the lines
// before it parsed first, as the CoNLL-2012 stream does), so that a device
// such as /dev/zero is refused rather than read without end.
func readCoNLLUStream(r io.Reader, path string) ([]Doc, error) {
	return readCoNLLUChunked(r, path, readChunk)
}

// readCoNLLUChunked is readCoNLLUStream with an initial buffer of size bytes
// (at least 1).
func readCoNLLUChunked(r io.Reader, path string, size int) ([]Doc, error) {
	return readDocsChunked(r, path, size, newUDParser(path), "CoNLL-U")
}

// udParser is the state of a CoNLL-U read between runs of whole lines
// (readCoNLLUStream feeds a file through a buffer; parseCoNLLU feeds it
// whole). No byte of a run is kept after it: the head attributes of open
// mentions are copied (conlluDoc.keep).
type udParser struct {
	path    string
	docs    []Doc
	seen    map[string]int // document name -> line where it starts
	d       *conlluDoc     // the document being read, nil before the first
	newdocs int
	attr    headAttr // from the last "# global.Entity" line
	num     int      // lines read so far
}

func newUDParser(path string) *udParser {
	return &udParser{path: path, seen: make(map[string]int)}
}

// lineNum returns the number of lines read so far.
func (p *udParser) lineNum() int { return p.num }

// docName returns the name of the document being read ("" before the first).
func (p *udParser) docName() string {
	if p.d == nil {
		return ""
	}
	return p.d.name
}

// start ends the document being read, if any, and starts document name on
// line.
func (p *udParser) start(name string, line int) error {
	if p.d != nil {
		doc, err := p.d.finish(p.path, line)
		if err != nil {
			return err
		}
		p.docs = append(p.docs, doc)
	}
	if first, dup := p.seen[name]; dup {
		return parseErr(p.path, line, name, "document name repeated (first at line %d)", first)
	}
	p.seen[name] = line
	if p.d == nil {
		p.d = newConlluDoc(name, line)
	} else {
		p.d.reset(name, line)
	}
	p.d.attr = p.attr
	return nil
}

// feed parses data, which holds whole lines (only the last run of a file may
// end without a newline). Documents may span runs.
func (p *udParser) feed(data []byte) error {
	path := p.path
	l := newLines(data)
	l.num = p.num
	defer func() { p.num = l.num }()
	// The columns of a line live on feed's stack, not in p (the heap): a
	// store into them then needs no write barrier.
	var colArray [10][]byte
	cols := &colArray
	for {
		line, problem, ok := l.next()
		if !ok {
			return nil
		}
		name := p.docName()
		if problem != "" {
			return parseErr(path, l.num, name, "%s", problem)
		}
		line = trimCR(line)
		if isBlank(line) {
			continue
		}
		if line[0] == '#' {
			rest := bytes.TrimLeft(line[1:], " \t")
			if after, ok := bytes.CutPrefix(rest, []byte("global.Entity")); ok {
				p.attr = parseEntityDecl(after)
				if p.d != nil {
					p.d.attr = p.attr
				}
				continue
			}
			if after, ok := bytes.CutPrefix(rest, []byte("newdoc")); ok {
				p.newdocs++
				n := newdocName(after)
				if n == "" {
					n = path + "#" + strconv.Itoa(p.newdocs)
				}
				if err := p.start(n, l.num); err != nil {
					return err
				}
			}
			continue
		}
		if p.d == nil {
			if err := p.start(docNameFromPath(path), l.num); err != nil {
				return err
			}
			name = p.d.name
		}
		d := p.d
		if n := splitColumns(line, cols); n != 10 {
			return parseErr(path, l.num, name, "word line has %d tab-separated columns, want 10", n)
		}
		id := cols[0]
		dash, dot := false, false
		for _, c := range id {
			dash, dot = dash || c == '-', dot || c == '.'
		}
		if dash {
			// A multiword token range "N-M" is not a word.
			if err := checkRange(id, path, l.num, name); err != nil {
				return err
			}
			continue
		}
		if dot {
			if err := d.emptyLine(cols, path, l.num); err != nil {
				return err
			}
			continue
		}
		if len(id) == 0 || digitsAt(id, 0) != len(id) {
			return parseErr(path, l.num, name, "word id %q is not a number", id)
		}
		if err := d.word(cols, path, l.num); err != nil {
			return err
		}
	}
}

// checkRange checks that a multiword token line's id is a range "N-M" with
// N < M: anything else with a dash (e.g. "-3") is a malformed word id, not a
// line to skip. (Entity= on a range line is ignored, as before: a range is
// not a word.)
func checkRange(id []byte, path string, num int, name string) error {
	dash := bytes.IndexByte(id, '-')
	n, okN := smallInt(id[:dash])
	m, okM := smallInt(id[dash+1:])
	if !okN || !okM || n < 1 || m <= n {
		return parseErr(path, num, name, "word id %q is not a number, a multiword range N-M or an empty node N.k", id)
	}
	return nil
}

// end checks the state at the end of the file and returns the documents.
func (p *udParser) end() ([]Doc, error) {
	if p.d == nil {
		return nil, parseErr(p.path, p.num, "", "no word lines: not a CoNLL-U file with content")
	}
	doc, err := p.d.finish(p.path, p.num)
	if err != nil {
		return nil, err
	}
	return append(p.docs, doc), nil
}

// splitColumns sets cols to the first ten tab-separated columns of line and
// returns how many columns line has; nothing is copied or allocated. The
// tabs are found eight bytes at a time (tabBits): the columns are short, and
// a search call per column costs more than the column; the tenth column's
// tabs, if any, are counted by one call.
func splitColumns(line []byte, cols *[10][]byte) int {
	n, start, i := 0, 0, 0
	for ; i+8 <= len(line); i += 8 {
		for m := tabBits(binary.LittleEndian.Uint64(line[i:])); m != 0; m &= m - 1 {
			if n < 9 {
				j := i + bits.TrailingZeros64(m)>>3
				cols[n] = line[start:j]
				start = j + 1
			}
			n++
		}
		if n >= 9 { // the tenth column (MISC, often the longest) only needs to hold no tab
			cols[9] = line[start:]
			return 10 + bytes.Count(line[start:], []byte{'\t'})
		}
	}
	for ; i < len(line); i++ {
		if line[i] == '\t' {
			if n < 9 {
				cols[n] = line[start:i]
				start = i + 1
			}
			n++
		}
	}
	cols[min(n, 9)] = line[start:]
	return n + 1
}

// tabBits returns x (eight bytes) with the high bit of each tab byte set and
// every other bit clear. It is exact: no carry crosses a byte.
func tabBits(x uint64) uint64 {
	const tabs, low7 = 0x0909090909090909, 0x7f7f7f7f7f7f7f7f
	y := x ^ tabs // a tab becomes 0
	return ^((y&low7 + low7) | y | low7)
}

// entityValues calls f on the value of each Entity= item of a MISC column
// (items are separated by "|"), in order; it stops at f's first error.
func entityValues(misc []byte, f func(v []byte) error) error {
	for at := 0; at+len(entityKey) <= len(misc); {
		i := bytes.Index(misc[at:], entityKey)
		if i < 0 {
			return nil
		}
		i += at
		at = i + len(entityKey)
		if i > 0 && misc[i-1] != '|' {
			continue // inside another item ("XEntity=...")
		}
		v := misc[at:]
		if j := bytes.IndexByte(v, '|'); j >= 0 {
			v = v[:j]
		}
		if err := f(v); err != nil {
			return err
		}
		at += len(v)
	}
	return nil
}

// newdocName returns NAME from the rest of "# newdoc id = NAME" ("" if none).
func newdocName(after []byte) string {
	after = bytes.TrimSpace(after)
	rest, ok := bytes.CutPrefix(after, []byte("id"))
	if !ok {
		return ""
	}
	rest = bytes.TrimSpace(rest)
	rest, ok = bytes.CutPrefix(rest, []byte("="))
	if !ok {
		return ""
	}
	return string(bytes.TrimSpace(rest))
}

// docNameFromPath names a document after its file: base name, no extension.
func docNameFromPath(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

var entityKey = []byte("Entity=")

// word reads one word line.
func (d *conlluDoc) word(cols *[10][]byte, path string, num int) error {
	w := d.words
	d.words++
	d.classes = append(roomFor1(d.classes), classifyUD(cols[3], cols[4]))
	head := int32(-1)
	id, _ := smallInt(cols[0]) // checked to be digits by the caller
	first := w - int32(id) + 1
	d.sent = append(roomFor1(d.sent), first)
	if h, ok := smallInt(cols[6]); ok && h > 0 {
		head = first + int32(h) - 1
	}
	d.heads = append(roomFor1(d.heads), head)
	d.propn = append(roomFor1(d.propn), string(cols[3]) == "PROPN")
	return entityValues(cols[9], func(v []byte) error {
		return d.entityValue(v, udCursor{word: w, empty: -1}, path, num)
	})
}

// emptyLine reads an empty node line "N.k": its position, its DEPS and its
// Entity= value.
func (d *conlluDoc) emptyLine(cols *[10][]byte, path string, num int) error {
	id := cols[0]
	dot := bytes.IndexByte(id, '.')
	n, okN := smallInt(id[:dot])
	k, okK := smallInt(id[dot+1:])
	if !okN || !okK || k < 1 || k >= 0x8000 {
		return parseErr(path, num, d.name, "empty node id %q is not N.k", id)
	}
	first := d.words // a "0.k" node comes before its sentence's first word
	if n >= 1 {
		if len(d.sent) == 0 {
			return parseErr(path, num, d.name, "empty node %q before any word", id)
		}
		first = d.sent[len(d.sent)-1]
	}
	e := emptyNode{node: gocore.NodeOf(first, n, k)}
	if deps := cols[8]; len(deps) > 0 && string(deps) != "_" {
		for item := range bytes.SplitSeq(deps, []byte{'|'}) {
			h, rel, ok := bytes.Cut(item, []byte{':'})
			if !ok {
				return parseErr(path, num, d.name, "DEPS item %q is not HEAD:RELATION", item)
			}
			hn, hk := h, []byte(nil)
			if i := bytes.IndexByte(h, '.'); i >= 0 {
				hn, hk = h[:i], h[i+1:]
			}
			pn, ok1 := smallInt(hn)
			pk, ok2 := 0, true
			if hk != nil {
				pk, ok2 = smallInt(hk)
			}
			if !ok1 || !ok2 || pk >= 0x8000 {
				return parseErr(path, num, d.name, "DEPS item %q has a malformed head", item)
			}
			e.deps = append(e.deps, gocore.Dep{Parent: gocore.NodeOf(first, pn, pk), Rel: string(rel)})
		}
	}
	d.empties = append(d.empties, e)
	d.emptyNodes = append(d.emptyNodes, e.node)
	return entityValues(cols[9], func(v []byte) error {
		return d.entityValue(v, udCursor{word: d.words, empty: len(d.empties) - 1}, path, num)
	})
}

// smallInt parses a non-negative decimal of at most 9 digits.
func smallInt(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 || digitsAt(b, 0) != len(b) {
		return 0, false
	}
	n := 0
	for _, c := range b {
		n = 10*n + int(c-'0')
	}
	return n, true
}

// entityValue reads the value of Entity= on the node at c.
func (d *conlluDoc) entityValue(v []byte, c udCursor, path string, num int) error {
	// A mention opened here starts at this node; one closed here ends at it.
	o := udOpen{start: c.word, startEmpty: len(d.empties), line: num}
	endWord, endEmpty := c.word, len(d.empties)
	if c.empty >= 0 {
		o.startEmpty = c.empty
		endWord, endEmpty = c.word-1, c.empty+1
	}
	i := 0
	for i < len(v) {
		switch v[i] {
		case '(':
			j := i + 1
			for j < len(v) && v[j] != '(' && v[j] != ')' {
				j++
			}
			content := v[i+1 : j]
			id := content
			if k := bytes.IndexByte(content, '-'); k >= 0 {
				id = content[:k]
			}
			if len(id) == 0 {
				return parseErr(path, num, d.name, "Entity=%s: opening bracket without an entity id", v)
			}
			oo := o
			oo.head = d.keep(d.attr.value(content))
			switch {
			case j < len(v) && v[j] == ')': // a one-node mention
				if err := d.closeMention(id, -1, oo, endWord, endEmpty, path, num, v); err != nil {
					return err
				}
				j++
			case bytes.IndexByte(id, '[') < 0:
				d.pushOpen(d.entity(id), oo) // entities are numbered in order of first opening
			default:
				base, _, _, err := splitPart(id)
				if err != nil {
					return parseErr(path, num, d.name, "Entity=%s: %v", v, err)
				}
				d.entity(base)
				if d.openPart == nil {
					d.openPart = make(map[string][]udOpen)
				}
				sid := string(id)
				d.openPart[sid] = append(d.openPart[sid], oo)
				d.nOpen++
			}
			i = j
		case ')':
			return parseErr(path, num, d.name, "Entity=%s: closing bracket without an entity id", v)
		default:
			j := bytes.IndexByte(v[i:], ')')
			if j < 0 {
				return parseErr(path, num, d.name, "Entity=%s: %q is neither an opening nor a closing bracket", v, v[i:])
			}
			id := v[i : i+j]
			if bytes.IndexByte(id, '(') >= 0 {
				return parseErr(path, num, d.name, "Entity=%s: malformed item %q", v, id)
			}
			var o udOpen
			found := false
			e, plain := int32(-1), bytes.IndexByte(id, '[') < 0
			if plain {
				if x, ok := d.index[string(id)]; ok {
					e = x
					o, found = d.popOpen(x)
				}
			} else if st := d.openPart[string(id)]; len(st) > 0 {
				o, found = st[len(st)-1], true
				d.openPart[string(id)] = st[:len(st)-1]
				d.nOpen--
			}
			if !found {
				return parseErr(path, num, d.name, "closing bracket %s) has no opening bracket", id)
			}
			if err := d.closeMention(id, e, o, endWord, endEmpty, path, num, v); err != nil {
				return err
			}
			i += j + 1
		}
	}
	return nil
}

// splitPart splits "ID[k/n]" into ("ID", k, n); a plain id gives n = 0.
func splitPart(id []byte) (base []byte, k, n int, err error) {
	b := bytes.IndexByte(id, '[')
	if b < 0 {
		return id, 0, 0, nil
	}
	if id[len(id)-1] != ']' || b == 0 {
		return nil, 0, 0, errMalformedPart(id)
	}
	ks, ns, ok := bytes.Cut(id[b+1:len(id)-1], []byte{'/'})
	if !ok {
		return nil, 0, 0, errMalformedPart(id)
	}
	k, err1 := strconv.Atoi(string(ks))
	n, err2 := strconv.Atoi(string(ns))
	if err1 != nil || err2 != nil || k < 1 || n < 1 || k > n || n > 1<<16 {
		return nil, 0, 0, errMalformedPart(id)
	}
	return id[:b], k, n, nil
}

type partError string

func (e partError) Error() string { return string(e) }

func errMalformedPart(id []byte) error {
	return partError("malformed discontinuous part " + strconv.Quote(string(id)) + ", want ID[k/n]")
}

// closeMention records the (part of the) mention id opened at o and
// closed at word endWord (inclusive) and empty node endEmpty (exclusive):
// its words are o.start..endWord and its empty nodes
// d.empties[o.startEmpty:endEmpty] (a zero mention has none of the first).
// e is the entity of a plain id when the caller knows it, else -1.
func (d *conlluDoc) closeMention(id []byte, e int32, o udOpen, endWord int32, endEmpty int, path string, num int, v []byte) error {
	if e >= 0 { // a plain id: a whole mention
		d.addMention(e, o, endWord, endEmpty, num)
		return nil
	}
	base, k, n, err := splitPart(id)
	if err != nil {
		return parseErr(path, num, d.name, "Entity=%s: %v", v, err)
	}
	if n <= 1 {
		d.addMention(d.entity(base), o, endWord, endEmpty, num)
		return nil
	}
	e = d.entity(base)
	var p *udPartial
	if k == 1 {
		p = &udPartial{entity: e, total: n, line: num, head: o.head}
		d.partials = append(d.partials, p)
	} else {
		for i := len(d.partials) - 1; i >= 0; i-- {
			q := d.partials[i]
			if q.entity == e && q.total == n && q.parts == k-1 {
				p = q
				break
			}
		}
		if p == nil {
			return parseErr(path, num, d.name, "Entity=%s: part %d/%d of a discontinuous mention of entity %s without part %d", v, k, n, base, k-1)
		}
	}
	for x := o.start; x <= endWord; x++ {
		p.words = append(p.words, x)
	}
	for x := o.startEmpty; x < endEmpty; x++ {
		p.empty = append(p.empty, x)
	}
	if o.head != nil {
		p.last = o.head
	}
	p.parts++
	if p.parts < n {
		return nil
	}
	for i, q := range d.partials {
		if q == p {
			d.partials = slices.Delete(d.partials, i, i+1)
			break
		}
	}
	m := d.wordSetMention(p.words, int64(e))
	if len(p.words) == 0 {
		m = Mention{Start: d.words, End: d.words - 1, Cluster: int64(e)}
	}
	m.Line = int32(num)
	headSpec := p.last
	if headSpec == nil {
		headSpec = p.head
	}
	slices.Sort(p.empty)
	var nodes []gocore.Node
	for i, x := range slices.Compact(p.empty) {
		if i == 0 {
			nodes = make([]gocore.Node, 0, len(p.empty))
		}
		nodes = append(nodes, d.emptyNodes[x])
	}
	d.finishMention(&m, p.head, headSpec, nodes)
	d.ments = append(d.ments, m)
	return nil
}

// addMention records the mention of entity e opened at o and closed at
// word endWord (inclusive) and empty node endEmpty (exclusive) on line num.
func (d *conlluDoc) addMention(e int32, o udOpen, endWord int32, endEmpty, num int) {
	d.ments = append(roomFor1(d.ments), Mention{Start: o.start, End: endWord, Cluster: int64(e), Line: int32(num)})
	d.finishMention(&d.ments[len(d.ments)-1], o.head, o.head, d.emptyNodes[o.startEmpty:endEmpty:endEmpty])
}

// finishMention sets the empty nodes, type and head of mention m, just
// closed (a zero mention, whose head is an empty node, is a pronoun when its
// words say nothing else): its empty nodes are empties (sorted, unique; m
// keeps the slice); typeHead is the head attribute its type reads (as
// before empty nodes were read), headSpec the one its head node reads.
func (d *conlluDoc) finishMention(m *Mention, typeHead, headSpec []byte, empties []gocore.Node) {
	if len(empties) > 0 {
		d.rare.add(m).nodes = empties
	}
	words := d.rare.words(m)
	h := headWord(m, words, d.attr.minspan, typeHead, d.heads, &d.depIdx)
	m.Type, d.scratch = spanType(m, words, d.classes, h >= 0 && int(h) < len(d.propn) && d.propn[h], d.scratch, &d.spans)
	d.setHead(m, headSpec, h, empties)
	if m.Head.Empty() && m.Type == gocore.TypeUnknown && d.classes != nil {
		m.Type = gocore.TypePronoun // a zero: a dropped pronoun
	}
}

// setHead sets m's head node: the k-th of its nodes (words and empty nodes
// in order, 1-based) when the file declares CorefUD's head attribute and
// headSpec is a valid position; otherwise word h (headWord's choice: GUM's
// minspan, else the dependency tree) when there is one; otherwise its first
// node. For an empty head it also sets the head's DEPS (its sentence is
// Doc.HeadSentence's).
// Time O(log n) in the mention's length (the k-th node is found by binary
// search, not by walking the mention).
func (d *conlluDoc) setHead(m *Mention, headSpec []byte, h int32, empties []gocore.Node) {
	words := d.rare.words(m)
	nw := 0
	if words != nil {
		nw = len(words)
	} else if m.End >= m.Start {
		nw = int(m.End-m.Start) + 1
	}
	word := func(i int) int32 {
		if words != nil {
			return words[i]
		}
		return m.Start + int32(i)
	}
	total := nw + len(empties)
	if total == 0 {
		return
	}
	// wordsBefore returns the number of the mention's words before node x.
	wordsBefore := func(x gocore.Node) int {
		if words != nil {
			i, _ := slices.BinarySearchFunc(words, x, func(w int32, x gocore.Node) int { return cmp.Compare(gocore.WordNode(w), x) })
			return i
		}
		return min(nw, max(0, int(int64(x>>16)-1-int64(m.Start)+1)))
	}
	// nodeAt returns the i-th node (0-based) of the merge of words and empty
	// nodes, and whether it is an empty node: empty node j sits at j +
	// wordsBefore(empties[j]), increasing in j.
	nodeAt := func(i int) (gocore.Node, bool) {
		j := sort.Search(len(empties), func(j int) bool { return j+wordsBefore(empties[j]) >= i })
		if j < len(empties) && j+wordsBefore(empties[j]) == i {
			return empties[j], true
		}
		return gocore.WordNode(word(i - j)), false
	}
	node, isEmpty := gocore.Node(0), false
	if k, ok := smallInt(headSpec); ok && d.attr.field != 0 && !d.attr.minspan && k >= 1 && k <= total {
		node, isEmpty = nodeAt(k - 1)
	} else if h >= 0 {
		node = gocore.WordNode(h)
	} else {
		node, isEmpty = nodeAt(0)
	}
	m.Head, m.HasHead = node, true
	if isEmpty {
		ei, _ := slices.BinarySearch(d.emptyNodes, node)
		d.rare.add(m).deps = d.empties[ei].deps
	}
}

// wordSetMention builds a mention from a set of words: sorted and unique, a
// span when contiguous.
func (d *conlluDoc) wordSetMention(words []int32, cluster int64) Mention {
	slices.Sort(words)
	words = slices.Compact(words)
	first, last := words[0], words[len(words)-1]
	m := Mention{Start: first, End: last, Cluster: cluster}
	if int(last-first)+1 != len(words) {
		d.rare.add(&m).words = words
	}
	return m
}

// finish checks that every mention is closed and builds the Doc.
func (d *conlluDoc) finish(path string, num int) (Doc, error) {
	if d.nOpen > 0 {
		first, firstID := 0, ""
		earliest := func(id string, st []udOpen) {
			for _, o := range st {
				if first == 0 || o.line < first || (o.line == first && id < firstID) {
					first, firstID = o.line, id
				}
			}
		}
		for e, top := range d.tops {
			for t := top; t > 0; t = d.stack[t-1].below {
				earliest(d.ids[e], []udOpen{{line: int(d.stack[t-1].line)}})
			}
		}
		for id, st := range d.openPart {
			earliest(id, st)
		}
		return Doc{}, parseErr(path, first, d.name,
			"mention of entity %s opened here is never closed in its document", firstID)
	}
	if len(d.partials) > 0 {
		p := d.partials[0]
		return Doc{}, parseErr(path, p.line, d.name,
			"discontinuous mention of entity %s has %d of its %d parts at the end of its document", d.ids[p.entity], p.parts, p.total)
	}
	sent := d.sent // the document's own: reset starts a new one
	if cap(sent) > len(sent)+len(sent)/4 {
		// It doubled as it grew (roomFor1): the document keeps a copy of
		// its length, not up to twice it, while it is scored.
		sent = slices.Clone(sent)
	}
	doc := Doc{Name: d.name, NumTokens: int(d.words), Path: path, Line: d.line, Entities: d.ids, emptyNodes: true,
		sentStart: sent, rare: d.rare}
	// Group the mentions by entity (a stable counting sort: closing order
	// within an entity).
	at := make([]int, len(d.ids)+1)
	for i := range d.ments {
		at[d.ments[i].Cluster+1]++
	}
	for e := 1; e < len(at); e++ {
		at[e] += at[e-1]
	}
	doc.Mentions = make([]Mention, len(d.ments))
	for i := range d.ments {
		e := d.ments[i].Cluster
		doc.Mentions[at[e]] = d.ments[i]
		at[e]++
	}
	return doc, nil
}
