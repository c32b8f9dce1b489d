package conll

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
)

// ReadCoNLL2012 reads a CoNLL-2011/2012 file as the CoNLL reference scorer
// v8.01 reads it (CorScorer.pm, GetCoreference):
//
//   - a document runs from a line "#begin document NAME" (after "#" any
//     white space; NAME is the rest of the line, with a trailing "\r" and
//     trailing spaces removed; "(x); part 000" is all part of it) to a line
//     containing "#end document";
//   - every other non-blank line of a document is a token, numbered from 0
//     across the document (blank lines are sentence breaks, not tokens);
//   - the coreference annotation is the last column: columns are separated
//     by tabs, or by runs of spaces on a line with no tab, and trailing empty
//     columns are dropped as Perl's split drops them (so a line ending in a
//     tab has its last non-empty column read);
//   - within it, as the reference's substitutions do in this order: every
//     "(N+D)" (a double antecedent) is discarded; then every "(N)" is a
//     one-token mention of entity N; then every "(N" opens a mention; then
//     every "N)" closes the most recently opened mention of N. Items need
//     not be separated by "|": "(0(1" opens two. Entity ids are digit
//     strings compared as strings ("07" and "7" differ).
//
// The mentions of a document are emitted grouped by entity, entities in the
// order in which the reference first sees their ids (per line: one-token
// items, then openings, then closings), and the mentions of an entity in the
// order the reference stores them (one-token mentions when read, others when
// closed). This order decides which occurrence of a repeated mention the
// engine keeps.
//
// When the file has a POS column (column 5, index 4, not the last) and a
// named-entity column (column 11, index 10, OntoNotes brackets "(TYPE*",
// "*", "*)", "(TYPE)"), they give each mention its type (see
// mentionTypeOf); otherwise types are gocore.TypeUnknown.
//
// Where the reference is silent or dies, this reader returns a *ParseError:
// a closing bracket with no opening, a mention still open at "#end
// document", a document with no "#end document", a "#begin document" inside
// a document, a token line outside any document, a repeated document name,
// a NUL byte, invalid UTF-8, a file with no document. The whole input is
// read into memory; parsing is linear in its size.
func ReadCoNLL2012(r io.Reader, path string) ([]Doc, error) {
	data, err := readAll(r, path)
	if err != nil {
		return nil, err
	}
	return parseCoNLL2012(data, path)
}

var (
	beginDocument = []byte("begin document ")
	endDocument   = []byte("end document")
)

// isBeginLine reports whether line matches the reference's
// /^\#\s*begin document /.
func isBeginLine(line []byte) bool {
	if len(line) == 0 || line[0] != '#' {
		return false
	}
	rest := skipSpace(line[1:])
	return bytes.HasPrefix(rest, beginDocument)
}

// beginName returns the document name of a begin line.
func beginName(line []byte) string {
	rest := skipSpace(trimCR(line)[1:])
	return string(bytes.TrimRight(rest[len(beginDocument):], " \t"))
}

// isEndLine reports whether line contains the reference's /\#\s*end document/.
func isEndLine(line []byte) bool {
	for off := 0; ; {
		i := bytes.Index(line[off:], endDocument)
		if i < 0 {
			return false
		}
		j := off + i - 1
		for j >= 0 && isSpace(line[j]) {
			j--
		}
		if j >= 0 && line[j] == '#' {
			return true
		}
		off += i + 1
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

func skipSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// splitColumns splits a token line into columns, reusing cols: at the tabs
// (their positions in line, in order) when the line has some, as Perl's
// split /\t/ does, trailing empty columns dropped; otherwise on runs of
// spaces.
func splitColumns(line []byte, tabs []int, cols [][]byte) [][]byte {
	cols = cols[:0]
	if len(tabs) > 0 {
		prev := 0
		for _, t := range tabs {
			cols = append(cols, line[prev:t])
			prev = t + 1
		}
		cols = append(cols, line[prev:])
		for len(cols) > 0 && len(cols[len(cols)-1]) == 0 {
			cols = cols[:len(cols)-1]
		}
		return cols
	}
	for _, f := range bytes.Fields(trimCR(line)) {
		cols = append(cols, f)
	}
	return cols
}

// span is a mention as the reference stores it.
type span struct{ start, end int32 }

// conllDoc is the state of the document being read.
type conllDoc struct {
	name      string
	line      int
	tokens    int32
	index     map[string]int32 // entity id -> index (the reference's GetIndex)
	ids       []string         // entity id per index
	open      [][]int32        // per entity, stack of open starts
	ents      [][]span         // per entity, mentions in push order
	classes   []tokenClass     // per token, when the file has a POS column
	hasPOS    bool
	ne        map[int64]struct{}
	neOpen    []int32
	scratch   []byte
	colBuf    [][]byte
	tabs      []int
	cur       cursor
	clsBuf    []tokenClass
	corefOpen int // number of open coreference mentions
}

func (d *conllDoc) reset(name string, line int) {
	d.name, d.line, d.tokens = name, line, 0
	clear(d.index)
	d.ids = d.ids[:0]
	d.open = d.open[:0]
	d.ents = d.ents[:0]
	d.classes = d.classes[:0]
	d.hasPOS = false
	d.ne = nil
	d.neOpen = d.neOpen[:0]
	d.corefOpen = 0
}

// entity returns the index of entity id, allocating one as GetIndex does.
func (d *conllDoc) entity(id []byte) int32 {
	if e, ok := d.index[string(id)]; ok {
		return e
	}
	e := int32(len(d.ids))
	s := string(id)
	d.index[s] = e
	d.ids = append(d.ids, s)
	d.open = append(d.open, nil)
	d.ents = append(d.ents, nil)
	return e
}

func parseCoNLL2012(data []byte, path string) ([]Doc, error) {
	if err := checkEmpty(data, path); err != nil {
		return nil, err
	}
	var docs []Doc
	seen := make(map[string]int)
	d := &conllDoc{index: make(map[string]int32)}
	inDoc := false
	l := newLines(data)
	for {
		line, problem, ok := l.next()
		if !ok {
			break
		}
		name := ""
		if inDoc {
			name = d.name
		}
		if problem != "" {
			return nil, parseErr(path, l.num, name, "%s", problem)
		}
		if !inDoc {
			if isBeginLine(trimCR(line)) {
				n := beginName(line)
				if first, dup := seen[n]; dup {
					return nil, parseErr(path, l.num, n, "document name repeated (first at line %d)", first)
				}
				seen[n] = l.num
				d.reset(n, l.num)
				inDoc = true
				continue
			}
			if isBlank(line) || line[0] == '#' {
				continue
			}
			return nil, parseErr(path, l.num, "", "token line outside a document (no \"#begin document\" before it)")
		}
		if isBlank(line) {
			continue
		}
		var hasHash bool
		d.tabs, hasHash = scanLine(line, d.tabs[:0])
		if hasHash && isEndLine(line) {
			doc, err := d.finish(path, l.num)
			if err != nil {
				return nil, err
			}
			docs = append(docs, doc)
			inDoc = false
			continue
		}
		if hasHash && isBeginLine(trimCR(line)) {
			return nil, parseErr(path, l.num, d.name, "\"#begin document\" inside a document: \"#end document\" missing")
		}
		if err := d.token(line, path, l.num); err != nil {
			return nil, err
		}
	}
	if inDoc {
		return nil, parseErr(path, l.num, d.name, "document never ends: \"#end document\" missing (document begins at line %d)", d.line)
	}
	if len(docs) == 0 {
		return nil, parseErr(path, l.num, "", "no \"#begin document\" line: not a CoNLL-2012 file")
	}
	return docs, nil
}

// token reads one token line.
func (d *conllDoc) token(line []byte, path string, num int) error {
	if len(d.tabs) == 0 { // a line without tabs: columns separated by spaces
		d.colBuf = splitColumns(line, nil, d.colBuf)
		return d.columns(line, d.colBuf, nil, path, num)
	}
	return d.columns(line, nil, d.tabs, path, num)
}

// columns reads the columns of one token line: either given as cols, or
// as the positions of the tabs in line (the Perl split, trailing empty
// columns dropped).
func (d *conllDoc) columns(line []byte, cols [][]byte, tabs []int, path string, num int) error {
	col := func(i int) []byte {
		if tabs == nil {
			return cols[i]
		}
		start := 0
		if i > 0 {
			start = tabs[i-1] + 1
		}
		if i < len(tabs) {
			return line[start:tabs[i]]
		}
		return line[start:]
	}
	n := len(cols)
	if tabs != nil {
		n = len(tabs) + 1
		for n > 0 && len(col(n-1)) == 0 {
			n--
		}
	}
	tok := d.tokens
	// Tags for mention types: POS when it is not the last column.
	var cls tokenClass
	if n > 5 {
		cls = classifyPTB(col(4))
		if cls != 0 {
			d.hasPOS = true
		}
	}
	d.classes = append(d.classes, cls)
	if n > 11 {
		d.neColumn(col(10), tok)
	}
	if n > 0 {
		if err := d.coref(col(n-1), tok, path, num); err != nil {
			return err
		}
	}
	d.tokens++
	return nil
}

// neColumn reads an OntoNotes named-entity cell: "(" opens, ")" closes.
// Unbalanced brackets are ignored (the column only refines mention types).
func (d *conllDoc) neColumn(cell []byte, tok int32) {
	if len(cell) == 0 || (len(cell) == 1 && (cell[0] == '_' || cell[0] == '-')) {
		return
	}
	for _, c := range cell {
		switch c {
		case '(':
			d.neOpen = append(d.neOpen, tok)
		case ')':
			if n := len(d.neOpen); n > 0 {
				if d.ne == nil {
					d.ne = make(map[int64]struct{})
				}
				d.ne[packSpan(d.neOpen[n-1], tok)] = struct{}{}
				d.neOpen = d.neOpen[:n-1]
			}
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitsAt returns the end of the run of digits starting at i (i when none).
func digitsAt(s []byte, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// The reference's four patterns, applied in this order.
const (
	patDouble = iota // \((\d+\+\d)\)  a double antecedent, discarded
	patSingle        // \((\d+)\)      a one-token mention
	patOpen          // \((\d+)        an opening (greedy)
	patClose         // (\d+)\)        a closing
)

// substitute emulates Perl's `while ($s =~ s/PATTERN//) { ... }` for one of
// the four patterns: it repeatedly removes the leftmost match from s and
// passes the captured id to sink (valid only during the call), and returns
// what is left (in s's storage).
//
// Matches of these patterns never overlap, so removing the leftmost match
// and searching again from the start finds matches in order of their ends.
// substitute therefore reads s once, pushing bytes onto an output stack and
// removing a match as soon as it ends on top of the stack, which also finds
// the matches that a removal creates across the junction ("((3)2)" holds
// "(3)" and then "(2)"). An opening ends where its run of digits does. Time
// is linear in len(s): each byte is pushed once and a backward scan only
// crosses the digits just pushed.
func substitute(s []byte, pat int, sink itemSink) ([]byte, error) {
	out := s[:0] // never longer than what has been read: in place is safe
	for i := 0; i <= len(s); i++ {
		var c byte
		if i < len(s) {
			c = s[i]
		}
		if pat == patOpen && (i == len(s) || !isDigit(c)) {
			// An opening "(" digits+ ends before a non-digit or at the end.
			j := len(out)
			for j > 0 && isDigit(out[j-1]) {
				j--
			}
			if j < len(out) && j > 0 && out[j-1] == '(' {
				if err := sink.item(pat, out[j:]); err != nil {
					return out, err
				}
				out = out[:j-1]
			}
		}
		if i == len(s) {
			break
		}
		out = append(out, c)
		if c != ')' || pat == patOpen {
			continue
		}
		n := len(out) - 1 // out[n] == ')'
		j := n
		for j > 0 && isDigit(out[j-1]) {
			j--
		}
		switch pat {
		case patClose:
			if j < n {
				if err := sink.item(pat, out[j:n]); err != nil {
					return out, err
				}
				out = out[:j]
			}
		case patSingle:
			if j < n && j > 0 && out[j-1] == '(' {
				if err := sink.item(pat, out[j:n]); err != nil {
					return out, err
				}
				out = out[:j-1]
			}
		case patDouble:
			// out ends with "(" digits+ "+" digit ")": exactly one digit
			// before ")", then "+", then at least one digit, then "(".
			if j == n-1 && j > 0 && out[j-1] == '+' {
				k := j - 1
				for k > 0 && isDigit(out[k-1]) {
					k--
				}
				if k < j-1 && k > 0 && out[k-1] == '(' {
					if err := sink.item(pat, out[k:n]); err != nil {
						return out, err
					}
					out = out[:k-1]
				}
			}
		}
	}
	return out, nil
}

// itemSink receives the items that substitute finds.
type itemSink interface {
	item(pat int, id []byte) error
}

// coref reads the coreference cell of token tok.
func (d *conllDoc) coref(cell []byte, tok int32, path string, num int) error {
	if bytes.IndexByte(cell, '(') < 0 && bytes.IndexByte(cell, ')') < 0 {
		return nil // "_", "-", "" and the like
	}
	s := append(d.scratch[:0], cell...)
	d.cur = cursor{tok: tok, path: path, num: num}
	var err error
	for pat := patDouble; pat <= patClose && err == nil; pat++ {
		s, err = substitute(s, pat, d)
	}
	d.scratch = s
	return err
}

// cursor is where the reader is, for item.
type cursor struct {
	tok  int32
	path string
	num  int
}

// item records one item of the coreference cell at d.cur.
func (d *conllDoc) item(pat int, id []byte) error {
	tok := d.cur.tok
	switch pat {
	case patSingle:
		e := d.entity(id)
		d.ents[e] = append(d.ents[e], span{tok, tok})
	case patOpen:
		e := d.entity(id)
		d.open[e] = append(d.open[e], tok)
		d.corefOpen++
	case patClose:
		e := d.entity(id)
		n := len(d.open[e])
		if n == 0 {
			return parseErr(d.cur.path, d.cur.num, d.name, "closing bracket \"%s)\" has no opening bracket", id)
		}
		start := d.open[e][n-1]
		d.open[e] = d.open[e][:n-1]
		d.corefOpen--
		d.ents[e] = append(d.ents[e], span{start, tok})
	}
	return nil
}

// finish checks that every mention is closed and builds the Doc.
func (d *conllDoc) finish(path string, num int) (Doc, error) {
	if d.corefOpen > 0 {
		for e, st := range d.open {
			if len(st) > 0 {
				return Doc{}, parseErr(path, num, d.name,
					"%d mention(s) of entity %s still open at \"#end document\" (the last opened at token %d)",
					len(st), d.ids[e], st[len(st)-1])
			}
		}
	}
	doc := Doc{Name: d.name, NumTokens: int(d.tokens), Path: path, Line: d.line,
		Entities: append([]string(nil), d.ids...)}
	total := 0
	for _, ms := range d.ents {
		total += len(ms)
	}
	doc.Mentions = make([]Mention, 0, total)
	var classes []tokenClass
	if d.hasPOS {
		classes = d.classes
	}
	ne := d.ne // nil without an NE column: no lookups succeed
	for e, ms := range d.ents {
		for _, sp := range ms {
			m := Mention{Start: sp.start, End: sp.end, Cluster: int64(e)}
			_, isNE := ne[packSpan(sp.start, sp.end)]
			m.Type, d.clsBuf = spanType(&m, classes, isNE, d.clsBuf)
			doc.Mentions = append(doc.Mentions, m)
		}
	}
	return doc, nil
}

// Byte-parallel scanning, eight bytes at a time.
const (
	ones  = 0x0101010101010101
	low7  = 0x7f7f7f7f7f7f7f7f
	tabs8 = '\t' * ones
	hash8 = '#' * ones
)

// zeroBytes returns a word with the high bit set in exactly the bytes of y
// that are zero (no false positives, unlike the shorter borrow trick).
func zeroBytes(y uint64) uint64 {
	return ^(((y & low7) + low7) | y | low7)
}

// scanLine appends to tabs the positions of the tabs in line and reports
// whether line contains a "#", in one pass reading eight bytes at a time.
func scanLine(line []byte, tabs []int) ([]int, bool) {
	var hash uint64
	i := 0
	for ; i+8 <= len(line); i += 8 {
		w := binary.LittleEndian.Uint64(line[i:])
		hash |= zeroBytes(w ^ hash8)
		for t := zeroBytes(w ^ tabs8); t != 0; t &= t - 1 {
			tabs = append(tabs, i+bits.TrailingZeros64(t)>>3)
		}
	}
	hasHash := hash != 0
	for ; i < len(line); i++ {
		switch line[i] {
		case '\t':
			tabs = append(tabs, i)
		case '#':
			hasHash = true
		}
	}
	return tabs, hasHash
}
