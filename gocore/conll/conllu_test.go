package conll

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// udLine builds a CoNLL-U word line.
func udLine(id, form, upos, xpos, head, misc string) string {
	return strings.Join([]string{id, form, "_", upos, xpos, "_", head, "dep", "_", misc}, "\t") + "\n"
}

// TestReadCoNLLU covers words numbered across sentences, multiword tokens
// (Entity= ignored) and empty nodes (not words; a mention on one is a zero
// mention), nested mentions of one
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
	assert.Equal(t, []string{"e1", "e2", "e8", "e5", "e3"}, d.Entities)
	type m struct {
		ent        string
		start, end int32
		words      []int32
		ty         gocore.MentionType
	}
	var got []m
	for _, x := range d.Mentions {
		got = append(got, m{d.Entities[x.Cluster], x.Start, x.End, d.Words(&x), x.Type})
	}
	want := []m{
		{"e1", 0, 1, nil, gocore.TypeNominal},
		{"e2", 1, 1, nil, gocore.TypeNominal},
		{"e8", 3, 2, nil, gocore.TypePronoun}, // the zero on 3.1: no word, a dropped pronoun
		{"e5", 3, 6, []int32{3, 5, 6}, gocore.TypeNominal},
		{"e3", 4, 4, nil, gocore.TypeName},
		{"e3", 4, 6, nil, gocore.TypeName}, // dependency head "Paris" is PROPN
	}
	assert.Equal(t, want, got)
	zero := d.Mentions[2]
	assert.Equal(t, []gocore.Node{gocore.NodeOf(0, 3, 1)}, d.EmptyNodes(&zero))
	assert.Equal(t, gocore.NodeOf(0, 3, 1), zero.Head)
	assert.True(t, zero.Head.Empty())
	assert.Equal(t, gocore.WordNode(1), d.Mentions[0].Head, "head 2 of e1 is its second word")
}

// TestReadCoNLLUZeros covers mentions with empty nodes: a zero mention with
// DEPS, a mention that opens on a word and closes on an empty node, an empty
// node inside a span (it belongs to the mention), a head index that counts
// empty nodes, and "0.k" nodes before a sentence's first word.
func TestReadCoNLLUZeros(t *testing.T) {
	var b strings.Builder
	b.WriteString("# global.Entity = eid-etype-head-other\n# sent_id = 1\n")
	b.WriteString(udLine("1", "a", "X", "_", "0", "Entity=(e1-x-1-)"))
	b.WriteString(udLine("2", "b", "X", "_", "1", "Entity=(e2-x-2-"))
	b.WriteString(strings.Join([]string{"2.1", "z", "_", "_", "_", "_", "_", "_", "2:nsubj|1:obj", "Entity=e2)(e1-x-1-)"}, "\t") + "\n")
	b.WriteString(udLine("3", "c", "X", "_", "1", "Entity=(e3-x-3-"))
	b.WriteString(strings.Join([]string{"3.1", "y", "_", "_", "_", "_", "_", "_", "_", "_"}, "\t") + "\n")
	b.WriteString(udLine("4", "d", "X", "_", "1", "Entity=e3)"))
	b.WriteString("\n# sent_id = 2\n")
	b.WriteString(strings.Join([]string{"0.1", "w", "_", "_", "_", "_", "_", "_", "0:root", "Entity=(e1-x-1-)"}, "\t") + "\n")
	b.WriteString(udLine("1", "e", "X", "_", "0", "_"))
	docs, err := ReadCoNLLU(strings.NewReader(b.String()), "z.conllu")
	require.NoError(t, err)
	require.Len(t, docs, 1)
	d := docs[0]
	assert.Equal(t, 5, d.NumTokens)
	type m struct {
		ent        string
		start, end int32
		empty      []gocore.Node
		head       gocore.Node
		sentence   int32
		deps       []gocore.Dep
	}
	var got []m
	for _, x := range d.Mentions {
		require.True(t, x.HasHead)
		got = append(got, m{d.Entities[x.Cluster], x.Start, x.End, d.EmptyNodes(&x), x.Head, d.HeadSentence(&x), d.HeadDeps(&x)})
	}
	z21, z31, z01 := gocore.NodeOf(0, 2, 1), gocore.NodeOf(0, 3, 1), gocore.NodeOf(4, 0, 1)
	deps := []gocore.Dep{{Parent: gocore.WordNode(1), Rel: "nsubj"}, {Parent: gocore.WordNode(0), Rel: "obj"}}
	want := []m{
		{"e1", 0, 0, nil, gocore.WordNode(0), 0, nil},
		{"e1", 2, 1, []gocore.Node{z21}, z21, 0, deps},
		{"e1", 4, 3, []gocore.Node{z01}, z01, 4, []gocore.Dep{{Parent: gocore.NodeOf(4, 0, 0), Rel: "root"}}},
		{"e2", 1, 1, []gocore.Node{z21}, z21, 0, deps}, // head 2 counts the empty node
		{"e3", 2, 3, []gocore.Node{z31}, gocore.WordNode(3), 0, nil},
	}
	assert.Equal(t, want, got)
	assert.True(t, gocore.WordNode(1) < z21 && z21 < gocore.WordNode(2), "nodes order as the file")
	assert.True(t, gocore.WordNode(3) < z01 && z01 < gocore.WordNode(4))
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
		{Start: 0, End: 4, rare: 1, Cluster: 0},
		{Start: 2, End: 3, Cluster: 0},
		{Start: 5, End: 8, rare: 2, Cluster: 1},
	}, rare: rareTable{{words: []int32{0, 1, 4}}, {words: []int32{5, 8}}}}}
	resp := []Doc{{Name: "d", NumTokens: 9, Mentions: []Mention{
		{Start: 5, End: 8, rare: 1, Cluster: 7},
		{Start: 0, End: 4, rare: 2, Cluster: 7},
		{Start: 0, End: 4, rare: 3, Cluster: 7},
	}, rare: rareTable{{words: []int32{5, 8}}, {words: []int32{0, 1, 4}}, {words: []int32{0, 4}}}}}
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

// TestParseEntityDecl checks which Entity attribute a "# global.Entity"
// line declares as the head.
func TestParseEntityDecl(t *testing.T) {
	tests := []struct {
		name, rest string
		want       headAttr
	}{
		{"CorefUD", " = eid-etype-head-other", headAttr{field: 2}},
		{"GUM", " = GRP-etype-infstat-salience-centering-minspan-link-identity", headAttr{field: 5, minspan: true}},
		{"head wins over minspan", " = eid-minspan-head", headAttr{field: 2}},
		{"neither", " = eid-etype-other", headAttr{}},
		{"id field is never the head", " = head-etype", headAttr{}},
		{"no equals sign", " eid-etype-head", headAttr{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, parseEntityDecl([]byte(tc.rest)))
		})
	}
}

// TestHeadAttrValue checks that the declared field is cut out of an opening
// bracket's content.
func TestHeadAttrValue(t *testing.T) {
	gum := headAttr{field: 5, minspan: true}
	assert.Equal(t, "1,3", string(gum.value([]byte("12-person-giv:act-nnnnn-cf14-1,3-sgl-Johann_II_Bernoulli"))))
	assert.Equal(t, "5", string(gum.value([]byte("116-abstract-new-nnnnnl-cf26-5"))))
	assert.Nil(t, gum.value([]byte("12-person-new")), "fewer fields than declared")
	assert.Nil(t, headAttr{}.value([]byte("12-person-1")), "nothing declared")
	assert.Equal(t, "2", string(headAttr{field: 2}.value([]byte("e1-person-2-new"))))
}

// TestHeadWord checks the head rule on mentions whose words hang from
// outside in several places. deps: 0 "born" (root), 1 "8" <- 0, 2 "February"
// <- 1, 3 "1700" <- 1, 4 "in" <- 5, 5 "Basel" <- 0.
func TestHeadWord(t *testing.T) {
	deps := []int32{-1, 0, 1, 1, 5, 0}
	span := func(s, e int32) *Mention { return &Mention{Start: s, End: e} }
	tests := []struct {
		name    string
		m       *Mention
		words   []int32 // a discontinuous mention's
		minspan bool
		spec    string
		want    int32
	}{
		{"no attribute: first word governed from outside", span(2, 3), nil, false, "", 2},
		{"minspan picks its word governed from outside", span(2, 3), nil, true, "2", 3},
		{"minspan: first of its words governed from outside", span(1, 5), nil, true, "2,1,5", 1},
		{"minspan: none governed from outside, first of them", span(0, 5), nil, true, "3,2", 2},
		{"head is taken as given", span(2, 3), nil, false, "2", 3},
		{"head must be one position", span(2, 3), nil, false, "1,2", 2},
		{"position past the mention is ignored", span(2, 3), nil, true, "3", 2},
		{"malformed spec is ignored", span(2, 3), nil, true, "x", 2},
		{"zero position is ignored", span(2, 3), nil, true, "0", 2},
		{"empty item is ignored", span(2, 3), nil, true, "2,,1", 2},
		{"trailing comma is ignored", span(2, 3), nil, true, "2,", 2},
		{"sign is ignored", span(2, 3), nil, true, "+2", 2},
		{"huge position is ignored", span(2, 3), nil, true, "99999999999999999999", 2},
		{"whole sentence: the root", span(0, 5), nil, false, "", 0},
		{"discontinuous, head by position", &Mention{Start: 1, End: 5}, []int32{1, 2, 5}, false, "3", 5},
		{"discontinuous, word 2's head 1 is inside", &Mention{Start: 1, End: 5}, []int32{1, 2, 5}, false, "", 1},
		{"head index past deps is not outside", span(6, 7), nil, false, "", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, headWord(tc.m, tc.words, tc.minspan, []byte(tc.spec), deps, nil))
		})
	}
}

// TestReadCoNLLUDeclaredHead reads "saw Paris today" with the mention
// "Paris today", both of whose words hang from "saw": without a declared
// head attribute the first, "Paris" (PROPN), is its head and it is a name;
// with the head attribute (GUM's minspan or CorefUD's head) pointing at
// "today" it is nominal (the simple head rule also finds "today").
func TestReadCoNLLUDeclaredHead(t *testing.T) {
	const gum = "# global.Entity = GRP-etype-infstat-salience-centering-minspan-link-identity\n"
	const corefud = "# global.Entity = eid-etype-head-other\n"
	tests := []struct {
		name, header, attrs string
		want                gocore.MentionType
	}{
		{"GUM minspan at today", gum, "time-new-nnnnn-cf7-2-sgl", gocore.TypeNominal},
		{"GUM minspan at Paris", gum, "time-new-nnnnn-cf7-1-sgl", gocore.TypeName},
		{"GUM minspan at both, first governed from outside", gum, "time-new-nnnnn-cf7-2,1-sgl", gocore.TypeNominal},
		{"CorefUD head at today", corefud, "time-2-x", gocore.TypeNominal},
		{"CorefUD head past the mention", corefud, "time-3-x", gocore.TypeName},
		{"no declaration", "", "time-new-nnnnn-cf7-2-sgl", gocore.TypeName},
		{"declaration without a head attribute", "# global.Entity = eid-etype-a-b-c-d\n", "time-new-nnnnn-cf7-2-sgl", gocore.TypeName},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.header + "# newdoc id = d\n" +
				udLine("1", "saw", "VERB", "VBD", "0", "_") +
				udLine("2", "Paris", "PROPN", "NNP", "1", "Entity=(5-"+tc.attrs) +
				udLine("3", "today", "NOUN", "NN", "1", "Entity=5)")
			docs, err := ReadCoNLLU(strings.NewReader(data), "d.conllu")
			require.NoError(t, err)
			require.Len(t, docs, 1)
			require.Len(t, docs[0].Mentions, 1)
			assert.Equal(t, tc.want, docs[0].Mentions[0].Type)
		})
	}
}

// TestSplitColumns checks the eight-bytes-at-a-time tab search against
// strings.Split: tabs on both sides of each 8-byte boundary, bytes one bit
// away from a tab (0x08, 0x0b, 0x89, 0x0a), empty columns, fewer and more
// than ten columns, the ninth tab at every place of a word.
func TestSplitColumns(t *testing.T) {
	lines := []string{
		"",
		"\t",
		"1",
		"1\tThe\tthe\tDET\tDT\t_\t2\tdet\t2:det\tEntity=(1-person-new-1-)",
		"1\tThe\tthe\tDET\tDT\t_\t2\tdet\t2:det\tEntity=(1)\tX\tY",
		"\t\t\t\t\t\t\t\t\t",
		"\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t",
		"1234567\t12345678\t123456789\t\b\t\x0b\t\x89\t\n\t\x01\x08\x09\x0a\x11\x19\x89\xc9",
		"ab\tcd",
		"abcdefg\thijklmn\topqrstu\tvwxyz",
	}
	for i := range 40 { // a tab at every position of a long line
		lines = append(lines, strings.Repeat("x", i)+"\t"+strings.Repeat("é", 20)+"\t")
	}
	for n := 9; n <= 12; n++ { // the ninth tab at every place of a word, tabs after it
		for width := range 8 {
			parts := make([]string, n)
			for i := range parts {
				parts[i] = strings.Repeat(string(rune('a'+i)), (width+i)%8)
			}
			lines = append(lines, strings.Join(parts, "\t"))
		}
	}
	for _, line := range lines {
		t.Run(strings.ReplaceAll(line, "\t", "→"), func(t *testing.T) {
			want := strings.Split(line, "\t")
			var cols [10][]byte
			n := splitColumns([]byte(line), &cols)
			require.Equal(t, len(want), n)
			for c := range min(n, 10) {
				if c == 9 {
					assert.Equal(t, strings.Join(want[9:], "\t"), string(cols[9]))
				} else {
					assert.Equal(t, want[c], string(cols[c]), "column %d", c)
				}
			}
		})
	}
}

// TestReadCoNLLUStreamMatchesWhole checks that reading a CoNLL-U file
// through a small buffer, with short reads, gives what Parse gives on the
// whole file: the same documents (heads included: head attributes are kept
// across runs of lines), or the same error, for hand-made edge cases
// (discontinuous mentions, zeros, no final newline, CRLF, a byte order mark,
// blank files, errors at the end) and GUM files.
func TestReadCoNLLUStreamMatchesWhole(t *testing.T) {
	decl := "# global.Entity = eid-etype-head-other\n"
	inputs := map[string][]byte{
		"discontinuous and zeros": []byte("# newdoc id = a\n" + decl +
			udLine("1", "x", "PROPN", "NNP", "0", "Entity=(e1-p-2-(e2[1/2]-q-1-") +
			udLine("2", "y", "X", "_", "1", "Entity=e1)") +
			"2.1\tz\t_\t_\t_\t_\t_\t_\t1:nsubj\tEntity=(e9-z-1-)\n" +
			udLine("3", "z", "X", "_", "1", "Entity=(e2[2/2]-q-1-)") +
			"\n# newdoc id = b\n" + udLine("1", "w", "NOUN", "NN", "0", "Entity=(e1-p-1-)")),
		"no final newline": []byte(udLine("1", "a", "_", "_", "0", "Entity=(1-x(1-y)1)")[:30]),
		"crlf":             []byte(strings.ReplaceAll(decl+udLine("1", "a", "NOUN", "_", "0", "Entity=(1-x-1-)"), "\n", "\r\n")),
		"bom":              append([]byte("\xef\xbb\xbf"), udLine("1", "a", "NOUN", "_", "0", "Entity=(1-x-1-)")...),
		"blank":            []byte(" \n\t\n\n"),
		"empty":            {},
		"never closed":     []byte(udLine("1", "a", "NOUN", "_", "0", "Entity=(1-x-1-")),
		"NUL":              []byte(udLine("1", "a", "NOUN", "_", "0", "_") + "2\tb\x00\n"),
		"comments only":    []byte("# newdoc id = a\n# text = nothing\n"),
	}
	// GUM's files when ../shared is there (minspan heads, multiword tokens).
	gum, err := filepath.Glob(filepath.Join("..", "..", "..", "shared", "data", "gum-conllu", "*.conllu"))
	require.NoError(t, err)
	for _, f := range gum[:min(len(gum), 3)] {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		inputs["gum/"+filepath.Base(f)] = data
	}
	t.Logf("%d inputs, %d of them GUM files", len(inputs), min(len(gum), 3))
	for name, data := range inputs {
		want, wantErr := Parse(data, "x.conllu", FormatCoNLLU)
		for _, size := range []int{1, 3, 16, 100, 4096} {
			for _, short := range []bool{false, true} {
				var r io.Reader = bytes.NewReader(data)
				if short {
					r = iotest.HalfReader(r)
				}
				got, err := readCoNLLUChunked(r, "x.conllu", size)
				if wantErr != nil {
					require.Error(t, err, "%s, buffer %d", name, size)
					assert.Equal(t, wantErr.Error(), err.Error(), "%s, buffer %d", name, size)
					continue
				}
				require.NoError(t, err, "%s, buffer %d", name, size)
				require.Equal(t, want, got, "%s, buffer %d", name, size)
			}
		}
	}
}
