package conll

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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
			docs, texts, err := Documents(path, 0, gocore.Options{}, 0)
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
	_, _, err := Documents(filepath.Join(t.TempDir(), "none.conll"), 1, gocore.Options{}, 0)
	require.Error(t, err)
	require.Equal(t, 1, gocore.AsError(err).Side)
	require.True(t, strings.Contains(err.Error(), "none.conll") || gocore.AsError(err).Kind == gocore.KindNotFound)
}

// TestDocumentsWordBytes keeps only the file's first words under a limit of
// bytes: the document the limit cuts keeps the words that fit whole, a later
// document keeps none, and every document still counts all its words and
// sentences (what a viewer needs to say how much it does not show).
func TestDocumentsWordBytes(t *testing.T) {
	data := "#begin document (a); part 000\na 0 0 John NNP - - - - - (0\na 0 1 Smith NNP - - - - - 0)\n\n" +
		"a 0 2 He PRP - - - - - (0)\n#end document\n#begin document (b); part 000\nb 0 0 Hi UH - - - - - -\n#end document\n"
	path := filepath.Join(t.TempDir(), "a.conll")
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	for _, tc := range []struct {
		limit int
		words [][]string
	}{
		{0, [][]string{{"John", "Smith", "He"}, {"Hi"}}},
		{100, [][]string{{"John", "Smith", "He"}, {"Hi"}}},
		{10, [][]string{{"John", "Smith"}, nil}}, // "He" would make 11 bytes: the first word that does not fit ends the kept words
		{3, [][]string{nil, nil}},
	} {
		_, texts, err := Documents(path, 0, gocore.Options{}, tc.limit)
		require.NoError(t, err)
		require.Len(t, texts, 2)
		for i, want := range tc.words {
			require.Equal(t, want, texts[i].Words, "limit %d, document %d", tc.limit, i)
		}
		require.Equal(t, []int{3, 1}, []int{texts[0].NumWords, texts[1].NumWords})
		require.Equal(t, []int32{2, 3}, texts[0].SentenceEnds)
		require.Equal(t, []int32{1}, texts[1].SentenceEnds)
	}
}

// TestDocumentsCancelled checks that a read for words ends with
// gocore.ErrCancelled when the caller's stop function says so (the file's
// bytes in memory are parsed and scanned through polls, not to their end).
func TestDocumentsCancelled(t *testing.T) {
	var b strings.Builder
	b.WriteString("#begin document (a); part 000\n")
	for i := 0; i < 3*textPollLines; i++ {
		fmt.Fprintf(&b, "a 0 %d w%d NN - - - - - (%d)\n", i, i, i%7)
	}
	b.WriteString("#end document\n")
	path := filepath.Join(t.TempDir(), "a.conll")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	for _, polls := range []int{1, 2, 3} { // before the read, while it is read, while it is parsed and scanned
		var n atomic.Int32
		opt := gocore.Options{Stop: func() bool { return n.Add(1) > int32(polls) }}
		_, _, err := Documents(path, 0, opt, 0)
		require.Error(t, err, "stop after %d polls", polls)
		require.Equal(t, gocore.KindCancelled, gocore.AsError(err).Kind, "stop after %d polls: %v", polls, err)
	}
}
