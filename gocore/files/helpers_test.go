package files

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/require"
)

// dataDir returns /work/shared/data as seen from the package directory
// (../../../shared/data), or skips the test when the shared data folder is
// absent (a checkout without the data).
func dataDir(t testing.TB, sub string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "data", sub))
	require.NoError(t, err)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("shared data folder %s is absent: nothing to test against", dir)
	}
	return dir
}

// sumRows sums the counts matrix over documents into a column-name map.
func sumRows(counts []float64) map[string]float64 {
	cols := gocore.Columns()
	out := make(map[string]float64, len(cols))
	for i := 0; i < len(counts); i += len(cols) {
		for j, c := range cols {
			out[c] += counts[i+j]
		}
	}
	return out
}
