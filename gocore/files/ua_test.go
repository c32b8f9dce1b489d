package files

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// uaWriteColumn writes the cells of one markable column of side s over n
// tokens (outer markables open first, inner ones close first), with Min
// written in the form minForm ("," or "-").
func uaWriteColumn(s gocore.UASide, n int, minForm string) []string {
	cells := make([]string, n)
	order := make([]int, len(s.Markables))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ma, mb := s.Markables[order[a]], s.Markables[order[b]]
		return ma.Start < mb.Start || (ma.Start == mb.Start && ma.End > mb.End)
	})
	closes := make([]int, n)
	for _, i := range order {
		m := s.Markables[i]
		attrs := fmt.Sprintf("EntityID=%s|MarkableID=m%d", s.Entities[m.Entity].Name, i)
		if m.MinStart >= 0 {
			attrs += fmt.Sprintf("|Min=%d%s%d", m.MinStart+1, minForm, m.MinEnd+1)
		}
		if len(m.ElementOf) > 0 {
			var names []string
			for _, e := range m.ElementOf {
				names = append(names, s.Entities[e].Name)
			}
			attrs += "|ElementOf=" + strings.Join(names, ",")
		}
		if m.Start == m.End {
			cells[m.Start] += "(" + attrs + ")"
		} else {
			cells[m.Start] += "(" + attrs
			closes[m.End]++
		}
	}
	for t := range cells {
		cells[t] = strings.Repeat(")", closes[t]) + cells[t]
		if cells[t] == "" {
			cells[t] = "_"
		}
	}
	return cells
}

// uaWrite writes one document with the given column order.
func uaWrite(name string, ident, deixis gocore.UASide, n int, columns []string, minForm string) string {
	var b strings.Builder
	b.WriteString("# global.columns = " + strings.Join(columns, " ") + "\n")
	b.WriteString("# newdoc id = " + name + "\n")
	ic, dc := uaWriteColumn(ident, n, minForm), uaWriteColumn(deixis, n, minForm)
	bc := make([]string, n)
	for _, br := range ident.Bridging {
		t := ident.Markables[br.Anaphor].Start
		bc[t] += fmt.Sprintf("(MarkableID=m%d|MentionAnchor=m%d)", br.Anaphor, br.Antecedent)
	}
	for t := 0; t < n; t++ {
		var fields []string
		for _, c := range columns {
			switch c {
			case "ID":
				fields = append(fields, fmt.Sprint(t+1))
			case "IDENTITY":
				fields = append(fields, ic[t])
			case "DISCOURSE_DEIXIS":
				fields = append(fields, dc[t])
			case "BRIDGING":
				if bc[t] == "" {
					bc[t] = "_"
				}
				fields = append(fields, bc[t])
			default:
				fields = append(fields, "_")
			}
		}
		b.WriteString(strings.Join(fields, "\t") + "\n")
	}
	return b.String()
}

// uaSample is a side with every UA feature: nested and one-token
// markables, a plural with two antecedents (one in two plurals), a
// non-referring markable, minimum spans and a bridging pair.
func uaSample() (gocore.UASide, gocore.UASide) {
	ident := gocore.UASide{
		Entities: []gocore.UAEntity{{Name: "1"}, {Name: "2"}, {Name: "3"}, {Name: "4"}, {Name: "7-Pseudo", Pseudo: true}},
		Markables: []gocore.UAMarkable{
			{Start: 0, End: 2, MinStart: 1, MinEnd: 1, Entity: 0, ElementOf: []int32{2, 3}},
			{Start: 0, End: 0, MinStart: -1, MinEnd: -1, Entity: 1, ElementOf: []int32{2}},
			{Start: 4, End: 4, MinStart: -1, MinEnd: -1, Entity: 2},
			{Start: 5, End: 7, MinStart: 6, MinEnd: 7, Entity: 3},
			{Start: 6, End: 7, MinStart: -1, MinEnd: -1, Entity: 4},
		},
		Bridging: []gocore.UABridge{{Anaphor: 3, Antecedent: 2}},
	}
	deixis := gocore.UASide{
		Entities:  []gocore.UAEntity{{Name: "d1"}},
		Markables: []gocore.UAMarkable{{Start: 1, End: 3, MinStart: -1, MinEnd: -1, Entity: 0}, {Start: 8, End: 8, MinStart: -1, MinEnd: -1, Entity: 0}},
	}
	return ident, deixis
}

// TestUARoundTrip writes every UA feature and reads it back, in the
// standard column order and in another one that the header names, with
// both forms of Min.
func TestUARoundTrip(t *testing.T) {
	ident, deixis := uaSample()
	for _, tc := range []struct {
		name    string
		columns []string
		minForm string
	}{
		{"standard columns", strings.Fields("ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS"), ","},
		{"columns reordered, Min a-b", strings.Fields("ID FORM DISCOURSE_DEIXIS MISC BRIDGING IDENTITY"), "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := uaWrite("doc/1", ident, deixis, 9, tc.columns, tc.minForm) +
				strings.Replace(uaWrite("doc/2", deixis, ident, 9, tc.columns, tc.minForm), "# global", "# other", 1)
			require.True(t, conll.IsUA([]byte(data)))
			docs, err := conll.ParseUA([]byte(data), "x.ua")
			require.NoError(t, err)
			require.Len(t, docs, 2)
			assert.Equal(t, "doc/1", docs[0].Name)
			assert.Equal(t, 9, docs[0].Tokens)
			assert.Equal(t, ident, docs[0].Identity)
			assert.Equal(t, deixis, docs[0].Deixis)
			// The second document swaps the columns (its bridging pair names
			// markables of its identity column, which is the first's deixis).
			want := deixis
			assert.Equal(t, want.Markables, docs[1].Identity.Markables)
			assert.Equal(t, ident.Markables, docs[1].Deixis.Markables)
		})
	}
}

// TestUAReaderErrors: malformed CoNLL-UA files give a *conll.ParseError naming
// the file, the line and the document.
func TestUAReaderErrors(t *testing.T) {
	const head = "# global.columns = ID FORM IDENTITY BRIDGING DISCOURSE_DEIXIS\n# newdoc id = d\n"
	for _, tc := range []struct {
		name, data string
		line       int
		msg        string
	}{
		{"never closed", head + "1 w (EntityID=1|MarkableID=a _ _\n2 w _ _ _\n", 3, "never closed"},
		{"close without open", head + "1 w ) _ _\n", 3, "no markable open"},
		{"text before opening", head + "1 w x(EntityID=1|MarkableID=a) _ _\n", 3, "closing brackets, then openings"},
		{"no MarkableID", head + "1 w (EntityID=1) _ _\n", 3, "without MarkableID"},
		{"no EntityID (case-sensitive)", head + "1 w (EntityId=1|MarkableID=a) _ _\n", 3, "no EntityID"},
		{"attribute without =", head + "1 w (EntityID=1|MarkableID=a|x) _ _\n", 3, "not KEY=VALUE"},
		{"repeated MarkableID", head + "1 w (EntityID=1|MarkableID=a) _ _\n2 w (EntityID=1|MarkableID=a) _ _\n", 4, "second markable"},
		{"bad Min", head + "1 w (EntityID=1|MarkableID=a|Min=1,2,3) _ _\n", 3, "Min=1,2,3"},
		{"Min outside", head + "1 w (EntityID=1|MarkableID=a|Min=2) _ _\n2 w _ _ _\n", 3, "outside its tokens"},
		{"empty ElementOf", head + "1 w (EntityID=1|MarkableID=a|ElementOf=) _ _\n", 3, "empty entity"},
		{"bridging without brackets", head + "1 w (EntityID=1|MarkableID=a) MarkableID=a|MentionAnchor=a _\n", 3, "bridging cell"},
		{"bridging without anchor", head + "1 w (EntityID=1|MarkableID=a) (MarkableID=a) _\n", 3, "MentionAnchor"},
		{"bridging to nothing", head + "1 w (EntityID=1|MarkableID=a) (MarkableID=a|MentionAnchor=b) _\n", 3, "anchor \"b\""},
		{"too few fields", head + "1 w _ _\n", 3, "fields"},
		{"token before newdoc", "# global.columns = ID FORM IDENTITY\n1 w _\n", 2, "before the first"},
		{"no IDENTITY in header", "# global.columns = ID FORM\n", 1, "no IDENTITY"},
		{"two documents of one name", head + "1 w _ _ _\n# newdoc id = d\n", 4, "second document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := conll.ParseUA([]byte(tc.data), "bad.ua")
			require.Error(t, err)
			var pe *conll.ParseError
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.Equal(t, "bad.ua", pe.Path)
			assert.Equal(t, tc.line, pe.Line, "%v", err)
			assert.Contains(t, pe.Msg, tc.msg)
			assert.True(t, errors.Is(err, gocore.ErrInvalidInput))
		})
	}
}

// TestUAScoreFiles: format detection from the header, the modes through
// Score, and an ElementOf cycle refused with the document's file and line.
func TestUAScoreFiles(t *testing.T) {
	dir := t.TempDir()
	ident, deixis := uaSample()
	cols := strings.Fields("ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS")
	key := filepath.Join(dir, "key.conll") // the name says CoNLL-2012, the header says CoNLL-UA
	require.NoError(t, os.WriteFile(key, []byte(uaWrite("d", ident, deixis, 9, cols, ",")), 0o644))
	res, err := Score(key, key, gocore.Options{UA: gocore.UAOptions{NonReferring: true, Bridging: true}})
	require.NoError(t, err)
	sums := sumRows(res.Counts)
	for _, m := range []string{"muc", "bcub", "ceafm", "ceafe", "lea", "non_referring", "bridging_entity"} {
		assert.Equal(t, sums[m+".recall_num"], sums[m+".recall_den"], m)
		assert.Equal(t, sums[m+".precision_num"], sums[m+".precision_den"], m)
	}
	assert.Equal(t, 1.0, sums["non_referring.recall_den"])
	assert.Equal(t, 1.0, sums["bridging_anaphora.recall_den"])

	cyc := ident
	cyc.Markables = append([]gocore.UAMarkable(nil), ident.Markables...)
	cyc.Markables[2].ElementOf = []int32{0} // 3 is an element of 1, 1 of 3
	bad := filepath.Join(dir, "cycle.ua")
	require.NoError(t, os.WriteFile(bad, []byte(uaWrite("d", cyc, deixis, 9, cols, ",")), 0o644))
	_, err = Score(bad, key, gocore.Options{})
	require.Error(t, err)
	e := gocore.AsError(err)
	assert.Equal(t, bad, e.Path)
	assert.Equal(t, 2, e.Line)
	assert.Contains(t, e.Msg, "element of itself")
	// Without split antecedents the cycle means nothing.
	_, err = Score(bad, key, gocore.Options{UA: gocore.UAOptions{Split: gocore.UASplitExclude}})
	require.NoError(t, err)

	_, err = Score(key, key, gocore.Options{Format: conll.FormatCoNLL2012, UA: gocore.UAOptions{MinSpan: true}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "need CoNLL-UA files")
	_, _, _, err = AnalyzeFiles(key, key, "", gocore.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not analysed")
}

// TestUARandomSelfScore: any document scored against itself is perfect in
// every mode and metric (random sides with nested markables and plurals).
func TestUARandomSelfScore(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	cols := strings.Fields("ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS")
	dir := t.TempDir()
	for trial := 0; trial < 20; trial++ {
		s := gocore.UASide{}
		n := 30
		var spans [][2]int32
		for len(spans) < 12 {
			a := int32(rng.Intn(n))
			b := min(int32(n-1), a+int32(rng.Intn(3)))
			ok := true
			for _, x := range spans {
				if x == [2]int32{a, b} || (x[0] < a && a <= x[1] && x[1] < b) || (a < x[0] && x[0] <= b && b < x[1]) {
					ok = false
				}
			}
			if ok {
				spans = append(spans, [2]int32{a, b})
			}
		}
		sort.Slice(spans, func(i, j int) bool {
			return spans[i][0] < spans[j][0] || (spans[i][0] == spans[j][0] && spans[i][1] > spans[j][1])
		})
		for e := 0; e < 6; e++ {
			s.Entities = append(s.Entities, gocore.UAEntity{Name: fmt.Sprint(e)})
		}
		for _, sp := range spans {
			e := int32(rng.Intn(5))
			m := gocore.UAMarkable{Start: sp[0], End: sp[1], MinStart: -1, MinEnd: -1, Entity: e}
			if e < 4 && rng.Intn(2) == 0 {
				m.ElementOf = []int32{5} // entity 5 is the plural
			}
			s.Markables = append(s.Markables, m)
		}
		s.Markables[len(s.Markables)-1].Entity = 5
		s.Markables[len(s.Markables)-1].ElementOf = nil
		path := filepath.Join(dir, fmt.Sprintf("r%d.ua", trial))
		require.NoError(t, os.WriteFile(path, []byte(uaWrite("d", s, gocore.UASide{}, n, cols, ",")), 0o644))
		for _, u := range []gocore.UAOptions{{}, {Split: gocore.UASplitExclude}, {Split: gocore.UASplitOnly}, {DiscourseDeixis: true}} {
			res, err := Score(path, path, gocore.Options{UA: u})
			require.NoError(t, err)
			sums := sumRows(res.Counts)
			for _, m := range []string{"muc", "bcub", "ceafm", "ceafe", "lea", "blanc.coref", "blanc.noncoref"} {
				assert.InDelta(t, sums[m+".recall_den"], sums[m+".recall_num"], 1e-9, "%d %v %s", trial, u, m)
				assert.InDelta(t, sums[m+".precision_den"], sums[m+".precision_num"], 1e-9, "%d %v %s", trial, u, m)
			}
		}
	}
}

// TestUARepeatedSpans: a markable that repeats another's tokens is scored
// as the UA scorer scores it, with a warning, or refused under
// DuplicatesError; head matching does not apply to UA files.
func TestUARepeatedSpans(t *testing.T) {
	dir := t.TempDir()
	data := "# global.columns = ID FORM IDENTITY\n# newdoc id = d\n1 w (EntityID=1|MarkableID=a)(EntityID=1|MarkableID=b)\n2 w (EntityID=1|MarkableID=c)\n"
	path := filepath.Join(dir, "rep.ua")
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	res, err := Score(path, path, gocore.Options{})
	require.NoError(t, err)
	require.Len(t, res.Warnings, 2)
	assert.Contains(t, res.Warnings[0].Msg, "1 markables of the key repeat the tokens of another (first: tokens 1-1)")
	assert.Equal(t, 1.0, sumRows(res.Counts)["muc.recall_den"]) // the cluster {a, c}: a span counts once
	_, err = Score(path, path, gocore.Options{Duplicates: gocore.DuplicatesError})
	require.Error(t, err)
	assert.Equal(t, gocore.KindDuplicate, gocore.AsError(err).Kind)
	_, err = Score(path, path, gocore.Options{Match: gocore.MatchHead})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "minimum spans")
}

// FuzzReadUA: any input is read or refused with a *conll.ParseError, never a
// panic; what is read scores against itself (or is refused, for an
// ElementOf cycle) without a panic.
func FuzzReadUA(f *testing.F) {
	ident, deixis := uaSample()
	cols := strings.Fields("ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS")
	f.Add([]byte(uaWrite("d", ident, deixis, 9, cols, ",")))
	f.Add([]byte(`{"doc_key": "d", "clusters": [[[0, 1], [3, 3]], [[5, 6], {}]]}`))
	f.Add([]byte(`{"doc_key": "d", "clusters": [[[0, 1]], [[2, 2]], [[5, 6]]], "split_antecedents": [{"plural": 2, "antecedents": [0, 1]}], "min_spans": [[[0, 1], [1, 1]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := conll.ParseUA(data, "f.ua")
		if err != nil {
			var pe *conll.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("not a *conll.ParseError: %v", err)
			}
			return
		}
		batch := make([]gocore.UADocument, len(docs))
		for i, d := range docs {
			batch[i] = gocore.UADocument{Name: d.Name, Key: d.Identity, Response: d.Identity}
		}
		counts := make([]float64, len(batch)*gocore.NumColumns())
		_, _ = gocore.ScoreUA(batch, gocore.Options{UA: gocore.UAOptions{Bridging: true, NonReferring: true, MinSpan: true}}, counts)
	})
}
