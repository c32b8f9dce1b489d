package gocore

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wsjSyntax is the first sentence of wsj_0020 as the analyser's doctest
// (treebanks.conll_read_tree) reads it:
//
//	(TOP (S (NP (PRP They)) (VP (MD will) (VP (VB remain) (PP (IN on)
//	  (NP (NP (DT a) (NML (JJR lower) (HYPH -) (NN priority)) (NN list))
//	  (SBAR (WHNP (WDT that)) (S (VP (VBZ includes) (NP (CD 17) (JJ other)
//	  (NNS countries))))))))) (. .)))
func wsjSyntax() *Syntax {
	rows := [][3]string{{"They", "PRP", "(TOP(S(NP*)"}, {"will", "MD", "(VP*"}, {"remain", "VB", "(VP*"},
		{"on", "IN", "(PP*"}, {"a", "DT", "(NP(NP*"}, {"lower", "JJR", "(NML*"}, {"-", "HYPH", "*"},
		{"priority", "NN", "*)"}, {"list", "NN", "*)"}, {"that", "WDT", "(SBAR(WHNP*)"}, {"includes", "VBZ", "(S(VP*"},
		{"17", "CD", "(NP*"}, {"other", "JJ", "*"}, {"countries", "NNS", "*))))))))"}, {".", ".", "*))"}}
	s := &Syntax{SentenceEnds: []int32{int32(len(rows))}}
	for _, r := range rows {
		s.Words, s.Tags, s.Parse = append(s.Words, r[0]), append(s.Tags, r[1]), append(s.Parse, r[2])
	}
	return s
}

// TestKKSyntaxHeads: heads by Collins's table with the analyser's
// noun-phrase rules, the last word for a span that is no constituent, the
// analyser's mention types, and its trimmed spans.
func TestKKSyntaxHeads(t *testing.T) {
	k := newKKSyntax(wsjSyntax())
	require.NotNil(t, k)
	for _, c := range []struct {
		start, end, head int32
		ty               MentionType
		why              string
	}{
		{0, 14, 1, TypeNominal, "S: the VP, whose head is the modal (VP's row: MD before VB)"},
		{1, 13, 1, TypeNominal, "VP: MD"},
		{3, 13, 3, TypeNominal, "PP: IN, searched from the left"},
		{4, 13, 8, TypeNominal, "NP over NP SBAR: the rightmost child headed by a noun"},
		{4, 8, 8, TypeNominal, "NP: the last noun"},
		{5, 7, 7, TypeNominal, "NML: the noun-phrase rules"},
		{9, 13, 9, TypeNominal, "SBAR: WHNP first"},
		{11, 13, 13, TypeNominal, "NP: NNS"},
		{5, 6, 6, TypeNominal, "no constituent: the last word"},
		{0, 0, 0, TypePronoun, "PRP"},
		{9, 9, 9, TypePronoun, "WDT"},
		{4, 4, 4, TypePronoun, "DT makes a one-word mention a pronoun, whatever the word ('a')"},
		{11, 11, 11, TypeNominal, "CD '17': not in the pronoun table"},
	} {
		assert.Equal(t, c.head, k.head(c.start, c.end), "head of [%d, %d]: %s", c.start, c.end, c.why)
		assert.Equal(t, c.ty, k.mentionType(c.start, c.end), "type of [%d, %d]", c.start, c.end)
	}
	// A name: the head tagged NNP.
	s := wsjSyntax()
	s.Tags[8] = "NNP"
	assert.Equal(t, TypeName, newKKSyntax(s).mentionType(4, 8))
	// A pronoun by the word list, whatever the tag; only for one word.
	s.Words[11], s.Tags[11] = "One", "CD"
	assert.Equal(t, TypePronoun, newKKSyntax(s).mentionType(11, 11))
	assert.Equal(t, TypeNominal, newKKSyntax(s).mentionType(11, 13))
	// Trimming: a leading "the" (lower case only) or one-character
	// non-letter, a trailing "'s" or one-character non-letter; never the
	// last word.
	s = wsjSyntax()
	assert.Equal(t, packKKSpan(7, 8), k.trimmed(6, 8), "'-' leads")
	assert.Equal(t, packKKSpan(13, 13), k.trimmed(13, 14), "'.' trails")
	assert.Equal(t, packKKSpan(4, 8), k.trimmed(4, 8), "'a' is a letter")
	assert.Equal(t, packKKSpan(14, 14), k.trimmed(14, 14), "one word stays")
	s.Words[4], s.Words[12] = "the", "'s"
	ts := newKKSyntax(s)
	assert.Equal(t, packKKSpan(5, 8), ts.trimmed(4, 8))
	assert.Equal(t, packKKSpan(11, 11), ts.trimmed(11, 12))
	s.Words[4] = "The"
	assert.Equal(t, packKKSpan(4, 8), newKKSyntax(s).trimmed(4, 8), "'The' is kept, as the analyser keeps it")
}

// TestKKSyntaxMalformed: a parse that is not one tree per sentence is not
// used (the analyser fails on it); the analysis then reads the document as
// one without a parse.
func TestKKSyntaxMalformed(t *testing.T) {
	for name, edit := range map[string]func(s *Syntax){
		"no star":         func(s *Syntax) { s.Parse[3] = "-" },
		"unclosed":        func(s *Syntax) { s.Parse[14] = "*)" },
		"closed too soon": func(s *Syntax) { s.Parse[0] = "(TOP(S(NP*))))" },
		"two roots":       func(s *Syntax) { s.Parse[0], s.Parse[14] = "(X*)(TOP(S(NP*)", "*))" },
		"short tags":      func(s *Syntax) { s.Tags = s.Tags[:3] },
		"sentences":       func(s *Syntax) { s.SentenceEnds = []int32{3} },
	} {
		s := wsjSyntax()
		edit(s)
		assert.Nil(t, newKKSyntax(s), name)
	}
}

// TestKKParsedSpanRepair: with a parse, the span repair is the analyser's:
// "17 other countries ." pairs with "17 other countries" by trimming, and
// "a lower - priority list" with "a lower - priority list that includes 17
// other countries" by their head "list"; the overlap rule used without a
// parse pairs neither (each overlaps two mentions of the other side). A
// head shared by two twinless response mentions pairs nothing.
func TestKKParsedSpanRepair(t *testing.T) {
	they, that := mention{span(0, 0), 1, TypePronoun}, mention{span(9, 9), 2, TypePronoun}
	bigNP, countries := mention{span(4, 13), 1, TypeNominal}, mention{span(11, 13), 2, TypeNominal}
	listNP, countriesDot := mention{span(4, 8), 1, TypeNominal}, mention{span(11, 14), 2, TypeNominal}
	d := Document{Key: sideOf(they, bigNP, that, countries), Response: sideOf(they, listNP, that, countriesDot),
		Syntax: wsjSyntax()}
	opt := Options{SpanMentions: true, Metrics: mustMetrics(t, "kk")}
	recs, err := Analyze(&d, &opt)
	require.NoError(t, err)
	require.Len(t, recs, 2, "%v", recs)
	for _, r := range recs {
		assert.Equal(t, SpanError, r.Category)
	}
	assert.ElementsMatch(t, [][]int64{{countriesDot.id, countries.id}, {listNP.id, bigNP.id}},
		[][]int64{recs[0].Mentions, recs[1].Mentions})

	unparsed := d
	unparsed.Syntax = nil
	assert.Zero(t, countsOf(scoreRow(t, unparsed, opt), "kk")["span_error"], "the overlap rule without a parse")

	// "priority list" (no constituent: head "list") in a response entity of
	// its own: "list" now heads two twinless response mentions.
	priority, other := mention{span(7, 8), 3, TypeNominal}, mention{span(12, 12), 3, TypeNominal}
	d.Response = sideOf(they, listNP, that, countriesDot, priority, other)
	recs, err = Analyze(&d, &opt)
	require.NoError(t, err)
	var spans []string
	for _, r := range recs {
		if r.Category == SpanError {
			spans = append(spans, strings.Join(d.Syntax.Words[r.Mentions[1]>>32:r.Mentions[1]&0xffffffff+1], " "))
		}
	}
	assert.Equal(t, []string{"17 other countries"}, spans)
}

// TestKKCrossSentence: with a parse, a mention that crosses a sentence
// break is in neither side of the analysis, as the analyser's reader drops
// it. "Smith runs . / he runs": key {Smith, he} and {runs he (crossing),
// runs}, response {Smith, he} and {runs, runs}. Without the crossing
// mention the key's second entity is the last "runs" alone, and the
// response's second entity conflates it with the first "runs" (extra, and
// staying as the earlier mention): one conflated entity. Without a parse
// the crossing mention counts: the overlap rule makes the first "runs" a
// span error of it, and the entities then agree.
func TestKKCrossSentence(t *testing.T) {
	s := &Syntax{Words: []string{"Smith", "runs", "he", "runs"}, Tags: []string{"NNP", "VBZ", "PRP", "VBZ"},
		Parse: []string{"(TOP(S(NP*)", "(VP*)))", "(TOP(S(NP*)", "(VP*)))"}, SentenceEnds: []int32{2, 4}}
	k := newKKSyntax(s)
	require.NotNil(t, k)
	assert.True(t, k.crossesSentence(1, 2))
	assert.False(t, k.crossesSentence(0, 1))
	assert.False(t, k.crossesSentence(2, 3))
	smith, he := mention{span(0, 0), 1, TypeName}, mention{span(2, 2), 1, TypePronoun}
	crossing, runs1, runs3 := mention{span(1, 2), 2, TypeNominal}, mention{span(1, 1), 2, TypeNominal}, mention{span(3, 3), 2, TypeNominal}
	d := Document{Key: sideOf(smith, he, crossing, runs3), Response: sideOf(smith, he, runs1, runs3), Syntax: s}
	opt := Options{SpanMentions: true, Metrics: mustMetrics(t, "kk")}
	got := countsOf(scoreRow(t, d, opt), "kk")
	assert.Equal(t, 1.0, got["conflated_entities"])
	assert.Equal(t, 1.0, sumCounts(got), "%v", got)
	d.Syntax = nil
	got = countsOf(scoreRow(t, d, opt), "kk")
	assert.Equal(t, 1.0, got["span_error"], "without a parse: %v", got)
	assert.Equal(t, 1.0, sumCounts(got), "without a parse: %v", got)
}

func sumCounts(m map[string]float64) float64 {
	n := 0.0
	for _, v := range m {
		n += v
	}
	return n
}
