package conll

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/internal/randconll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spans lists a document's mentions as (cluster label, start, end).
func spans(d Doc) [][3]any {
	out := make([][3]any, len(d.Mentions))
	for i, m := range d.Mentions {
		out[i] = [3]any{d.Entities[m.Cluster], int(m.Start), int(m.End)}
	}
	return out
}

// TestReadCoNLL2012Items checks the reference's reading of the coreference
// column on tricky items. The expected entity lists and their order are
// those the reference scorer v8.01 prints for the same file at verbosity 2
// ("Entity 0: (0,3)" ...), obtained by running it once.
func TestReadCoNLL2012Items(t *testing.T) {
	lines := []string{
		"(1(2",         // 0: two openings without "|"
		"(3)2)",        // 1: one-token mention first, then a closing
		"(07)|(7)",     // 2: "07" and "7" are different entities
		"1)",           // 3
		"(12+3)|(4+5)", // 4: double antecedents discarded
		"(5)",          // 5
		"(5",           // 6
		"5)(6)",        // 7: the one-token (6) is read before the closing 5)
		"(8|(9)",       // 8: entity 9 is seen before 8
		"8)",           // 9
		"(10)(11",      // 10
		"11)",          // 11
		"(13",          // 12
		"(13",          // 13: nested mentions of one entity
		"13)",          // 14: closes the inner one
		"13)|(14)",     // 15
	}
	var b strings.Builder
	b.WriteString("#begin document (t); part 0  \r\n")
	for _, l := range lines {
		b.WriteString("w\t" + l + "\n")
	}
	b.WriteString("#end document\n")
	docs, err := Parse([]byte(b.String()), "t.conll", "")
	require.NoError(t, err)
	require.Len(t, docs, 1)
	d := docs[0]
	assert.Equal(t, "(t); part 0", d.Name, "trailing spaces and \\r trimmed")
	assert.Equal(t, len(lines), d.NumTokens)
	want := [][3]any{
		{"1", 0, 3}, {"2", 0, 1}, {"3", 1, 1}, {"07", 2, 2}, {"7", 2, 2},
		{"5", 5, 5}, {"5", 6, 7}, {"6", 7, 7}, {"9", 8, 8}, {"8", 8, 9},
		{"10", 10, 10}, {"11", 10, 11}, {"13", 13, 14}, {"13", 12, 15}, {"14", 15, 15},
	}
	assert.Equal(t, want, spans(d))
	for _, m := range d.Mentions {
		assert.Equal(t, gocore.TypeUnknown, m.Type, "two columns: no POS")
	}
}

// TestReadCoNLL2012Layouts covers column layouts: the last column, trailing
// empty columns dropped as Perl's split does, space-separated lines, blank
// lines as sentence breaks, several documents.
func TestReadCoNLL2012Layouts(t *testing.T) {
	tests := []struct {
		name string
		data string
		want map[string][][3]any
		toks map[string]int
	}{
		{
			name: "last column, trailing tab",
			data: "#begin document a\nx\t0\t(1)\t\nx\t0\t_\t(2\n\n  \t \nx\t0\t_\t2)\t\t\n#end document\n",
			want: map[string][][3]any{"a": {{"1", 0, 0}, {"2", 1, 2}}},
			toks: map[string]int{"a": 3},
		},
		{
			name: "spaces",
			data: "# begin document b\nd 0 0 The (1\nd 0 1 cat 1)\n\nd 0 0 it (1)\n#end document\n",
			want: map[string][][3]any{"b": {{"1", 0, 1}, {"1", 2, 2}}},
			toks: map[string]int{"b": 3},
		},
		{
			name: "two documents and text between them",
			data: "#begin document (x); part 000\nw\t(0)\n#end document\n# comment\n\n#begin document (x); part 001\nw\t-\nw\t(0\nw\t0)\n#end document",
			want: map[string][][3]any{"(x); part 000": {{"0", 0, 0}}, "(x); part 001": {{"0", 1, 2}}},
			toks: map[string]int{"(x); part 000": 1, "(x); part 001": 3},
		},
		{
			name: "CRLF",
			data: "#begin document c\r\nw\t(1\r\nw\t1)\r\n\r\n#end document\r\n",
			want: map[string][][3]any{"c": {{"1", 0, 1}}},
			toks: map[string]int{"c": 2},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs, err := ReadCoNLL2012(strings.NewReader(tc.data), "f.conll")
			require.NoError(t, err)
			require.Len(t, docs, len(tc.want))
			for _, d := range docs {
				assert.Equal(t, tc.want[d.Name], spans(d), d.Name)
				assert.Equal(t, tc.toks[d.Name], d.NumTokens, d.Name)
			}
		})
	}
}

// TestMentionTypes checks the type rule on a CoNLL-2012 file with POS and
// NE columns.
func TestMentionTypes(t *testing.T) {
	// word POS NE coref; 12 columns as in OntoNotes.
	rows := [][4]string{
		{"The", "DT", "*", "(1"},             // 0
		{"president", "NN", "*", "-"},        // 1
		{"of", "IN", "*", "-"},               // 2
		{"France", "NNP", "(GPE)", "(2)|1)"}, // 3
		{"met", "VBD", "*", "-"},             // 4
		{"Bank", "NNP", "(ORG*", "(3"},       // 5
		{"of", "IN", "*", "-"},               // 6
		{"America", "NNP", "*)", "3)"},       // 7
		{";", ":", "*", "-"},                 // 8
		{"he", "PRP", "*", "(1)"},            // 9
		{"saw", "VBD", "*", "-"},             // 10
		{"John", "NNP", "*", "(4|(5"},        // 11
		{"'s", "POS", "*", "4)"},             // 12
		{"dog", "NN", "*", "5)"},             // 13
		{"the", "DT", "(WORK*", "(6"},        // 14
		{"big", "JJ", "*", "-"},              // 15
		{"sleep", "NN", "*)", "6)"},          // 16
		{"this", "DT", "*", "(7)"},           // 17
	}
	var b strings.Builder
	b.WriteString("#begin document (ty); part 000\n")
	for i, r := range rows {
		cols := []string{"ty", "0", strconv.Itoa(i), r[0], r[1], "_", "_", "_", "_", "_", r[2], r[3]}
		b.WriteString(strings.Join(cols, "\t") + "\n")
	}
	b.WriteString("#end document\n")
	docs, err := Parse([]byte(b.String()), "ty.conll", "")
	require.NoError(t, err)
	got := map[[2]int32]gocore.MentionType{}
	for _, m := range docs[0].Mentions {
		got[[2]int32{m.Start, m.End}] = m.Type
	}
	want := map[[2]int32]gocore.MentionType{
		{0, 3}:   gocore.TypeNominal, // head "president" (before "of")
		{3, 3}:   gocore.TypeName,    // NNP, and an NE span
		{5, 7}:   gocore.TypeName,    // NE span; head "Bank" is NNP too
		{9, 9}:   gocore.TypePronoun, // PRP
		{11, 12}: gocore.TypeName,    // head skips the possessive "'s"
		{11, 13}: gocore.TypeNominal, // head "dog"
		{14, 16}: gocore.TypeName,    // matches an NE span although no NNP
		{17, 17}: gocore.TypeNominal, // a DT demonstrative is not a pronoun here
	}
	assert.Equal(t, want, got)
}

// TestMentionTypeOf checks the rule itself, including unknown tags.
func TestMentionTypeOf(t *testing.T) {
	tag := func(tags ...string) []tokenClass {
		out := make([]tokenClass, len(tags))
		for i, s := range tags {
			out[i] = classifyPTB([]byte(s))
		}
		return out
	}
	tests := []struct {
		name string
		tags []tokenClass
		ne   bool
		want gocore.MentionType
	}{
		{"empty", nil, false, gocore.TypeUnknown},
		{"no tag", tag("_"), false, gocore.TypeUnknown},
		{"one unknown among tags", tag("DT", "-", "NN"), true, gocore.TypeUnknown},
		{"PRP$", tag("PRP$"), false, gocore.TypePronoun},
		{"WP", tag("WP"), false, gocore.TypePronoun},
		{"pronoun over NE", tag("PRP"), true, gocore.TypePronoun},
		{"two pronouns", tag("PRP", "PRP"), false, gocore.TypeNominal},
		{"NNPS head", tag("DT", "NNPS"), false, gocore.TypeName},
		{"relative clause", tag("DT", "NN", "WP", "VBD", "NNP"), false, gocore.TypeNominal},
		{"leading preposition kept", tag("IN", "NNP"), false, gocore.TypeName},
		{"UD PROPN without XPOS", []tokenClass{classifyUD([]byte("PROPN"), []byte("_"))}, false, gocore.TypeName},
		{"UD PRON without XPOS", []tokenClass{classifyUD([]byte("PRON"), []byte("_"))}, false, gocore.TypePronoun},
		{"UD XPOS wins", []tokenClass{classifyUD([]byte("VERB"), []byte("NNP"))}, false, gocore.TypeName},
		{"number after a name", tag("NNP", "NNP", "CD"), false, gocore.TypeName},
		{"date, region ends at the comma", tag("NNP", "CD", ",", "CD"), false, gocore.TypeName},
		{"hyphenated number after a name", tag("NNP", "HYPH", "CD"), false, gocore.TypeName},
		{"foreign words after a name", tag("NNP", "FW", "FW"), false, gocore.TypeName},
		{"ordinal after a name", tag("NNP", "JJ"), false, gocore.TypeName},
		{"number after a common noun", tag("DT", "NN", "CD"), false, gocore.TypeNominal},
		{"number alone", tag("DT", "CD"), false, gocore.TypeNominal},
		{"clause ending in a pronoun", tag("NNP", "MD", "VB", "PRP"), false, gocore.TypeNominal},
		{"clause ending in numbers", tag("NNP", "VBG", "CD", "SYM", "CD"), false, gocore.TypeNominal},
		{"a possessor is not the head", tag("NNP", "POS", "JJ"), false, gocore.TypeNominal},
		{"currency sign is the head", tag("NNP", "$", "CD", "CD"), false, gocore.TypeNominal},
		{"UD NUM after PROPN without XPOS", []tokenClass{classifyUD([]byte("PROPN"), []byte("_")), classifyUD([]byte("NUM"), []byte("_"))}, false, gocore.TypeName},
		{"UD NUM after NOUN without XPOS", []tokenClass{classifyUD([]byte("NOUN"), []byte("_")), classifyUD([]byte("NUM"), []byte("_"))}, false, gocore.TypeNominal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, mentionTypeOf(tc.tags, tc.ne))
		})
	}
}

// TestEntityIdsCompareAsStrings checks that entity ids are told apart as the
// reference's hash keys are (as strings), across the reader's two lookups:
// small canonical numbers by value, other ids ("07", "00", ids of
// maxByNum and above) by string.
func TestEntityIdsCompareAsStrings(t *testing.T) {
	big := strconv.Itoa(maxByNum)
	tests := []struct {
		name  string
		cells []string // one token each
		want  []string // Doc.Entities, in first-seen order
		count []int    // mentions per entity
	}{
		{"leading zero differs", []string{"(7)", "(07)", "(7)|(007)"}, []string{"7", "07", "007"}, []int{2, 1, 1}},
		{"zero and double zero", []string{"(0)|(00)", "(0", "0)"}, []string{"0", "00"}, []int{2, 1}},
		{"largest slice id and first map id", []string{"(65535)|(" + big + ")", "(" + big + ")"}, []string{"65535", big}, []int{1, 2}},
		{"above the least bound", []string{"(" + strconv.Itoa(4*maxByNum) + ")|(65536", "65536)", "(99999999)"}, []string{strconv.Itoa(4 * maxByNum), big, "99999999"}, []int{1, 1, 1}},
		{"long ids", []string{"(123456789012)", "(123456789012", "123456789012)"}, []string{"123456789012"}, []int{2}},
		{"same entity through both paths", []string{"(00", "(0", "00)|0)"}, []string{"00", "0"}, []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("#begin document d\n")
			for _, c := range tt.cells {
				b.WriteString("w\t" + c + "\n")
			}
			b.WriteString("#end document\n")
			docs, err := Parse([]byte(b.String()), "ids.conll", FormatCoNLL2012)
			require.NoError(t, err)
			d := docs[0]
			assert.Equal(t, tt.want, d.Entities)
			got := make([]int, len(d.Entities))
			for _, m := range d.Mentions {
				got[m.Cluster]++
			}
			assert.Equal(t, tt.count, got)
			// A large file looks ids up by value up to a higher bound
			// (byNumLimit): the entities are the same.
			large, err := readCoNLL2012Stream(strings.NewReader(b.String()), "ids.conll", true, 1<<30)
			require.NoError(t, err)
			assert.Equal(t, docs, large)
		})
	}
}

// TestEntityIdsAcrossDocuments checks that the ids looked up by value start
// afresh in each document, whatever their size, and on both bounds.
func TestEntityIdsAcrossDocuments(t *testing.T) {
	data := "#begin document a\nw\t(70000)|(3)\nw\t(70000)\n#end document\n" +
		"#begin document b\nw\t(3)\nw\t(70000)|(5)\n#end document\n"
	for _, size := range []int{0, 1 << 30} {
		docs, err := readCoNLL2012Stream(strings.NewReader(data), "ids.conll", true, size)
		require.NoError(t, err)
		require.Len(t, docs, 2)
		assert.Equal(t, []string{"70000", "3"}, docs[0].Entities, "size %d", size)
		assert.Equal(t, []string{"3", "70000", "5"}, docs[1].Entities, "size %d", size)
		assert.Equal(t, []int64{0, 0, 1}, []int64{docs[0].Mentions[0].Cluster, docs[0].Mentions[1].Cluster, docs[0].Mentions[2].Cluster})
		assert.Equal(t, []int64{0, 1, 2}, []int64{docs[1].Mentions[0].Cluster, docs[1].Mentions[1].Cluster, docs[1].Mentions[2].Cluster})
	}
}

// TestFirstTabs checks firstTabs against a byte-by-byte count on lines with
// 0 to 20 tabs at seeded random places, lengths crossing the eight-byte
// words.
func TestFirstTabs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 2000; trial++ {
		b := make([]byte, rng.IntN(90))
		for i := range b {
			b[i] = 'a'
			if rng.IntN(4) == 0 {
				b[i] = '\t'
			}
		}
		var want []int
		for i, c := range b {
			if c == '\t' {
				want = append(want, i)
			}
		}
		var tabs [11]int
		k, last := firstTabs(b, &tabs)
		require.Equal(t, min(len(want), 11), k, "line %q", b)
		switch {
		case len(want) >= 11:
			require.Equal(t, -1, last, "line %q", b)
		case len(want) == 0:
			require.Equal(t, -1, last, "line %q", b)
		default:
			require.Equal(t, want[len(want)-1], last, "last tab of %q", b)
		}
		for _, j := range []int{3, 4, 9, 10} {
			if j < k {
				require.Equal(t, want[j], tabs[j], "tab %d of %q", j, b)
			}
		}
	}
}

// TestReadCoNLL2012StreamMatchesWhole checks that reading a file through a
// small buffer, with short reads, gives what parsing it whole gives: the
// same documents, or the same error (message, line and document), for the
// reference test files, hand-made edge cases (no final newline, CRLF, blank
// files, errors at chunk edges) and a LitBank file.
func TestReadCoNLL2012StreamMatchesWhole(t *testing.T) {
	inputs := map[string][]byte{
		"no final newline":   []byte("#begin document d\nw\t(1)\n#end document"),
		"crlf":               []byte("#begin document d\r\nw\t(1\r\nw\t1)\r\n#end document\r\n"),
		"blank":              []byte(" \n\t\n\n"),
		"empty":              {},
		"never ends":         []byte("#begin document d\nw\t(1)\n\n"),
		"unbalanced at end":  []byte("#begin document d\nw\t(1\n#end document\n"),
		"token outside":      []byte("w\t(1)\n"),
		"repeated name":      []byte("#begin document d\nw\t_\n#end document\n#begin document d\nw\t_\n#end document\n"),
		"NUL":                []byte("#begin document d\nw\t_\x00\n#end document\n"),
		"bad UTF-8":          []byte("#begin document d\nw\xff\t_\n#end document\n"),
		"hash in token line": []byte("#begin document d\n#\t(1)\nw # end document\n"),
		"long line":          []byte("#begin document d\nw\t" + strings.Repeat("(1)|", 300) + "(2)\n#end document\n"),
	}
	for _, sub := range []string{"reference-testcases", "litbank"} {
		dir := dataDir(t, sub)
		files, err := filepath.Glob(filepath.Join(dir, "*"))
		require.NoError(t, err)
		n := 0
		for _, f := range files {
			if st, err := os.Stat(f); err != nil || st.IsDir() || n >= 12 {
				continue
			}
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			if !bytes.Contains(data, []byte("#begin document")) {
				continue
			}
			inputs[sub+"/"+filepath.Base(f)] = data
			n++
		}
	}
	for name, data := range inputs {
		want, wantErr := Parse(data, "x.conll", FormatCoNLL2012)
		for _, size := range []int{1, 3, 16, 100, 4096} {
			for _, short := range []bool{false, true} {
				var r io.Reader = bytes.NewReader(data)
				if short {
					r = iotest.HalfReader(r)
				}
				got, err := readCoNLL2012Chunked(r, "x.conll", size, true)
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

// TestGroupByEntity checks the grouping of a document's mentions by entity,
// on both sides of radixMinEntities (one counting sort below it, two radix
// passes from it), against a list per entity concatenated: entities in
// index order, each entity's mentions in push order.
func TestGroupByEntity(t *testing.T) {
	for _, n := range []int{1, 300, radixMinEntities - 1, radixMinEntities, 3*radixMinEntities + 17, 100_000} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		d := &conllDoc{}
		for e := range n {
			d.newEntity([]byte(strconv.Itoa(e)))
		}
		for i := range 4 * n {
			d.spans = append(d.spans, span{start: int32(i), end: int32(i + rng.IntN(3)), line: int32(i + 2), ent: int32(rng.IntN(n))})
		}
		byEntity := make([][]Mention, n) // the oracle: a list per entity
		for _, sp := range d.spans {
			byEntity[sp.ent] = append(byEntity[sp.ent], Mention{Start: sp.start, End: sp.end, Line: sp.line, Cluster: int64(sp.ent)})
		}
		want := slices.Concat(byEntity...)
		require.True(t, slices.Equal(want, d.groupByEntity()), "%d entities", n)
	}
}

// TestAppendDecimal checks the ids written back from their values against
// strconv.
func TestAppendDecimal(t *testing.T) {
	for _, v := range []int{0, 7, 10, 99, 100, 228_425, 1<<28 - 1} {
		require.Equal(t, "x"+strconv.Itoa(v), string(appendDecimal([]byte("x"), v)))
	}
}

// TestNarrowLines checks that the road of short lines without a POS column
// (feedNarrow) reads what feedLines reads without it, with types and
// without, whole and streamed: on generated document pairs and on a file of
// such lines mixed with every line that ends the road (a "#" in a token,
// blank and empty lines, trailing tabs, spaces instead of tabs, a line of
// 64 bytes or more, carriage returns, a POS column appearing, an error).
func TestNarrowLines(t *testing.T) {
	if !haveLineMasks {
		t.Skip("no lineMasks on this architecture: feedNarrow is never taken")
	}
	read := func(data []byte, narrow, types bool) ([]Doc, error) {
		defer func(was bool) { narrowLines = was }(narrowLines)
		narrowLines = narrow
		if types {
			return parseCoNLL2012(data, "f.conll", nil)
		}
		return readCoNLL2012Chunked(bytes.NewReader(data), "f.conll", 1<<10, false)
	}
	check := func(t *testing.T, data []byte) {
		want, wantErr := read(data, false, true)
		got, err := read(data, true, true)
		if wantErr != nil {
			require.Error(t, err)
			require.Equal(t, wantErr.Error(), err.Error())
		} else {
			require.NoError(t, err)
			require.Equal(t, want, got)
		}
		streamed, streamErr := func() ([]Doc, error) {
			defer func(was bool) { narrowLines = was }(narrowLines)
			narrowLines = true
			return readCoNLL2012Chunked(iotest.HalfReader(bytes.NewReader(data)), "f.conll", 1<<10, true)
		}()
		if wantErr != nil {
			require.Equal(t, wantErr.Error(), streamErr.Error())
		} else {
			require.Equal(t, want, streamed)
		}
		untyped, untypedErr := read(data, true, false)
		requireSameUntyped(t, want, wantErr, untyped, untypedErr)
	}
	t.Run("generated", func(t *testing.T) {
		for seed := range uint64(100) {
			p := randconll.Generate(seed)
			check(t, p.Key)
			check(t, p.Response)
		}
	})
	var b strings.Builder
	b.WriteString("#begin document (mixed); part 000\n")
	odd := []string{
		"d\t0\t0\t#\t(7)", "", " \t ", "d\t0\t0\tw\t(8)\t\t", "d 0 0 w (9)", "d\t0\t0\tw\t-\r",
		"d\t0\t0\tw\t(10)|(11)\r", "d\t0\t0\tavery-long-word-that-makes-this-line-longer-than-sixty-four-bytes\t(12)",
		"d\t0\t0\tw\t-\t-\t-\t-", "\t\t",
	}
	for i := range 3000 {
		fmt.Fprintf(&b, "d\t0\t%d\tw%d\t", i, i)
		switch i % 7 {
		case 0:
			fmt.Fprintf(&b, "(%d)\n", i%50)
		case 1:
			fmt.Fprintf(&b, "(%d\n", 100+i)
		case 2:
			fmt.Fprintf(&b, "%d)\n", 100+i-1)
		default:
			b.WriteString("-\n")
		}
		if i%11 == 3 {
			b.WriteString(odd[(i/11)%len(odd)] + "\n")
		}
		if i == 2500 { // a POS column from here on: the road ends for good
			b.WriteString("d\t0\t0\tw\tNN\t*\t-\t-\t-\t*\t*\t(13)\n")
		}
	}
	b.WriteString("#end document\n")
	mixed := b.String()
	t.Run("mixed", func(t *testing.T) { check(t, []byte(mixed)) })
	t.Run("error inside the road", func(t *testing.T) {
		at := strings.Index(mixed, "w1500\t")
		bad := mixed[:at] + "w1500\t999)\n" + mixed[strings.IndexByte(mixed[at:], '\n')+at+1:]
		_, err := read([]byte(bad), true, true)
		require.ErrorContains(t, err, "no opening bracket")
		check(t, []byte(bad))
	})
}
