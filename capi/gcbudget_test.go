package main

import (
	"runtime/debug"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/corefscore/corefscore/gocore"
)

// gcSettings reads GOGC and the memory limit without changing them.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func TestGCBudgetNestsAndRestores(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent, limit := gcSettings()
	endA := beginGCBudget(10 << 20)
	p, l := gcSettings()
	require.Equal(t, -1, p, "collection paced by the memory limit only")
	require.Equal(t, int64(gcBaseBudget+10<<20), l)
	endB := beginGCBudget(5 << 40) // a huge input: its budget is capped
	_, l = gcSettings()
	require.Equal(t, int64(2*gcBaseBudget+10<<20+gcMaxBudget), l)
	endA()
	p, l = gcSettings()
	require.Equal(t, -1, p, "B still runs")
	require.Equal(t, int64(gcBaseBudget+gcMaxBudget), l)
	endB()
	p, l = gcSettings()
	require.Equal(t, percent, p)
	require.Equal(t, limit, l)
}

func TestGCBudgetLeavesUserTuningAlone(t *testing.T) {
	t.Setenv("GOGC", "50")
	percent, limit := gcSettings()
	end := beginGCBudget(1 << 20)
	p, l := gcSettings()
	end()
	require.Equal(t, percent, p)
	require.Equal(t, limit, l)
}

// TestScoreFilesRestoresGC runs file-scoring calls concurrently: when all
// have returned, the collector's settings are what they were.
func TestScoreFilesRestoresGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent, limit := gcSettings()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := scoreFiles("../examples/key.conll", "../examples/response.conll", "", gocore.Options{})
			if err == nil && res.nDocs == 0 {
				t.Error("no documents")
			}
		}()
	}
	wg.Wait()
	p, l := gcSettings()
	require.Equal(t, percent, p)
	require.Equal(t, limit, l)
}
