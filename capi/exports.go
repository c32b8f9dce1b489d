// Command capi is the corefscore C shared library: only //export functions
// that convert C values and call ordinary Go functions (see convert.go). The
// contract is corefscore.h; build with
//
//	go build -trimpath -buildmode=c-shared -o libcorefscore.so ./capi
package main

/*
#define CS_TYPES_ONLY
#include "corefscore.h"
*/
import "C"

import (
	"unsafe"

	"github.com/pkg/errors"

	"github.com/corefscore/corefscore/gocore"
)

func main() {}

//export cs_abi_version
func cs_abi_version() C.int32_t { return abiVersion }

//export cs_num_columns
func cs_num_columns() C.int32_t { return C.int32_t(gocore.NumColumns()) }

//export cs_columns
func cs_columns(buf *C.char, bufLen C.int64_t, needed *C.int64_t) (status C.int32_t) {
	defer func() {
		if r := recover(); r != nil {
			status = statusInternal
		}
	}()
	list := columnList()
	if needed != nil {
		*needed = C.int64_t(len(list) + 1)
	}
	if buf == nil || int64(bufLen) < int64(len(list)+1) {
		return statusBufferTooSmall
	}
	writeString(bytesOf(buf, bufLen), list)
	return statusOK
}

//export cs_score_batch
func cs_score_batch(nDocs C.int64_t, key, response *C.cs_side, names *C.char, namesLen C.int64_t,
	opts *C.cs_options, counts *C.double, countsLen C.int64_t,
	dups *C.int64_t, dupsCap C.int64_t, nDups *C.int64_t, errBuf *C.char, errLen C.int64_t) (status C.int32_t) {
	defer func() {
		if r := recover(); r != nil {
			status = fail(errBuf, errLen, recovered(r))
		}
	}()
	if nDocs < 0 || key == nil || response == nil || countsLen < 0 || dupsCap < 0 || namesLen < 0 {
		return fail(errBuf, errLen, errors.Wrapf(gocore.ErrInvalidInput,
			"capi: negative length or missing side (n_docs %d, counts_len %d, dups_cap %d)", nDocs, countsLen, dupsCap))
	}
	opt, err := goOptions(opts)
	if err != nil {
		return fail(errBuf, errLen, err)
	}
	keySide, err := goSide(int(nDocs), key)
	if err != nil {
		return fail(errBuf, errLen, errors.Wrap(err, "key"))
	}
	respSide, err := goSide(int(nDocs), response)
	if err != nil {
		return fail(errBuf, errLen, errors.Wrap(err, "response"))
	}
	docs, err := buildDocs(int(nDocs), keySide, respSide, string(bytesOf(names, namesLen)))
	if err != nil {
		return fail(errBuf, errLen, err)
	}
	out := float64s(counts, countsLen)
	found, err := gocore.ScoreBatch(docs, opt, out)
	if err != nil {
		return fail(errBuf, errLen, err)
	}
	if nDups != nil {
		*nDups = C.int64_t(len(found))
	}
	writeDuplicates(int64s(dups, dupsCap*duplicateFields), found)
	return statusOK
}

// goOptions converts the options struct; NULL means the defaults.
func goOptions(o *C.cs_options) (gocore.Options, error) {
	if o == nil {
		return gocore.Options{}, nil
	}
	var link [4]float64
	var da [3]float64
	for i := range link {
		link[i] = float64(o.link_weights[i])
	}
	for i := range da {
		da[i] = float64(o.da_weights[i])
	}
	return options(uint64(o.metrics), int32(o.singletons), int32(o.duplicates), int32(o.workers),
		int32(o.da_greedy), link, da)
}

// goSide views a C side as Go slices, checking pointers and lengths first.
func goSide(nDocs int, s *C.cs_side) (flatSide, error) {
	n := int64(s.length)
	if n < 0 {
		return flatSide{}, errors.Wrapf(gocore.ErrInvalidInput, "capi: negative length %d", n)
	}
	if s.offsets == nil || (n > 0 && (s.mentions == nil || s.clusters == nil)) {
		return flatSide{}, errors.Wrap(gocore.ErrInvalidInput, "capi: NULL array")
	}
	fs := flatSide{
		offsets:  int64s(s.offsets, C.int64_t(nDocs+1)),
		mentions: int64s(s.mentions, C.int64_t(n)),
		clusters: int64s(s.clusters, C.int64_t(n)),
	}
	if s.types != nil {
		fs.types = unsafe.Slice((*int8)(unsafe.Pointer(s.types)), n)
	}
	return fs, nil
}

// fail writes err into the caller's buffer and returns its status.
func fail(buf *C.char, n C.int64_t, err error) C.int32_t {
	writeString(bytesOf(buf, n), err.Error())
	return C.int32_t(statusOf(err))
}

func bytesOf(p *C.char, n C.int64_t) []byte {
	if p == nil || n <= 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
}

func int64s[T any](p *T, n C.int64_t) []int64 {
	if p == nil || n <= 0 {
		return []int64{}
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(p)), int(n))
}

func float64s(p *C.double, n C.int64_t) []float64 {
	if p == nil || n <= 0 {
		return []float64{}
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(p)), int(n))
}

//export cs_score_files
func cs_score_files(keyPath, respPath, format *C.char, opts *C.cs_options,
	counts *C.double, rowsCap C.int64_t, nDocs *C.int64_t,
	names *C.char, namesCap C.int64_t, namesNeeded *C.int64_t,
	dups *C.int64_t, dupsCap C.int64_t, nDups *C.int64_t,
	warnings *C.char, warningsCap C.int64_t, warningsNeeded *C.int64_t,
	errBuf *C.char, errLen C.int64_t) (status C.int32_t) {
	defer func() {
		if r := recover(); r != nil {
			status = fail(errBuf, errLen, recovered(r))
		}
	}()
	if keyPath == nil || respPath == nil || rowsCap < 0 || namesCap < 0 || dupsCap < 0 || warningsCap < 0 {
		return fail(errBuf, errLen, errors.Wrap(gocore.ErrInvalidInput, "capi: missing path or negative capacity"))
	}
	opt, err := goOptions(opts)
	if err != nil {
		return fail(errBuf, errLen, err)
	}
	goFormat := ""
	if format != nil {
		goFormat = C.GoString(format)
	}
	res, err := scoreFiles(C.GoString(keyPath), C.GoString(respPath), goFormat, opt)
	if err != nil {
		return fail(errBuf, errLen, err)
	}
	if nDocs != nil {
		*nDocs = C.int64_t(res.nDocs)
	}
	if namesNeeded != nil {
		*namesNeeded = C.int64_t(len(res.names) + 1)
	}
	if warningsNeeded != nil {
		*warningsNeeded = C.int64_t(len(res.warnings) + 1)
	}
	if nDups != nil {
		*nDups = C.int64_t(len(res.dups))
	}
	if !res.fits(int64(rowsCap), int64(namesCap), int64(warningsCap)) {
		return fail(errBuf, errLen, errors.Wrapf(errBufferTooSmall,
			"capi: need %d rows, %d name bytes and %d warning bytes", res.nDocs, len(res.names)+1, len(res.warnings)+1))
	}
	copy(float64s(counts, rowsCap*C.int64_t(gocore.NumColumns())), res.counts)
	writeString(bytesOf(names, namesCap), res.names)
	writeString(bytesOf(warnings, warningsCap), res.warnings)
	writeDuplicates(int64s(dups, dupsCap*duplicateFields), res.dups)
	return statusOK
}
