package files

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPairErrors checks Pair through ScoreFiles: different token counts are
// an error naming the document; missing and extra documents are warnings.
func TestPairErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
		return p
	}
	key := write("key.conll", "#begin document a\nw\t(1)\nw\t-\n#end document\n#begin document b\nw\t(1)\n#end document\n")
	short := write("short.conll", "#begin document a\nw\t(1)\n#end document\n")
	_, _, _, _, err := ScoreFiles(key, short, "", gocore.Options{})
	require.Error(t, err)
	assert.ErrorIs(t, err, gocore.ErrInvalidInput)
	assert.Contains(t, err.Error(), `document "a" has 2 tokens in the key`)

	other := write("other.conll", "#begin document a\nw\t(1)\nw\t(1)\n#end document\n#begin document c\nw\t(1)\n#end document\n")
	names, counts, _, warnings, err := ScoreFiles(key, other, "", gocore.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, names)
	require.Len(t, warnings, 2)
	assert.Equal(t, `1 of 2 key documents is not in the response ("b"): scored against an empty response`, warnings[0])
	assert.Equal(t, `1 of 2 response documents is not in the key ("c"): ignored`, warnings[1])
	sum := sumRows(counts)
	assert.Equal(t, 2.0, sum["mentions.recall_den"], "b's key mention is scored against nothing")
	assert.Equal(t, 1.0, sum["mentions.recall_num"])
	assert.Equal(t, 2.0, sum["mentions.precision_den"])

	_, _, _, _, err = ScoreFiles(filepath.Join(dir, "absent.conll"), key, "", gocore.Options{})
	assert.ErrorContains(t, err, "absent.conll")
}

// TestReport: one read of each file gives what Score, AnalyzeFiles and
// Documents give from their own reads, for each metric choice (the read
// takes mention types even when the scored metrics do not).
func TestReport(t *testing.T) {
	key, resp := filepath.Join("..", "..", "examples", "key.conll"), filepath.Join("..", "..", "examples", "response.conll")
	for _, tc := range []struct {
		name    string
		metrics []string
	}{
		{"default", nil},
		{"untyped", []string{"muc", "bcub"}},
		{"with analyses", []string{"muc", "kk", "ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opt gocore.Options
			if tc.metrics != nil {
				set, err := gocore.ParseMetrics(tc.metrics)
				require.NoError(t, err)
				opt.Metrics = set
			}
			rep, err := Report(key, resp, opt, gocore.Options{}, 0)
			require.NoError(t, err)
			want, err := Score(key, resp, opt)
			require.NoError(t, err)
			require.Equal(t, want, rep.Score)
			names, recs, warnings, err := AnalyzeFiles(key, resp, "", gocore.Options{})
			require.NoError(t, err)
			require.Equal(t, names, rep.Names)
			require.Equal(t, recs, rep.Records)
			require.Equal(t, warnings, rep.AnalysisWarnings)
			require.NotEmpty(t, recs)
			docs, texts, err := conll.Documents(key, 0, gocore.Options{}, 0)
			require.NoError(t, err)
			require.Equal(t, docs, rep.Key)
			require.Equal(t, texts, rep.KeyText)
			respDocs, _, err := conll.Documents(resp, 1, gocore.Options{}, 0)
			require.NoError(t, err)
			require.Equal(t, respDocs, rep.Response)
		})
	}
	_, err := Report(key, filepath.Join(t.TempDir(), "none.conll"), gocore.Options{}, gocore.Options{}, 0)
	require.Error(t, err)
	require.Equal(t, 1, gocore.AsError(err).Side)
}

// TestReportPairsResponseByScoring checks that the report's response
// documents are those the scoring paired with each key document, in key
// order: a CoNLL-2012 key "(d1); part 000" shows the jsonlines response
// "d1" it was scored against, and a key document without a response shows
// an empty one.
func TestReportPairsResponseByScoring(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key.conll")
	resp := filepath.Join(dir, "resp.jsonlines")
	require.NoError(t, os.WriteFile(key, []byte("#begin document (d0); part 000\nd0 0 0 A NNP - - - - - (0)\n#end document\n"+
		"#begin document (d1); part 000\nd1 0 0 B NNP - - - - - (0)\nd1 0 1 C PRP - - - - - (0)\n#end document\n"), 0o644))
	require.NoError(t, os.WriteFile(resp, []byte(`{"doc_key": "zz", "clusters": [[[0, 0]]]}`+"\n"+
		`{"doc_key": "d1", "clusters": [[[0, 0], [1, 1]]]}`+"\n"), 0o644))
	rep, err := Report(key, resp, gocore.Options{}, gocore.Options{}, 0)
	require.NoError(t, err)
	require.Len(t, rep.Response, 2)
	require.Empty(t, rep.Response[0].Mentions, "(d0); part 000 has no response")
	require.Equal(t, "d1", rep.Response[1].Name)
	require.Len(t, rep.Response[1].Mentions, 2)
	ncol := gocore.NumColumns()
	muc := gocore.ColumnIndex("muc.recall_num")
	require.Equal(t, 1.0, rep.Score.Counts[ncol+muc], "d1 is scored against the response it is shown with")
}
