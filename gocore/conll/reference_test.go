package conll

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expectedFile is the layout of reference-testcases/expected.json.
type expectedFile struct {
	Cases map[string]struct {
		Key      string                                `json:"key"`
		Response string                                `json:"response"`
		Metrics  map[string]map[string]json.RawMessage `json:"metrics"`
	} `json:"cases"`
}

// TestReferenceTestCases reads each of the reference scorer's test pairs
// with ReadCoNLL2012, scores it, and checks every count against the numbers
// the reference scorer v8.01 prints (expected.json).
func TestReferenceTestCases(t *testing.T) {
	dir := dataDir(t, "reference-testcases")
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	require.NoError(t, err)
	var exp expectedFile
	require.NoError(t, json.Unmarshal(raw, &exp))
	require.Len(t, exp.Cases, 36, "expected.json should hold the 36 reference pairs")

	names := make([]string, 0, len(exp.Cases))
	for name := range exp.Cases {
		names = append(names, name)
	}
	sort.Strings(names)
	fields := []string{"recall_num", "recall_den", "precision_num", "precision_den"}
	checks := 0
	for _, name := range names {
		c := exp.Cases[name]
		t.Run(name, func(t *testing.T) {
			key := readCoNLLFile(t, filepath.Join(dir, c.Key))
			resp := readCoNLLFile(t, filepath.Join(dir, c.Response))
			got, _ := score(t, key, resp, gocore.Options{})
			for _, metric := range []string{"mentions", "muc", "bcub", "ceafm", "ceafe", "lea"} {
				m, ok := c.Metrics[metric]
				require.True(t, ok, "expected.json has no %s for %s", metric, name)
				for _, f := range fields {
					var want float64
					require.NoError(t, json.Unmarshal(m[f], &want))
					assert.InDelta(t, want, got[metric+"."+f], 1e-9, "%s %s.%s", name, metric, f)
					checks++
				}
			}
			blanc := c.Metrics["blanc"]
			for part, prefix := range map[string]string{"coref_links": "coref", "noncoref_links": "noncoref"} {
				var m map[string]float64
				require.NoError(t, json.Unmarshal(blanc[part], &m))
				for _, f := range fields {
					assert.InDelta(t, m[f], got["blanc."+prefix+"."+f], 1e-9, "%s blanc.%s.%s", name, prefix, f)
					checks++
				}
			}
		})
	}
	t.Logf("%d count checks over %d pairs", checks, len(names))
}

func readCoNLLFile(t *testing.T, path string) []Doc {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	docs, err := ReadCoNLL2012(f, path)
	require.NoError(t, err)
	return docs
}
