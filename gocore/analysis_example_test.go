package gocore_test

import (
	"fmt"

	"github.com/corefscore/corefscore/gocore"
)

// ExampleAnalyze names the errors of a response against its key. Mentions
// are token spans packed as start<<32 | end (SpanMentions): key {Alice₀
// she₃ her₆} {the old house₈₋₁₀}, response {Alice₀ she₃} {her₆ old house₉₋₁₀}.
// After the span repair, the second response entity is split: the part with
// its first non-pronoun mention (the old house) stays, her goes; her is then
// merged into Alice's part. The Martschat-Strube links work on the exact
// mentions, so old house₉₋₁₀ is absent from the key (-1).
func ExampleAnalyze() {
	span := func(s, e int64) int64 { return s<<32 | e }
	doc := gocore.Document{
		Key: gocore.Side{
			Mentions: []int64{span(0, 0), span(3, 3), span(6, 6), span(8, 10)},
			Clusters: []int64{1, 1, 1, 2},
			Types:    []gocore.MentionType{gocore.TypeName, gocore.TypePronoun, gocore.TypePronoun, gocore.TypeNominal},
		},
		Response: gocore.Side{
			Mentions: []int64{span(0, 0), span(3, 3), span(6, 6), span(9, 10)},
			Clusters: []int64{7, 7, 8, 8},
			Types:    []gocore.MentionType{gocore.TypeName, gocore.TypePronoun, gocore.TypePronoun, gocore.TypeNominal},
		},
	}
	recs, err := gocore.Analyze(&doc, &gocore.Options{SpanMentions: true})
	if err != nil {
		panic(err)
	}
	tokens := func(ids []int64) (out [][2]int64) {
		for _, id := range ids {
			out = append(out, [2]int64{id >> 32, id & 0xffffffff})
		}
		return out
	}
	for _, r := range recs {
		fmt.Println(r.Category, tokens(r.Mentions), "key", r.KeyEntities, "response", r.ResponseEntities)
	}
	// Output:
	// span_error [[9 10] [8 10]] key [2] response [8]
	// conflated_entities [[6 6]] key [1] response [8]
	// divided_entity [[6 6]] key [1] response [8]
	// recall_error [[6 6] [3 3]] key [1] response [8 7]
	// precision_error [[9 10] [6 6]] key [-1 1] response [8]
}
