package conll

import (
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// udLine builds a CoNLL-U word line.
func udLine(id, form, upos, xpos, head, misc string) string {
	return strings.Join([]string{id, form, "_", upos, xpos, "_", head, "dep", "_", misc}, "\t") + "\n"
}

// TestReadCoNLLU covers words numbered across sentences, multiword tokens and
// empty nodes (not words, their Entity= ignored), nested mentions of one
// entity, discontinuous mentions, MISC keys other than Entity=, and the
// document name when there is no "# newdoc".
func TestReadCoNLLU(t *testing.T) {
	var b strings.Builder
	b.WriteString("# global.Entity = eid-etype-head-other\n# sent_id = 1\n")
	b.WriteString(udLine("1", "The", "DET", "DT", "2", "Entity=(e1-person-2-new"))
	b.WriteString(udLine("2", "man", "NOUN", "NN", "0", "SplitAnte=e3<e1|Entity=(e2-person-1)e1)"))
	b.WriteString(udLine("3-4", "don't", "_", "_", "_", "Entity=(e9-x)"))
	b.WriteString(udLine("3", "do", "AUX", "VBP", "2", "_"))
	b.WriteString(udLine("3.1", "do", "AUX", "VBP", "_", "Entity=(e8-x)"))
	b.WriteString(udLine("4", "n't", "PART", "RB", "2", "Bridge=e1<e5|Entity=(e5[1/2]-place)"))
	b.WriteString("\n# sent_id = 2\n")
	b.WriteString(udLine("1", "Paris", "PROPN", "NNP", "0", "Entity=(e3-place-1(e3-place-1)"))
	b.WriteString(udLine("2", "and", "CCONJ", "CC", "1", "Entity=(e5[2/2]-place"))
	b.WriteString(udLine("3", "it", "PRON", "PRP", "1", "Entity=e5[2/2])e3)"))
	docs, err := ReadCoNLLU(strings.NewReader(b.String()), "some/dir/story.conllu")
	require.NoError(t, err)
	require.Len(t, docs, 1)
	d := docs[0]
	assert.Equal(t, "story", d.Name)
	assert.Equal(t, 7, d.NumTokens)
	assert.Equal(t, []string{"e1", "e2", "e5", "e3"}, d.Entities)
	type m struct {
		ent        string
		start, end int32
		words      []int32
		ty         gocore.MentionType
	}
	var got []m
	for _, x := range d.Mentions {
		got = append(got, m{d.Entities[x.Cluster], x.Start, x.End, x.Words, x.Type})
	}
	want := []m{
		{"e1", 0, 1, nil, gocore.TypeNominal},
		{"e2", 1, 1, nil, gocore.TypeNominal},
		{"e5", 3, 6, []int32{3, 5, 6}, gocore.TypeNominal},
		{"e3", 4, 4, nil, gocore.TypeName},
		{"e3", 4, 6, nil, gocore.TypeName}, // dependency head "Paris" is PROPN
	}
	assert.Equal(t, want, got)
}

// TestReadCoNLLUDocuments checks "# newdoc" handling.
func TestReadCoNLLUDocuments(t *testing.T) {
	data := "# newdoc id = a\n" + udLine("1", "x", "X", "_", "0", "Entity=(1-p)") +
		"\n# newdoc\n" + udLine("1", "y", "X", "_", "0", "_") + udLine("2", "z", "X", "_", "0", "_") +
		"\n# newdoc id = c\n"
	docs, err := Parse([]byte(data), "f.conllu", "")
	require.NoError(t, err)
	require.Len(t, docs, 3)
	assert.Equal(t, []string{"a", "f.conllu#2", "c"}, []string{docs[0].Name, docs[1].Name, docs[2].Name})
	assert.Equal(t, []int{1, 2, 0}, []int{docs[0].NumTokens, docs[1].NumTokens, docs[2].NumTokens})
	assert.Len(t, docs[0].Mentions, 1)
	assert.Equal(t, gocore.TypeNominal, docs[0].Mentions[0].Type, "UPOS X is a tag, if an uninformative one")
}

// TestPairDiscontinuous checks that equal word sets get equal ids on both
// sides and distinct sets distinct ids, with bit 62 set.
func TestPairDiscontinuous(t *testing.T) {
	key := []Doc{{Name: "d", NumTokens: 9, Mentions: []Mention{
		{Start: 0, End: 4, Words: []int32{0, 1, 4}, Cluster: 0},
		{Start: 2, End: 3, Cluster: 0},
		{Start: 5, End: 8, Words: []int32{5, 8}, Cluster: 1},
	}}}
	resp := []Doc{{Name: "d", NumTokens: 9, Mentions: []Mention{
		{Start: 5, End: 8, Words: []int32{5, 8}, Cluster: 7},
		{Start: 0, End: 4, Words: []int32{0, 1, 4}, Cluster: 7},
		{Start: 0, End: 4, Words: []int32{0, 4}, Cluster: 7},
	}}}
	docs, warnings, err := Pair(key, resp)
	require.NoError(t, err)
	assert.Empty(t, warnings)
	k, r := docs[0].Key.Mentions, docs[0].Response.Mentions
	assert.Equal(t, int64(2)<<32|3, k[1])
	for _, id := range []int64{k[0], k[2], r[0], r[1], r[2]} {
		assert.NotZero(t, id&(1<<62), "id %x", id)
	}
	assert.Equal(t, k[0], r[1])
	assert.Equal(t, k[2], r[0])
	assert.NotEqual(t, k[0], r[2])
	assert.NotEqual(t, k[0], k[2])
	assert.Nil(t, docs[0].Key.Types, "no known type: no types array")
}
