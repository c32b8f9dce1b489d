package main

// This file holds everything behind the exports that needs no C type, on
// ordinary Go values, so that it can be unit-tested (cgo is not allowed in
// _test.go files): handles, checks of lengths and offsets, the conversion of
// errors, duplicates and warnings into records shaped like the header's
// structs, and the two scoring calls.

import (
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/files"
)

// abiVersion must equal CS_ABI_VERSION in corefscore.h.
const abiVersion = 4

// Status codes, as in corefscore.h.
const (
	statusOK             = 0
	statusInvalidInput   = 1
	statusBufferTooSmall = 2
	statusInternal       = 3
	statusIO             = 4
	statusCancelled      = 5
)

// messageLen is CS_MESSAGE_LEN.
const messageLen = 512

// maxBytes bounds the size in bytes of any caller array: lengths beyond it
// (a 47-bit address space) are refused before a slice is made over them.
const maxBytes = int64(1) << 47

// argErr returns an error of kind KindArgument.
func argErr(format string, args ...any) *gocore.Error {
	return gocore.NewError(gocore.KindArgument, format, args...)
}

// checkLen checks that n elements of size bytes each fit in memory; name
// names the length in the message.
func checkLen(name string, n int64, size int64) error {
	if n < 0 {
		return argErr("%s is negative (%d)", name, n)
	}
	if n > maxBytes/size {
		return argErr("%s is too large (%d)", name, n)
	}
	return nil
}

// checkBuffer checks a caller buffer of capacity n: a NULL buffer must
// have capacity 0.
func checkBuffer(name string, isNull bool, n int64, size int64) error {
	if err := checkLen(name, n, size); err != nil {
		return err
	}
	if isNull && n > 0 {
		return argErr("%s is %d but its buffer is NULL", name, n)
	}
	return nil
}

// checkOffsets checks CSR offsets of nDocs documents over length entries:
// offsets[0] = 0, non-decreasing, offsets[nDocs] = length. what names them.
func checkOffsets(what string, offsets []int64, length int64) error {
	n := len(offsets) - 1
	if offsets[0] != 0 || offsets[n] != length {
		return argErr("%s offsets must run from 0 to %d; got %d to %d", what, length, offsets[0], offsets[n])
	}
	for d := 0; d < n; d++ {
		if offsets[d+1] < offsets[d] {
			e := argErr("%s offsets decrease (%d then %d)", what, offsets[d], offsets[d+1])
			e.Doc = d
			return e
		}
	}
	return nil
}

// handles maps integer handles (> 0, never reused) to values.
type handles[T any] struct {
	mu sync.Mutex
	m  map[int64]T
}

// nextHandle numbers the handles of every kind from one sequence, so that
// a handle names one result whatever its kind and cs_free needs no kind.
var nextHandle atomic.Int64

func (h *handles[T]) put(v T) int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = make(map[int64]T)
	}
	id := nextHandle.Add(1)
	h.m[id] = v
	return id
}

func (h *handles[T]) get(id int64) (T, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.m[id]
	return v, ok
}

// take removes and returns the value of id.
func (h *handles[T]) take(id int64) (T, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.m[id]
	delete(h.m, id)
	return v, ok
}

var (
	optionHandles handles[*callOptions]
	resultHandles handles[*files.FileResult]
)

// freeHandle frees the result of a handle of any kind (options, file
// scores, analysis, documents); an unknown handle is ignored.
func freeHandle(h int64) {
	optionHandles.take(h)
	resultHandles.take(h)
	analysisHandles.take(h)
	documentsHandles.take(h)
}

// columnNames writes the counts columns' names, each NUL-terminated, back
// to back into names, and their metric indices into metrics, when both are
// large enough; it returns the number of columns and the bytes the names
// need.
func columnNames(names []byte, metrics []int32) (n, need int64, ok bool) {
	cols := gocore.Columns()
	for _, c := range cols {
		need += int64(len(c)) + 1
	}
	if int64(len(names)) < need || len(metrics) < len(cols) {
		return int64(len(cols)), need, false
	}
	pos := 0
	for i, c := range cols {
		pos += copy(names[pos:], c)
		names[pos] = 0
		pos++
		metrics[i] = int32(gocore.ColumnMetric(i))
	}
	return int64(len(cols)), need, true
}

// defaultOptions are the options of handle 0, parsed once.
// (ParseOptions fails only on lists of different lengths.)
var defaultOptions, _ = parseCallOptions(nil, nil)

// newOptions validates the options into a handle.
func newOptions(keys, values []string) (int64, error) {
	co, err := parseCallOptions(keys, values)
	if err != nil {
		return 0, err
	}
	return optionHandles.put(&co), nil
}

// callOptionsOf returns the options of a handle, 0 meaning the defaults.
func callOptionsOf(h int64) (callOptions, error) {
	if h == 0 {
		return defaultOptions, nil
	}
	co, ok := optionHandles.get(h)
	if !ok {
		return callOptions{}, argErr("options handle %d is not valid (never made, or freed)", h)
	}
	return *co, nil
}

// errRecord is a cs_error as Go values.
type errRecord struct {
	status, kind  int32
	doc           int64
	side, option  int32
	mention, line int64
	start, end    int64
	message       string
}

// statusOfKind maps an error kind to a status.
func statusOfKind(k gocore.ErrorKind) int32 {
	switch k {
	case gocore.KindNotFound, gocore.KindIO:
		return statusIO
	case gocore.KindCancelled:
		return statusCancelled
	case gocore.KindInternal:
		return statusInternal
	}
	return statusInvalidInput
}

// errBufferTooSmall is a caller buffer smaller than the call's contract asks.
type errBufferTooSmall struct{ msg string }

func (e errBufferTooSmall) Error() string { return e.msg }

// recordOf turns any error into a record. The message is the error's own
// text, without the fields (document, side, file, line) that the record
// carries apart.
func recordOf(err error) errRecord {
	if b, ok := err.(errBufferTooSmall); ok {
		return errRecord{status: statusBufferTooSmall, kind: int32(gocore.KindArgument), doc: -1, side: -1,
			option: -1, mention: -1, start: -1, end: -1, message: b.msg}
	}
	e := gocore.AsError(err)
	msg := e.Msg
	if e.Path != "" && e.Name != "" {
		// A failed file call returns no document names: the message carries the one it needs.
		msg = fmt.Sprintf("document %q: %s", e.Name, msg)
	}
	return errRecord{status: statusOfKind(e.Kind), kind: int32(e.Kind), doc: int64(e.Doc), side: int32(e.Side),
		option: int32(e.Option), mention: int64(e.Mention), line: int64(e.Line), start: e.Start, end: e.End,
		message: msg}
}

// recoveredErr turns a recovered panic (a bug, or a fault on a bad caller
// pointer) into an internal error.
func recoveredErr(r any) error {
	return gocore.NewError(gocore.KindInternal, "internal error: %v", r)
}

// messageBytes returns s truncated to fit a message buffer with its NUL,
// never cutting a UTF-8 sequence.
func messageBytes(s string) []byte {
	if len(s) < messageLen {
		return []byte(s)
	}
	cut := messageLen - 1
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return []byte(s[:cut])
}

// flatSide is one side of a batch as Go slices over the caller's arrays.
type flatSide struct {
	offsets  []int64
	mentions []int64
	clusters []int64
	types    []int8 // nil when the caller gave none
}

// buildDocs slices the flat arrays into documents without copying. names
// holds one name per document, or is nil.
func buildDocs(key, resp flatSide, names []string) ([]gocore.Document, error) {
	nDocs := len(key.offsets) - 1
	if names != nil && len(names) != nDocs {
		return nil, argErr("%d document names for %d documents", len(names), nDocs)
	}
	for s, side := range []flatSide{key, resp} {
		if err := checkSide(side, gocore.SideKind(s)); err != nil {
			return nil, err
		}
	}
	docs := make([]gocore.Document, nDocs)
	for d := range docs {
		if names != nil {
			docs[d].Name = names[d]
		}
		docs[d].Key = sideSlice(key, d)
		docs[d].Response = sideSlice(resp, d)
	}
	return docs, nil
}

// checkSide verifies the CSR invariants of one side.
func checkSide(s flatSide, kind gocore.SideKind) error {
	n := int64(len(s.mentions))
	if int64(len(s.clusters)) != n || (s.types != nil && int64(len(s.types)) != n) {
		e := argErr("%s arrays differ in length", kind)
		e.Side = int(kind)
		return e
	}
	if err := checkOffsets(kind.String(), s.offsets, n); err != nil {
		err.(*gocore.Error).Side = int(kind)
		return err
	}
	return nil
}

// checkSpans checks, when opt.SpanMentions says the caller's mention ids
// are packed spans, that each is one: start<<32 | end with 0 <= start <=
// end < 2**31 (an end outside int32 or negative could not be told apart
// from another span). The error names the first bad mention by its index in
// its side's arrays, key first; it is the caller's check made once here, so
// that a caller packing spans need not check them first. (The readers' ids
// are not checked: they pack valid spans, and intern discontinuous mentions
// to ids with bit 62 set.)
func checkSpans(key, resp flatSide, opt *gocore.Options) error {
	if !opt.SpanMentions {
		return nil
	}
	for s, side := range []flatSide{key, resp} {
		for i, id := range side.mentions {
			if start, end := id>>32, id&0xffffffff; id >= 0 && end < 1<<31 && start <= end {
				continue
			}
			e := gocore.NewError(gocore.KindMention, "mention id %d is not a packed span start<<32 | end with "+
				"0 <= start <= end < 2**31", id)
			e.Side, e.Mention = s, i
			// The document: the last whose mentions start at or before i.
			e.Doc = sort.Search(len(side.offsets)-1, func(d int) bool { return side.offsets[d+1] > int64(i) })
			return e
		}
	}
	return nil
}

// packSpans writes start<<32 | end of each (start, end) row of spans (row
// major, two values a row) into ids: the packing checkSpans checks, done for
// a caller holding span arrays. A row outside 0 <= start <= end < 2**31 is
// a KindMention error naming its row (Mention) and bounds (Start, End).
func packSpans(spans, ids []int64) error {
	if len(spans) != 2*len(ids) {
		return argErr("spans hold %d values, want 2 x %d", len(spans), len(ids))
	}
	for i := range ids {
		start, end := spans[2*i], spans[2*i+1]
		if start < 0 || start > end || end >= 1<<31 {
			e := gocore.NewError(gocore.KindMention, "span (%d, %d) at row %d is not 0 <= start <= end < 2**31",
				start, end, i)
			e.Mention, e.Start, e.End = i, start, end
			return e
		}
		ids[i] = start<<32 | end
	}
	return nil
}

// sideSlice returns document d's view of a side.
func sideSlice(s flatSide, d int) gocore.Side {
	lo, hi := s.offsets[d], s.offsets[d+1]
	side := gocore.Side{Mentions: s.mentions[lo:hi:hi], Clusters: s.clusters[lo:hi:hi]}
	if s.types != nil {
		side.Types = int8sAsTypes(s.types[lo:hi:hi])
	}
	return side
}

// int8sAsTypes views caller int8 codes as mention types without copying;
// gocore validates each code.
func int8sAsTypes(b []int8) []gocore.MentionType {
	if len(b) == 0 {
		return []gocore.MentionType{}
	}
	return unsafe.Slice((*gocore.MentionType)(unsafe.Pointer(&b[0])), len(b))
}

// namesOf splits name bytes at offsets (n_docs + 1 entries, checked here).
func namesOf(bytes []byte, offsets []int64) ([]string, error) {
	if err := checkOffsets("name", offsets, int64(len(bytes))); err != nil {
		return nil, err
	}
	names := make([]string, len(offsets)-1)
	for d := range names {
		names[d] = string(bytes[offsets[d]:offsets[d+1]])
	}
	return names, nil
}

// dupRecord is a cs_duplicate as Go values.
type dupRecord struct {
	doc                   int64
	side                  int32
	mention               int64
	firstCluster, cluster int64
	line, start, end      int64
}

// warnRecord is a cs_warning as Go values.
type warnRecord struct {
	kind, side       int32
	doc, line, count int64
	message          string
}

// warnRecords keeps a repeated warning (same kind, side and message) once,
// with its count; the first occurrence gives the document and line.
func warnRecords(ws []gocore.Warning) []warnRecord {
	type key struct {
		kind gocore.WarningKind
		side int
		msg  string
	}
	if len(ws) == 0 {
		return nil
	}
	seen := make(map[key]int, len(ws))
	var out []warnRecord
	for _, w := range ws {
		k := key{w.Kind, w.Side, w.Msg}
		count := max(w.Count, 1)
		if i, ok := seen[k]; ok {
			out[i].count += count
			continue
		}
		seen[k] = len(out)
		out = append(out, warnRecord{kind: int32(w.Kind), side: int32(w.Side), doc: int64(w.Doc), line: int64(w.Line),
			count: count, message: w.Msg})
	}
	return out
}

// batchOut is what scoreBatch produced besides the counts.
type batchOut struct {
	applied       uint64
	nDups         int64
	dups          []dupRecord
	warnings      []warnRecord
	analysis      int64 // outputs=analysis: its handle
	analysisSizes analysisSizes
}

// scoreBatch scores a batch: opt from its handle, the documents from the
// flat sides, at most dupsCap duplicate records; and analyses it when the
// outputs ask for it. An error naming a mention names it by its index in
// the side's arrays (the caller's).
func scoreBatch(key, resp flatSide, names []string, optHandle int64, stop func() bool,
	counts []float64, dupsCap int64) (out batchOut, err error) {
	co, err := callOptionsOf(optHandle)
	if err != nil {
		return out, err
	}
	return scoreBatchWith(key, resp, names, &co, stop, counts, dupsCap)
}

// scoreBatchWith is scoreBatch with the handle's options looked up.
func scoreBatchWith(key, resp flatSide, names []string, co *callOptions, stop func() bool,
	counts []float64, dupsCap int64) (out batchOut, err error) {
	docs, err := buildDocs(key, resp, names)
	if err != nil {
		return out, err
	}
	if err := checkSpans(key, resp, &co.engine); err != nil {
		return out, err
	}
	return scoreDocs(docs, key, resp, names, co, stop, counts, dupsCap)
}

// scoreDocs is scoreBatch on documents built from the flat sides key and
// resp (which locate the mentions that errors and duplicates name).
func scoreDocs(docs []gocore.Document, key, resp flatSide, names []string, co *callOptions, stop func() bool,
	counts []float64, dupsCap int64) (out batchOut, err error) {
	opt := co.engine
	opt.Stop = stop
	opt.MaxDuplicates = int(min(dupsCap, math.MaxInt32))
	if dupsCap == 0 {
		opt.MaxDuplicates = -1
	}
	if co.outputs&outAnalysis != 0 {
		aopt := co.analysisOptions()
		aopt.Stop = stop
		if out.analysis, out.analysisSizes, err = analyzeBatch(docs, names, aopt); err != nil {
			return out, callerMention(err, key, resp)
		}
	}
	if co.outputs&outScores == 0 {
		return out, nil
	}
	rep, err := gocore.Score(docs, opt, counts)
	if err != nil {
		freeHandle(out.analysis)
		return batchOut{}, callerMention(err, key, resp)
	}
	out.applied, out.nDups, out.warnings = uint64(rep.Applied), rep.NumDuplicates, warnRecords(rep.Warnings)
	for _, d := range rep.Duplicates {
		side := key
		if d.Side == gocore.ResponseSide {
			side = resp
		}
		out.dups = append(out.dups, dupRecord{doc: int64(d.Doc), side: int32(d.Side),
			mention: side.offsets[d.Doc] + int64(d.Pos), firstCluster: d.FirstCluster, cluster: d.Cluster,
			start: -1, end: -1})
	}
	return out, nil
}

// callerMention is err with the mention it names (an index within its
// document) turned into the index in the side's arrays (the caller's).
func callerMention(err error, key, resp flatSide) error {
	e := gocore.AsError(err)
	if e.Mention >= 0 && e.Doc >= 0 && e.Side >= 0 {
		side := key
		if e.Side == 1 {
			side = resp
		}
		e.Mention += int(side.offsets[e.Doc])
	}
	return e
}

// namesLen is the total length of the names of a file result.
func namesLen(res *files.FileResult) int64 {
	var n int64
	for _, s := range res.Names {
		n += int64(len(s))
	}
	return n
}

// fileDupRecords converts the duplicates of a file result.
func fileDupRecords(res *files.FileResult) []dupRecord {
	out := make([]dupRecord, len(res.Duplicates))
	for i, d := range res.Duplicates {
		out[i] = dupRecord{doc: int64(d.Doc), side: int32(d.Side), mention: -1, firstCluster: d.FirstCluster,
			cluster: d.Cluster, line: int64(d.Line), start: d.Start, end: d.End}
	}
	return out
}

// checkTake checks the caller's buffers against a file result's sizes.
func checkTake(res *files.FileResult, countsLen, namesCap, offsetsLen int64) error {
	nDocs := int64(len(res.Names))
	cells := nDocs * int64(gocore.NumColumns())
	if countsLen < cells || namesCap < namesLen(res) || offsetsLen < nDocs+1 {
		return errBufferTooSmall{fmt.Sprintf("the result needs %d counts cells, %d name bytes and %d name offsets; got %d, %d and %d",
			cells, namesLen(res), nDocs+1, countsLen, namesCap, offsetsLen)}
	}
	return nil
}

// writeNames writes a result's names and their offsets.
func writeNames(res *files.FileResult, names []byte, offsets []int64) {
	pos := int64(0)
	offsets[0] = 0
	for i, s := range res.Names {
		copy(names[pos:], s)
		pos += int64(len(s))
		offsets[i+1] = pos
	}
}

// touch reads one element of s per page, so that a bad caller pointer
// faults here, on the calling goroutine (which turns faults into panics),
// and not later on a worker goroutine, where a fault would kill the process.
func touch[T any](s []T, size int) (sink T) {
	step := max(4096/size, 1)
	for i := 0; i < len(s); i += step {
		sink = s[i]
	}
	if len(s) > 0 {
		sink = s[len(s)-1]
	}
	return sink
}
