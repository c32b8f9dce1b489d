package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// gcSettings reads the collector's percent and memory limit without changing them.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func TestGCBudgetSmallCallsOnlyAndRestored(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: the budget leaves the user's tuning alone by design")
	}
	percent, limit := gcSettings()
	if percent < 0 {
		t.Fatalf("collector already off before the test (percent %d)", percent)
	}

	endSmall := beginGCBudget(10 << 20)
	if p, l := gcSettings(); p != -1 || l != gcBaseBudget+10<<20 {
		t.Fatalf("one small call: percent %d limit %d, want -1 and %d", p, l, gcBaseBudget+10<<20)
	}
	endSmall2 := beginGCBudget(1 << 20)
	if p, l := gcSettings(); p != -1 || l != 2*gcBaseBudget+11<<20 {
		t.Fatalf("two small calls: percent %d limit %d, want -1 and the budgets' sum", p, l)
	}
	endLarge := beginGCBudget(gcSmallInput + 1)
	if p, l := gcSettings(); p != percent || l != limit {
		t.Fatalf("a large call beside small ones: percent %d limit %d, want the settings before (%d, %d)", p, l, percent, limit)
	}
	endSmall2()
	if p, _ := gcSettings(); p != percent {
		t.Fatalf("small call ended while the large one runs: percent %d, want %d", p, percent)
	}
	endLarge()
	if p, l := gcSettings(); p != -1 || l != gcBaseBudget+10<<20 {
		t.Fatalf("large call ended, one small left: percent %d limit %d", p, l)
	}
	endSmall()
	if p, l := gcSettings(); p != percent || l != limit {
		t.Fatalf("after the last call: percent %d limit %d, want %d and %d", p, l, percent, limit)
	}

	endUnknown := beginGCBudget(-1) // a pipe: no size to go by
	if p, _ := gcSettings(); p != percent {
		t.Fatalf("an input of unknown size changed the collector (percent %d)", p)
	}
	endUnknown()
}

func TestFileSizesUnknownForNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "key.conll")
	if err := os.WriteFile(file, make([]byte, 1234), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := fileSizes(file, filepath.Join(dir, "missing"), ""); n != 1234 {
		t.Fatalf("fileSizes = %d, want 1234 (missing and empty paths count nothing)", n)
	}
	if n := fileSizes(file, dir); n != -1 {
		t.Fatalf("fileSizes with a directory = %d, want -1", n)
	}
}
