package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/corefscore/corefscore/gocore"
)

// TestCheckLengths: negative, overflowing and NULL-with-capacity lengths are
// refused as CS_ERR_ARGUMENT.
func TestCheckLengths(t *testing.T) {
	assert.NoError(t, checkLen("n", 0, 8))
	assert.NoError(t, checkBuffer("n", true, 0, 8))
	for _, err := range []error{
		checkLen("n", -1, 8),
		checkLen("n", maxBytes/8+1, 8),
		checkLen("n", 1<<62, 8*int64(gocore.NumColumns())),
		checkBuffer("counts_len", true, 3, 8),
	} {
		require.Error(t, err)
		rec := recordOf(err)
		assert.Equal(t, int32(statusInvalidInput), rec.status)
		assert.Equal(t, int32(gocore.KindArgument), rec.kind)
	}
}

// TestBuildDocsRejectsBadCSR: offsets that do not describe the arrays are
// refused with the side (and document) as fields.
func TestBuildDocsRejectsBadCSR(t *testing.T) {
	good := flatSide{offsets: []int64{0, 2, 3}, mentions: []int64{1, 2, 3}, clusters: []int64{0, 0, 1}}
	cases := []struct {
		name string
		side flatSide
		want string
		doc  int64
	}{
		{"offsets past end", flatSide{offsets: []int64{0, 2, 4}, mentions: good.mentions, clusters: good.clusters}, "offsets must run from 0 to 3", -1},
		{"offsets start", flatSide{offsets: []int64{1, 2, 3}, mentions: good.mentions, clusters: good.clusters}, "offsets must run from 0 to 3", -1},
		{"decreasing inside", flatSide{offsets: []int64{0, 4, 3}, mentions: good.mentions, clusters: good.clusters}, "offsets decrease", 1},
		{"ragged clusters", flatSide{offsets: good.offsets, mentions: good.mentions, clusters: []int64{0, 0}}, "differ in length", -1},
		{"ragged types", flatSide{offsets: good.offsets, mentions: good.mentions, clusters: good.clusters, types: []int8{1}}, "differ in length", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := buildDocs(good, c.side, nil)
			require.Error(t, err)
			rec := recordOf(err)
			assert.Contains(t, rec.message, c.want)
			assert.Equal(t, int32(statusInvalidInput), rec.status)
			assert.Equal(t, int32(1), rec.side, "the response")
			assert.Equal(t, c.doc, rec.doc)
		})
	}
}

// TestNamesOf: names cross as bytes and offsets, any byte allowed; bad
// offsets are refused.
func TestNamesOf(t *testing.T) {
	names, err := namesOf([]byte("a\nb\x00cd"), []int64{0, 4, 4, 6})
	require.NoError(t, err)
	assert.Equal(t, []string{"a\nb\x00", "", "cd"}, names)
	_, err = namesOf([]byte("ab"), []int64{0, 3})
	assert.Error(t, err)
	_, err = namesOf([]byte("ab"), []int64{0, 2, 1, 2})
	assert.Error(t, err)
}

// TestScoreBatchErrors: an error about a mention names its index in the
// caller's arrays of that side (not its position in the document), and a
// repeated mention under warn is recorded the same way.
func TestScoreBatchErrors(t *testing.T) {
	key := flatSide{offsets: []int64{0, 2, 5}, mentions: []int64{1, 2, 1, 2, 2}, clusters: []int64{0, 0, 0, 0, 1}}
	resp := flatSide{offsets: []int64{0, 2, 4}, mentions: []int64{1, 2, 1, 2}, clusters: []int64{0, 0, 0, -4}}
	ncol := gocore.NumColumns()
	counts := make([]float64, 2*ncol)
	_, err := scoreBatch(key, resp, []string{"x", "y"}, 0, nil, counts, 0)
	rec := recordOf(err)
	assert.Equal(t, int32(gocore.KindMention), rec.kind)
	assert.Equal(t, []int64{1, 1, 3}, []int64{rec.doc, int64(rec.side), rec.mention})
	assert.NotContains(t, rec.message, "document")
	assert.NotContains(t, rec.message, "gocore")

	resp.clusters[3] = 0
	out, err := scoreBatch(key, resp, nil, 0, nil, counts, 10)
	require.NoError(t, err)
	assert.Equal(t, int64(1), out.nDups)
	require.Len(t, out.dups, 1)
	assert.Equal(t, dupRecord{doc: 1, side: 0, mention: 4, firstCluster: 0, cluster: 1, start: -1, end: -1}, out.dups[0])

	h, err := newOptions([]string{"duplicates"}, []string{"raise"})
	require.NoError(t, err)
	defer optionHandles.take(h)
	_, err = scoreBatch(key, resp, nil, h, nil, counts, 10)
	rec = recordOf(err)
	assert.Equal(t, int32(gocore.KindDuplicate), rec.kind)
	assert.Equal(t, []int64{1, 0, 4}, []int64{rec.doc, int64(rec.side), rec.mention})

	_, err = scoreBatch(key, resp, nil, 0, func() bool { return true }, counts, 0)
	rec = recordOf(err)
	assert.Equal(t, int32(statusCancelled), rec.status)
	assert.Equal(t, int32(gocore.KindCancelled), rec.kind)

	_, err = scoreBatch(key, resp, nil, 12345, nil, counts, 0)
	assert.Equal(t, int32(gocore.KindArgument), recordOf(err).kind, "unknown options handle")
}

// TestOptionsHandles: an option error carries its index; handles are
// never reused.
func TestOptionsHandles(t *testing.T) {
	_, err := newOptions([]string{"workers", "singletons"}, []string{"2", "maybe"})
	rec := recordOf(err)
	assert.Equal(t, int32(gocore.KindOption), rec.kind)
	assert.Equal(t, int32(1), rec.option)
	assert.Equal(t, `must be keep or exclude; got "maybe"`, rec.message)
	a, err := newOptions(nil, nil)
	require.NoError(t, err)
	optionHandles.take(a)
	b, err := newOptions(nil, nil)
	require.NoError(t, err)
	defer optionHandles.take(b)
	assert.Greater(t, b, a)
	_, err = callOptionsOf(a)
	assert.Error(t, err, "a freed handle")

	_, err = newOptions([]string{"workers", "outputs"}, []string{"2", "scores,nothing"})
	assert.Equal(t, int32(1), recordOf(err).option, "a call option's index")
	_, err = newOptions([]string{"outputs", "workers"}, []string{"analysis", "x"})
	assert.Equal(t, int32(1), recordOf(err).option, "an engine option's index among call options")
	_, err = newOptions([]string{"analysis"}, []string{"muc"})
	assert.Equal(t, int32(gocore.KindOption), recordOf(err).kind, "analysis names kk or ms only")
	for _, bad := range []string{"0", "-5", "many", "1e9"} {
		_, err = newOptions([]string{"outputs", "words_limit"}, []string{"key_documents", bad})
		assert.Equal(t, int32(1), recordOf(err).option, "words_limit %q is refused", bad)
	}
	co, err := parseCallOptions([]string{"words_limit"}, []string{"24000000"})
	require.NoError(t, err)
	assert.Equal(t, 24000000, co.wordBytes)
}

// TestFreeHandle: one free for every kind of handle; handles of different
// kinds never share a number.
func TestFreeHandle(t *testing.T) {
	o, err := newOptions(nil, nil)
	require.NoError(t, err)
	key := filepath.Join("..", "examples", "key.conll")
	resp := filepath.Join("..", "examples", "response.conll")
	ah, err := newOptions([]string{"outputs"}, []string{"scores,analysis,key_documents,response_documents"})
	require.NoError(t, err)
	out, err := scoreFiles(key, resp, ah, nil)
	require.NoError(t, err)
	hs := []int64{o, ah, out.scores, out.analysis, out.keyDocs, out.respDocs}
	seen := map[int64]bool{}
	for _, h := range hs {
		require.Positive(t, h)
		require.False(t, seen[h], "handle %d given twice", h)
		seen[h] = true
		freeHandle(h)
	}
	_, ok := resultHandles.get(out.scores)
	assert.False(t, ok)
	_, ok = analysisHandles.get(out.analysis)
	assert.False(t, ok)
	_, ok = documentsHandles.get(out.keyDocs)
	assert.False(t, ok)
	_, err = callOptionsOf(o)
	assert.Error(t, err)
	freeHandle(12345678) // unknown: ignored
}

// TestWarnRecords: a repeated warning is kept once with its count.
func TestWarnRecords(t *testing.T) {
	ws := []gocore.Warning{
		{Kind: gocore.WarnBadItem, Side: 1, Doc: 0, Line: 3, Count: 2, Msg: "m"},
		{Kind: gocore.WarnOther, Side: -1, Doc: -1, Msg: "other"},
		{Kind: gocore.WarnBadItem, Side: 1, Doc: 4, Line: 9, Count: 5, Msg: "m"},
	}
	recs := warnRecords(ws)
	require.Len(t, recs, 2)
	assert.Equal(t, warnRecord{kind: int32(gocore.WarnBadItem), side: 1, doc: 0, line: 3, count: 7, message: "m"}, recs[0])
	assert.Equal(t, int64(1), recs[1].count)
}

// TestMessageBytes: messages are cut to fit CS_MESSAGE_LEN with the NUL,
// never inside a UTF-8 sequence.
func TestMessageBytes(t *testing.T) {
	assert.Equal(t, []byte("short"), messageBytes("short"))
	long := strings.Repeat("é", messageLen)
	b := messageBytes(long)
	assert.Less(t, len(b), messageLen)
	assert.True(t, strings.HasPrefix(long, string(b)))
	assert.Equal(t, 0, len(b)%2)
}

// TestFileResult: file results stay behind a handle until taken; a buffer
// too small keeps them.
func TestFileResult(t *testing.T) {
	key := filepath.Join("..", "examples", "key.conll")
	resp := filepath.Join("..", "examples", "response.conll")
	out, err := scoreFiles(key, resp, 0, nil)
	require.NoError(t, err)
	h, res := out.scores, out.score
	assert.Zero(t, out.analysis+out.keyDocs+out.respDocs, "only the scores by default")
	nDocs := int64(len(res.Names))
	require.Positive(t, nDocs)
	cells := nDocs * int64(gocore.NumColumns())
	assert.IsType(t, errBufferTooSmall{}, checkTake(res, cells-1, namesLen(res), nDocs+1))
	assert.Equal(t, int32(statusBufferTooSmall), recordOf(checkTake(res, cells, namesLen(res)-1, nDocs+1)).status)
	require.NoError(t, checkTake(res, cells, namesLen(res), nDocs+1))
	names, offsets := make([]byte, namesLen(res)), make([]int64, nDocs+1)
	writeNames(res, names, offsets)
	got, err := namesOf(names, offsets)
	require.NoError(t, err)
	assert.Equal(t, res.Names, got)
	_, ok := resultHandles.take(h)
	assert.True(t, ok)
	_, ok = resultHandles.get(h)
	assert.False(t, ok)

	_, err = scoreFiles(filepath.Join(t.TempDir(), "absent.conll"), resp, 0, nil)
	rec := recordOf(err)
	assert.Equal(t, int32(statusIO), rec.status)
	assert.Equal(t, int32(gocore.KindNotFound), rec.kind)
	assert.Equal(t, int32(0), rec.side)
	assert.Equal(t, "no such file", rec.message)
}

// TestCheckSpans: under span_mentions every id must be a packed span
// 0 <= start <= end < 2**31; the first bad one is named by document, side
// and its index in the side's arrays, and the batch and analysis calls
// refuse it.
func TestCheckSpans(t *testing.T) {
	pack := func(start, end int64) int64 { return start<<32 | end&0xffffffff }
	good := []int64{pack(0, 0), pack(3, 7), pack(1<<31-1, 1<<31-1)}
	tests := []struct {
		name      string
		bad       int64 // the id put at response index 4 (document 1)
		wantError bool
	}{
		{"valid", pack(9, 9), false},
		{"start after end", pack(5, 4), true},
		{"negative start", pack(-1, 3), true},
		{"negative end", pack(2, -1), true},
		{"end at 2**31", pack(0, 1<<31), true},
		{"start at 2**31", pack(1<<31, 1<<31), true},
	}
	h, err := newOptions([]string{"span_mentions"}, []string{"true"})
	require.NoError(t, err)
	defer optionHandles.take(h)
	ah, err := newOptions([]string{"span_mentions", "outputs"}, []string{"true", "analysis"})
	require.NoError(t, err)
	defer optionHandles.take(ah)
	co, err := callOptionsOf(h)
	require.NoError(t, err)
	opt := co.engine
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := flatSide{offsets: []int64{0, 3, 3}, mentions: good, clusters: []int64{0, 0, 1}}
			resp := flatSide{offsets: []int64{0, 3, 5}, mentions: append(append([]int64{}, good...), pack(8, 8), tt.bad),
				clusters: []int64{0, 0, 1, 0, 0}}
			err := checkSpans(key, resp, &opt)
			counts := make([]float64, 2*gocore.NumColumns())
			_, batchErr := scoreBatch(key, resp, nil, h, nil, counts, 0)
			analysis, analysisErr := scoreBatch(key, resp, nil, ah, nil, nil, 0)
			freeHandle(analysis.analysis)
			if !tt.wantError {
				require.NoError(t, err)
				require.NoError(t, batchErr)
				require.NoError(t, analysisErr)
				return
			}
			for _, e := range []error{err, batchErr, analysisErr} {
				rec := recordOf(e)
				assert.Equal(t, int32(gocore.KindMention), rec.kind)
				assert.Equal(t, []int64{1, 1, 4}, []int64{rec.doc, int64(rec.side), rec.mention})
				assert.Contains(t, rec.message, "0 <= start <= end < 2**31")
			}
			noCheck := opt
			noCheck.SpanMentions = false
			assert.NoError(t, checkSpans(key, resp, &noCheck), "ids are opaque without span_mentions")
		})
	}
}

func TestPackSpans(t *testing.T) {
	cases := []struct {
		name       string
		spans      []int64
		ids        []int64
		badRow     int
		start, end int64
	}{
		{"the edges", []int64{0, 0, 0, 1<<31 - 1, 1<<31 - 1, 1<<31 - 1}, []int64{0, 1<<31 - 1, span(1<<31-1, 1<<31-1)}, -1, 0, 0},
		{"start after end", []int64{1, 2, 5, 2}, nil, 1, 5, 2},
		{"negative start", []int64{-1, 2}, nil, 0, -1, 2},
		{"end beyond int32", []int64{0, 1 << 31}, nil, 0, 0, 1 << 31},
		{"start beyond int32", []int64{1 << 32, 1<<32 + 1}, nil, 0, 1 << 32, 1<<32 + 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]int64, len(tc.spans)/2)
			err := packSpans(tc.spans, out)
			if tc.badRow < 0 {
				require.NoError(t, err)
				assert.Equal(t, tc.ids, out)
				return
			}
			require.Error(t, err)
			e := gocore.AsError(err)
			assert.Equal(t, gocore.KindMention, e.Kind)
			assert.Equal(t, []int64{int64(tc.badRow), tc.start, tc.end}, []int64{int64(e.Mention), e.Start, e.End})
		})
	}
	require.Error(t, packSpans([]int64{1, 2, 3}, make([]int64, 1)), "an odd number of values")
}
