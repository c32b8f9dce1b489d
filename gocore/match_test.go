package gocore

import (
	"testing"

	"github.com/corefscore/corefscore/gocore/assign"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shapeSpan returns the shape of the words a..b (0-based) with head word h.
func shapeSpan(a, b, h int32) Shape { return SpanShape(a, b, h) }

// TestMatchOptions checks the option parsers, the preset and the refusals.
func TestMatchOptions(t *testing.T) {
	for _, c := range []struct {
		in   string
		want MatchMode
		ok   bool
	}{{"exact", MatchExact, true}, {"Partial", MatchPartial, true}, {"head", MatchHead, true}, {"fuzzy", 0, false}} {
		got, err := ParseMatchMode(c.in)
		if !c.ok {
			assert.ErrorIs(t, err, ErrInvalidInput, c.in)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.want, got)
		assert.Equal(t, got, must(ParseMatchMode(got.String())))
	}
	z, err := ParseZeroMatch("dependent")
	require.NoError(t, err)
	assert.Equal(t, ZeroDependent, z)
	_, err = ParseZeroMatch("by-id")
	assert.ErrorIs(t, err, ErrInvalidInput)

	opt := Options{Workers: 3}
	require.NoError(t, ApplyPreset(&opt, "crac"))
	assert.Equal(t, Options{Workers: 3, Match: MatchHead, Singletons: SingletonsExclude, ZeroMatch: ZeroDependent}, opt)
	require.NoError(t, ApplyPreset(&opt, "conll"))
	assert.Equal(t, Options{Workers: 3}, opt)
	assert.ErrorIs(t, ApplyPreset(&opt, "crac2099"), ErrInvalidInput)

	// Documents without shapes: partial and head matching are refused, the
	// dependent zero alignment has nothing to do, mor and zero are skipped
	// unless asked for by name.
	doc := Document{Key: Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}},
		Response: Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}}}
	counts := make([]float64, NumColumns())
	_, err = ScoreBatch([]Document{doc}, Options{Match: MatchHead}, counts)
	assert.ErrorIs(t, err, ErrMissingShapes)
	e := AsError(err)
	assert.Equal(t, []int{int(KindMissingHeads), 0, int(KeySide)}, []int{int(e.Kind), e.Doc, e.Side})
	assert.Contains(t, e.Msg, "CoNLL-U", "says where heads come from")
	rep, err := Score([]Document{doc}, Options{ZeroMatch: ZeroDependent}, counts)
	require.NoError(t, err)
	assert.Equal(t, 1.0, counts[ColumnIndex("muc.recall_num")])
	assert.Equal(t, 0.0, counts[ColumnIndex("mor.recall_den")])
	assert.False(t, rep.Applied.Has(metricIndex("mor")), "mor left out")
	assert.False(t, rep.Applied.Has(metricIndex("zero")), "zero left out")
	assert.Empty(t, rep.Warnings, "no warning about types")
	set, err := ParseMetrics([]string{"mor"})
	require.NoError(t, err)
	_, err = ScoreBatch([]Document{doc}, Options{Metrics: set}, counts)
	assert.ErrorIs(t, err, ErrMissingShapes)
	assert.Equal(t, KindMissingHeads, AsError(err).Kind)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestMatchEngine checks matching on shapes given directly: a response
// mention with the same words but another head is not paired under head
// matching (and gets an id of its own), and pairs under partial matching.
func TestMatchEngine(t *testing.T) {
	key := Side{Mentions: []int64{10, 20}, Clusters: []int64{0, 0}, Shapes: []Shape{shapeSpan(0, 2, 2), shapeSpan(5, 5, 5)}}
	resp := Side{Mentions: []int64{10, 20}, Clusters: []int64{0, 0}, Shapes: []Shape{shapeSpan(0, 2, 1), shapeSpan(5, 5, 5)}}
	doc := Document{Key: key, Response: resp}
	for _, c := range []struct {
		match   MatchMode
		matched float64
	}{{MatchExact, 2}, {MatchPartial, 2}, {MatchHead, 1}} {
		counts := make([]float64, NumColumns())
		_, err := ScoreBatch([]Document{doc}, Options{Match: c.match}, counts)
		require.NoError(t, err)
		assert.Equal(t, c.matched, counts[ColumnIndex("mentions.recall_num")], c.match.String())
		assert.Equal(t, 2.0, counts[ColumnIndex("mentions.precision_den")], "no mention lost: %s", c.match)
	}
}

// TestLexFirst checks lexFirst against all matchings of small graphs: its
// total is the maximum, and no lexicographically earlier matching reaches it.
func TestLexFirst(t *testing.T) {
	graphs := [][]assign.Edge{
		{{Left: 0, Right: 0, Weight: 0.5}, {Left: 0, Right: 1, Weight: 0.5}},
		{{Left: 0, Right: 0, Weight: 1}, {Left: 1, Right: 0, Weight: 1}, {Left: 1, Right: 1, Weight: 1}},
		{{Left: 0, Right: 1, Weight: 2}, {Left: 0, Right: 0, Weight: 1}, {Left: 1, Right: 1, Weight: 1}, {Left: 2, Right: 0, Weight: 1}},
		{{Left: 0, Right: 0, Weight: 1.0 / 3}, {Left: 0, Right: 1, Weight: 2.0 / 3}, {Left: 1, Right: 0, Weight: 0.5}, {Left: 1, Right: 1, Weight: 0.5}},
	}
	for gi, edges := range graphs {
		got := lexFirst(edges)
		w := map[[2]int32]float64{}
		nl, nr := int32(0), int32(0)
		for _, e := range edges {
			w[[2]int32{e.Left, e.Right}] = e.Weight
			nl, nr = max(nl, e.Left+1), max(nr, e.Right+1)
		}
		total := func(m map[int32]int32) float64 {
			s := 0.0
			for l, r := range m {
				s += w[[2]int32{l, r}]
			}
			return s
		}
		// Enumerate all matchings, as the row-by-row choice lists (-1 = none).
		best, bestKey := -1.0, []int32(nil)
		var rec func(l int32, used map[int32]bool, cur map[int32]int32, key []int32)
		rec = func(l int32, used map[int32]bool, cur map[int32]int32, key []int32) {
			if l == nl {
				s := total(cur)
				if s > best+1e-12 {
					best, bestKey = s, append([]int32(nil), key...)
				}
				return
			}
			for r := int32(0); r < nr; r++ {
				if _, ok := w[[2]int32{l, r}]; ok && !used[r] {
					used[r], cur[l] = true, r
					rec(l+1, used, cur, append(key, r))
					delete(used, r)
					delete(cur, l)
				}
			}
			rec(l+1, used, cur, append(key, nr)) // unmatched sorts after every right vertex
		}
		rec(0, map[int32]bool{}, map[int32]int32{}, nil)
		assert.InDelta(t, best, total(got), 1e-12, "graph %d", gi)
		for l := int32(0); l < nl; l++ {
			r, ok := got[l]
			if !ok {
				r = nr
			}
			assert.Equal(t, bestKey[l], r, "graph %d left %d", gi, l)
		}
	}
}

// TestHasShapes checks Document.HasShapes on each combination.
func TestHasShapes(t *testing.T) {
	shaped := Side{Mentions: []int64{1}, Clusters: []int64{0}, Shapes: []Shape{shapeSpan(0, 0, 0)}}
	bare := Side{Mentions: []int64{1}, Clusters: []int64{0}}
	assert.True(t, (&Document{Key: shaped, Response: shaped}).HasShapes())
	assert.True(t, (&Document{Key: shaped}).HasShapes(), "an empty response")
	assert.False(t, (&Document{Key: shaped, Response: bare}).HasShapes())
	assert.False(t, (&Document{Key: bare, Response: shaped}).HasShapes())
}
