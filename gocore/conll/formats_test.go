package conll

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testDoc is a small document written by the tests in each format.
type testDoc struct {
	name      string
	sentences [][]string // words
	tags      [][]string // PTB tags, parallel to sentences
	clusters  [][][2]int // inclusive spans, document token indices
}

func (d testDoc) numTokens() int {
	n := 0
	for _, s := range d.sentences {
		n += len(s)
	}
	return n
}

// brackets returns, per token, the mentions starting and ending there.
func (d testDoc) brackets() (opens, closes map[int][][3]int) {
	opens, closes = map[int][][3]int{}, map[int][][3]int{}
	for c, cl := range d.clusters {
		for _, sp := range cl {
			m := [3]int{c, sp[0], sp[1]}
			opens[sp[0]] = append(opens[sp[0]], m)
			closes[sp[1]] = append(closes[sp[1]], m)
		}
	}
	for _, ms := range opens { // outer (longer) mentions open first
		sort.Slice(ms, func(i, j int) bool { return ms[i][2] > ms[j][2] })
	}
	for _, ms := range closes { // inner (later-starting) mentions close first
		sort.Slice(ms, func(i, j int) bool { return ms[i][1] > ms[j][1] })
	}
	return opens, closes
}

func (d testDoc) conll2012() string {
	opens, closes := d.brackets()
	var b strings.Builder
	fmt.Fprintf(&b, "#begin document (%s); part 000\n", d.name)
	tok := 0
	for s, words := range d.sentences {
		for i, w := range words {
			var items []string
			for _, m := range opens[tok] {
				if m[1] == m[2] {
					items = append(items, fmt.Sprintf("(%d)", m[0]))
				} else {
					items = append(items, fmt.Sprintf("(%d", m[0]))
				}
			}
			for _, m := range closes[tok] {
				if m[1] != m[2] {
					items = append(items, fmt.Sprintf("%d)", m[0]))
				}
			}
			coref := "-"
			if len(items) > 0 {
				coref = strings.Join(items, "|")
			}
			fmt.Fprintf(&b, "%s\t0\t%d\t%s\t%s\t*\t-\t-\t-\t-\t*\t%s\n", d.name, i, w, d.tags[s][i], coref)
			tok++
		}
		b.WriteString("\n")
	}
	b.WriteString("#end document\n")
	return b.String()
}

func (d testDoc) conllu() string {
	opens, closes := d.brackets()
	var b strings.Builder
	fmt.Fprintf(&b, "# newdoc id = (%s); part 000\n", d.name)
	tok := 0
	for s, words := range d.sentences {
		fmt.Fprintf(&b, "# sent_id = %s-%d\n", d.name, s+1)
		for i, w := range words {
			var val string
			for _, m := range opens[tok] {
				if m[1] == m[2] {
					val += fmt.Sprintf("(e%d-x-y)", m[0])
				} else {
					val += fmt.Sprintf("(e%d-x-y", m[0])
				}
			}
			for _, m := range closes[tok] {
				if m[1] != m[2] {
					val += fmt.Sprintf("e%d)", m[0])
				}
			}
			misc := "_"
			if val != "" {
				misc = "SpaceAfter=No|Entity=" + val
			}
			upos := map[string]string{"NNP": "PROPN", "PRP": "PRON", "IN": "ADP"}[d.tags[s][i]]
			if upos == "" {
				upos = "X"
			}
			head := i + 2 // each word depends on the next, the last is the root
			if i == len(words)-1 {
				head = 0
			}
			fmt.Fprintf(&b, "%d\t%s\t_\t%s\t%s\t_\t%d\tdep\t_\t%s\n", i+1, w, upos, d.tags[s][i], head, misc)
			if i == 1 { // a multiword token range (Entity= ignored) and an empty node outside every mention, which are not words
				fmt.Fprintf(&b, "%d-%d\tfoo\t_\t_\t_\t_\t_\t_\t_\tEntity=(e99-z)\n", i+2, i+3)
				fmt.Fprintf(&b, "%d.1\tbar\t_\t_\t_\t_\t_\t_\t_\t_\n", i+1)
			}
			tok++
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (d testDoc) jsonl() string {
	out := map[string]any{"doc_key": "(" + d.name + "); part 000", "sentences": d.sentences}
	cl := make([][][2]int, len(d.clusters))
	copy(cl, d.clusters)
	out["clusters"] = cl
	b, _ := json.Marshal(out)
	return string(b) + "\n"
}

// sampleDocs returns a key and a response of two documents.
func sampleDocs() (key, resp []testDoc) {
	sents := [][]string{
		{"John", "Smith", "said", "he", "would", "come", "to", "the", "party"},
		{"He", "saw", "Mary", "'s", "dog", "at", "it", "."},
	}
	tags := [][]string{
		{"NNP", "NNP", "VBD", "PRP", "MD", "VB", "TO", "DT", "NN"},
		{"PRP", "VBD", "NNP", "POS", "NN", "IN", "PRP", "."},
	}
	other := [][]string{{"A", "cat", "sat", "."}, {"It", "slept", "."}}
	otherTags := [][]string{{"DT", "NN", "VBD", "."}, {"PRP", "VBD", "."}}
	key = []testDoc{
		{name: "d1", sentences: sents, tags: tags, clusters: [][][2]int{
			{{0, 1}, {3, 3}, {9, 9}}, {{7, 8}, {15, 15}}, {{11, 12}, {11, 13}}, {{13, 13}}}},
		{name: "d2", sentences: other, tags: otherTags, clusters: [][][2]int{{{0, 1}, {4, 4}}}},
	}
	resp = []testDoc{
		{name: "d1", sentences: sents, tags: tags, clusters: [][][2]int{
			{{0, 0}, {0, 1}, {3, 3}}, {{9, 9}, {15, 15}}, {{7, 8}}, {{11, 13}, {11, 12}, {2, 2}}}},
		{name: "d2", sentences: other, tags: otherTags, clusters: [][][2]int{{{1, 1}, {4, 4}}, {{0, 1}}}},
	}
	return key, resp
}

// writeFormat writes docs in one format into dir and returns the path.
func writeFormat(t *testing.T, dir, base, format string, docs []testDoc) string {
	t.Helper()
	ext := map[string]string{FormatCoNLL2012: ".conll", FormatCoNLLU: ".conllu", FormatJSONLines: ".jsonl"}[format]
	var b strings.Builder
	for _, d := range docs {
		switch format {
		case FormatCoNLL2012:
			b.WriteString(d.conll2012())
		case FormatCoNLLU:
			b.WriteString(d.conllu())
		default:
			b.WriteString(d.jsonl())
		}
	}
	path := filepath.Join(dir, base+ext)
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// TestFormatsAgree writes the same key and response in CoNLL-2012, CoNLL-U
// and jsonlines and checks that every combination of key format and
// response format gives the same counts for the metrics that need no mention
// types, and the same counts for all metrics when both files carry types
// (CoNLL-2012 with POS, CoNLL-U); and that the counts are not trivially
// perfect.
func TestFormatsAgree(t *testing.T) {
	dir := t.TempDir()
	key, resp := sampleDocs()
	formats := []string{FormatCoNLL2012, FormatCoNLLU, FormatJSONLines}
	keyPaths, respPaths := map[string]string{}, map[string]string{}
	for _, f := range formats {
		keyPaths[f] = writeFormat(t, dir, "key", f, key)
		respPaths[f] = writeFormat(t, dir, "resp", f, resp)
	}
	untyped := map[string]bool{"mentions": true, "muc": true, "bcub": true, "bcub_entity": true,
		"ceafm": true, "ceafe": true, "blanc": true, "lea": true}
	cols := gocore.Columns()
	var ref []float64
	for _, kf := range formats {
		for _, rf := range formats {
			// What the readers give, paired and scored by the engine (package
			// files composes the same for users; the readers only read).
			docs, pairWarnings, err := Pair(readFile(t, keyPaths[kf], ""), readFile(t, respPaths[rf], ""))
			require.NoError(t, err, "%s vs %s", kf, rf)
			assert.Empty(t, pairWarnings)
			counts := make([]float64, len(docs)*gocore.NumColumns())
			rep, err := gocore.Score(docs, gocore.Options{SpanMentions: true}, counts)
			require.NoError(t, err, "%s vs %s", kf, rf)
			names := []string{docs[0].Name, docs[1].Name}
			// A typed file against a jsonlines one (no types) leaves the
			// typed metrics out, and says so; nothing else is worth a word.
			mixed := (kf == FormatJSONLines) != (rf == FormatJSONLines)
			for _, w := range rep.Warnings {
				assert.Equal(t, gocore.WarnTypesSkipped, w.Kind, w.Msg)
				assert.True(t, mixed, "%s vs %s: %s", kf, rf, w.Msg)
			}
			if mixed {
				assert.Len(t, rep.Warnings, 1, "%s vs %s", kf, rf)
			}
			assert.Empty(t, rep.Duplicates)
			assert.Equal(t, []string{"(d1); part 000", "(d2); part 000"}, names)
			if ref == nil {
				ref = counts
				sum := sumRows(counts)
				assert.Equal(t, 10.0, sum["mentions.recall_den"])
				assert.Equal(t, 12.0, sum["mentions.precision_den"])
				assert.Less(t, sum["muc.recall_num"], sum["muc.recall_den"])
				if gocore.ColumnIndex("lmuc.recall_den") >= 0 {
					assert.Positive(t, sum["lmuc.recall_den"], "CoNLL-2012 with POS gives types")
				}
				continue
			}
			bothTyped := kf != FormatJSONLines && rf != FormatJSONLines
			for i, v := range counts {
				c := cols[i%len(cols)]
				metric := strings.SplitN(c, ".", 2)[0]
				if metric == "mor" || metric == "zero" {
					continue // they read mention shapes, which only CoNLL-U gives
				}
				if bothTyped || untyped[metric] {
					assert.Equal(t, ref[i], v, "key %s, response %s, row %d column %s", kf, rf, i/len(cols), c)
				}
			}
		}
	}
	// The typed formats agree on the types too.
	a := readFile(t, keyPaths[FormatCoNLL2012], "")
	b := readFile(t, keyPaths[FormatCoNLLU], "")
	for i := range a {
		for j := range a[i].Mentions {
			assert.Equal(t, a[i].Mentions[j].Type, b[i].Mentions[j].Type, "%s mention %d", a[i].Name, j)
			assert.NotEqual(t, gocore.TypeUnknown, a[i].Mentions[j].Type)
		}
	}
}

// TestReadFormatSniffing checks the choice of format by name and content.
func TestReadFormatSniffing(t *testing.T) {
	dir := t.TempDir()
	key, _ := sampleDocs()
	for _, f := range []string{FormatCoNLL2012, FormatCoNLLU, FormatJSONLines} {
		p := writeFormat(t, dir, "k", f, key)
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, f, SniffFormat(data), "content of %s", p)
		// A neutral name: the content decides.
		q := filepath.Join(dir, "noext-"+f)
		require.NoError(t, os.WriteFile(q, data, 0o644))
		docs, err := Read(q, "")
		require.NoError(t, err)
		assert.Len(t, docs, 2)
		// An explicit format overrides the name.
		docs, err = Read(p, strings.ToUpper(f))
		require.NoError(t, err)
		assert.Len(t, docs, 2)
	}
	_, err := Read(filepath.Join(dir, "k.conll"), "xml")
	assert.ErrorIs(t, err, gocore.ErrInvalidInput)
	q := filepath.Join(dir, "junk.txt")
	require.NoError(t, os.WriteFile(q, []byte("hello\n"), 0o644))
	_, err = Read(q, "")
	assert.ErrorContains(t, err, "cannot tell the file format")
}
