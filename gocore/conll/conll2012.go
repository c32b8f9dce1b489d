package conll

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"slices"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/internal/pages"
	"github.com/pkg/errors"
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
// a NUL byte (refused as soon as it is read, so that a device such as
// /dev/zero is not read on), invalid UTF-8, lines ended by CR alone, a line
// longer than 64 MiB, a file with no document. A UTF-8 byte order mark is
// skipped, with a warning on the first document. A coreference item that
// is not a number, such as "(abc)", is skipped as the reference skips it,
// and counted in a warning (Doc.Warnings, kind gocore.WarnBadItem). A
// mention that repeats its entity's previous mention (the same span twice
// in one cell) is dropped while reading and counted (Doc.Repeats). The input is read
// through a buffer of about a megabyte (it grows to the longest line) and
// parsed as it comes; time is linear in its size.
func ReadCoNLL2012(r io.Reader, path string) ([]Doc, error) {
	return readCoNLL2012Stream(r, path, true, 0)
}

var (
	tabSep        = []byte{'\t'}
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

// spaceColumns splits a token line that has no tab into its columns, on
// runs of white space (a trailing "\r" dropped), reusing cols.
func spaceColumns(line []byte, cols [][]byte) [][]byte {
	return append(cols[:0], bytes.Fields(trimCR(line))...)
}

// span is a mention as the reference stores it, with its entity.
type span struct{ start, end, line, ent int32 }

// entState is what the reader keeps of an entity while it reads its
// document, together in one cache line: an entity's items touch it once.
// An entity whose id is a canonical number has its state in byNum, beside
// its index (the one place its items look up), others in ents.
type entState struct {
	last  int64 // its last mention, packSpan(start, end)+1 (0: none)
	top   int32 // its top entry in opens (index+1; 0: none)
	index int32 // in byNum: the entity's index+1 (0: not seen)
}

// openStart is one entry of the stacks of open mentions, which share one
// array: the token where the mention opens and the entry below it in its
// entity's stack (index+1; 0: none).
type openStart struct{ start, below int32 }

// conllDoc is the state of the document being read. Its per-entity state
// lives in flat arrays indexed by entity (no slice per entity, so no
// allocation per entity or per mention once the arrays have grown, and
// nothing for the garbage collector to scan): finish groups the mentions by
// entity (see groupByEntity).
type conllDoc struct {
	path    string // the file's, for messages
	name    string
	line    int
	tokens  int32
	index   map[string]int32 // entity id -> index (the reference's GetIndex), ids not in byNum
	byNum   []entState       // canonical decimal id v -> its entity's state and index, v < numLimit
	idBytes []byte           // the entity ids, one after the other
	idEnds  []int32          // per entity, the end of its id in idBytes
	// numLimit bounds the ids looked up by value in byNum: maxByNum, or
	// more for a large file (see byNumLimit), fixed for the whole read so
	// that an id is always looked up the same way.
	numLimit int
	ents     []entState   // per entity, the state of those whose id is not in byNum
	opens    []openStart  // the open mentions' stacks; freed entries are reused
	freeOpen int32        // the first free entry of opens (index+1; 0: none)
	spans    []span       // the mentions, in push order
	at       []int32      // per entity, where its mentions go (finish)
	classes  []tokenClass // per token from the first with a POS tag (see cells)
	hasPOS   bool
	types    bool // read the POS and named-entity columns
	// wideLines says that the last token line had a POS column: how the
	// next line's tabs are first looked at (see feedLines), not what is read.
	wideLines bool
	ne        map[int64]struct{}
	neOpen    []int32
	scratch   []byte
	colBuf    [][]byte
	cur       cursor
	pending   []pendingItem // items not yet applied (see resolve)
	touched   int32         // see resolve
	clsBuf    []tokenClass
	corefOpen int // number of open coreference mentions

	badItems int64 // coreference items that are not numbers, skipped
	badLine  int   // line of the first of them
	// spaceItems counts the space-separated token lines with a coreference
	// item outside the last column (see spaceItem); spaceLine is the first.
	spaceItems int64
	spaceLine  int
	repeats    []Mention // see Doc.Repeats
	numRepeats int64
}

func (d *conllDoc) reset(name string, line int) {
	d.name, d.line, d.tokens = name, line, 0
	clear(d.index)
	// Only the entries of the previous document's ids are cleared: byNum
	// can be long (see byNumLimit), and a file of many documents must not
	// clear all of it per document.
	for e := range d.idEnds {
		if v := canonicalNum(d.id(int32(e)), d.numLimit); v >= 0 && v < len(d.byNum) {
			d.byNum[v] = entState{}
		}
	}
	d.idBytes = d.idBytes[:0]
	d.idEnds = d.idEnds[:0]
	d.ents = d.ents[:0]
	d.pending = d.pending[:0]
	d.opens = d.opens[:0]
	d.freeOpen = 0
	d.spans = d.spans[:0]
	d.classes = d.classes[:0]
	d.hasPOS = false
	d.ne = nil
	d.neOpen = d.neOpen[:0]
	d.corefOpen = 0
	d.badItems, d.badLine = 0, 0
	d.spaceItems, d.spaceLine = 0, 0
	d.repeats, d.numRepeats = nil, 0
}

// numEntities returns the number of entities seen in the document.
func (d *conllDoc) numEntities() int { return len(d.idEnds) }

// id returns the id of entity e as the file writes it.
func (d *conllDoc) id(e int32) []byte {
	start := int32(0)
	if e > 0 {
		start = d.idEnds[e-1]
	}
	return d.idBytes[start:d.idEnds[e]]
}

// maxByNum is the least bound of the entity ids looked up by value rather
// than by string.
const maxByNum = 1 << 16

// byNumLimit returns the bound of the ids looked up by value for a file of
// size bytes (0: unknown): maxByNum, or size/64 when that is more, so that
// byNum (16 bytes per value below the largest id seen) never holds more
// than a quarter of the file's size while the entity ids of a large
// document (a million mentions have ids in the hundreds of thousands) are
// still found without hashing.
func byNumLimit(size int) int {
	return max(maxByNum, min(size/64, 1<<28))
}

// canonicalNum returns the value of id when id is a canonical decimal below
// limit ("0", or digits without a leading zero), and -1 otherwise. Two ids
// compare equal as strings exactly when they have the same canonical value,
// or are both non-canonical and equal as strings, so the two lookups of
// entity never disagree.
func canonicalNum(id []byte, limit int) int {
	if len(id) == 0 || len(id) > 10 || (id[0] == '0' && len(id) > 1) {
		return -1
	}
	v := 0
	for _, c := range id {
		if !isDigit(c) {
			return -1
		}
		v = v*10 + int(c-'0')
	}
	if v >= limit {
		return -1
	}
	return v
}

// entity returns the index of entity id, allocating one as GetIndex does,
// and its state (valid until the next call). Canonical numbers below
// d.numLimit (the usual ids) are looked up in a slice that holds their
// state too (see entityNum), others in a map.
func (d *conllDoc) entity(id []byte) (int32, *entState) {
	if v := canonicalNum(id, d.numLimit); v >= 0 {
		return d.entityNum(v)
	}
	if e, ok := d.index[string(id)]; ok {
		return e, &d.ents[e]
	}
	e := d.newEntity(id)
	d.index[string(id)] = e
	return e, &d.ents[e]
}

// entityNum is entity for an id whose value v is canonical (canonicalNum):
// one slice element holds its index and state, so that an item of a random
// entity costs one cache miss.
func (d *conllDoc) entityNum(v int) (int32, *entState) {
	if v < len(d.byNum) && d.byNum[v].index > 0 {
		return d.byNum[v].index - 1, &d.byNum[v]
	}
	d.idBytes = appendDecimal(d.idBytes, v)
	e := d.endEntity()
	if v >= len(d.byNum) {
		// At least doubled (see roomFor1), at most to the bound of the
		// values looked up here; its pages written first, as it is read
		// before it is written (package pages).
		c := min(max(v+1, 2*len(d.byNum), 16), d.numLimit)
		d.byNum = fillFrom(pages.Make[entState](c)[:len(d.byNum)], d.byNum)
		d.byNum = d.byNum[:cap(d.byNum)]
	}
	d.byNum[v].index = e + 1
	return e, &d.byNum[v]
}

// newEntity allocates the next entity index, of id.
func (d *conllDoc) newEntity(id []byte) int32 {
	d.idBytes = append(d.idBytes, id...)
	return d.endEntity()
}

// endEntity allocates the next entity index, whose id ends d.idBytes.
func (d *conllDoc) endEntity() int32 {
	e := int32(len(d.idEnds))
	d.idEnds = append(roomFor1(d.idEnds), int32(len(d.idBytes)))
	d.ents = append(roomFor1(d.ents), entState{})
	return e
}

// appendDecimal appends v (>= 0) in decimal, the canonical form of an id
// looked up by value, digit by digit.
func appendDecimal(b []byte, v int) []byte {
	start := len(b)
	for {
		b = append(b, byte('0'+v%10))
		if v /= 10; v == 0 {
			break
		}
	}
	slices.Reverse(b[start:])
	return b
}

// stateOf returns the state of entity e (see entity).
func (d *conllDoc) stateOf(e int32) *entState {
	if v := canonicalNum(d.id(e), d.numLimit); v >= 0 {
		return &d.byNum[v]
	}
	return &d.ents[e]
}

func parseCoNLL2012(data []byte, path string, stop func() bool) ([]Doc, error) {
	if err := checkEmpty(data, path); err != nil {
		return nil, err
	}
	p := newConllParser(path, true, len(data))
	if err := feedPolling(p, data, stop); err != nil {
		return nil, err
	}
	return p.end()
}

// feedChunk is how many bytes of a file in memory feedPolling gives a
// parser between two polls of the cancel flag (then up to the line's end).
const feedChunk = 4 << 20

// feedPolling feeds data to p in runs of whole lines of about feedChunk
// bytes, polling stop (nil: never) before each, so that a cancelled parse
// of a large file in memory ends within a run, as a streamed read does; a
// parser fed runs parses as it does fed the whole (the streamed readers
// feed it so).
func feedPolling(p lineFeeder, data []byte, stop func() bool) error {
	for len(data) > 0 {
		if stop != nil && stop() {
			return gocore.ErrCancelled
		}
		n := len(data)
		if n > feedChunk {
			if i := bytes.IndexByte(data[feedChunk:], '\n'); i >= 0 {
				n = feedChunk + i + 1
			}
		}
		if err := p.feed(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// readChunk is the initial size of the buffer through which
// readCoNLL2012Stream reads a file (it grows to hold the longest line).
const readChunk = 1 << 20

// readCoNLL2012Stream parses a CoNLL-2012 file as parseCoNLL2012 parses it
// whole, but reads it through a buffer of about readChunk bytes, parsing
// every run of complete lines as it comes: the reader never holds the whole
// file, and the bytes it parses are still in the processor's cache. Memory
// is O(readChunk + longest line) beyond the documents. Without types, the
// POS and named-entity columns are not read and every mention's type is
// gocore.TypeUnknown.
// fileSize is the size of the file in bytes when it is known (0 when not),
// from which the reader sizes its lookups (see byNumLimit).
func readCoNLL2012Stream(r io.Reader, path string, types bool, fileSize int) ([]Doc, error) {
	return readDocsChunked(r, path, readChunk, newConllParser(path, types, fileSize), "CoNLL-2012")
}

// readCoNLL2012Chunked is readCoNLL2012Stream with an initial buffer of size
// bytes (at least 1) and a file of unknown size.
func readCoNLL2012Chunked(r io.Reader, path string, size int, types bool) ([]Doc, error) {
	return readDocsChunked(r, path, size, newConllParser(path, types, 0), "CoNLL-2012")
}

// readDocsChunked feeds r to p through readChunked and returns p's documents,
// the first with a warning when the file began with a byte order mark.
func readDocsChunked(r io.Reader, path string, size int, p docFeeder, format string) ([]Doc, error) {
	blank, bom, err := readChunked(r, path, size, p, format)
	if err != nil {
		return nil, err
	}
	if blank {
		return nil, checkEmpty(nil, path)
	}
	docs, err := p.end()
	if err == nil && bom {
		docs[0].Warnings = append([]gocore.Warning{bomWarning(path)}, docs[0].Warnings...)
	}
	return docs, err
}

// docFeeder is a lineFeeder that gives its documents when the input ends.
type docFeeder interface {
	lineFeeder
	end() ([]Doc, error)
}

// lineFeeder is the state of a reader between runs of whole lines: feed
// parses a run (only the last run of a file may end without a newline),
// lineNum is the number of lines read so far, docName the name of the
// document being read ("" outside one).
type lineFeeder interface {
	feed(data []byte) error
	lineNum() int
	docName() string
}

// readChunked reads r through a buffer of size bytes (at least 1; it grows
// to hold the longest line, up to maxLine) and feeds p every run of complete
// lines as it comes: a UTF-8 byte order mark at the start is skipped (bom),
// a NUL byte is refused after the lines before it, a file whose lines end
// with CR alone is refused (as crOnly decides on the whole file: its first
// line is the whole file, read to its end or to maxLine). blank reports a file of white space only (p
// was then fed nothing but blank lines). format names the format in the
// message about an overlong line.
func readChunked(r io.Reader, path string, size int, p lineFeeder, format string) (blank, bom bool, err error) {
	buf := make([]byte, max(size, 1))
	n := 0 // bytes of buf holding input not yet parsed
	blank = true
	first := true
	for {
		k, err := r.Read(buf[n:])
		fresh := n // new bytes start here
		n += k
		eof := err == io.EOF
		if err != nil && !eof {
			return false, false, errors.Wrapf(err, "conll: reading %s", path)
		}
		if first && (n >= len(utf8BOM) || eof) {
			first = false
			if bytes.HasPrefix(buf[:n], utf8BOM) {
				bom = true
				n = copy(buf, buf[len(utf8BOM):n])
				fresh = 0
			}
		}
		if i := bytes.IndexByte(buf[fresh:n], 0); i >= 0 {
			// Refused at once (a device such as /dev/zero never ends),
			// after the lines before it, as a whole read would.
			at := bytes.LastIndexByte(buf[:fresh+i], '\n') + 1
			if err := p.feed(buf[:at]); err != nil {
				return false, false, err
			}
			return false, false, parseErr(path, p.lineNum()+1, p.docName(), "binary data (a NUL byte): not a text file")
		}
		end := n // parse everything at the end of the input
		if !eof {
			end = bytes.LastIndexByte(buf[:n], '\n') + 1
		}
		if eof && p.lineNum() == 0 && crOnly(buf[:n]) { // nothing fed: buf holds the whole file
			return false, false, crError(path)
		}
		if end > 0 {
			chunk := buf[:end]
			if blank && !isBlank(chunk) {
				blank = false
			}
			if err := p.feed(chunk); err != nil {
				return false, false, err
			}
			n = copy(buf, buf[end:n])
		}
		if eof {
			break
		}
		if n == len(buf) { // a line longer than the buffer
			if n >= maxLine {
				if p.lineNum() == 0 && crOnly(buf[:n]) {
					return false, false, crError(path)
				}
				return false, false, parseErr(path, p.lineNum()+1, "", "line longer than %d MiB: not a %s file", maxLine>>20, format)
			}
			buf = append(buf, make([]byte, len(buf))...)
		}
	}
	return blank, bom, nil
}

// conllParser is the state of a CoNLL-2012 read between runs of lines.
type conllParser struct {
	path  string
	docs  []Doc
	seen  map[string]int // document name -> line of its begin line
	d     *conllDoc
	inDoc bool
	num   int // lines read so far
}

// lineNum returns the number of lines read so far.
func (p *conllParser) lineNum() int { return p.num }

// docName returns the name of the document being read ("" outside one).
func (p *conllParser) docName() string {
	if p.inDoc {
		return p.d.name
	}
	return ""
}

// newConllParser starts a read of a file of fileSize bytes (0: unknown);
// types says whether mention types are read.
func newConllParser(path string, types bool, fileSize int) *conllParser {
	d := &conllDoc{path: path, index: make(map[string]int32), types: types, numLimit: byNumLimit(fileSize)}
	return &conllParser{path: path, seen: make(map[string]int), d: d}
}

// feed parses data, which holds whole lines (only the last run of a file may
// end without a newline). Documents may span runs. The items still pending
// when it stops are applied before it returns: an error of theirs comes
// from a line before any error of feedLines.
func (p *conllParser) feed(data []byte) error {
	err := p.feedLines(data)
	if rerr := p.d.resolve(); rerr != nil {
		return rerr
	}
	return err
}

// feedLines is feed but for the items it leaves pending.
func (p *conllParser) feedLines(data []byte) error {
	path, d := p.path, p.d
	l := newLines(data)
	// num is the number of the line being read (1-based), start its offset
	// in data, pos the offset of the next line: locals, not l's fields, in
	// the loop that every line goes through.
	num, start, pos := p.num, 0, 0
	l.num = num
	defer func() { p.num = num }()
	// nextHash is the offset of the first "#" at or after the current line
	// (len(data) when none): a line holds a "#" when it starts before it.
	nextHash := -1
	clean := !l.hasNUL && !l.badUTF8 // then no line has a problem
	for {
		var line []byte
		if clean { // l.next, without its checks and its call
			if pos >= len(data) {
				return nil
			}
			start = pos
			if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
				line = data[pos : pos+i]
				pos += i + 1
			} else {
				line = data[pos:]
				pos = len(data)
			}
			num++
		} else {
			var problem string
			var ok bool
			if line, problem, ok = l.next(); !ok {
				return nil
			}
			num, start = l.num, l.start
			if problem != "" {
				return parseErr(path, num, p.docName(), "%s", problem)
			}
		}
		if !p.inDoc {
			if isBeginLine(trimCR(line)) {
				n := beginName(line)
				if first, dup := p.seen[n]; dup {
					return parseErr(path, num, n, "document name repeated (first at line %d): the reference scorer would "+
						"score only the last document of that name and ignore the others; rename or remove one", first)
				}
				p.seen[n] = num
				d.reset(n, num)
				p.inDoc = true
				continue
			}
			if isBlank(line) || line[0] == '#' {
				continue
			}
			return parseErr(path, num, "", "token line outside a document (no \"#begin document\" before it)")
		}
		if isBlank(line) {
			continue
		}
		if nextHash < start {
			nextHash = len(data)
			if i := bytes.IndexByte(data[start:], '#'); i >= 0 {
				nextHash = start + i
			}
		}
		hasHash := nextHash < start+len(line)
		if hasHash && isEndLine(line) {
			doc, err := d.finish(path, num)
			if err != nil {
				return err
			}
			p.docs = append(p.docs, doc)
			p.inDoc = false
			continue
		}
		if hasHash && isBeginLine(trimCR(line)) {
			return parseErr(path, num, d.name, "\"#begin document\" inside a document: \"#end document\" missing")
		}
		if !d.types { // the usual line, a token in no mention's boundary, without token's calls
			if cell, ok := lastColumn(line); ok { // what cells does with no POS or NE cell
				if hasBracket(cell) {
					if err := d.coref(cell, d.tokens, num); err != nil {
						return err
					}
				}
				d.tokens++
				if narrowLines && clean && len(line) < 64 {
					var err error
					if pos, num, nextHash, err = d.feedNarrow(data, pos, num, nextHash); err != nil {
						return err
					}
				}
				continue
			}
			if err := d.token(line, num); err != nil {
				return err
			}
			continue
		}
		// With types, a line of at most 5 columns has no POS column: only
		// its last column is read. A longer line has its tabs located
		// (firstTabs). After a short line the tabs are first counted, not
		// located (cheaper on a file of short lines), after a long one
		// located at once: either way the line is read the same.
		e := len(line)
		for e > 0 && line[e-1] == '\t' {
			e--
		}
		if !d.wideLines {
			if k := bytes.Count(line[:e], tabSep); k <= 4 && (k > 0 || e < len(line)) {
				// No POS column: only the last column is read, as tokenTabs
				// reads it, without locating the other tabs.
				cell := line[bytes.LastIndexByte(line[:e], '\t')+1 : e]
				if len(d.classes) == 0 { // what cells does with no POS or NE cell
					if hasBracket(cell) {
						if err := d.coref(cell, d.tokens, num); err != nil {
							return err
						}
					}
					d.tokens++
					if narrowLines && clean && len(line) < 64 {
						// Likely the first of many: the next ones are read by
						// feedNarrow.
						var err error
						if pos, num, nextHash, err = d.feedNarrow(data, pos, num, nextHash); err != nil {
							return err
						}
					}
					continue
				}
				if err := d.cells(nil, nil, cell, num); err != nil {
					return err
				}
				continue
			}
		}
		var tabs [11]int
		k, lastTab := firstTabs(line[:e], &tabs)
		d.wideLines = k >= 5
		if k <= 4 && (k > 0 || e < len(line)) && len(d.classes) == 0 && !hasBracket(line[lastTab+1:e]) {
			d.tokens++
			continue
		}
		if err := d.tokenTabs(line, e, &tabs, k, lastTab, num); err != nil {
			return err
		}
	}
}

// narrowLines says whether feedLines hands runs of short lines to
// feedNarrow (a variable for the tests, which compare the two roads).
var narrowLines = haveLineMasks

// feedNarrow reads the token lines of data from offset pos on, the last
// read being line num, while each is a line of which feedLines reads only
// the last column, and reads it the same way: a line shorter than 64 bytes
// (lineMasks finds its end and its tabs in one call, where
// bytes.IndexByte, bytes.Count and bytes.LastIndexByte took three) with a
// tab before its trailing ones (with types, at most four: no POS column,
// and only before the document's first POS tag), not blank but empty,
// ending before offset nextHash (the offset of the next "#" when at least
// pos: a line that may begin or end a document). It returns, at the first
// other line, which feedLines reads, the offset and number of the last line
// read, nextHash, and the error of a coreference cell. In a loop of its own
// such a line costs a fifth fewer instructions than in feedLines's
// (callgrind, reading the dense 1M document's shape with types), and its
// state stays in registers.
func (d *conllDoc) feedNarrow(data []byte, pos, num, nextHash int) (int, int, int, error) {
	if nextHash < pos {
		nextHash = len(data)
		if i := bytes.IndexByte(data[pos:], '#'); i >= 0 {
			nextHash = pos + i
		}
	}
	for pos+64 <= len(data) && len(d.classes) == 0 {
		nl, tabs := lineMasks((*[64]byte)(data[pos : pos+64]))
		if nl == 0 {
			break
		}
		n := bits.TrailingZeros64(nl)
		if pos+n >= nextHash {
			break
		}
		if n == 0 { // an empty line: a sentence break
			pos, num = pos+1, num+1
			continue
		}
		line := data[pos : pos+n]
		e := n
		for e > 0 && line[e-1] == '\t' {
			e--
		}
		tabs &= 1<<e - 1
		if k := bits.OnesCount64(tabs); k == 0 || (k > 4 && d.types) || isBlank(line) {
			break
		}
		cell := line[bits.Len64(tabs):e]
		pos, num = pos+n+1, num+1
		if hasBracket(cell) {
			if err := d.coref(cell, d.tokens, num); err != nil {
				return pos, num, nextHash, err
			}
		}
		d.tokens++
	}
	return pos, num, nextHash, nil
}

// spaceItem reports whether a column holds what the reference scorer reads
// as a coreference item ("(N", "N)", "(N)" with N digits): on a line with
// no tab the reference takes the whole line as the coreference column, so
// it reads a mention in a word such as "(3)".
func spaceItem(c []byte) bool {
	for i := range c {
		digit := c[i] >= '0' && c[i] <= '9'
		if digit && ((i > 0 && c[i-1] == '(') || (i+1 < len(c) && c[i+1] == ')')) {
			return true
		}
	}
	return false
}

// lastColumn returns the last column of a token line whose columns are
// separated by tabs (trailing empty columns dropped, as Perl's split drops
// them); ok is false for a line without a tab, whose columns are separated
// by spaces.
func lastColumn(line []byte) (cell []byte, ok bool) {
	e := len(line)
	for e > 0 && line[e-1] == '\t' {
		e--
	}
	i := bytes.LastIndexByte(line[:e], '\t')
	if i < 0 && e == len(line) {
		return nil, false
	}
	return line[i+1 : e], true
}

// end checks the state at the end of the file and returns the documents.
func (p *conllParser) end() ([]Doc, error) {
	if p.inDoc {
		return nil, parseErr(p.path, p.num, p.d.name, "document never ends: \"#end document\" missing (document begins at line %d)", p.d.line)
	}
	if len(p.docs) == 0 {
		return nil, parseErr(p.path, p.num, "", "no \"#begin document\" line: not a CoNLL-2012 file")
	}
	return p.docs, nil
}

// token reads one token line. Its columns are separated by tabs, as
// Perl's split /\t/ separates them (trailing empty columns dropped), or,
// on a line with no tab, by runs of spaces. Only the columns the reader
// uses are located: the POS column (index 4) when there are more than 5
// columns, the named-entity column (index 10) when there are more than 11,
// and the last one; without types, only the last one.
func (d *conllDoc) token(line []byte, num int) error {
	if !d.types {
		if cell, ok := lastColumn(line); ok {
			return d.cells(nil, nil, cell, num)
		}
	}
	e := len(line)
	for e > 0 && line[e-1] == '\t' {
		e--
	}
	var tabs [11]int
	k, lastTab := firstTabs(line[:e], &tabs)
	return d.tokenTabs(line, e, &tabs, k, lastTab, num)
}

// tokenTabs is token on a line whose first e bytes are its columns
// (trailing tabs dropped) and in which firstTabs found k tabs, stored in
// tabs, the last at lastTab.
func (d *conllDoc) tokenTabs(line []byte, e int, tabs *[11]int, k, lastTab int, num int) error {
	if k == 0 && e == len(line) { // no tab: columns separated by spaces
		d.colBuf = spaceColumns(line, d.colBuf)
		cols := d.colBuf
		n := len(cols)
		var pos, ne, last []byte
		if n > 5 && d.types {
			pos = cols[4]
		}
		if n > 11 && d.types {
			ne = cols[10]
		}
		if n > 0 {
			last = cols[n-1]
			for _, c := range cols[:n-1] {
				if spaceItem(c) {
					if d.spaceItems == 0 {
						d.spaceLine = num
					}
					d.spaceItems++
					break
				}
			}
		}
		return d.cells(pos, ne, last, num)
	}
	// k tabs found before e, up to 11: there are k+1 columns when k < 11,
	// more than 11 otherwise.
	var pos, ne []byte
	if k >= 5 {
		pos = line[tabs[3]+1 : tabs[4]]
	}
	if k >= 11 {
		ne = line[tabs[9]+1 : tabs[10]]
	}
	if lastTab < 0 { // more than 11 columns: firstTabs stopped counting
		lastTab = bytes.LastIndexByte(line[:e], '\t')
	}
	return d.cells(pos, ne, line[lastTab+1:e], num)
}

// firstTabs stores in tabs the positions of the tabs of b numbered 3, 4, 9
// and 10 from 0 (those that delimit the POS and named-entity columns; the
// other entries are left alone) and returns how many tabs b has, counting
// at most len(tabs), and the position of its last tab (-1 when it has none
// or more than len(tabs)), which saves the token line a second scan for
// its last column. It reads eight bytes at a time and locates only the
// tabs it stores and the last one.
func firstTabs(b []byte, tabs *[11]int) (k, last int) {
	const want = 1<<3 | 1<<4 | 1<<9 | 1<<10 // the tab numbers stored
	last = -1
	i := 0
	for ; i+8 <= len(b); i += 8 {
		t := zeroBytes(binary.LittleEndian.Uint64(b[i:]) ^ tabs8)
		if t == 0 {
			continue
		}
		c := bits.OnesCount64(t)
		if k+c > len(tabs) { // the word holds tab number len(tabs): store up to it, stop
			for ; t != 0; t &= t - 1 {
				tabs[k] = i + bits.TrailingZeros64(t)>>3
				if k++; k == len(tabs) {
					return k, -1
				}
			}
		}
		last = i + (63-bits.LeadingZeros64(t))>>3
		if want>>k&(1<<c-1) == 0 { // none of tabs k .. k+c-1 is wanted
			if k += c; k == len(tabs) {
				return k, -1
			}
			continue
		}
		for ; t != 0; t &= t - 1 {
			tabs[k] = i + bits.TrailingZeros64(t)>>3
			k++
		}
		if k == len(tabs) {
			return k, -1
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '\t' {
			tabs[k] = i
			last = i
			if k++; k == len(tabs) {
				return k, -1
			}
		}
	}
	return k, last
}

// cells reads the cells of one token: its POS tag (nil when the line has
// at most 5 columns), its named-entity cell (nil when at most 11) and its
// last, coreference cell (nil when the line has no column).
func (d *conllDoc) cells(pos, ne, last []byte, num int) error {
	tok := d.tokens
	// Tags for mention types: POS when it is not the last column.
	var cls tokenClass
	if pos != nil {
		cls = classifyPTB(pos)
		if cls != 0 {
			d.hasPOS = true
		}
	}
	if cls != 0 || len(d.classes) > 0 {
		// d.classes starts at the document's first tagged token (the
		// tokens before it have class 0), so that a file without POS tags
		// stores nothing per token.
		if len(d.classes) < int(tok) {
			d.classes = append(d.classes, make([]tokenClass, int(tok)-len(d.classes))...)
		}
		d.classes = append(d.classes, cls)
	}
	if ne != nil {
		d.neColumn(ne, tok)
	}
	if last != nil {
		if err := d.coref(last, tok, num); err != nil {
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
func (d *conllDoc) coref(cell []byte, tok int32, num int) error {
	if pat, v, ok := numericItem(cell, d.numLimit); ok { // the usual cell
		return d.addPending(pendingItem{num: int32(v), tok: tok, line: int32(num), pat: int32(pat)})
	}
	if !hasBracket(cell) {
		return nil // "_", "-", "" and the like
	}
	var items [maxNumericItems]pendingItem
	if n, ok := numericItems(cell, d.numLimit, &items); ok {
		for _, it := range items[:n] {
			it.tok, it.line = tok, int32(num)
			if err := d.addPending(it); err != nil {
				return err
			}
		}
		return nil
	}
	d.cur = cursor{tok: tok, num: num}
	var err error
	var bad bool
	d.scratch, bad, err = corefItems(cell, d.scratch, d)
	if bad {
		if d.badItems == 0 {
			d.badLine = num
		}
		d.badItems++
	}
	return err
}

// numericItem reads a cell that is one item "(N)", "(N" or "N)" whose id N
// is a canonical number below limit (see canonicalNum), the usual cell, in
// one pass: it returns the item's pattern and N's value, and ok false for
// any other cell (which corefItems reads).
func numericItem(cell []byte, limit int) (pat, v int, ok bool) {
	if len(cell) < 2 {
		return 0, 0, false
	}
	digits := cell
	opens, closes := cell[0] == '(', cell[len(cell)-1] == ')'
	switch {
	case opens && closes:
		pat, digits = patSingle, cell[1:len(cell)-1]
	case opens:
		pat, digits = patOpen, cell[1:]
	case closes:
		pat, digits = patClose, cell[:len(cell)-1]
	default:
		return 0, 0, false
	}
	if len(digits) == 0 || len(digits) > 10 || (digits[0] == '0' && len(digits) > 1) {
		return 0, 0, false
	}
	for _, c := range digits {
		if c-'0' > 9 {
			return 0, 0, false
		}
		v = v*10 + int(c-'0')
	}
	if v >= limit {
		return 0, 0, false
	}
	return pat, v, true
}

// maxNumericItems bounds the items of a cell that numericItems reads.
const maxNumericItems = 8

// numericItems reads a cell of up to maxNumericItems "|"-separated items
// that numericItem reads (empty items allowed), as corefItems's fast path
// reads them: no removal can join two such items, so the one-token items
// come first, then the openings, then the closings, each left to right. It
// stores them in that order in out (num and pat set) and returns how many;
// ok is false for any other cell.
func numericItems(cell []byte, limit int, out *[maxNumericItems]pendingItem) (n int, ok bool) {
	var items [maxNumericItems]pendingItem
	for rest := cell; ; {
		var item []byte
		item, rest = cutItem(rest)
		if len(item) > 0 {
			pat, v, ok := numericItem(item, limit)
			if !ok || n == len(items) {
				return 0, false
			}
			items[n] = pendingItem{num: int32(v), pat: int32(pat)}
			n++
		}
		if rest == nil {
			break
		}
	}
	k := 0
	for _, pat := range [...]int32{patSingle, patOpen, patClose} {
		for _, it := range items[:n] {
			if it.pat == pat {
				out[k] = it
				k++
			}
		}
	}
	return n, true
}

// hasBracket reports whether cell holds "(" or ")" (a byte loop: cells are
// short).
func hasBracket(cell []byte) bool {
	for _, c := range cell {
		if c == '(' || c == ')' {
			return true
		}
	}
	return false
}

// cutItem returns the text before the first "|" of s and the text after it
// (nil when s has no "|"), with a byte loop: cells are short.
func cutItem(s []byte) (item, rest []byte) {
	for i, c := range s {
		if c == '|' {
			return s[:i], s[i+1:]
		}
	}
	return s, nil
}

// corefItems passes the items of a coreference cell to sink in the order of
// the reference's substitutions (see substitute), using scratch (returned,
// possibly grown) when it needs a copy of the cell.
//
// A cell made only of "|"-separated items "(N)", "(N" and "N)" (N a run of
// digits; empty items allowed) takes a fast path: no removal can then join
// two items, so the substitutions find the one-token items left to right,
// then the openings, then the closings, which is what it emits, reading the
// cell in place. Any other cell goes through the four substitutions on a
// copy. Time is linear in len(cell) either way.
//
// bad reports that something with a bracket was left once every item was
// taken: an item that is not a number, such as "(abc)", which the reference
// skips without a word.
func corefItems(cell, scratch []byte, sink itemSink) (out []byte, bad bool, err error) {
	if pat := itemKind(cell); pat >= 0 { // one item, the usual cell
		return scratch, false, sink.item(pat, itemID(cell))
	}
	if simpleCell(cell) {
		for _, pat := range [...]int{patSingle, patOpen, patClose} {
			for rest := cell; len(rest) > 0; {
				var item []byte
				item, rest = cutItem(rest)
				if len(item) == 0 || itemKind(item) != pat {
					continue
				}
				if err := sink.item(pat, itemID(item)); err != nil {
					return scratch, false, err
				}
			}
		}
		return scratch, false, nil
	}
	s := append(scratch[:0], cell...)
	for pat := patDouble; pat <= patClose && err == nil; pat++ {
		s, err = substitute(s, pat, sink)
	}
	return s, err == nil && hasBracket(s), err
}

// itemID returns the entity id of a simple item: its digits.
func itemID(item []byte) []byte {
	if item[0] == '(' {
		item = item[1:]
	}
	if item[len(item)-1] == ')' {
		item = item[:len(item)-1]
	}
	return item
}

// itemKind returns patSingle for "(N)", patOpen for "(N", patClose for "N)"
// and -1 for anything else (N a non-empty run of digits).
func itemKind(item []byte) int {
	open := len(item) > 0 && item[0] == '('
	closing := len(item) > 0 && item[len(item)-1] == ')'
	i, j := 0, len(item)
	if open {
		i++
	}
	if closing {
		j--
	}
	if i >= j || (!open && !closing) || digitsAt(item, i) != j {
		return -1
	}
	switch {
	case open && closing:
		return patSingle
	case open:
		return patOpen
	}
	return patClose
}

// simpleCell reports whether every "|"-separated item of cell is empty or
// one of "(N)", "(N", "N)".
func simpleCell(cell []byte) bool {
	for rest := cell; ; {
		var item []byte
		item, rest = cutItem(rest)
		if len(item) > 0 && itemKind(item) < 0 {
			return false
		}
		if rest == nil {
			return true
		}
	}
}

// cursor is where the reader is, for item.
type cursor struct {
	tok int32
	num int
}

// pendingItem is a coreference item of an entity whose id is a canonical
// number (see canonicalNum), read but not yet applied (see resolve).
type pendingItem struct {
	num  int32 // the id's value
	tok  int32 // the token whose cell holds the item
	line int32
	pat  int32
}

// pendingBatch is how many items the reader gathers before it applies them
// (see resolve): enough for the processor to overlap many cache misses, few
// enough that their entities' states stay in the first-level cache.
const pendingBatch = 256

// item records one item of the coreference cell at d.cur. An item whose id
// is a canonical number joins d.pending; any other is applied at once,
// after those pending, so that items are applied in the order they come.
func (d *conllDoc) item(pat int, id []byte) error {
	if pat == patDouble {
		return nil
	}
	if v := canonicalNum(id, d.numLimit); v >= 0 {
		return d.addPending(pendingItem{num: int32(v), tok: d.cur.tok, line: int32(d.cur.num), pat: int32(pat)})
	}
	if err := d.resolve(); err != nil {
		return err
	}
	e, st := d.entity(id)
	return d.apply(pat, e, st, d.cur.tok, int32(d.cur.num))
}

// addPending adds it to the pending items, and applies them when they are
// pendingBatch.
func (d *conllDoc) addPending(it pendingItem) error {
	d.pending = append(d.pending, it)
	if len(d.pending) == pendingBatch {
		return d.resolve()
	}
	return nil
}

// resolve applies the pending items in their order. The state of a random
// entity of a large document is a cache miss: a first loop only loads the
// items' states, loads that do not depend on each other, so that the
// processor has many misses in flight at once rather than one per item;
// the second loop then finds them in the cache. The first error (an item's,
// so the first in the file) is returned; the items after it are dropped
// with the read.
func (d *conllDoc) resolve() error {
	items := d.pending
	if len(items) == 0 {
		return nil
	}
	d.pending = d.pending[:0]
	byNum := d.byNum
	var touched int32
	for _, it := range items {
		if int(it.num) < len(byNum) {
			touched += byNum[it.num].index
		}
	}
	d.touched = touched // kept, so that the loads are not optimised away
	for _, it := range items {
		e, st := d.entityNum(int(it.num))
		if err := d.apply(int(it.pat), e, st, it.tok, it.line); err != nil {
			return err
		}
	}
	return nil
}

// apply applies item pat (patSingle, patOpen or patClose) of entity e, whose
// state is st, at token tok of line line.
func (d *conllDoc) apply(pat int, e int32, st *entState, tok, line int32) error {
	switch pat {
	case patSingle:
		d.addSpan(e, st, tok, tok, line)
	case patOpen:
		d.pushOpen(st, tok)
	case patClose:
		top := st.top
		if top == 0 {
			return parseErr(d.path, int(line), d.name, "closing bracket \"%s)\" has no opening bracket", d.id(e))
		}
		o := &d.opens[top-1]
		start := o.start
		st.top = o.below
		o.below, d.freeOpen = d.freeOpen, top // the entry joins the free list
		d.corefOpen--
		d.addSpan(e, st, start, tok, line)
	}
	return nil
}

// pushOpen opens a mention at token tok of the entity whose state is st,
// in a free entry of d.opens when there is one.
func (d *conllDoc) pushOpen(st *entState, tok int32) {
	if f := d.freeOpen; f > 0 {
		o := &d.opens[f-1]
		d.freeOpen = o.below
		*o = openStart{start: tok, below: st.top}
		st.top = f
	} else {
		d.opens = append(d.opens, openStart{start: tok, below: st.top})
		st.top = int32(len(d.opens))
	}
	d.corefOpen++
}

// openCount returns the number of mentions of entity e still open and the
// start of the last one opened.
func (d *conllDoc) openCount(e int) (n int, last int32) {
	for top := d.stateOf(int32(e)).top; top > 0; top = d.opens[top-1].below {
		if n == 0 {
			last = d.opens[top-1].start
		}
		n++
	}
	return n, last
}

// addSpan records a mention of entity e, whose state is st, closing on
// line line, or drops it
// when it repeats the entity's previous mention (see Doc.Repeats).
func (d *conllDoc) addSpan(e int32, st *entState, start, end, line int32) {
	key := packSpan(start, end) + 1
	if st.last == key {
		if len(d.repeats) < maxRepeats {
			d.repeats = append(d.repeats, Mention{Start: start, End: end, Cluster: int64(e), Line: line})
		}
		d.numRepeats++
		return
	}
	d.spans = append(roomFor1(d.spans), span{start, end, line, e})
	st.last = key
}

// finish checks that every mention is closed and builds the Doc.
func (d *conllDoc) finish(path string, num int) (Doc, error) {
	if err := d.resolve(); err != nil {
		return Doc{}, err
	}
	if d.corefOpen > 0 {
		for e := range d.ents {
			if n, last := d.openCount(e); n > 0 {
				return Doc{}, parseErr(path, num, d.name,
					"%d mention(s) of entity %s still open at \"#end document\" (the last opened at token %d)",
					n, d.id(int32(e)), last)
			}
		}
	}
	doc := Doc{Name: d.name, NumTokens: int(d.tokens), Path: path, Line: d.line,
		Entities: d.entityIDs(), Repeats: d.repeats, NumRepeats: d.numRepeats}
	if d.badItems > 0 {
		doc.Warnings = append(doc.Warnings, gocore.Warning{Kind: gocore.WarnBadItem, Side: -1, Doc: -1,
			Line: d.badLine, Count: d.badItems,
			Msg: "a coreference item that is not a number was skipped, as the reference scorer skips it"})
	}
	if d.spaceItems > 0 {
		doc.Warnings = append(doc.Warnings, gocore.Warning{Kind: gocore.WarnOther, Side: -1, Doc: -1,
			Line: d.spaceLine, Count: d.spaceItems,
			Msg: "a token line with no tab has a coreference item such as \"(3)\" in a column other than the last: " +
				"read as a word; the reference scorer, which splits columns on tabs only, reads a mention there"})
	}
	doc.Mentions = d.groupByEntity()
	var classes []tokenClass
	if d.hasPOS {
		classes = d.classes
		if n := int(d.tokens); len(classes) < n { // untagged tokens after the last tagged one
			classes = append(classes, make([]tokenClass, n-len(classes))...)
		}
		d.classes = classes
	}
	if classes == nil && d.ne == nil {
		return doc, nil // no POS or NE column: the type is unknown and there is no head
	}
	ne := d.ne          // nil without an NE column: no lookups succeed
	var spans spanIndex // for long mentions only: built on the first
	for i := range doc.Mentions {
		m := &doc.Mentions[i]
		_, isNE := ne[packSpan(m.Start, m.End)]
		m.Type, d.clsBuf = spanType(m, nil, classes, isNE, d.clsBuf, &spans)
		var h int32
		if h, m.HasHead, d.clsBuf = spanHead(m, nil, classes, d.clsBuf, &spans); m.HasHead {
			m.Head = gocore.WordNode(h)
		}
	}
	return doc, nil
}

// radixMinEntities is the number of entities from which groupByEntity
// sorts in two passes: below it the per-entity counters and the mentions'
// destinations stay in the cache.
const radixMinEntities = 1 << 14

// groupByEntity returns the document's mentions grouped by entity, entities
// in index order, each entity's mentions in push order (a stable sort of
// d.spans by entity). With few entities it is one counting sort. With many
// it is a two-pass least-significant-digit radix sort, about half the
// entity index's bits a pass: a single counting sort would write each
// mention to a random place of the output (a cache miss per mention on a
// large document) where each pass writes to one of at most 2^radixBits
// places that advance in step, so that its writes stream.
func (d *conllDoc) groupByEntity() []Mention {
	out := make([]Mention, len(d.spans))
	put := func(i int32, sp span) {
		// Field by field: out is zeroed, and a whole Mention, which holds
		// a pointer, would be copied with a write barrier while the
		// collector runs.
		m := &out[i]
		m.Start, m.End, m.Cluster, m.Line = sp.start, sp.end, int64(sp.ent), sp.line
	}
	n := d.numEntities()
	if n < radixMinEntities {
		at := append(d.at[:0], make([]int32, n)...)
		d.at = at
		for _, sp := range d.spans {
			at[sp.ent]++
		}
		startsOf(at)
		for _, sp := range d.spans {
			put(at[sp.ent], sp)
			at[sp.ent]++
		}
		return out
	}
	lowBits := uint(bits.Len(uint(n-1))+1) / 2
	lowMask := int32(1)<<lowBits - 1
	at := append(d.at[:0], make([]int32, 1<<lowBits+n>>lowBits+1)...)
	d.at = at
	low, high := at[:1<<lowBits], at[1<<lowBits:]
	for _, sp := range d.spans {
		low[sp.ent&lowMask]++
		high[sp.ent>>lowBits]++
	}
	startsOf(low)
	startsOf(high)
	byLow := make([]span, len(d.spans))
	for _, sp := range d.spans {
		byLow[low[sp.ent&lowMask]] = sp
		low[sp.ent&lowMask]++
	}
	for _, sp := range byLow {
		put(high[sp.ent>>lowBits], sp)
		high[sp.ent>>lowBits]++
	}
	return out
}

// startsOf turns counts into the start of each one's run: exclusive prefix
// sums, in place.
func startsOf(counts []int32) {
	total := int32(0)
	for i, c := range counts {
		counts[i] = total
		total += c
	}
}

// entityIDs returns the entities' ids as strings, which share the storage of
// one string (one allocation for the document).
func (d *conllDoc) entityIDs() []string {
	all := string(d.idBytes)
	ids := make([]string, len(d.idEnds))
	start := int32(0)
	for e, end := range d.idEnds {
		ids[e] = all[start:end]
		start = end
	}
	return ids
}

// Byte-parallel scanning, eight bytes at a time.
const (
	ones  = 0x0101010101010101
	low7  = 0x7f7f7f7f7f7f7f7f
	tabs8 = '\t' * ones
)

// zeroBytes returns a word with the high bit set in exactly the bytes of y
// that are zero (no false positives, unlike the shorter borrow trick).
func zeroBytes(y uint64) uint64 {
	return ^(((y & low7) + low7) | y | low7)
}
