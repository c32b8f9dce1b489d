// Package conll reads coreference files into the engine's model: the
// CoNLL-2011/2012 format exactly as the CoNLL reference scorer v8.01 reads it,
// CorefUD 1.x CoNLL-U with Entity= annotations in MISC, and the jsonlines
// files that neural coreference systems write.
//
// Each reader turns one file into a list of Doc values: a document name, its
// number of tokens, and its mentions. A mention is a set of token (word)
// indices counted from 0 across the whole document (blank lines, sentence
// breaks, are not tokens), stored as a span [Start, End] when it is
// contiguous and as a sorted list of indices when it is not. Pair matches the
// documents of a key file and a response file by name and turns each pair
// into a gocore.Document, packing a contiguous span as
//
//	id = Start<<32 | End
//
// and interning a discontinuous mention to an id with bit 62 set, shared by
// the key and the response of the pair. ReadPair reads two files and pairs
// them. The readers only read: package files (gocore/files) reads, pairs and
// scores a pair of files, composing this package with the engine.
//
// The order of the mentions within a Doc is meaningful: the engine keeps the
// first occurrence of a repeated mention (DuplicatesKeepFirst), so the CoNLL
// reader emits mentions in the order in which the reference scorer stores
// them (grouped by entity, entities in order of first sight, see
// ReadCoNLL2012).
//
// Mention types (name, nominal, pronoun) come from the files' tags by one
// rule for every format (see mentionTypeOf in types.go): a one-token PRP,
// PRP$, WP or WP$ is a pronoun; a named entity (an NE-column span of a
// CoNLL-2012 file, a CoNLL-U mention whose head word, as the file's declared
// head or minspan attribute or else its dependency tree gives it, is PROPN) or a
// mention whose simple head (last token before the first preposition,
// conjunction, wh-word, comma or colon, skipping a possessive ending or
// punctuation, and a noun's trailing numbers, foreign words and adjectives)
// is NNP/NNPS is a name; anything else tagged is nominal.
// Without tags (no POS column, jsonlines) types are gocore.TypeUnknown.
//
// CoNLL-UA files (the Universal Anaphora format: split antecedents,
// non-referring markables, bridging, discourse deixis, minimum spans) are
// read by ReadUA into UADoc values and scored by gocore.ScoreUA, not through
// Doc and Pair; Score takes that road for format "ua" or a key file whose
// "# global.columns" header names an IDENTITY column (ua.go).
//
// Every error about a file is a *ParseError naming the file, the line and,
// when there is one, the document; it wraps gocore.ErrInvalidInput.
package conll

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/corefscore/corefscore/gocore"
	"github.com/pkg/errors"
)

// Mention is one mention of a document: a contiguous span [Start, End] of
// token indices (inclusive, 0-based, counted across the document) when its
// document's Words(m) is nil, otherwise that set of token indices (sorted,
// unique, not contiguous; Start and End are then its first and last
// element).
//
// A Mention is 40 bytes and holds no pointer: the readers hold one per
// mention of both files while they are scored (2,000,000 of them for a
// 1M-mention document), so what few mentions have (a word list, empty
// nodes) lies in its document's table, found by an index, and the head's
// sentence is the document's to tell (Doc.HeadSentence). With no pointer in
// it, the collector never scans a mention array: scanning one read its
// fresh pages before the reader wrote them, and each first write then
// faulted again and flushed the TLB of every CPU the process ran on.
type Mention struct {
	Start, End int32
	Line       int32              // 1-based line where the mention closes (jsonlines: its document's line), 0 = unknown
	Type       gocore.MentionType // derived from POS / NE columns, TypeUnknown without them
	// HasHead is false when the reader gives no head: CoNLL-U always gives
	// one; CoNLL-2012 when every word of the mention has a POS tag, by the
	// head rule of the mention types, see simpleHead; jsonlines never.
	HasHead bool
	Cluster int64       // dense entity index in order of first sight within the document
	Head    gocore.Node // the mention's head node, when HasHead
	// rare is 0 unless the mention is discontinuous or has empty nodes
	// (CoNLL-U): then it is the 1-based index of its part in its document's
	// rareTable (see Doc.Words, Doc.EmptyNodes and Doc.HeadDeps).
	rare int32
}

// mentionRare is what a discontinuous CoNLL-U mention or one with empty
// nodes adds: kept apart so that the many mentions without any stay small.
type mentionRare struct {
	words []int32       // the words of a discontinuous mention, nil for a span
	nodes []gocore.Node // empty nodes, sorted
	deps  []gocore.Dep  // DEPS of the head when it is one of the empty nodes
}

// rareTable holds the rare parts of one document's mentions.
type rareTable []mentionRare

// of returns m's rare part, nil when it has none.
func (t rareTable) of(m *Mention) *mentionRare {
	if m.rare == 0 {
		return nil
	}
	return &t[m.rare-1]
}

// add returns m's rare part, making it when m has none. The pointer is
// valid until the next add.
func (t *rareTable) add(m *Mention) *mentionRare {
	if m.rare == 0 {
		*t = append(*t, mentionRare{})
		m.rare = int32(len(*t))
	}
	return &(*t)[m.rare-1]
}

// words returns the words of a discontinuous mention, nil for a span.
func (t rareTable) words(m *Mention) []int32 {
	if r := t.of(m); r != nil {
		return r.words
	}
	return nil
}

// Words returns the words of m, a mention of d, when it is discontinuous
// (sorted, unique, not contiguous), nil when it is contiguous.
func (d *Doc) Words(m *Mention) []int32 { return d.rare.words(m) }

// EmptyNodes returns the empty nodes of m, a mention of d (CoNLL-U), sorted;
// nil when it has none. A zero mention has no words (End < Start) but empty
// nodes.
func (d *Doc) EmptyNodes(m *Mention) []gocore.Node {
	if r := d.rare.of(m); r != nil {
		return r.nodes
	}
	return nil
}

// HeadDeps returns the DEPS of the head of m, a mention of d, when it is an
// empty node (CoNLL-U), nil otherwise or when the file gives none.
func (d *Doc) HeadDeps(m *Mention) []gocore.Dep {
	if r := d.rare.of(m); r != nil {
		return r.deps
	}
	return nil
}

// Doc is one document read from a file.
type Doc struct {
	Name string
	// NumTokens is the number of tokens (CoNLL-2012 token lines, CoNLL-U
	// words), or -1 when the file does not say (jsonlines without
	// "sentences").
	NumTokens int
	// Mentions in the reader's order (see the package comment).
	Mentions []Mention
	// Entities holds the file's label of each cluster: Entities[c] is the
	// entity id string of cluster c.
	Entities []string
	// Path and Line locate the document's first line, for messages.
	Path string
	Line int
	// Warnings met while reading the document (for the first document,
	// also those about the whole file, such as a byte order mark).
	Warnings []gocore.Warning
	// Repeats are the first maxRepeats mentions that the reader dropped as
	// exact repeats of the previous mention of their entity (the same span
	// twice in one coreference cell, as in "(1)|(1)"); NumRepeats counts all
	// of them. The engine would keep the first occurrence too; dropping them
	// while reading bounds the memory of a cell that repeats millions of
	// times.
	Repeats    []Mention
	NumRepeats int64
	// emptyNodes is true for CoNLL-U documents, which can have empty nodes
	// (and whose mentions have nodes and heads).
	emptyNodes bool
	// sentStart is, per word, the document index of the first word of its
	// sentence (CoNLL-U); nil when the reader does not keep sentences.
	sentStart []int32
	// rare holds the word lists, empty nodes and head DEPS of the few
	// mentions that have them (Mention.rare indexes it).
	rare rareTable
}

// HeadSentence returns the document index of the first word of the
// sentence of m's head (a CoNLL-U mention of d), or -1 when unknown (no
// head, or a format whose reader does not keep sentences).
func (d *Doc) HeadSentence(m *Mention) int32 {
	if !m.HasHead || d.sentStart == nil {
		return -1
	}
	w := int64(m.Head >> 16) // an empty node "n.k" follows word w-1; a "0.k" node precedes word w
	switch {
	case !m.Head.Empty():
		w--
	case m.Head&0x8000 != 0:
		return int32(w)
	default:
		w--
	}
	if w < 0 || w >= int64(len(d.sentStart)) {
		return -1
	}
	return d.sentStart[w]
}

// maxRepeats bounds Doc.Repeats.
const maxRepeats = 1000

// maxLine bounds the length of a line of a CoNLL-2012 file, so that input
// that never ends a line (a device, a binary file without NUL bytes) is
// refused rather than buffered without end.
const maxLine = 64 << 20

// utf8BOM is the UTF-8 byte order mark, accepted and skipped at the start of
// a file.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// bomWarning says that a file's byte order mark was skipped.
func bomWarning(path string) gocore.Warning {
	return gocore.Warning{Kind: gocore.WarnOther, Side: -1, Doc: -1, Line: 1, Count: 1,
		Msg: "the file starts with a UTF-8 byte order mark: skipped"}
}

// crOnly reports whether data, the start of a file, ends its lines with CR
// alone (classic Mac OS): it holds a CR before its end and no LF.
func crOnly(data []byte) bool {
	i := bytes.IndexByte(data, '\r')
	return i >= 0 && i < len(data)-1 && bytes.IndexByte(data, '\n') < 0
}

// crError refuses a file with CR line endings.
func crError(path string) error {
	return parseErr(path, 1, "", "the file uses CR line endings (a lone carriage return ends each line): convert them to LF")
}

// nulError refuses a file with a NUL byte; line is the line it is on.
func nulError(path string, line int) error {
	return parseErr(path, line, "", "binary data (a NUL byte): not a text file")
}

// Format names accepted by Read.
const (
	FormatCoNLL2012 = "conll2012"
	FormatCoNLLU    = "conllu"
	FormatJSONLines = "jsonlines"
)

// ParseError is an error about the content of a file. Its message has the
// form
//
//	path:line: document "NAME": problem
//
// (without the document part when the line lies outside any document).
type ParseError struct {
	Path string
	Line int    // 1-based line number
	Doc  string // document name, empty when unknown
	Msg  string
	// empty marks the error of a file with no non-blank content (see
	// isEmptyFile): a response file may be empty.
	empty bool
}

// Error returns the message described on ParseError.
func (e *ParseError) Error() string {
	if e.Doc != "" {
		return fmt.Sprintf("%s:%d: document %q: %s", e.Path, e.Line, e.Doc, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
}

// Unwrap returns gocore.ErrInvalidInput, so that callers can tell bad input
// from internal failures with errors.Is.
func (e *ParseError) Unwrap() error { return gocore.ErrInvalidInput }

// parseErr builds a *ParseError.
func parseErr(path string, line int, doc, format string, args ...any) error {
	return &ParseError{Path: path, Line: line, Doc: doc, Msg: fmt.Sprintf(format, args...)}
}

// lines iterates over the lines of data held in memory (a whole file, or a
// run of whole lines of one), counting them and checking each for NUL bytes
// and invalid UTF-8 only when data has some (a single pass over clean data).
type lines struct {
	data    []byte
	pos     int
	start   int // offset in data of the line last returned
	num     int // number of the line last returned, 1-based
	hasNUL  bool
	badUTF8 bool
}

func newLines(data []byte) *lines {
	return &lines{
		data:    data,
		hasNUL:  bytes.IndexByte(data, 0) >= 0,
		badUTF8: !utf8.Valid(data),
	}
}

// next returns the next line without its "\n" (a "\r" before it is kept), or
// ok=false at the end of the data. problem is non-empty when the line holds a
// NUL byte or is not valid UTF-8.
func (l *lines) next() (line []byte, problem string, ok bool) {
	if l.pos >= len(l.data) {
		return nil, "", false
	}
	rest := l.data[l.pos:]
	l.start = l.pos
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		line = rest
		l.pos = len(l.data)
	} else {
		line = rest[:i]
		l.pos += i + 1
	}
	l.num++
	if l.hasNUL && bytes.IndexByte(line, 0) >= 0 {
		return line, "binary data (a NUL byte): not a text file", true
	}
	if l.badUTF8 && !utf8.Valid(line) {
		return line, "invalid UTF-8", true
	}
	return line, "", true
}

// roomFor1 returns s with room for one more element: when s is full its
// capacity at least doubles. append grows a large slice by about 1.25x,
// which for the readers' per-word, per-entity and per-mention arrays
// (millions of elements in one document) allocates about five times the
// final array and copies it four times over; doubling allocates twice and
// copies it once.
func roomFor1[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return regrow(s, max(2*cap(s), 16))
}

// regrow returns a copy of s with capacity c (>= len(s)), the rest zero
// (see fillFrom).
func regrow[T any](s []T, c int) []T { return fillFrom(make([]T, len(s), c), s) }

// fillFrom copies src into dst, as long, and returns dst.
// The copy is made in pieces, each a call that can stop: the collector
// stops a goroutine to scan its stack at a function's entry or at an
// instruction where that is safe, never inside a runtime copy, and one copy
// of tens of MB (its page faults included) held each collection's stack
// scan for milliseconds while the collector spun and signalled the reading
// thread again and again (7,500 signals a run on the 1M-mention document,
// most of them landing in such copies; perf).
func fillFrom[T any](dst, src []T) []T {
	const piece = 1 << 12 // elements
	for i := 0; i < len(src); i += piece {
		copyPiece(dst[i:min(i+piece, len(src))], src[i:])
	}
	return dst
}

// copyPiece is copy in a call of its own, whose entry the collector can
// stop at (see regrow).
//
//go:noinline
func copyPiece[T any](dst, src []T) { copy(dst, src) }

// isBlank reports whether b holds only white space (Perl's \s).
func isBlank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// trimCR removes one trailing carriage return.
func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// checkEmpty returns an error for a file with no non-blank content.
func checkEmpty(data []byte, path string) error {
	if isBlank(data) {
		return &ParseError{Path: path, Line: 1, Msg: "empty file: no document", empty: true}
	}
	return nil
}

// isEmptyFile reports whether err is checkEmpty's error.
func isEmptyFile(err error) bool {
	var pe *ParseError
	return errors.As(err, &pe) && pe.empty
}

// Read reads a coreference file in the given format: FormatCoNLL2012 (also
// "conll", "conll2011"), FormatCoNLLU or FormatJSONLines (also "jsonl"). With
// format "" it guesses the format from the file name's extension
// (.conll, .gold_conll, .auto_conll, .v4_gold_conll, .key, .response and
// others ending in "conll" → CoNLL-2012; .conllu → CoNLL-U; .jsonl,
// .jsonlines, .json → jsonlines) and otherwise from the content (see
// SniffFormat). A file known to be CoNLL-2012 or CoNLL-U from format or its
// name is parsed as it is read, through a buffer; other files are read whole
// first.
func Read(path, format string) ([]Doc, error) {
	return readPath(path, format, true)
}

// readPath is Read; without types, a CoNLL-2012 file's POS and named-entity
// columns are not read (mention types stay gocore.TypeUnknown), which makes
// the read about a third faster. CoNLL-U files give their types either way.
func readPath(path, format string, types bool) ([]Doc, error) {
	return readWith(path, readOpts{format: format, types: types})
}

// readOpts are the choices of one read.
type readOpts struct {
	format string
	types  bool // read mention types
	// response: the file is a response, whose jsonlines documents may hold
	// their clusters in "predicted_clusters" or in clustersField.
	response      bool
	clustersField string
	stop          func() bool // polled while reading; nil: never
	// text, when not nil, receives the words of each document (see
	// Documents), read from the same bytes as the documents: the file is
	// then read whole first, and its words are scanned while it is parsed.
	text *[]Text
	// syntax, when not nil, receives each CoNLL-2012 document's words, tags
	// and parse (nil for a document without them; see conll2012Syntax),
	// scanned as text is.
	syntax *[]*gocore.Syntax
	// wordBytes > 0 keeps only the first words of text, at most wordBytes
	// bytes of them in file order (see textsOf); 0 keeps them all.
	wordBytes int
}

// stopReader reads a file, polling stop before each read; on a pipe or a
// FIFO, whose reads can wait for a writer without end, each read waits at
// most stopPoll before stop is polled again.
type stopReader struct {
	f    *os.File
	stop func() bool
	pipe bool // the file takes read deadlines
}

// stopPoll is the longest a read waits before the stop function is polled.
const stopPoll = 50 * time.Millisecond

func newStopReader(f *os.File, stop func() bool) *stopReader {
	r := &stopReader{f: f, stop: stop}
	r.pipe = stop != nil && f.SetReadDeadline(time.Now().Add(stopPoll)) == nil
	return r
}

// stopReadChunk is the most one read asks for: a read of a whole large
// file into a buffer of its size (readWithText, readAllSized) is then many
// reads, with a poll of the stop function between two (a single read of
// 400 MB takes about half a second).
const stopReadChunk = 4 << 20

func (r *stopReader) Read(b []byte) (int, error) {
	if len(b) > stopReadChunk {
		b = b[:stopReadChunk]
	}
	for {
		if r.stop != nil && r.stop() {
			return 0, gocore.ErrCancelled
		}
		if r.pipe {
			_ = r.f.SetReadDeadline(time.Now().Add(stopPoll))
		}
		n, err := r.f.Read(b)
		if r.pipe && n == 0 && errors.Is(err, os.ErrDeadlineExceeded) {
			continue
		}
		return n, err
	}
}

// readAllInto reads r to its end into a buffer made for size bytes (the
// file's size; it grows if more come). Growing by doubling would hold up to
// twice the file while it is read; and the buffer is only made, not
// written, before the reads (bytes.Buffer.Grow writes its zeros: on a
// 400 MB file, a second and a half under load without a poll of the stop
// function), so its pages are touched one read at a time.
func readAllInto(r io.Reader, size int) ([]byte, error) {
	data := make([]byte, 0, size+bytes.MinRead)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// pollingReader is a reader that polls stop (nil: never) before each read
// and then fails with gocore.ErrCancelled.
type pollingReader struct {
	r    io.Reader
	stop func() bool
}

func (p pollingReader) Read(b []byte) (int, error) {
	if p.stop != nil && p.stop() {
		return 0, gocore.ErrCancelled
	}
	return p.r.Read(b)
}

// openFile opens path for reading. A regular file (or any file when stop is
// nil) is opened directly; anything else (a FIFO, whose open waits for a
// writer without end, a device) is opened on a goroutine while stop is
// polled every stopPoll, so that a cancelled read returns
// gocore.ErrCancelled at once. The abandoned goroutine closes the file if
// its open ever completes.
func openFile(path string, stop func() bool) (*os.File, error) {
	if stop == nil {
		return os.Open(path)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().IsRegular() {
		return os.Open(path) // the error, if any, is the open's own
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	var mu sync.Mutex // orders the goroutine's hand-over with the abandonment
	abandoned := false
	go func() {
		f, err := os.Open(path)
		mu.Lock()
		defer mu.Unlock()
		if abandoned {
			if f != nil {
				_ = f.Close()
			}
			return
		}
		done <- opened{f, err}
	}()
	tick := time.NewTicker(stopPoll)
	defer tick.Stop()
	for {
		select {
		case o := <-done:
			return o.f, o.err
		case <-tick.C:
			if stop() {
				mu.Lock()
				abandoned = true
				select { // handed over meanwhile: close it here
				case o := <-done:
					if o.f != nil {
						_ = o.f.Close()
					}
				default:
				}
				mu.Unlock()
				return nil, gocore.ErrCancelled
			}
		}
	}
}

// readWith is readPath with every choice.
func readWith(path string, o readOpts) ([]Doc, error) {
	format, types := o.format, o.types
	if o.text != nil || o.syntax != nil {
		return readWithText(path, o)
	}
	if f, err := resolveFormat(nil, path, format); err == nil && (f == FormatCoNLL2012 || f == FormatCoNLLU) {
		// Known without the content (from format or the name): read it as it comes.
		file, err := openFile(path, o.stop)
		if err != nil {
			return nil, openErr(err, path)
		}
		defer file.Close()
		if f == FormatCoNLLU {
			return readCoNLLUStream(newStopReader(file, o.stop), path)
		}
		return readCoNLL2012Stream(newStopReader(file, o.stop), path, types, regularSize(file))
	}
	file, err := openFile(path, o.stop)
	if err != nil {
		return nil, openErr(err, path)
	}
	defer file.Close()
	data, err := readAllSized(newStopReader(file, o.stop), path, regularSize(file))
	if err != nil {
		return nil, err
	}
	return parseWith(data, path, o)
}

// regularSize returns the size of a regular file, 0 for anything else (a
// pipe, a device) or when it is unknown.
func regularSize(file *os.File) int {
	if st, err := file.Stat(); err == nil && st.Mode().IsRegular() && st.Size() < 1<<40 {
		return int(st.Size())
	}
	return 0
}

// openErr wraps an error of openFile, leaving a cancellation as it is.
func openErr(err error, path string) error {
	if errors.Is(err, gocore.ErrCancelled) {
		return err
	}
	return errors.Wrapf(err, "conll: reading %s", path)
}

// readWithText is readWith for a read that also wants the documents' words
// (o.text not nil) or their syntax (o.syntax not nil): the file is read into
// memory once, parsed as readWith parses it (a CoNLL-2012 file known from
// format or name through the same streaming parser, so that errors and types
// are those of a plain read) and, concurrently, scanned for its words and
// syntax; *o.text gets one Text per document (see alignTexts), *o.syntax one
// Syntax per document (see alignSyntax).
func readWithText(path string, o readOpts) ([]Doc, error) {
	file, err := openFile(path, o.stop)
	if err != nil {
		return nil, openErr(err, path)
	}
	data, err := readAllInto(newStopReader(file, o.stop), regularSize(file))
	_ = file.Close()
	if err != nil {
		if errors.Is(err, gocore.ErrCancelled) {
			return nil, err
		}
		return nil, errors.Wrapf(err, "conll: reading %s", path)
	}
	var texts []Text
	var syntax []*gocore.Syntax
	var textErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if recover() != nil {
				// Words are for display, syntax for the analysis: a document
				// without them shows none or is analysed without a parse.
				texts, syntax = nil, nil
			}
		}()
		if o.text != nil {
			texts, textErr = textsOf(data, path, o.format, o.wordBytes, o.stop)
		}
		if o.syntax != nil {
			if f, err := resolveFormat(bytes.TrimPrefix(data, utf8BOM), path, o.format); err == nil && f == FormatCoNLL2012 {
				syntax = conll2012Syntax(data, o.stop)
			}
		}
	}()
	var docs []Doc
	if f, ferr := resolveFormat(nil, path, o.format); ferr == nil && f == FormatCoNLL2012 {
		// Through the stop-polling reader, so that a cancelled parse of the
		// bytes in memory ends within a chunk, as a read of the file does.
		docs, err = readCoNLL2012Stream(pollingReader{bytes.NewReader(data), o.stop}, path, o.types, len(data))
	} else {
		if i := bytes.IndexByte(data, 0); i >= 0 {
			err = nulError(path, 1+bytes.Count(data[:i], []byte{'\n'}))
		} else {
			docs, err = parseWith(data, path, o)
		}
	}
	<-done
	if err == nil {
		err = textErr
	}
	if err != nil {
		return nil, err
	}
	if o.text != nil {
		*o.text = alignTexts(docs, texts)
	}
	if o.syntax != nil {
		*o.syntax = alignSyntax(docs, syntax)
	}
	return docs, nil
}

// Parse is Read on data already in memory; path is used in messages and, for
// CoNLL-U without "# newdoc", as the document name.
//
// A UTF-8 byte order mark at the start is skipped, with a warning on the
// first document; a file whose lines end with CR alone is refused.
func Parse(data []byte, path, format string) ([]Doc, error) {
	return parseWith(data, path, readOpts{format: format, types: true})
}

// parseWith is Parse with every choice.
func parseWith(data []byte, path string, o readOpts) ([]Doc, error) {
	format := o.format
	bom := bytes.HasPrefix(data, utf8BOM)
	if bom {
		data = data[len(utf8BOM):]
	}
	if crOnly(data) {
		return nil, crError(path)
	}
	f, err := resolveFormat(data, path, format)
	if err != nil {
		return nil, err
	}
	var docs []Doc
	switch f {
	case FormatCoNLL2012:
		docs, err = parseCoNLL2012(data, path, o.stop)
	case FormatCoNLLU:
		docs, err = parseCoNLLU(data, path, o.stop)
	default:
		docs, err = parseJSONLinesWith(data, path, o)
	}
	if err == nil && bom && len(docs) > 0 {
		docs[0].Warnings = append([]gocore.Warning{bomWarning(path)}, docs[0].Warnings...)
	}
	return docs, err
}

// resolveFormat canonicalises a format name or guesses one.
func resolveFormat(data []byte, path, format string) (string, error) {
	switch strings.ToLower(format) {
	case "conll2012", "conll", "conll2011", "conll-2012", "conll-2011":
		return FormatCoNLL2012, nil
	case "conllu", "conll-u":
		return FormatCoNLLU, nil
	case "jsonlines", "jsonl":
		return FormatJSONLines, nil
	case "":
	default:
		return "", errors.Wrapf(gocore.ErrInvalidInput,
			"conll: unknown format %q; want conll2012, conllu or jsonlines", format)
	}
	if f := formatFromName(path); f != "" {
		return f, nil
	}
	if f := SniffFormat(data); f != "" {
		return f, nil
	}
	if err := checkEmpty(data, path); err != nil {
		return "", err
	}
	return "", parseErr(path, 1, "", "cannot tell the file format from its name or content; give it explicitly (conll2012, conllu or jsonlines)")
}

// formatFromName guesses a format from the extension, "" when it cannot.
func formatFromName(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case ext == ".conllu":
		return FormatCoNLLU
	case ext == ".jsonl" || ext == ".jsonlines" || ext == ".json":
		return FormatJSONLines
	case strings.HasSuffix(ext, "conll") || ext == ".key" || ext == ".response":
		return FormatCoNLL2012
	}
	return ""
}

// SniffFormat guesses the format of a file from its first non-blank line:
// "#begin document" → CoNLL-2012; "{" → jsonlines; a CoNLL-U comment
// ("# newdoc", "# sent_id", "# text", "# global.") or a line of ten
// tab-separated columns starting with a number → CoNLL-U. It returns "" when
// no rule applies.
func SniffFormat(data []byte) string {
	l := newLines(data)
	for {
		line, problem, ok := l.next()
		if !ok || problem != "" {
			return ""
		}
		if isBlank(line) {
			continue
		}
		line = bytes.TrimSpace(line)
		switch {
		case line[0] == '{':
			return FormatJSONLines
		case isBeginLine(line):
			return FormatCoNLL2012
		case line[0] == '#':
			rest := bytes.TrimLeft(line[1:], " \t")
			for _, p := range []string{"newdoc", "sent_id", "text", "global.", "newpar"} {
				if bytes.HasPrefix(rest, []byte(p)) {
					return FormatCoNLLU
				}
			}
			continue
		case bytes.Count(line, []byte{'\t'}) == 9 && line[0] >= '0' && line[0] <= '9':
			return FormatCoNLLU
		}
		return ""
	}
}

// readAll reads r whole, for the readers that parse a whole file, checking
// each chunk as it comes for a NUL byte, so that a binary file or a device
// such as /dev/zero is refused at once rather than read without end.
func readAll(r io.Reader, path string) ([]byte, error) {
	return readAllSized(r, path, 0)
}

// readAllSized is readAll for a file expected to hold size bytes (a regular
// file's size; 0 when unknown): its buffer is allocated once, one byte
// larger so that the read which finds the end needs no growth.
func readAllSized(r io.Reader, path string, size int) ([]byte, error) {
	data := make([]byte, 0, max(size+1, 64<<10))
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		k, err := r.Read(data[len(data):cap(data)])
		chunk := data[len(data) : len(data)+k]
		if i := bytes.IndexByte(chunk, 0); i >= 0 {
			return nil, nulError(path, 1+bytes.Count(data[:len(data)+i], []byte{'\n'}))
		}
		data = data[:len(data)+k]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, errors.Wrapf(err, "conll: reading %s", path)
		}
	}
}
