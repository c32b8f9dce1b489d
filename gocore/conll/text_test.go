package conll

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/require"
)

// TestDocuments reads the words of each format beside the reader's mentions:
// the words line up with the token numbering of the mentions (multiword
// tokens and empty nodes are not words), sentences end where the files say,
// and a jsonlines document without "sentences" gets no words.
func TestDocuments(t *testing.T) {
	conllu := "# newdoc id = d1\n# sent_id = 1\n" +
		udLine("1-2", "dont", "_", "_", "_", "_") +
		udLine("1", "do", "AUX", "VBP", "0", "Entity=(e1-person-1)") +
		udLine("2", "not", "PART", "RB", "1", "_") +
		udLine("2.1", "x", "_", "_", "_", "_") +
		"\n# sent_id = 2\n" +
		udLine("1", "Anna", "PROPN", "NNP", "0", "Entity=(e1-person-1)") + "\n" +
		"# newdoc id = d2\n# sent_id = 3\n" + udLine("1", "Hi", "INTJ", "UH", "0", "_") + "\n"
	tests := []struct {
		name, file, data string
		words            [][]string
		sentenceEnds     [][]int32
		firstMention     [2]int32
	}{
		{"conll2012", "a.conll", "#begin document (a); part 000\n" +
			"a 0 0 John NNP - - - - - (0\na 0 1 Smith NNP - - - - - 0)\n\na 0 2 He PRP - - - - - (0)\n" +
			"#end document\n#begin document (b); part 000\nb 0 0 Hi UH - - - - - -\n#end document\n",
			[][]string{{"John", "Smith", "He"}, {"Hi"}}, [][]int32{{2, 3}, {1}}, [2]int32{0, 1}},
		{"conllu", "a.conllu", conllu, [][]string{{"do", "not", "Anna"}, {"Hi"}}, [][]int32{{2, 3}, {1}}, [2]int32{0, 0}},
		{"jsonlines", "a.jsonlines", `{"doc_key": "a", "sentences": [["A", "\"b\""], ["c"]], "clusters": [[[0, 0], [2, 2]]]}` + "\n" +
			`{"doc_key": "b", "clusters": [[[0, 1]]]}` + "\n",
			[][]string{{"A", `"b"`, "c"}, nil}, [][]int32{{2, 3}, nil}, [2]int32{0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			require.NoError(t, os.WriteFile(path, []byte(tc.data), 0o644))
			docs, texts, err := Documents(path, 0, gocore.Options{})
			require.NoError(t, err)
			require.Len(t, texts, len(tc.words))
			for i := range tc.words {
				require.Equal(t, tc.words[i], texts[i].Words, "document %d", i)
				require.Equal(t, tc.sentenceEnds[i], texts[i].SentenceEnds, "document %d", i)
			}
			m := docs[0].Mentions[0]
			require.Equal(t, tc.firstMention, [2]int32{m.Start, m.End})
		})
	}
	_, _, err := Documents(filepath.Join(t.TempDir(), "none.conll"), 1, gocore.Options{})
	require.Error(t, err)
	require.Equal(t, 1, gocore.AsError(err).Side)
	require.True(t, strings.Contains(err.Error(), "none.conll") || gocore.AsError(err).Kind == gocore.KindNotFound)
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
			rep, err := Report(key, resp, opt, gocore.Options{})
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
			docs, texts, err := Documents(key, 0, gocore.Options{})
			require.NoError(t, err)
			require.Equal(t, docs, rep.Key)
			require.Equal(t, texts, rep.KeyText)
			respDocs, _, err := Documents(resp, 1, gocore.Options{})
			require.NoError(t, err)
			require.Equal(t, respDocs, rep.Response)
		})
	}
	_, err := Report(key, filepath.Join(t.TempDir(), "none.conll"), gocore.Options{}, gocore.Options{})
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
	rep, err := Report(key, resp, gocore.Options{}, gocore.Options{})
	require.NoError(t, err)
	require.Len(t, rep.Response, 2)
	require.Empty(t, rep.Response[0].Mentions, "(d0); part 000 has no response")
	require.Equal(t, "d1", rep.Response[1].Name)
	require.Len(t, rep.Response[1].Mentions, 2)
	ncol := gocore.NumColumns()
	muc := gocore.ColumnIndex("muc.recall_num")
	require.Equal(t, 1.0, rep.Score.Counts[ncol+muc], "d1 is scored against the response it is shown with")
}
