package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/corefscore/corefscore/gocore"
)

func TestBuildDocsRejectsBadCSR(t *testing.T) {
	good := flatSide{offsets: []int64{0, 2, 3}, mentions: []int64{1, 2, 3}, clusters: []int64{0, 0, 1}}
	cases := []struct {
		name string
		side flatSide
		want string
	}{
		{"short offsets", flatSide{offsets: []int64{0, 3}, mentions: good.mentions, clusters: good.clusters}, "offsets have 2 entries"},
		{"offsets past end", flatSide{offsets: []int64{0, 2, 4}, mentions: good.mentions, clusters: good.clusters}, "offsets must run from 0 to 3"},
		{"decreasing inside", flatSide{offsets: []int64{0, 4, 3}, mentions: good.mentions, clusters: good.clusters}, "offsets decrease"},
		{"long offsets", flatSide{offsets: []int64{0, 3, 2, 3}, mentions: good.mentions, clusters: good.clusters}, "offsets have 4 entries"},
		{"ragged clusters", flatSide{offsets: good.offsets, mentions: good.mentions, clusters: []int64{0, 0}}, "differ in length"},
		{"ragged types", flatSide{offsets: good.offsets, mentions: good.mentions, clusters: good.clusters, types: []int8{1}}, "differ in length"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := buildDocs(2, good, c.side, "")
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Equal(t, int32(statusInvalidInput), statusOf(err))
		})
	}
}

func TestBuildDocsNamesAndViews(t *testing.T) {
	side := flatSide{offsets: []int64{0, 2, 3}, mentions: []int64{1, 2, 3}, clusters: []int64{0, 0, 1}, types: []int8{1, 3, 2}}
	docs, err := buildDocs(2, side, side, "a\nb")
	require.NoError(t, err)
	require.Len(t, docs, 2)
	assert.Equal(t, "b", docs[1].Name)
	assert.Equal(t, []int64{3}, docs[1].Key.Mentions)
	assert.Equal(t, []gocore.MentionType{gocore.TypeName, gocore.TypePronoun}, docs[0].Response.Types)

	_, err = buildDocs(2, side, side, "only-one")
	require.ErrorContains(t, err, "1 document names for 2 documents")
}

func TestOptionsValidation(t *testing.T) {
	_, err := options(0, 2, 0, 0, 0, [4]float64{}, [3]float64{})
	require.ErrorContains(t, err, "singletons must be")
	_, err = options(0, 0, 7, 0, 0, [4]float64{}, [3]float64{})
	require.ErrorContains(t, err, "duplicates must be")
	_, err = options(1<<63, 0, 0, 0, 0, [4]float64{}, [3]float64{})
	require.ErrorContains(t, err, "bits beyond")
	opt, err := options(3, 1, 1, 4, 1, [4]float64{1, 1, 1, 1}, [3]float64{})
	require.NoError(t, err)
	assert.Equal(t, gocore.SingletonsExclude, opt.Singletons)
	assert.True(t, opt.DAGreedy)
}

func TestWriteStringAlwaysTerminates(t *testing.T) {
	buf := []byte("xxxxx")
	writeString(buf, "hello world")
	assert.Equal(t, "hell\x00", string(buf))
	writeString(nil, "no buffer") // must not panic
}

func TestWriteDuplicatesStopsAtCapacity(t *testing.T) {
	out := make([]int64, duplicateFields) // room for one record
	writeDuplicates(out, []gocore.Duplicate{{Doc: 1, Side: gocore.ResponseSide, Mention: 9, FirstCluster: 2, Cluster: 3}, {Doc: 4}})
	assert.Equal(t, []int64{1, 1, 9, 2, 3}, out)
}

func TestScoreFilesStatus(t *testing.T) {
	_, err := scoreFiles(filepath.Join(t.TempDir(), "missing.conll"), "also-missing.conll", "", gocore.Options{})
	require.Error(t, err)
	assert.Equal(t, int32(statusIO), statusOf(err))

	res, err := scoreFiles("../examples/key.conll", "../examples/response.conll", "", gocore.Options{})
	require.NoError(t, err)
	assert.Equal(t, 2, res.nDocs)
	assert.Len(t, res.counts, 2*gocore.NumColumns())
	assert.False(t, res.fits(1, 1000, 1000), "two documents do not fit one row")
	assert.True(t, res.fits(2, int64(len(res.names)+1), int64(len(res.warnings)+1)))
}
