// Command capi is the corefscore C shared library: only //export functions
// that convert C values and call ordinary Go functions (see convert.go). The
// contract is corefscore.h. Its functions are defined in entry.c, which
// refuses calls in a forked child and otherwise calls the csgo_* exports of
// this file. Build with
//
//	go build -trimpath -buildmode=c-shared -o libcorefscore.so ./capi
package main

/*
#define CS_TYPES_ONLY
#include "corefscore.h"
*/
import "C"

import (
	"runtime/debug"
	"sync/atomic"
	"unsafe"

	"github.com/corefscore/corefscore/gocore"
)

func main() {}

// The header is the one source of truth: each line below fails to compile
// (an array of negative length) when a Go constant differs from the
// header's macro, so a version bump in one place alone fails the build.
var (
	_ [abiVersion - C.CS_ABI_VERSION]struct{}
	_ [C.CS_ABI_VERSION - abiVersion]struct{}
	_ [messageLen - C.CS_MESSAGE_LEN]struct{}
	_ [C.CS_MESSAGE_LEN - messageLen]struct{}
	_ [statusOK - C.CS_OK]struct{}
	_ [C.CS_OK - statusOK]struct{}
	_ [statusInvalidInput - C.CS_INVALID_INPUT]struct{}
	_ [C.CS_INVALID_INPUT - statusInvalidInput]struct{}
	_ [statusBufferTooSmall - C.CS_BUFFER_TOO_SMALL]struct{}
	_ [C.CS_BUFFER_TOO_SMALL - statusBufferTooSmall]struct{}
	_ [statusInternal - C.CS_INTERNAL]struct{}
	_ [C.CS_INTERNAL - statusInternal]struct{}
	_ [statusIO - C.CS_IO]struct{}
	_ [C.CS_IO - statusIO]struct{}
	_ [statusCancelled - C.CS_CANCELLED]struct{}
	_ [C.CS_CANCELLED - statusCancelled]struct{}
	_ [gocore.KindArgument - C.CS_ERR_ARGUMENT]struct{}
	_ [C.CS_ERR_ARGUMENT - gocore.KindArgument]struct{}
	_ [gocore.KindOption - C.CS_ERR_OPTION]struct{}
	_ [C.CS_ERR_OPTION - gocore.KindOption]struct{}
	_ [gocore.KindMention - C.CS_ERR_MENTION]struct{}
	_ [C.CS_ERR_MENTION - gocore.KindMention]struct{}
	_ [gocore.KindDuplicate - C.CS_ERR_DUPLICATE]struct{}
	_ [C.CS_ERR_DUPLICATE - gocore.KindDuplicate]struct{}
	_ [gocore.KindMissingTypes - C.CS_ERR_MISSING_TYPES]struct{}
	_ [C.CS_ERR_MISSING_TYPES - gocore.KindMissingTypes]struct{}
	_ [gocore.KindParse - C.CS_ERR_PARSE]struct{}
	_ [C.CS_ERR_PARSE - gocore.KindParse]struct{}
	_ [gocore.KindNotFound - C.CS_ERR_NOT_FOUND]struct{}
	_ [C.CS_ERR_NOT_FOUND - gocore.KindNotFound]struct{}
	_ [gocore.KindIO - C.CS_ERR_IO]struct{}
	_ [C.CS_ERR_IO - gocore.KindIO]struct{}
	_ [gocore.KindCancelled - C.CS_ERR_CANCELLED]struct{}
	_ [C.CS_ERR_CANCELLED - gocore.KindCancelled]struct{}
	_ [gocore.KindInternal - C.CS_ERR_INTERNAL]struct{}
	_ [C.CS_ERR_INTERNAL - gocore.KindInternal]struct{}
	_ [gocore.KindMissingHeads - C.CS_ERR_MISSING_HEADS]struct{}
	_ [C.CS_ERR_MISSING_HEADS - gocore.KindMissingHeads]struct{}
	_ [gocore.WarnResponseOnly - C.CS_WARN_RESPONSE_ONLY]struct{}
	_ [C.CS_WARN_RESPONSE_ONLY - gocore.WarnResponseOnly]struct{}
	_ [gocore.WarnBadItem - C.CS_WARN_BAD_ITEM]struct{}
	_ [C.CS_WARN_BAD_ITEM - gocore.WarnBadItem]struct{}
	_ [gocore.WarnNamePairing - C.CS_WARN_NAME_PAIRING]struct{}
	_ [C.CS_WARN_NAME_PAIRING - gocore.WarnNamePairing]struct{}
	_ [gocore.WarnTypesSkipped - C.CS_WARN_TYPES_SKIPPED]struct{}
	_ [C.CS_WARN_TYPES_SKIPPED - gocore.WarnTypesSkipped]struct{}
	_ [gocore.WarnOther - C.CS_WARN_OTHER]struct{}
	_ [C.CS_WARN_OTHER - gocore.WarnOther]struct{}
	_ [gocore.TypeUnknown - C.CS_TYPE_UNKNOWN]struct{}
	_ [C.CS_TYPE_UNKNOWN - gocore.TypeUnknown]struct{}
	_ [gocore.TypeName - C.CS_TYPE_NAME]struct{}
	_ [C.CS_TYPE_NAME - gocore.TypeName]struct{}
	_ [gocore.TypeNominal - C.CS_TYPE_NOMINAL]struct{}
	_ [C.CS_TYPE_NOMINAL - gocore.TypeNominal]struct{}
	_ [gocore.TypePronoun - C.CS_TYPE_PRONOUN]struct{}
	_ [C.CS_TYPE_PRONOUN - gocore.TypePronoun]struct{}
	_ [gocore.SpanError - C.CS_CAT_SPAN_ERROR]struct{}
	_ [C.CS_CAT_SPAN_ERROR - gocore.SpanError]struct{}
	_ [gocore.ConflatedEntities - C.CS_CAT_CONFLATED_ENTITIES]struct{}
	_ [C.CS_CAT_CONFLATED_ENTITIES - gocore.ConflatedEntities]struct{}
	_ [gocore.ExtraMention - C.CS_CAT_EXTRA_MENTION]struct{}
	_ [C.CS_CAT_EXTRA_MENTION - gocore.ExtraMention]struct{}
	_ [gocore.ExtraEntity - C.CS_CAT_EXTRA_ENTITY]struct{}
	_ [C.CS_CAT_EXTRA_ENTITY - gocore.ExtraEntity]struct{}
	_ [gocore.DividedEntity - C.CS_CAT_DIVIDED_ENTITY]struct{}
	_ [C.CS_CAT_DIVIDED_ENTITY - gocore.DividedEntity]struct{}
	_ [gocore.MissingMention - C.CS_CAT_MISSING_MENTION]struct{}
	_ [C.CS_CAT_MISSING_MENTION - gocore.MissingMention]struct{}
	_ [gocore.MissingEntity - C.CS_CAT_MISSING_ENTITY]struct{}
	_ [C.CS_CAT_MISSING_ENTITY - gocore.MissingEntity]struct{}
	_ [gocore.RecallError - C.CS_CAT_RECALL_ERROR]struct{}
	_ [C.CS_CAT_RECALL_ERROR - gocore.RecallError]struct{}
	_ [gocore.PrecisionError - C.CS_CAT_PRECISION_ERROR]struct{}
	_ [C.CS_CAT_PRECISION_ERROR - gocore.PrecisionError]struct{}
)

// guard is deferred by every export that returns a status: it turns a panic
// (a bug, or a fault on a bad caller pointer: faults panic while the export
// runs) into CS_INTERNAL, and restores the goroutine's fault setting,
// oldFault. Deferred as `defer guard(&status, errp,
// debug.SetPanicOnFault(true))`, which turns faults into panics from there
// on; being the deferred function itself (not a closure it returns), it
// costs the call no allocation.
func guard(status *C.int32_t, errp *C.cs_error, oldFault bool) {
	if r := recover(); r != nil {
		*status = fail(errp, recoveredErr(r))
	}
	debug.SetPanicOnFault(oldFault)
}

// fail fills the caller's error record (when not NULL) and returns the
// status. A fault while writing the record leaves it unwritten.
func fail(errp *C.cs_error, err error) (status C.int32_t) {
	rec := recordOf(err)
	status = C.int32_t(rec.status)
	if errp == nil {
		return status
	}
	defer func() { _ = recover() }()
	errp.status = C.int32_t(rec.status)
	errp.kind = C.int32_t(rec.kind)
	errp.doc = C.int64_t(rec.doc)
	errp.side = C.int32_t(rec.side)
	errp.option = C.int32_t(rec.option)
	errp.mention = C.int64_t(rec.mention)
	errp.line = C.int64_t(rec.line)
	errp.start = C.int64_t(rec.start)
	errp.end = C.int64_t(rec.end)
	writeMessage(&errp.message, rec.message)
	return status
}

// writeMessage copies s, truncated and NUL-terminated, into a message field.
func writeMessage(dst *[messageLen]C.char, s string) {
	b := messageBytes(s)
	out := unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), messageLen)
	n := copy(out, b)
	out[n] = 0
}

// view returns the caller's array p of n elements as a Go slice (empty when
// n is 0). Lengths are checked before.
func view[T any, P any](p *P, n int64) []T {
	if p == nil || n <= 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(p)), int(n))
}

// stopFunc returns a function that reads the caller's cancel flag (nil for a
// NULL flag), after reading it once here, on the export's goroutine, so that
// a bad pointer faults where faults are recovered.
func stopFunc(cancel *C.int32_t) func() bool {
	if cancel == nil {
		return nil
	}
	p := (*int32)(unsafe.Pointer(cancel))
	_ = atomic.LoadInt32(p)
	return func() bool { return atomic.LoadInt32(p) != 0 }
}

//export csgo_abi_version
func csgo_abi_version() C.int32_t { return abiVersion }

//export csgo_columns
func csgo_columns(names *C.char, namesLen C.int64_t, metrics *C.int32_t, metricsLen C.int64_t,
	n, namesNeeded *C.int64_t) (status C.int32_t) {
	defer guard(&status, nil, debug.SetPanicOnFault(true))
	if checkBuffer("names_len", names == nil, int64(namesLen), 1) != nil ||
		checkBuffer("metrics_len", metrics == nil, int64(metricsLen), 4) != nil || n == nil || namesNeeded == nil {
		return statusInvalidInput
	}
	count, need, ok := columnNames(view[byte](names, int64(namesLen)), view[int32](metrics, int64(metricsLen)))
	*n, *namesNeeded = C.int64_t(count), C.int64_t(need)
	if !ok {
		return statusBufferTooSmall
	}
	return statusOK
}

//export csgo_options_new
func csgo_options_new(n C.int32_t, keys, values **C.char, handle *C.int64_t, errp *C.cs_error) (status C.int32_t) {
	defer guard(&status, errp, debug.SetPanicOnFault(true))
	if n < 0 || handle == nil || (n > 0 && (keys == nil || values == nil)) {
		return fail(errp, argErr("n must be >= 0, handle not NULL, and keys and values not NULL when n > 0"))
	}
	ks, vs := view[*C.char](keys, int64(n)), view[*C.char](values, int64(n))
	goKeys, goValues := make([]string, n), make([]string, n)
	for i := range goKeys {
		if ks[i] == nil || vs[i] == nil {
			e := argErr("key or value %d is NULL", i)
			e.Option = i
			return fail(errp, e)
		}
		goKeys[i], goValues[i] = C.GoString(ks[i]), C.GoString(vs[i])
	}
	h, err := newOptions(goKeys, goValues)
	if err != nil {
		return fail(errp, err)
	}
	*handle = C.int64_t(h)
	return statusOK
}

//export csgo_free
func csgo_free(handle C.int64_t) {
	defer func() { _ = recover() }()
	freeHandle(int64(handle))
}

// goSide views a C side of nDocs documents as Go slices, checking pointers
// and lengths first and touching every page.
func goSide(nDocs int64, s *C.cs_side, kind gocore.SideKind) (flatSide, error) {
	n := int64(s.length)
	bad := func(msg string) error {
		e := argErr("%s", msg)
		e.Side = int(kind)
		return e
	}
	if err := checkLen("length", n, 8); err != nil {
		err.(*gocore.Error).Side = int(kind)
		return flatSide{}, err
	}
	if s.offsets == nil || (n > 0 && (s.mentions == nil || s.clusters == nil)) {
		return flatSide{}, bad("offsets, mentions or clusters is NULL")
	}
	fs := flatSide{
		offsets:  view[int64](s.offsets, nDocs+1),
		mentions: view[int64](s.mentions, n),
		clusters: view[int64](s.clusters, n),
	}
	if s.types != nil {
		fs.types = view[int8](s.types, n)
	}
	touch(fs.offsets, 8)
	touch(fs.mentions, 8)
	touch(fs.clusters, 8)
	touch(fs.types, 1)
	return fs, nil
}

// marshalData is the one document of the input=marshal form: key.mentions
// points at the bytes of marshal.dumps((key, response), 4) and key.length is
// their count (see spansFromMarshal for what they may hold).
func marshalData(nDocs int64, key *C.cs_side) ([]byte, error) {
	if nDocs != 1 {
		return nil, argErr("n_docs is %d; input=marshal scores one document", nDocs)
	}
	size := int64(key.length)
	if err := checkBuffer("key.length", key.mentions == nil, size, 1); err != nil {
		return nil, err
	}
	data := view[byte](key.mentions, size)
	touch(data, 1)
	return data, nil
}

//export csgo_score_batch
func csgo_score_batch(nDocs C.int64_t, key, response *C.cs_side, names *C.cs_names, options C.int64_t,
	cancel *C.int32_t, counts *C.double, countsLen C.int64_t,
	dups *C.cs_duplicate, dupsCap C.int64_t, warnings *C.cs_warning, warningsCap C.int64_t,
	report *C.cs_report, errp *C.cs_error) (status C.int32_t) {
	defer guard(&status, errp, debug.SetPanicOnFault(true))
	nd, ncol := int64(nDocs), int64(gocore.NumColumns())
	for _, err := range []error{
		checkLen("n_docs", nd, 8*ncol),
		checkBuffer("counts_len", counts == nil, int64(countsLen), 8),
		checkBuffer("dups_cap", dups == nil, int64(dupsCap), int64(unsafe.Sizeof(C.cs_duplicate{}))),
		checkBuffer("warnings_cap", warnings == nil, int64(warningsCap), int64(unsafe.Sizeof(C.cs_warning{}))),
	} {
		if err != nil {
			return fail(errp, err)
		}
	}
	co, err := callOptionsOf(int64(options))
	if err != nil {
		return fail(errp, err)
	}
	if key == nil || (response == nil && !co.marshal) {
		return fail(errp, argErr("key and response must not be NULL"))
	}
	if countsLen != 0 && int64(countsLen) != nd*ncol {
		return fail(errp, argErr("counts_len is %d, want n_docs x columns = %d x %d (or 0 without scores)", countsLen, nd, ncol))
	}
	stop := stopFunc(cancel)
	if stop != nil && stop() {
		return fail(errp, gocore.NewError(gocore.KindCancelled, "cancelled"))
	}
	var keySide, respSide flatSide
	var data []byte
	if co.marshal {
		data, err = marshalData(nd, key)
	} else {
		keySide, err = goSide(nd, key, gocore.KeySide)
		if err == nil {
			respSide, err = goSide(nd, response, gocore.ResponseSide)
		}
	}
	if err != nil {
		return fail(errp, err)
	}
	var nameList []string
	if names != nil {
		if names.offsets == nil {
			return fail(errp, argErr("names.offsets is NULL"))
		}
		offsets := view[int64](names.offsets, nd+1)
		touch(offsets, 8)
		total := offsets[nd]
		if err := checkLen("names length", total, 1); err != nil {
			return fail(errp, err)
		}
		if names.bytes == nil && total > 0 {
			return fail(errp, argErr("names.bytes is NULL"))
		}
		bytes := view[byte](names.bytes, total)
		touch(bytes, 1)
		if nameList, err = namesOf(bytes, offsets); err != nil {
			return fail(errp, err)
		}
	}
	out := view[float64](counts, int64(countsLen))
	var res batchOut
	if co.marshal {
		res, err = scoreMarshal(data, nameList, &co, stop, out, int64(dupsCap))
	} else {
		res, err = scoreBatchWith(keySide, respSide, nameList, &co, stop, out, int64(dupsCap))
	}
	if err != nil {
		return fail(errp, err)
	}
	writeDups(view[C.cs_duplicate](dups, int64(dupsCap)), res.dups)
	writeWarnings(view[C.cs_warning](warnings, int64(warningsCap)), res.warnings)
	if report == nil {
		freeHandle(res.analysis) // nowhere to hand it out
		return statusOK
	}
	report.applied = C.uint64_t(res.applied)
	report.n_dups = C.int64_t(res.nDups)
	report.n_warnings = C.int64_t(len(res.warnings))
	report.analysis = C.int64_t(res.analysis)
	if res.analysis != 0 {
		sizesOut(&report.analysis_sizes, res.analysisSizes)
	}
	return statusOK
}

// writeDups writes as many records as fit.
func writeDups(out []C.cs_duplicate, recs []dupRecord) {
	for i := 0; i < len(out) && i < len(recs); i++ {
		r := recs[i]
		out[i] = C.cs_duplicate{doc: C.int64_t(r.doc), side: C.int32_t(r.side), mention: C.int64_t(r.mention),
			first_cluster: C.int64_t(r.firstCluster), cluster: C.int64_t(r.cluster), line: C.int64_t(r.line),
			start: C.int64_t(r.start), end: C.int64_t(r.end)}
	}
}

// writeWarnings writes as many records as fit.
func writeWarnings(out []C.cs_warning, recs []warnRecord) {
	for i := 0; i < len(out) && i < len(recs); i++ {
		r := recs[i]
		out[i].kind = C.int32_t(r.kind)
		out[i].side = C.int32_t(r.side)
		out[i].doc = C.int64_t(r.doc)
		out[i].line = C.int64_t(r.line)
		out[i].count = C.int64_t(r.count)
		writeMessage(&out[i].message, r.message)
	}
}

//export csgo_score_files
func csgo_score_files(keyPath, respPath *C.char, options C.int64_t, cancel *C.int32_t, out *C.cs_files_result,
	errp *C.cs_error) (status C.int32_t) {
	defer guard(&status, errp, debug.SetPanicOnFault(true))
	if (keyPath == nil && respPath == nil) || out == nil {
		return fail(errp, argErr("a path and out must not be NULL"))
	}
	*out = C.cs_files_result{}
	stop := stopFunc(cancel)
	if stop != nil && stop() {
		return fail(errp, gocore.NewError(gocore.KindCancelled, "cancelled"))
	}
	var key, resp string
	if keyPath != nil {
		key = C.GoString(keyPath)
	}
	if respPath != nil {
		resp = C.GoString(respPath)
	}
	res, err := scoreFiles(key, resp, int64(options), stop)
	if err != nil {
		freeFiles(res)
		return fail(errp, err)
	}
	if res.score != nil {
		out.scores, out.n_docs, out.names_len = C.int64_t(res.scores), C.int64_t(len(res.score.Names)), C.int64_t(namesLen(res.score))
		out.report.applied = C.uint64_t(res.score.Applied)
		out.report.n_dups = C.int64_t(res.score.NumDuplicates)
		out.report.n_warnings = C.int64_t(len(warnRecords(res.score.Warnings)))
	}
	out.report.analysis = C.int64_t(res.analysis)
	sizesOut(&out.report.analysis_sizes, res.analysisSizes)
	out.key_documents, out.response_documents = C.int64_t(res.keyDocs), C.int64_t(res.respDocs)
	documentsSizesOut(&out.key_sizes, res.keySizes)
	documentsSizesOut(&out.response_sizes, res.respSize)
	return statusOK
}

//export csgo_take_result
func csgo_take_result(result C.int64_t, counts *C.double, countsLen C.int64_t,
	names *C.char, namesCap C.int64_t, nameOffsets *C.int64_t, offsetsLen C.int64_t,
	dups *C.cs_duplicate, dupsCap C.int64_t, warnings *C.cs_warning, warningsCap C.int64_t,
	errp *C.cs_error) (status C.int32_t) {
	defer guard(&status, errp, debug.SetPanicOnFault(true))
	for _, err := range []error{
		checkBuffer("counts_len", counts == nil, int64(countsLen), 8),
		checkBuffer("names_len", names == nil, int64(namesCap), 1),
		checkBuffer("offsets_len", nameOffsets == nil, int64(offsetsLen), 8),
		checkBuffer("dups_cap", dups == nil, int64(dupsCap), int64(unsafe.Sizeof(C.cs_duplicate{}))),
		checkBuffer("warnings_cap", warnings == nil, int64(warningsCap), int64(unsafe.Sizeof(C.cs_warning{}))),
	} {
		if err != nil {
			return fail(errp, err)
		}
	}
	res, ok := resultHandles.get(int64(result))
	if !ok {
		return fail(errp, argErr("result handle %d is not valid (never made, taken or freed)", result))
	}
	if err := checkTake(res, int64(countsLen), int64(namesCap), int64(offsetsLen)); err != nil {
		return fail(errp, err)
	}
	copy(view[float64](counts, int64(countsLen)), res.Counts)
	writeNames(res, view[byte](names, int64(namesCap)), view[int64](nameOffsets, int64(offsetsLen)))
	writeDups(view[C.cs_duplicate](dups, int64(dupsCap)), fileDupRecords(res))
	writeWarnings(view[C.cs_warning](warnings, int64(warningsCap)), warnRecords(res.Warnings))
	resultHandles.take(int64(result))
	return statusOK
}

// sizesOut writes analysis sizes to the caller's struct.
func sizesOut(s *C.cs_analysis_sizes, v analysisSizes) {
	s.n_docs, s.names_len, s.n_records = C.int64_t(v.nDocs), C.int64_t(v.namesLen), C.int64_t(v.nRecords)
	s.n_mentions, s.n_key_entities = C.int64_t(v.nMentions), C.int64_t(v.nKey)
	s.n_response_entities, s.n_warnings = C.int64_t(v.nResp), C.int64_t(v.nWarnings)
}

//export csgo_take_analysis
func csgo_take_analysis(result C.int64_t, b *C.cs_analysis_buffers, errp *C.cs_error) (status C.int32_t) {
	defer guard(&status, errp, debug.SetPanicOnFault(true))
	if b == nil {
		return fail(errp, argErr("buffers must not be NULL"))
	}
	recSize := int64(unsafe.Sizeof(C.cs_error_record{}))
	for _, err := range []error{
		checkBuffer("names_len", b.names == nil, int64(b.names_len), 1),
		checkBuffer("docs_len", b.name_offsets == nil, int64(b.docs_len), 8),
		checkBuffer("records_len", b.records == nil || b.mention_offsets == nil || b.key_offsets == nil ||
			b.response_offsets == nil, int64(b.records_len), recSize),
		checkBuffer("mentions_len", b.mentions == nil, int64(b.mentions_len), 8),
		checkBuffer("key_entities_len", b.key_entities == nil, int64(b.key_entities_len), 8),
		checkBuffer("response_entities_len", b.response_entities == nil, int64(b.response_entities_len), 8),
		checkBuffer("warnings_cap", b.warnings == nil, int64(b.warnings_cap), int64(unsafe.Sizeof(C.cs_warning{}))),
	} {
		if err != nil {
			return fail(errp, err)
		}
	}
	res, ok := analysisHandles.get(int64(result))
	if !ok {
		return fail(errp, argErr("analysis handle %d is not valid (never made, taken or freed)", result))
	}
	s := res.sizes()
	if err := checkAnalysisTake(s, int64(b.names_len), int64(b.docs_len), int64(b.records_len),
		int64(b.mentions_len), int64(b.key_entities_len), int64(b.response_entities_len)); err != nil {
		return fail(errp, err)
	}
	// Offsets arrays need one entry even when empty.
	if b.name_offsets == nil || b.mention_offsets == nil || b.key_offsets == nil || b.response_offsets == nil {
		return fail(errp, argErr("the offsets arrays must not be NULL (they have capacity + 1 entries)"))
	}
	recs := view[C.cs_error_record](b.records, s.nRecords)
	out := analysisOut{
		names: view[byte](b.names, s.namesLen), nameOffsets: view[int64](b.name_offsets, s.nDocs+1),
		records:        make([]errorRecord, s.nRecords),
		mentionOffsets: view[int64](b.mention_offsets, s.nRecords+1),
		keyOffsets:     view[int64](b.key_offsets, s.nRecords+1), respOf: view[int64](b.response_offsets, s.nRecords+1),
		mentions: view[int64](b.mentions, s.nMentions), keyEntities: view[int64](b.key_entities, s.nKey),
		respEnts: view[int64](b.response_entities, s.nResp),
	}
	res.write(out)
	for i, r := range out.records {
		recs[i] = C.cs_error_record{doc: C.int64_t(r.doc), anchor: C.int64_t(r.anchor), category: C.int8_t(r.category),
			has_anchor: C.int8_t(r.hasAnchor), types: [2]C.int8_t{C.int8_t(r.types[0]), C.int8_t(r.types[1])}}
	}
	writeWarnings(view[C.cs_warning](b.warnings, int64(b.warnings_cap)), res.warnings)
	analysisHandles.take(int64(result))
	return statusOK
}

// documentsSizesOut writes documents sizes to the caller's struct.
func documentsSizesOut(sizes *C.cs_documents_sizes, s documentsSizes) {
	sizes.n_docs, sizes.names_len, sizes.n_mentions = C.int64_t(s.nDocs), C.int64_t(s.namesLen), C.int64_t(s.nMentions)
	sizes.n_words, sizes.words_len, sizes.n_sentences = C.int64_t(s.nWords), C.int64_t(s.wordsLen), C.int64_t(s.nSentences)
}

//export csgo_take_documents
func csgo_take_documents(result C.int64_t, b *C.cs_documents_buffers, errp *C.cs_error) (status C.int32_t) {
	defer guard(&status, errp, debug.SetPanicOnFault(true))
	if b == nil {
		return fail(errp, argErr("buffers must not be NULL"))
	}
	for _, err := range []error{
		checkBuffer("names_len", b.names == nil, int64(b.names_len), 1),
		checkBuffer("docs_len", false, int64(b.docs_len), 8),
		checkBuffer("mentions_len", b.mentions == nil, int64(b.mentions_len), int64(unsafe.Sizeof(C.cs_doc_mention{}))),
		checkBuffer("words_len", b.words == nil, int64(b.words_len), 1),
		checkBuffer("n_words_len", false, int64(b.n_words_len), 8),
		checkBuffer("sentences_len", b.sentence_ends == nil, int64(b.sentences_len), 8),
	} {
		if err != nil {
			return fail(errp, err)
		}
	}
	if b.name_offsets == nil || b.mention_offsets == nil || b.word_docs == nil || b.sentence_docs == nil ||
		b.word_offsets == nil {
		return fail(errp, argErr("the offsets arrays must not be NULL (they have capacity + 1 entries)"))
	}
	res, ok := documentsHandles.get(int64(result))
	if !ok {
		return fail(errp, argErr("documents handle %d is not valid (never made, taken or freed)", result))
	}
	s := res.sizes()
	if err := checkDocumentsTake(s, int64(b.names_len), int64(b.docs_len), int64(b.mentions_len),
		int64(b.words_len), int64(b.n_words_len), int64(b.sentences_len)); err != nil {
		return fail(errp, err)
	}
	ms := make([]docMention, s.nMentions)
	out := documentsOut{
		names: view[byte](b.names, s.namesLen), nameOffsets: view[int64](b.name_offsets, s.nDocs+1),
		mentionOffsets: view[int64](b.mention_offsets, s.nDocs+1), wordDocs: view[int64](b.word_docs, s.nDocs+1),
		sentDocs: view[int64](b.sentence_docs, s.nDocs+1), mentions: ms,
		words: view[byte](b.words, s.wordsLen), wordOffsets: view[int64](b.word_offsets, s.nWords+1),
		sentenceEnds: view[int64](b.sentence_ends, s.nSentences),
	}
	res.write(out)
	cm := view[C.cs_doc_mention](b.mentions, s.nMentions)
	for i, m := range ms {
		cm[i] = C.cs_doc_mention{start: C.int64_t(m.start), end: C.int64_t(m.end), cluster: C.int64_t(m.cluster),
			_type: C.int32_t(m.typ), line: C.int32_t(m.line)}
	}
	documentsHandles.take(int64(result))
	return statusOK
}

//export csgo_spans_from_marshal
func csgo_spans_from_marshal(data *C.uint8_t, size, nMentions C.int64_t, out *C.int64_t, outLen C.int64_t,
	nKey *C.int64_t, errp *C.cs_error) (status C.int32_t) {
	defer guard(&status, errp, debug.SetPanicOnFault(true))
	n := int64(nMentions)
	for _, err := range []error{
		checkBuffer("size", data == nil, int64(size), 1),
		checkLen("n_mentions", n, 16),
		checkBuffer("out_len", out == nil, int64(outLen), 8),
	} {
		if err != nil {
			return fail(errp, err)
		}
	}
	if nKey == nil {
		return fail(errp, argErr("n_key must not be NULL"))
	}
	if int64(outLen) != 2*n {
		return fail(errp, argErr("out_len is %d, want 2 x n_mentions = %d", outLen, 2*n))
	}
	bytes, ids := view[byte](data, int64(size)), view[int64](out, 2*n)
	touch(bytes, 1)
	touch(ids, 8)
	k, err := spansFromMarshal(bytes, ids[:n], ids[n:])
	if err != nil {
		return fail(errp, err)
	}
	*nKey = C.int64_t(k)
	return statusOK
}

//export csgo_pack_spans
func csgo_pack_spans(spans *C.int64_t, n C.int64_t, ids *C.int64_t, errp *C.cs_error) (status C.int32_t) {
	defer guard(&status, errp, debug.SetPanicOnFault(true))
	rows := int64(n)
	for _, err := range []error{
		checkBuffer("n", spans == nil, rows, 16),
		checkBuffer("n", ids == nil, rows, 8),
	} {
		if err != nil {
			return fail(errp, err)
		}
	}
	in, out := view[int64](spans, 2*rows), view[int64](ids, rows)
	touch(in, 8)
	touch(out, 8)
	if err := packSpans(in, out); err != nil {
		return fail(errp, err)
	}
	return statusOK
}
