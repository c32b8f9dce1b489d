package conll

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syntaxFile is a CoNLL-2012 key of two documents: the first with a parse
// column (two sentences), the second with "-" there.
const syntaxFile = "#begin document (a); part 000\n" +
	"a\t0\t0\tHe\tPRP\t(TOP(S(NP*)\t-\t-\t-\t-\t*\t(1)\n" +
	"a\t0\t1\truns\tVBZ\t(VP*))\t-\t-\t-\t-\t*\t-\n" +
	"\n" +
	"a\t0\t0\tSmith\tNNP\t(TOP(NP*))\t-\t-\t-\t-\t*\t(1)\n" +
	"\n" +
	"#end document\n" +
	"#begin document (b); part 000\n" +
	"b\t0\t0\tHe\tPRP\t-\t-\t-\t-\t-\t*\t(1)\n" +
	"b\t0\t1\truns\tVBZ\t-\t-\t-\t-\t-\t*\t(1)\n" +
	"\n" +
	"#end document\n"

// TestReadPairSyntax: the key's words, tags and parse cells reach the paired
// documents when the analysis asks (PairExtras.Syntax, or metric kk), and
// only then; a document without parses has none.
func TestReadPairSyntax(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key.conll")
	require.NoError(t, os.WriteFile(key, []byte(syntaxFile), 0o600))
	kk, err := gocore.ParseMetrics([]string{"kk"})
	require.NoError(t, err)
	for name, c := range map[string]struct {
		opt gocore.Options
		x   PairExtras
	}{"extras": {gocore.Options{}, PairExtras{Syntax: true}}, "kk": {gocore.Options{Metrics: kk}, PairExtras{}}} {
		_, _, docs, _, _, err := ReadPair(key, key, c.opt, c.x)
		require.NoError(t, err, name)
		require.Len(t, docs, 2)
		want := &gocore.Syntax{Words: []string{"He", "runs", "Smith"}, Tags: []string{"PRP", "VBZ", "NNP"},
			Parse: []string{"(TOP(S(NP*)", "(VP*))", "(TOP(NP*))"}, SentenceEnds: []int32{2, 3}}
		assert.Equal(t, want, docs[0].Syntax, name)
		assert.Nil(t, docs[1].Syntax, "%s: no parse column", name)
	}
	_, _, docs, _, _, err := ReadPair(key, key, gocore.Options{}, PairExtras{})
	require.NoError(t, err)
	assert.Nil(t, docs[0].Syntax, "scoring without kk reads no syntax")
}
