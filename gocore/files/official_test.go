package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmptyResponseFileScoresZero: a blank response file is a system that
// produced nothing: every key document is scored against an empty response
// (recall denominators as the key's, every numerator 0), with one warning,
// as the reference scorer does; a blank key file is still an error.
func TestEmptyResponseFileScoresZero(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key.conll")
	names := []string{"(a); part 000", "(b); part 000"}
	require.NoError(t, os.WriteFile(key, []byte("#begin document (a); part 000\na\t(0)\na\t(1)\na\t(0)\na\t(2)\n#end document\n"+
		"#begin document (b); part 000\nb\t(5)\nb\t-\nb\t(5)\n#end document\n"), 0o600))
	for _, blank := range []string{"", "\n\n  \n"} {
		for _, ext := range []string{".conll", ".txt"} { // a known format, and one guessed from nothing
			resp := filepath.Join(dir, "response"+ext)
			require.NoError(t, os.WriteFile(resp, []byte(blank), 0o600))
			res, err := Score(key, resp, gocore.Options{})
			require.NoError(t, err, "%q %s", blank, ext)
			assert.Equal(t, names, res.Names)
			require.Len(t, res.Warnings, 1)
			assert.Contains(t, res.Warnings[0].Msg, "the response file is empty")
			assert.Equal(t, 1, res.Warnings[0].Side)
			sums := sumRows(res.Counts)
			for _, c := range gocore.Columns() {
				if strings.HasSuffix(c, "_num") {
					assert.Zero(t, sums[c], c)
				}
			}
			assert.Equal(t, 6.0, sums["mentions.recall_den"])
			assert.Equal(t, 0.0, sums["mentions.precision_den"])
			assert.Equal(t, 4.0, sums["ceafe.recall_den"]) // 3 entities in a, 1 in b
			_, err = Score(resp, key, gocore.Options{})
			require.Error(t, err, "a blank key file")
			assert.Contains(t, err.Error(), "empty file")
		}
	}
}
