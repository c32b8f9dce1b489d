package conll

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"testing/iotest"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/require"
)

// The reference scorer's four substitutions, as regular expressions: the
// simple, slow oracle for substitute.
var perlPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\((\d+\+\d)\)`),
	regexp.MustCompile(`\((\d+)\)`),
	regexp.MustCompile(`\((\d+)`),
	regexp.MustCompile(`(\d+)\)`),
}

// perlItems applies the substitutions as Perl's `while (s/PATTERN//)` does:
// remove the leftmost match, search again from the start.
func perlItems(cell string) [4][]string {
	var out [4][]string
	for p, re := range perlPatterns {
		for {
			loc := re.FindStringSubmatchIndex(cell)
			if loc == nil {
				break
			}
			out[p] = append(out[p], cell[loc[2]:loc[3]])
			cell = cell[:loc[0]] + cell[loc[1]:]
		}
	}
	return out
}

// recorder collects the items substitute finds.
type recorder [4][]string

func (r *recorder) item(pat int, id []byte) error {
	r[pat] = append(r[pat], string(id))
	return nil
}

// ourItems runs substitute with the four patterns.
func ourItems(cell string) [4][]string {
	var out recorder
	s := []byte(cell)
	for p := patDouble; p <= patClose; p++ {
		s, _ = substitute(s, p, &out)
	}
	return out
}

// cellItems runs corefItems, the reader's entry point (fast path for
// "|"-separated simple items, substitute otherwise).
func cellItems(cell string) [4][]string {
	var out recorder
	_, _, _ = corefItems([]byte(cell), nil, &out)
	return out
}

// FuzzCorefColumn checks the fast in-place substitution, and the reader's
// fast path for simple cells, against the regular expression oracle on
// arbitrary coreference cells.
func FuzzCorefColumn(f *testing.F) {
	for _, s := range []string{"(1(2", "((3)2)", "(07)|(7)", "(12+3)|(4+5)", "5)(6)", "(8|(9)",
		"((1)2)3)", "(1(2)3)", "((12+3)4)", "1(2)3)", "((((1)))))", "(1+(2)3)",
		"(3)|(3|3)", "4)|(5)|(4", "(0|1)|(2)||", "|(7)", "(07|7)|(7)", "2)|(1)", "()|(1)", "(|1)",
		"(0)", "(00)", "0)", "(65535", "(65536)", "(1234567890)", "(12345678901)", "7))", "((7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cell string) {
		want := perlItems(cell)
		require.Equal(t, want, ourItems(cell), "substitute, cell %q", cell)
		require.Equal(t, want, cellItems(cell), "corefItems, cell %q", cell)
		checkNumericItem(t, cell, want)
		checkNumericItems(t, cell, want)
	})
}

// checkNumericItems checks numericItems, the reader's path for a cell of
// a few "|"-separated items with canonical numeric ids, against the oracle:
// the items it reads are the oracle's, in the order of the substitutions.
func checkNumericItems(t *testing.T, cell string, want [4][]string) {
	const limit = maxByNum
	var items [maxNumericItems]pendingItem
	n, ok := numericItems([]byte(cell), limit, &items)
	if !ok {
		return
	}
	var got [4][]string
	last := int32(patSingle)
	for _, it := range items[:n] {
		require.GreaterOrEqual(t, it.pat, last, "order of the items of %q", cell)
		last = it.pat
		got[it.pat] = append(got[it.pat], strconv.Itoa(int(it.num)))
	}
	require.Equal(t, want, got, "numericItems, cell %q", cell)
}

// checkNumericItem checks numericItem, the reader's path for a cell of one
// item with a canonical numeric id, against the oracle's items of the cell:
// it reads a cell exactly when the oracle finds one item there, of the same
// pattern and an id of that value, and the cell is nothing but the item.
func checkNumericItem(t *testing.T, cell string, want [4][]string) {
	const limit = maxByNum
	pat, v, ok := numericItem([]byte(cell), limit)
	var items []string
	onlyPat := -1
	for p, ids := range want {
		items = append(items, ids...)
		if len(ids) > 0 {
			onlyPat = p
		}
	}
	one := len(items) == 1 && onlyPat != patDouble && canonicalNum([]byte(items[0]), limit) >= 0
	if one {
		id := items[0]
		whole := map[int]string{patSingle: "(" + id + ")", patOpen: "(" + id, patClose: id + ")"}[onlyPat]
		one = cell == whole
	}
	require.Equal(t, one, ok, "numericItem reads cell %q", cell)
	if ok {
		require.Equal(t, onlyPat, pat, "pattern of %q", cell)
		require.Equal(t, canonicalNum([]byte(items[0]), limit), v, "id of %q", cell)
	}
}

// checkDocs checks the invariants of a successful read and that the
// documents score against themselves without error.
func checkDocs(t *testing.T, docs []Doc) {
	for _, d := range docs {
		for _, m := range d.Mentions {
			if m.Start > m.End { // a zero mention: empty nodes only
				require.NotEmpty(t, d.EmptyNodes(&m), "span [%d, %d]", m.Start, m.End)
				require.True(t, m.HasHead && m.Head.Empty())
				continue
			}
			require.True(t, m.Start >= 0 && m.Start <= m.End, "span [%d, %d]", m.Start, m.End)
			if d.NumTokens >= 0 { // jsonlines without "sentences": unknown
				require.Less(t, int(m.End), d.NumTokens)
			}
			require.Less(t, int(m.Cluster), len(d.Entities))
			if words := d.Words(&m); words != nil {
				require.True(t, slices.IsSorted(words))
				require.Equal(t, m.Start, words[0])
				require.Equal(t, m.End, words[len(words)-1])
			}
		}
	}
	pairs, _, err := Pair(docs, docs)
	require.NoError(t, err)
	counts := make([]float64, len(pairs)*gocore.NumColumns())
	_, err = gocore.ScoreBatch(pairs, gocore.Options{}, counts)
	require.NoError(t, err)
	sum := sumRows(counts)
	require.Equal(t, sum["muc.recall_den"], sum["muc.recall_num"])
	require.Equal(t, sum["bcub.precision_den"], sum["bcub.precision_num"])
}

// FuzzReadCoNLL2012 feeds arbitrary bytes to the CoNLL-2012 reader: it must
// return documents or an error, never panic, and what it returns must be
// consistent. Reading without types must give the same documents, or the
// same error, with every type unknown.
func FuzzReadCoNLL2012(f *testing.F) {
	f.Add([]byte("#begin document (d); part 000\nw\t(1(2\nw\t2)\n\nw\t1)|(3)\n#end document\n"))
	f.Add([]byte("#begin document x\nd 0 0 The DT * - - - - (P* (1\nd 0 1 cat NNP * - - - - *) 1)\n#end document"))
	f.Add([]byte("#begin document (t)\r\nw\t(12+3)|((3)2)\r\n#end document\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := parseCoNLL2012(data, "fuzz.conll", nil)
		if crOnly(data) && bytes.IndexByte(data, 0) < 0 { // refused before parsing (a NUL byte is reported first)
			docs, err = nil, crError("fuzz.conll")
		}
		// Reading through a small buffer gives the same documents or error.
		streamed, streamErr := readCoNLL2012Chunked(iotest.HalfReader(bytes.NewReader(data)), "fuzz.conll", 7, true)
		untyped, untypedErr := readCoNLL2012Chunked(bytes.NewReader(data), "fuzz.conll", 5, false)
		requireSameUntyped(t, docs, err, untyped, untypedErr)
		if err != nil {
			require.Error(t, streamErr)
			require.Equal(t, err.Error(), streamErr.Error())
			return
		}
		require.NoError(t, streamErr)
		require.Equal(t, docs, streamed)
		checkDocs(t, docs)
	})
}

// requireSameUntyped checks that untyped holds docs with every mention type
// unknown, or the same error.
func requireSameUntyped(t *testing.T, docs []Doc, err error, untyped []Doc, untypedErr error) {
	t.Helper()
	if err != nil {
		require.Error(t, untypedErr)
		require.Equal(t, err.Error(), untypedErr.Error())
		return
	}
	require.NoError(t, untypedErr)
	require.Len(t, untyped, len(docs))
	for i := range docs {
		want := docs[i]
		want.Mentions = slices.Clone(want.Mentions)
		for j := range want.Mentions {
			m := &want.Mentions[j]
			m.Type = gocore.TypeUnknown
			if !want.emptyNodes { // CoNLL-2012 heads come from the POS tags
				m.Head, m.HasHead = 0, false
			}
		}
		require.Equal(t, want, untyped[i])
	}
}

// FuzzReadCoNLLU feeds arbitrary bytes to the CoNLL-U reader.
func FuzzReadCoNLLU(f *testing.F) {
	f.Add([]byte("# newdoc id = a\n1\tx\t_\tPROPN\tNNP\t_\t0\t_\t_\tEntity=(e1-p(e2[1/2]-q)\n2-3\tyz\t_\t_\t_\t_\t_\t_\t_\t_\n2\ty\t_\tX\t_\t_\t1\t_\t_\tEntity=e1)\n2.1\tz\t_\t_\t_\t_\t_\t_\t_\tEntity=(e9)\n3\tz\t_\tX\t_\t_\t1\t_\t_\tEntity=(e2[2/2]-q)\n"))
	f.Add([]byte("1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(1-x(1-y)1)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := parseCoNLLU(data, "fuzz.conllu", nil)
		// Reading through a small buffer gives what Parse gives (a NUL byte is
		// refused as soon as it is read, where Parse may first find another
		// error, such as CR line endings, on the whole file).
		whole, wholeErr := Parse(data, "fuzz.conllu", FormatCoNLLU)
		streamed, streamErr := readCoNLLUChunked(iotest.HalfReader(bytes.NewReader(data)), "fuzz.conllu", 7)
		switch {
		case bytes.IndexByte(data, 0) >= 0:
			require.Error(t, wholeErr)
			require.Error(t, streamErr)
		case wholeErr != nil:
			require.Error(t, streamErr)
			require.Equal(t, wholeErr.Error(), streamErr.Error())
		default:
			require.NoError(t, streamErr)
			require.Equal(t, whole, streamed)
		}
		if err != nil {
			return
		}
		checkDocs(t, docs)
	})
}

// FuzzReadJSONLines feeds arbitrary bytes to the jsonlines reader: documents
// or an error, never a panic, documents that score perfectly against
// themselves, and the same documents or error as encoding/json alone (the
// fast path off).
func FuzzReadJSONLines(f *testing.F) {
	f.Add([]byte(`{"doc_key": "a", "clusters": [[[0, 1], [4, 4]], [[2, 2]]], "sentences": [["x", "y", "z"], ["u", "v"]]}` + "\n"))
	f.Add([]byte(`{"doc_key": "b", "clusters": [[[0, 0], [0, 0]]]}` + "\n\n" + `{"doc_key": "c", "clusters": []}`))
	f.Add([]byte(`{"doc_key": "d", "clusters": [[[3, 2]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := parseJSONLines(data, "fuzz.jsonl")
		jsonFast = false
		slow, slowErr := parseJSONLines(data, "fuzz.jsonl")
		jsonFast = true
		require.Equal(t, fmt.Sprint(slowErr), fmt.Sprint(err))
		require.Equal(t, slow, docs)
		if err != nil {
			return
		}
		checkDocs(t, docs)
	})
}
