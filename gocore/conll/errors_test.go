package conll

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMalformed is the catalogue of malformed files: each must give a
// *ParseError wrapping gocore.ErrInvalidInput whose message names the file,
// the line and (when the line is inside one) the document.
func TestMalformed(t *testing.T) {
	const begin = "#begin document (d); part 000\n"
	tests := []struct {
		name, format, data string
		line               int
		doc                string // "" when outside any document
		msg                string // part of the problem description
	}{
		// CoNLL-2012
		{"unclosed mention", FormatCoNLL2012, begin + "w\t(1\nw\t-\n#end document\n", 4, "(d); part 000", "still open"},
		{"unclosed after nested singles", FormatCoNLL2012, begin + "w\t(2\nw\t((3)2)\n#end document\n", 4, "(d); part 000", "still open"},
		{"closing without opening", FormatCoNLL2012, begin + "w\t-\nw\t(1)|2)\n#end document\n", 3, "(d); part 000", "no opening"},
		{"document never ends", FormatCoNLL2012, begin + "w\t(1)\nw\t-\n", 3, "(d); part 000", "never ends"},
		// The reader applies numeric items in batches: an item's error still
		// comes before those of the lines after it.
		{"closing without opening, then bad UTF-8", FormatCoNLL2012, begin + "w\t5)\nw\xff\t-\n#end document\n", 2, "(d); part 000", "no opening"},
		{"closing without opening, then a begin", FormatCoNLL2012, begin + "w\t-\nw\t7)\n" + begin, 3, "(d); part 000", "no opening"},
		{"closing without opening, then no end", FormatCoNLL2012, begin + "w\t9)\nw\t-\n", 2, "(d); part 000", "no opening"},
		{"closing without opening, then a text id", FormatCoNLL2012, begin + "w\t3)\nw\t07)\n#end document\n", 2, "(d); part 000", "\"3)\" has no opening"},
		{"text id closing without opening", FormatCoNLL2012, begin + "w\t(7\nw\t07)\n#end document\n", 3, "(d); part 000", "\"07)\" has no opening"},
		{"begin inside a document", FormatCoNLL2012, begin + "w\t-\n" + begin + "w\t-\n#end document\n", 3, "(d); part 000", "inside a document"},
		{"token outside a document", FormatCoNLL2012, "w\t(1)\n" + begin + "#end document\n", 1, "", "outside a document"},
		{"repeated document name", FormatCoNLL2012, begin + "w\t-\n#end document\n\n" + begin + "w\t-\n#end document\n", 5, "(d); part 000", "repeated"},
		{"non-UTF-8 byte", FormatCoNLL2012, begin + "w\t-\nw\xff\t(1)\n#end document\n", 3, "(d); part 000", "UTF-8"},
		{"empty file", FormatCoNLL2012, "", 1, "", "empty"},
		{"blank file", FormatCoNLL2012, "\n \n\t\n", 1, "", "empty"},
		{"binary file", FormatCoNLL2012, "\x7fELF\x02\x01\x01\x00\x00\x00\n\x03\x00>\x00", 1, "", "binary"},
		{"binary inside a document", FormatCoNLL2012, begin + "w\t\x00\x01\n#end document\n", 2, "(d); part 000", "binary"},
		{"no document", FormatCoNLL2012, "# just a comment\n", 1, "", "no \"#begin document\""},
		// CoNLL-U
		{"conllu unclosed", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x\n2\tb\t_\t_\t_\t_\t0\t_\t_\t_\n", 2, "u", "never closed"},
		{"conllu closing without opening", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=e1)\n", 2, "u", "no opening"},
		{"conllu stray bracket", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=)\n", 2, "u", "closing bracket without"},
		{"conllu empty id", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(-x)\n", 2, "u", "without an entity id"},
		{"conllu junk value", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=e1\n", 2, "u", "neither"},
		{"conllu bad part", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1[3/2]-x\n", 2, "u", "discontinuous"},
		{"conllu missing part", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1[2/2]-x)\n", 2, "u", "without part 1"},
		{"conllu unfinished discontinuous", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1[1/2]-x)\n", 2, "u", "1 of its 2 parts"},
		{"conllu few columns", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\n", 2, "u", "10"},
		{"conllu bad id", FormatCoNLLU, "# newdoc id = u\nx\ta\t_\t_\t_\t_\t0\t_\t_\t_\n", 2, "u", "not a number"},
		{"conllu repeated newdoc", FormatCoNLLU, "# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n\n# newdoc id = u\n1\ta\t_\t_\t_\t_\t0\t_\t_\t_\n", 4, "u", "repeated"},
		{"conllu non-UTF-8", FormatCoNLLU, "# newdoc id = u\n1\ta\xc3\x28\t_\t_\t_\t_\t0\t_\t_\t_\n", 2, "u", "UTF-8"},
		{"conllu empty", FormatCoNLLU, "", 1, "", "empty"},
		{"conllu comments only", FormatCoNLLU, "# sent_id = 1\n", 1, "", "no word lines"},
		// jsonlines
		{"json invalid", FormatJSONLines, "{\"doc_key\": \"a\", \"clusters\": []}\n{\"doc_key\": \n", 2, "", "invalid JSON"},
		{"json no doc_key", FormatJSONLines, "{\"clusters\": []}\n", 1, "", "doc_key"},
		{"json bad span", FormatJSONLines, "{\"doc_key\": \"a\", \"clusters\": [[[3, 1]]]}\n", 1, "a", "is not a span [start, end] with 0 <= start <= end"},
		{"json span past the sentences", FormatJSONLines, "{\"doc_key\": \"a\", \"sentences\": [[\"x\"]], \"clusters\": [[[0, 1]]]}\n", 1, "a", "not inside the document's 1 tokens (its \"sentences\")"},
		{"conllu negative word id", FormatCoNLLU, "# newdoc id = u\n-3\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1)\n", 2, "u", "is not a number, a multiword range"},
		{"json span arity", FormatJSONLines, "{\"doc_key\": \"a\", \"clusters\": [[[3]]]}\n", 1, "a", "want [start, end]"},
		{"json span past the tokens", FormatJSONLines, "{\"doc_key\": \"a\", \"sentences\": [[\"x\", \"y\"]], \"clusters\": [[[0, 2]]]}\n", 1, "a", "2 tokens"},
		{"json repeated doc_key", FormatJSONLines, "{\"doc_key\": \"a\", \"clusters\": []}\n\n{\"doc_key\": \"a\", \"clusters\": []}\n", 3, "a", "repeated"},
		{"json two values", FormatJSONLines, "{\"doc_key\": \"a\", \"clusters\": []} {}\n", 1, "", "more than one"},
		{"json empty", FormatJSONLines, "\n", 1, "", "empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := "dir/" + strings.ReplaceAll(tc.name, " ", "_") + ".txt"
			docs, err := Parse([]byte(tc.data), path, tc.format)
			require.Error(t, err, "got %d documents", len(docs))
			assert.ErrorIs(t, err, gocore.ErrInvalidInput)
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "%T is not a *ParseError", err)
			assert.Equal(t, path, pe.Path)
			assert.Equal(t, tc.line, pe.Line, "line of %q", err.Error())
			assert.Equal(t, tc.doc, pe.Doc)
			assert.Contains(t, err.Error(), tc.msg)
			prefix := path + ":" + strconv.Itoa(tc.line) + ": "
			if tc.doc != "" {
				prefix += "document \"" + tc.doc + "\": "
			}
			assert.True(t, strings.HasPrefix(err.Error(), prefix), "%q should start with %q", err.Error(), prefix)
		})
	}
}

// TestCanonicalPairing checks the fallback pairing by undecorated name.
func TestCanonicalPairing(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"(a); part 000", "a"},
		{"(a); part 0", "a"},
		{"(a); part 001", "(a); part 001"},
		{"(a)", "(a)"},
		{"(); part 000", "(); part 000"},
		{"a", "a"},
		{"(bc/cnn/00/cnn_0001); part 000", "bc/cnn/00/cnn_0001"},
	} {
		assert.Equal(t, tc.want, canonicalName(tc.in), tc.in)
	}
	doc := func(name string) Doc { return Doc{Name: name, NumTokens: -1} }
	// Exact names win; "b" pairs with "(b); part 000"; "(c); part 000" is
	// ambiguous between "c" and "(c); part 0" and pairs with nothing.
	key := []Doc{doc("a"), doc("(b); part 000"), doc("(c); part 000")}
	resp := []Doc{doc("c"), doc("b"), doc("a"), doc("(c); part 0")}
	docs, warnings, err := Pair(key, resp)
	require.NoError(t, err)
	require.Len(t, docs, 3)
	require.Len(t, warnings, 3, "one line per rule, whatever the number of documents")
	assert.Contains(t, warnings[0], `1 of 3 key documents is paired with a response document by the same name `+
		`without CoNLL-2012 decoration ("(b); part 000" with "b")`)
	assert.Contains(t, warnings[1], `1 of 3 key documents is not in the response ("(c); part 000")`)
	assert.Contains(t, warnings[2], `2 of 4 response documents are not in the key ("c", "(c); part 0")`)
}

// TestPairSummaries checks that the documents a pairing rule concerns are
// summed up in one warning per rule, with their count and the first
// namesShown names, however many they are.
func TestPairSummaries(t *testing.T) {
	doc := func(name string) Doc { return Doc{Name: name, NumTokens: -1} }
	var key, resp []Doc
	for i := range 300 {
		key = append(key, doc(fmt.Sprintf("k%03d", i)))
		if i < 10 {
			resp = append(resp, doc(fmt.Sprintf("k%03d", i)))
		}
	}
	resp = append(resp, doc("r1"), doc("r2"), doc("r3"), doc("r4"))
	docs, warnings, err := Pair(key, resp)
	require.NoError(t, err)
	require.Len(t, docs, 300)
	assert.Equal(t, []string{
		`290 of 300 key documents are not in the response ("k010", "k011", "k012" and 287 more): scored against an empty response`,
		`4 of 14 response documents are not in the key ("r1", "r2", "r3" and 1 more): ignored`,
	}, warnings)
}

// TestPairRefusesDisjoint checks that a key and a response with documents
// but none in common are refused, naming the first names of each side,
// unless allowDisjoint; an empty side is no reason to refuse.
func TestPairRefusesDisjoint(t *testing.T) {
	doc := func(name string) Doc { return Doc{Name: name, NumTokens: -1, Path: "f", Line: 1} }
	key := []Doc{doc("a"), doc("b"), doc("c"), doc("d")}
	resp := []Doc{doc("x"), doc("(y); part 000")}
	_, _, err := Pair(key, resp)
	require.Error(t, err)
	e := gocore.AsError(err)
	assert.Equal(t, gocore.KindParse, e.Kind)
	assert.Contains(t, e.Msg, `no document name in common (key: "a", "b", "c" and 1 more; response: "x", "(y); part 000")`)

	docs, _, ws, err := pair(key, resp, pairing{allowDisjoint: true})
	require.NoError(t, err)
	assert.Len(t, docs, 4)
	assert.Len(t, ws, 2)

	for _, tc := range []struct{ key, resp []Doc }{{key, nil}, {nil, resp}, {nil, nil}} {
		_, _, err := Pair(tc.key, tc.resp)
		assert.NoError(t, err, "an empty side: %d key, %d response documents", len(tc.key), len(tc.resp))
	}
}
