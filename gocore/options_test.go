package gocore

import (
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseOptions: every key with a good value, and bad values refused as
// KindOption with the pair's index and a message in no caller's syntax.
func TestParseOptions(t *testing.T) {
	def, err := ParseOptions(nil, nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultLinkWeights, def.LinkWeights, "defaults applied once, here")
	assert.Equal(t, DefaultDAWeights, def.DAWeights)
	assert.Equal(t, "key", def.BlancRule)

	good := []struct {
		key, value string
		check      func(t *testing.T, o Options)
	}{
		{"metrics", "muc, bcub", func(t *testing.T, o Options) { assert.Equal(t, MetricSet(1<<1|1<<2), o.Metrics) }},
		{"sums", "reference", func(t *testing.T, o Options) { assert.True(t, o.ReferenceSums && !o.ReferenceTotals) }},
		{"sums", "reference-totals", func(t *testing.T, o Options) { assert.True(t, o.ReferenceSums && o.ReferenceTotals) }},
		{"span_mentions", "true", func(t *testing.T, o Options) { assert.True(t, o.SpanMentions) }},
		{"singletons", "exclude", func(t *testing.T, o Options) { assert.Equal(t, SingletonsExclude, o.Singletons) }},
		{"duplicates", "raise", func(t *testing.T, o Options) { assert.Equal(t, DuplicatesError, o.Duplicates) }},
		{"duplicates", "warn", func(t *testing.T, o Options) { assert.Equal(t, DuplicatesKeepFirst, o.Duplicates) }},
		{"workers", "3", func(t *testing.T, o Options) { assert.Equal(t, 3, o.Workers) }},
		{"link_weights", "2,1,1,2", func(t *testing.T, o Options) { assert.Equal(t, [4]float64{1, 0.5, 0.5, 1}, o.LinkWeights) }},
		{"link_weights", "1e308,1e308,1e308,1e308", func(t *testing.T, o Options) { assert.Equal(t, [4]float64{1, 1, 1, 1}, o.LinkWeights) }},
		{"da_weights", "0.7,0.2,0.1", func(t *testing.T, o Options) { assert.Equal(t, [3]float64{0.7, 0.2, 0.1}, o.DAWeights) }},
		{"da_greedy", "true", func(t *testing.T, o Options) { assert.True(t, o.DAGreedy) }},
		{"types_given", "true", func(t *testing.T, o Options) { assert.True(t, o.TypesGiven) }},
		{"blanc_rule", "either", func(t *testing.T, o Options) { assert.Equal(t, "either", o.BlancRule) }},
		{"format", "jsonlines", func(t *testing.T, o Options) { assert.Equal(t, "jsonlines", o.Format) }},
		{"clusters_field", "predicted_clusters", func(t *testing.T, o Options) { assert.Equal(t, "predicted_clusters", o.ClustersField) }},
		{"match", "head", func(t *testing.T, o Options) { assert.Equal(t, MatchHead, o.Match) }},
		{"match", "partial", func(t *testing.T, o Options) { assert.Equal(t, MatchPartial, o.Match) }},
		{"match", "exact", func(t *testing.T, o Options) { assert.Equal(t, MatchExact, o.Match) }},
		{"zero_match", "dependent", func(t *testing.T, o Options) { assert.Equal(t, ZeroDependent, o.ZeroMatch) }},
		{"zero_match", "linear", func(t *testing.T, o Options) { assert.Equal(t, ZeroLinear, o.ZeroMatch) }},
		{"format", "ua", func(t *testing.T, o Options) { assert.Equal(t, "ua", o.Format) }},
		{"split_antecedents", "only", func(t *testing.T, o Options) { assert.Equal(t, UASplitOnly, o.UA.Split) }},
		{"split_antecedents", "exclude", func(t *testing.T, o Options) { assert.Equal(t, UASplitExclude, o.UA.Split) }},
		{"non_referring", "true", func(t *testing.T, o Options) { assert.Equal(t, UAOptions{NonReferring: true}, o.UA) }},
		{"bridging", "true", func(t *testing.T, o Options) { assert.Equal(t, UAOptions{Bridging: true}, o.UA) }},
		{"discourse_deixis", "true", func(t *testing.T, o Options) { assert.Equal(t, UAOptions{DiscourseDeixis: true}, o.UA) }},
		{"min_span", "true", func(t *testing.T, o Options) { assert.Equal(t, UAOptions{MinSpan: true}, o.UA) }},
		// The preset comes after singletons=keep but is applied first: the
		// explicit key wins.
		{"preset", "crac", func(t *testing.T, o Options) {
			assert.Equal(t, []any{MatchHead, ZeroDependent, SingletonsKeep}, []any{o.Match, o.ZeroMatch, o.Singletons})
		}},
		{"preset", "conll", func(t *testing.T, o Options) {
			assert.Equal(t, []any{MatchExact, ZeroLinear, SingletonsKeep}, []any{o.Match, o.ZeroMatch, o.Singletons})
		}},
	}
	for _, g := range good {
		t.Run(g.key+"="+g.value, func(t *testing.T) {
			o, err := ParseOptions([]string{"singletons", g.key}, []string{"keep", g.value})
			require.NoError(t, err)
			g.check(t, o)
		})
	}

	bad := []struct {
		key, value, msg string
	}{
		{"singletons", "x", `must be keep or exclude; got "x"`},
		{"duplicates", "keep", `must be warn or raise; got "keep"`},
		{"metrics", "muc,nope", `unknown metric "nope"`},
		{"workers", "many", `must be an integer`},
		{"workers", "0", `must be an integer from 1 to 4096`},
		{"workers", "1099511627776", `must be an integer from 1 to 4096`},
		{"metrics", "", `must name at least one metric`},
		{"sums", "perl", `must be exact, reference or reference-totals`},
		{"link_weights", "0,0,0,0", "must not all be zero"},
		{"link_weights", "1,1,0,1", "must be finite and > 0"},
		{"link_weights", "1,1,-1,1", "must be finite and >= 0"},
		{"link_weights", "1,nan,1,1", "must be finite"},
		{"link_weights", "1,1e999,1,1", "must be finite"},
		{"link_weights", "1,1,1", "must be 4 comma-separated numbers"},
		{"link_weights", "1e308,5e-324,1,1", "too small beside the largest"},
		{"da_weights", "0,0,0", "must not all be zero"},
		{"da_weights", "6,3,1", "must sum to 1"},
		{"da_weights", "0.4,0.35,0.25", "a > b + c"},
		{"da_greedy", "yes", "must be true or false"},
		{"blanc_rule", "both", "must be key or either"},
		{"format", "xml", "must be conll2012, conllu, jsonlines or ua"},
		{"clusters_field", "", "must be a field name"},
		{"nope", "1", `unknown option "nope"`},
		{"match", "fuzzy", "must be exact, partial or head"},
		{"match", "", "must be exact, partial or head"},
		{"zero_match", "by_id", "must be linear, dependent or dependent-strict"},
		{"preset", "crac2099", "must be crac or conll"},
		{"split_antecedents", "all", "must be keep, exclude or only"},
		{"min_span", "yes", "must be true or false"},
	}
	for _, b := range bad {
		t.Run("bad "+b.key+"="+b.value, func(t *testing.T) {
			_, err := ParseOptions([]string{"singletons", b.key}, []string{"keep", b.value})
			require.Error(t, err)
			e := AsError(err)
			assert.Equal(t, KindOption, e.Kind)
			assert.Equal(t, 1, e.Option)
			assert.Contains(t, e.Msg, b.msg)
			assert.NotContains(t, e.Msg, b.key+"=", "the caller prefixes the key in its own syntax")
			assert.NotContains(t, e.Msg, "gocore")
		})
	}
}

// TestParsePreset: a preset sets several options, whatever its place among
// the keys, and the keys given beside it override it.
func TestParsePreset(t *testing.T) {
	for _, c := range []struct {
		keys, values []string
		want         []any // match, zero_match, singletons
	}{
		{[]string{"preset"}, []string{"crac"}, []any{MatchHead, ZeroDependent, SingletonsExclude}},
		{[]string{"match", "preset"}, []string{"partial", "crac"}, []any{MatchPartial, ZeroDependent, SingletonsExclude}},
		{[]string{"preset", "match"}, []string{"crac", "partial"}, []any{MatchPartial, ZeroDependent, SingletonsExclude}},
		{[]string{"zero_match", "preset", "singletons"}, []string{"linear", "crac", "keep"}, []any{MatchHead, ZeroLinear, SingletonsKeep}},
		{[]string{"preset", "preset"}, []string{"crac", "conll"}, []any{MatchExact, ZeroLinear, SingletonsKeep}},
	} {
		o, err := ParseOptions(c.keys, c.values)
		require.NoError(t, err)
		assert.Equal(t, c.want, []any{o.Match, o.ZeroMatch, o.Singletons}, "%v=%v", c.keys, c.values)
	}
}

// TestLinkWeightsScale: the L-metrics are invariant when every link weight
// scales, and huge weights give exactly the numbers of (1, 1, 1, 1).
func TestLinkWeightsScale(t *testing.T) {
	d := letterDoc("scale", "NPONPO", "abc def", "ab cdef", "", "")
	set, err := ParseMetrics(lmAll)
	require.NoError(t, err)
	row := func(w [4]float64) []float64 {
		counts := make([]float64, NumColumns())
		_, err := ScoreBatch([]Document{d}, Options{Metrics: set, LinkWeights: w}, counts)
		require.NoError(t, err)
		for _, x := range counts {
			require.False(t, math.IsNaN(x) || math.IsInf(x, 0), "%v gives %v", w, counts)
		}
		return counts
	}
	ones := row([4]float64{1, 1, 1, 1})
	assert.Greater(t, ones[ColumnIndex("lmuc.recall_num")], 0.0)
	assert.Equal(t, ones, row([4]float64{1e308, 1e308, 1e308, 1e308}))
	assert.Equal(t, ones, row([4]float64{4, 4, 4, 4}))
	assert.Equal(t, row(lmW4), row([4]float64{4, 3, 2, 4}), "W4 scaled by 4")
}

// TestTypedMetricsPolicy: which typed metrics apply to a batch, and when an
// untyped mention is an error.
func TestTypedMetricsPolicy(t *testing.T) {
	typed := letterDoc("typed", "NPONPO", "abc def", "ab cdef", "", "")
	partial := letterDoc("partial", "NPONPO", "abc def", "ab cdef", "", "")
	partial.Key.Types[2], partial.Response.Types[2] = TypeUnknown, TypeUnknown
	bare := Document{Name: "bare", Key: Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}},
		Response: Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}}}
	lmuc, err := ParseMetrics([]string{"lmuc"})
	require.NoError(t, err)
	typedBits := MetricSet(0)
	for i, m := range registry {
		if m.readsTypes {
			typedBits |= 1 << uint(i)
		}
	}
	score := func(opt Options, docs ...Document) (Report, []float64, error) {
		counts := make([]float64, len(docs)*NumColumns())
		r, err := Score(docs, opt, counts)
		return r, counts, err
	}

	t.Run("fully typed: every metric, numbers as before", func(t *testing.T) {
		r, counts, err := score(Options{}, typed)
		require.NoError(t, err)
		assert.Equal(t, defaultMetrics&^shapeMetrics, r.Applied, "mor and zero need mention words")
		assert.Empty(t, r.Warnings)
		want := scoreRow(t, typed, Options{Metrics: lmuc})
		assert.Equal(t, want["lmuc.recall_num"], counts[ColumnIndex("lmuc.recall_num")])
	})
	t.Run("partial types: left out of the whole batch, with a warning", func(t *testing.T) {
		r, counts, err := score(Options{}, typed, partial)
		require.NoError(t, err)
		assert.Equal(t, defaultMetrics&^typedBits&^shapeMetrics, r.Applied)
		require.Len(t, r.Warnings, 1)
		assert.Equal(t, WarnTypesSkipped, r.Warnings[0].Kind)
		assert.Equal(t, 1, r.Warnings[0].Doc)
		assert.Zero(t, counts[ColumnIndex("lmuc.recall_den")], "typed document's columns cleared too")
		assert.Greater(t, counts[ColumnIndex("muc.recall_den")], 0.0)
	})
	t.Run("a typed and an untyped document: left out, with a warning", func(t *testing.T) {
		r, _, err := score(Options{}, typed, bare)
		require.NoError(t, err)
		assert.Equal(t, defaultMetrics&^typedBits&^shapeMetrics, r.Applied)
		require.Len(t, r.Warnings, 1)
		assert.Equal(t, 1, r.Warnings[0].Doc)
	})
	t.Run("no types at all: left out without a warning", func(t *testing.T) {
		r, _, err := score(Options{}, bare)
		require.NoError(t, err)
		assert.Equal(t, defaultMetrics&^typedBits&^shapeMetrics, r.Applied)
		assert.Empty(t, r.Warnings)
	})
	t.Run("types given: an untyped mention is an error", func(t *testing.T) {
		_, _, err := score(Options{TypesGiven: true}, typed, partial)
		e := AsError(err)
		assert.Equal(t, KindMissingTypes, e.Kind)
		assert.Equal(t, []int{1, int(KeySide), 2}, []int{e.Doc, e.Side, e.Mention})
		assert.NotContains(t, e.Msg, "document", "the document is a field")
	})
	t.Run("named: an untyped mention is an error", func(t *testing.T) {
		_, _, err := score(Options{Metrics: lmuc}, bare)
		assert.Equal(t, KindMissingTypes, AsError(err).Kind)
	})
}

// TestDuplicatesBounded: every repeat is counted, only the first
// MaxDuplicates are recorded.
func TestDuplicatesBounded(t *testing.T) {
	d := Document{Key: Side{Mentions: []int64{1, 1, 1, 1, 2}, Clusters: []int64{0, 0, 0, 0, 0}},
		Response: Side{Mentions: []int64{1, 1}, Clusters: []int64{0, 0}}}
	for _, tc := range []struct{ max, records int }{{0, 8}, {-1, 0}, {2, 2}, {100, 8}} {
		counts := make([]float64, 2*NumColumns())
		r, err := Score([]Document{d, d}, Options{MaxDuplicates: tc.max}, counts)
		require.NoError(t, err)
		assert.Equal(t, int64(8), r.NumDuplicates)
		assert.Len(t, r.Duplicates, tc.records, "max %d", tc.max)
	}
}

// TestScoreCancelled: a stop function that reports true stops the batch
// with KindCancelled, also inside one huge document (table and alignment),
// and scoring runs to the end while it reports false.
func TestScoreCancelled(t *testing.T) {
	d := benchDoc(200_000)
	counts := make([]float64, NumColumns())
	var calls atomic.Int64
	_, err := Score([]Document{d}, Options{Stop: func() bool { calls.Add(1); return false }}, counts)
	require.NoError(t, err)
	assert.Greater(t, calls.Load(), int64(len(registry)), "polled within the document")

	var stop atomic.Bool
	go func() {
		time.Sleep(20 * time.Millisecond)
		stop.Store(true)
	}()
	docs := []Document{d, d, d, d, d, d, d, d}
	counts = make([]float64, len(docs)*NumColumns())
	_, err = Score(docs, Options{Stop: stop.Load, Workers: 2}, counts)
	require.Error(t, err)
	assert.Equal(t, KindCancelled, AsError(err).Kind)
}

// TestDuplicatesSidesConcurrent: a document whose two sides are built on
// two goroutines reports the same counts, duplicates and errors as one
// built on one, under every duplicate cap and policy.
func TestDuplicatesSidesConcurrent(t *testing.T) {
	saved := parallelSideMentions
	defer func() { parallelSideMentions = saved }()
	parallelSideMentions = 0
	d := randomPartitionDoc(7, 3_000, 300)
	d.Response.Mentions = append([]int64(nil), d.Response.Mentions...)
	for i := 0; i < len(d.Key.Mentions); i += 97 { // repeats on both sides
		d.Key.Mentions[i] = d.Key.Mentions[i/2]
		d.Response.Mentions[i+1] = d.Response.Mentions[i/3]
	}
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"all kept", Options{}},
		{"none kept", Options{MaxDuplicates: -1}},
		{"cap within the key's", Options{MaxDuplicates: 5}},
		{"cap past the key's", Options{MaxDuplicates: 40}},
		{"error", Options{Duplicates: DuplicatesError}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want, got Report
			var wantErr, gotErr error
			wantCounts, gotCounts := make([]float64, NumColumns()), make([]float64, NumColumns())
			one, two := tc.opt, tc.opt
			one.Workers, two.Workers = 1, 2
			want, wantErr = Score([]Document{d}, one, wantCounts)
			got, gotErr = Score([]Document{d}, two, gotCounts)
			if tc.opt.Duplicates == DuplicatesError {
				require.Error(t, wantErr)
				assert.Equal(t, wantErr.Error(), gotErr.Error())
				return
			}
			require.NoError(t, wantErr)
			require.NoError(t, gotErr)
			assert.Positive(t, want.NumDuplicates)
			assert.Equal(t, want.NumDuplicates, got.NumDuplicates)
			assert.Equal(t, want.Duplicates, got.Duplicates)
			assert.Equal(t, wantCounts, gotCounts)
		})
	}
}
