package main

import (
	"os"
	"runtime/debug"
	"sync"
)

// The collector during a small file-scoring call. Two 6 MB files (the
// synthetic 348-document corpus) are read into a heap that starts at 4 MB,
// so the default GOGC=100 runs two collections while the documents, all
// live until the call returns, are being built: about 10 M of the call's
// 182 M instructions (callgrind, whole process, bench/guard.md run 5), with
// nothing to free. While only small calls run, the collector is therefore
// off up to a memory limit that leaves room for their inputs; peak RSS on
// that corpus stays at GOGC=100's (25 MiB, /usr/bin/time). Issue 10 allows a
// process-wide runtime setting changed only when measured and documented:
// the Go runtime of this shared library manages only the library's own
// memory, the previous settings come back when the last such call returns,
// and a GOGC or GOMEMLIMIT environment variable (the user's own tuning)
// turns this off. A call whose inputs exceed gcSmallInput runs under the
// normal settings, and while one runs no call changes them: with the
// collector off its heap would grow to the limit (5a28b7f did that for every
// size: 719 MiB on the 1M-mention document, bench/memory.md).
//
// A bounded budget for large calls was measured and left out: on the two
// 1M-mention documents (2 x 384 MB and 2 x 137 MB), `corefscore score` with
// the collector off up to 300 MiB (GOGC=off GOMEMLIMIT=300MiB) took 1% and
// 4% less CPU than under the normal settings in one run (medians of 4
// rotating rounds, load 5-6) and 18% and 6% more in another (3 rounds, load
// 6-9): nothing above the machine's noise, for 9-11% more peak memory (302-309
// against 276-280 MiB; bench/one_doc.md). And no limit fits every large
// input: under a fixed one the collector runs back to back (up to half the
// CPU, the runtime's cap) once a document's live heap outgrows it, and one
// that grows with the input lets the 384 MB pair grow far above its 280 MiB.
const (
	gcSmallInput = 32 << 20 // inputs (key plus response bytes) up to this are small
	gcBaseBudget = 64 << 20 // memory limit per small call: this plus its input size
)

var gcBudget struct {
	sync.Mutex
	small, large int   // calls inside, by input size
	bytes        int64 // sum of the small calls' budgets
	off          bool  // whether the collector is off (settings saved below)
	percent      int   // GOGC to restore
	limit        int64 // memory limit to restore
}

// beginGCBudget starts a file-scoring call whose inputs are inputBytes long;
// the caller must call the returned function when the call ends.
func beginGCBudget(inputBytes int64) (end func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	small := inputBytes >= 0 && inputBytes <= gcSmallInput
	budget := gcBaseBudget + max(inputBytes, 0)
	gcBudget.Lock()
	defer gcBudget.Unlock()
	if small {
		gcBudget.small++
		gcBudget.bytes += budget
	} else {
		gcBudget.large++
	}
	applyGCBudget()
	return func() {
		gcBudget.Lock()
		defer gcBudget.Unlock()
		if small {
			gcBudget.small--
			gcBudget.bytes -= budget
		} else {
			gcBudget.large--
		}
		applyGCBudget()
	}
}

// applyGCBudget sets the collector for the calls inside; gcBudget is locked.
func applyGCBudget() {
	wantOff := gcBudget.small > 0 && gcBudget.large == 0
	switch {
	case wantOff && !gcBudget.off:
		gcBudget.percent = debug.SetGCPercent(-1)
		gcBudget.limit = debug.SetMemoryLimit(-1) // a negative limit reads it
		gcBudget.off = true
		debug.SetMemoryLimit(gcBudget.bytes)
	case wantOff:
		debug.SetMemoryLimit(gcBudget.bytes)
	case gcBudget.off:
		debug.SetMemoryLimit(gcBudget.limit)
		debug.SetGCPercent(gcBudget.percent)
		gcBudget.off = false
	}
}

// fileSizes is the total size of the files that exist among paths (a missing
// one is reported by the reader), or -1 (unknown, not small) when one is not
// a regular file: a pipe or a device has no size to go by.
func fileSizes(paths ...string) int64 {
	var n int64
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if !st.Mode().IsRegular() {
			return -1
		}
		n += st.Size()
	}
	return n
}
