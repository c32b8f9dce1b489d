package main

import (
	"os"
	"runtime/debug"
	"sync"
)

// A file-scoring call allocates its documents in one burst (about half the
// size of its input) and keeps none of it once it returns. Paced by the
// default GOGC=100 from a nearly empty heap, the collector runs about ten
// cycles while two 13 MB files are read, 7 to 10 ms of CPU of a call that
// takes 40 (bench/cli.md). While file-scoring calls run, the library's Go
// heap is instead collected only when it nears a memory limit that leaves
// room for their inputs; the previous settings come back when the last call
// returns. The Go runtime of this shared library manages only the library's
// own memory, so nothing else in the process is affected. A GOGC or
// GOMEMLIMIT environment variable, the user's own tuning, is left alone.

// gcBaseBudget and gcMaxBudget bound the memory one call may fill before the
// collector runs: the base plus the call's input size, at most the maximum.
const (
	gcBaseBudget = 64 << 20
	gcMaxBudget  = 1 << 30
)

var gcBudget struct {
	sync.Mutex
	active  int   // calls inside
	bytes   int64 // sum of their budgets: the memory limit while active > 0
	percent int   // GOGC to restore
	limit   int64 // memory limit to restore
}

// beginGCBudget starts a call whose inputs are inputBytes long; the caller
// must call the returned function when the call ends.
func beginGCBudget(inputBytes int64) (end func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	budget := gcBaseBudget + min(max(inputBytes, 0), gcMaxBudget)
	gcBudget.Lock()
	defer gcBudget.Unlock()
	if gcBudget.active == 0 {
		gcBudget.percent = debug.SetGCPercent(-1)
		gcBudget.limit = debug.SetMemoryLimit(-1) // a negative limit reads it
	}
	gcBudget.active++
	gcBudget.bytes += budget
	debug.SetMemoryLimit(gcBudget.bytes)
	return func() {
		gcBudget.Lock()
		defer gcBudget.Unlock()
		gcBudget.active--
		gcBudget.bytes -= budget
		if gcBudget.active > 0 {
			debug.SetMemoryLimit(gcBudget.bytes)
			return
		}
		debug.SetMemoryLimit(gcBudget.limit)
		debug.SetGCPercent(gcBudget.percent)
	}
}

// fileSizes is the total size of the files that exist among paths (a missing
// one is reported by the reader).
func fileSizes(paths ...string) int64 {
	var n int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}
