package main

// This file holds the conversions behind the exports, on ordinary Go values,
// so that they can be unit-tested (cgo is not allowed in _test.go files).

import (
	"fmt"
	"io/fs"
	"strings"
	"unsafe"

	"github.com/pkg/errors"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
)

// abiVersion must equal CS_ABI_VERSION in corefscore.h.
const abiVersion = 1

// Status codes, as in corefscore.h.
const (
	statusOK             = 0
	statusInvalidInput   = 1
	statusBufferTooSmall = 2
	statusInternal       = 3
	statusIO             = 4
)

// duplicateFields is CS_DUPLICATE_FIELDS.
const duplicateFields = 5

// errBufferTooSmall marks a caller buffer that cannot hold the output.
var errBufferTooSmall = errors.New("capi: output buffer too small")

// errIO marks a file that could not be read.
var errIO = errors.New("capi: cannot read file")

// flatSide is one side of a batch as Go slices over the caller's arrays.
type flatSide struct {
	offsets  []int64
	mentions []int64
	clusters []int64
	types    []int8 // nil when the caller gave none
}

// buildDocs slices the flat arrays into documents without copying. names is
// the '\n'-separated list of document names, or empty.
func buildDocs(nDocs int, key, resp flatSide, names string) ([]gocore.Document, error) {
	var nameList []string
	if names != "" {
		nameList = strings.Split(names, "\n")
		if len(nameList) != nDocs {
			return nil, errors.Wrapf(gocore.ErrInvalidInput, "capi: %d document names for %d documents", len(nameList), nDocs)
		}
	}
	if err := checkSide("key", nDocs, key); err != nil {
		return nil, err
	}
	if err := checkSide("response", nDocs, resp); err != nil {
		return nil, err
	}
	docs := make([]gocore.Document, nDocs)
	for d := range docs {
		if nameList != nil {
			docs[d].Name = nameList[d]
		}
		docs[d].Key = sideSlice(key, d)
		docs[d].Response = sideSlice(resp, d)
	}
	return docs, nil
}

// checkSide verifies the CSR invariants of one side.
func checkSide(kind string, nDocs int, s flatSide) error {
	n := int64(len(s.mentions))
	if len(s.offsets) != nDocs+1 {
		return errors.Wrapf(gocore.ErrInvalidInput, "capi: %s offsets have %d entries, want %d", kind, len(s.offsets), nDocs+1)
	}
	if int64(len(s.clusters)) != n || (s.types != nil && int64(len(s.types)) != n) {
		return errors.Wrapf(gocore.ErrInvalidInput, "capi: %s arrays differ in length", kind)
	}
	if s.offsets[0] != 0 || s.offsets[nDocs] != n {
		return errors.Wrapf(gocore.ErrInvalidInput, "capi: %s offsets must run from 0 to %d; got %d to %d", kind, n, s.offsets[0], s.offsets[nDocs])
	}
	for d := 0; d < nDocs; d++ {
		if s.offsets[d+1] < s.offsets[d] {
			return &gocore.DocError{Doc: d, Err: errors.Wrapf(gocore.ErrInvalidInput,
				"capi: %s offsets decrease (%d then %d)", kind, s.offsets[d], s.offsets[d+1])}
		}
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

// numMetrics is the number of metrics, read once: options runs on every call.
var numMetrics = len(gocore.MetricNames())

// options converts the C options; link and DA weights are checked by the
// metrics that use them.
func options(metrics uint64, singletons, duplicates, workers, daGreedy int32, link [4]float64, da [3]float64) (gocore.Options, error) {
	if singletons != 0 && singletons != 1 {
		return gocore.Options{}, errors.Wrapf(gocore.ErrInvalidInput, "capi: singletons must be 0 (keep) or 1 (exclude); got %d", singletons)
	}
	if duplicates != 0 && duplicates != 1 {
		return gocore.Options{}, errors.Wrapf(gocore.ErrInvalidInput, "capi: duplicates must be 0 (keep first) or 1 (error); got %d", duplicates)
	}
	if n := numMetrics; metrics>>uint(n) != 0 {
		return gocore.Options{}, errors.Wrapf(gocore.ErrInvalidInput, "capi: metrics mask %#x has bits beyond the %d metrics", metrics, n)
	}
	return gocore.Options{
		Metrics:     gocore.MetricSet(metrics),
		Singletons:  gocore.SingletonPolicy(singletons),
		Duplicates:  gocore.DuplicatePolicy(duplicates),
		Workers:     int(workers),
		DAGreedy:    daGreedy != 0,
		LinkWeights: link,
		DAWeights:   da,
	}, nil
}

// writeDuplicates packs duplicate records into out (duplicateFields each)
// and returns how many fitted.
func writeDuplicates(out []int64, dups []gocore.Duplicate) {
	for i, d := range dups {
		if (i+1)*duplicateFields > len(out) {
			return
		}
		rec := out[i*duplicateFields : (i+1)*duplicateFields]
		rec[0], rec[1], rec[2], rec[3], rec[4] = int64(d.Doc), int64(d.Side), d.Mention, d.FirstCluster, d.Cluster
	}
}

// statusOf maps an error to a status code.
func statusOf(err error) int32 {
	switch {
	case err == nil:
		return statusOK
	case errors.Is(err, errBufferTooSmall):
		return statusBufferTooSmall
	case errors.Is(err, errIO):
		return statusIO
	case errors.Is(err, gocore.ErrInvalidInput), errors.Is(err, gocore.ErrDuplicateMention),
		errors.Is(err, gocore.ErrMissingTypes):
		return statusInvalidInput
	}
	return statusInternal
}

// writeString copies s into buf, truncated, always NUL-terminated.
func writeString(buf []byte, s string) {
	if len(buf) == 0 {
		return
	}
	n := copy(buf[:len(buf)-1], s)
	buf[n] = 0
}

// columnList returns the column names as the ABI lists them.
func columnList() string { return strings.Join(gocore.Columns(), "\n") }

// recovered turns a recovered panic value into an internal error.
func recovered(r any) error { return fmt.Errorf("capi: internal error: %v", r) }

// int8sAsTypes views caller int8 codes as mention types without copying;
// gocore validates each code.
func int8sAsTypes(b []int8) []gocore.MentionType {
	if len(b) == 0 {
		return []gocore.MentionType{}
	}
	return unsafe.Slice((*gocore.MentionType)(unsafe.Pointer(&b[0])), len(b))
}

// fileScores is the output of scoring a key file against a response file.
type fileScores struct {
	names    string // '\n'-separated document names
	counts   []float64
	nDocs    int
	dups     []gocore.Duplicate
	warnings string // '\n'-separated
}

// scoreFiles reads, pairs and scores two files (see conll.ScoreFiles), the
// collector paced by beginGCBudget.
func scoreFiles(keyPath, respPath, format string, opt gocore.Options) (*fileScores, error) {
	defer beginGCBudget(fileSizes(keyPath, respPath))()
	names, counts, dups, warnings, err := conll.ScoreFiles(keyPath, respPath, format, opt)
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			return nil, errors.Wrap(errIO, err.Error())
		}
		return nil, err
	}
	return &fileScores{names: strings.Join(names, "\n"), counts: counts, nDocs: len(names),
		dups: dups, warnings: strings.Join(warnings, "\n")}, nil
}

// fits reports whether the outputs fit the caller's capacities: rows of
// counts, bytes of names and of warnings (NUL included).
func (f *fileScores) fits(rowsCap, namesCap, warningsCap int64) bool {
	return int64(f.nDocs) <= rowsCap && int64(len(f.names)+1) <= namesCap &&
		int64(len(f.warnings)+1) <= warningsCap
}
