package conll

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
