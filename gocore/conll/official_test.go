package conll

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
	writeCellDocs(t, key, names, [][]string{splitCells("(0)(1)(0)(2)"), splitCells("(5)-(5)")})
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

// TestSpaceSeparatedWordItemWarns: on a line with no tab, a word such as
// "(3)" is read as a word (the coreference column is the last one), with a
// warning that the reference scorer, splitting on tabs only, reads a
// mention there; a tab-separated file gives no such warning.
func TestSpaceSeparatedWordItemWarns(t *testing.T) {
	const spaced = "#begin document (sp); part 000\nsp 0 0 John NNP - (1)\nsp 0 1 (3) NN - -\nsp 0 2 he PRP - (1)\nsp 0 3 x) NN - -\n\n#end document\n"
	docs, err := Parse([]byte(spaced), "sp.conll", FormatCoNLL2012)
	require.NoError(t, err)
	require.Len(t, docs, 1)
	assert.Len(t, docs[0].Mentions, 2, "John and he only")
	require.Len(t, docs[0].Warnings, 1)
	w := docs[0].Warnings[0]
	assert.Equal(t, 3, w.Line)
	assert.Equal(t, int64(1), w.Count, "x) is no item: no digit before the bracket")
	assert.Contains(t, w.Msg, "reference scorer")
	tabbed := strings.ReplaceAll(spaced, " ", "\t")
	tabbed = strings.ReplaceAll(tabbed, "#begin\tdocument\t(sp);\tpart\t000", "#begin document (sp); part 000")
	tabbed = strings.ReplaceAll(tabbed, "#end\tdocument", "#end document")
	docs, err = Parse([]byte(tabbed), "tab.conll", FormatCoNLL2012)
	require.NoError(t, err)
	assert.Empty(t, docs[0].Warnings)
	assert.Len(t, docs[0].Mentions, 2)
}

// TestRepeatedKeyDocumentNameIsRefused: the reference scores only the last
// document of a repeated name (its index of names keeps the last offset);
// corefscore refuses the file and says so.
func TestRepeatedKeyDocumentNameIsRefused(t *testing.T) {
	const twice = "#begin document (d); part 000\nd\t0\t0\tJohn\t(1)\n#end document\n" +
		"#begin document (d); part 000\nd\t0\t0\tJohn\t(2)\n#end document\n"
	_, err := Parse([]byte(twice), "k.conll", FormatCoNLL2012)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "document name repeated (first at line 1)")
	assert.Contains(t, err.Error(), "only the last document")
}
