package gocore

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSortedOrder compares the radix sort with the standard library's stable
// sort on keys that exercise every byte, negative keys, repeats and
// already-sorted input.
func TestSortedOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	gens := map[string]func(i int) int64{
		"random":   func(int) int64 { return int64(rng.Uint64()) },
		"small":    func(int) int64 { return rng.Int64N(50) },
		"negative": func(int) int64 { return rng.Int64N(1000) - 500 },
		"spans":    func(int) int64 { s := rng.Int64N(1 << 20); return s<<32 | (s + rng.Int64N(5)) },
		"sorted":   func(i int) int64 { return int64(i / 3) },
		"reversed": func(i int) int64 { return -int64(i) },
		"extremes": func(int) int64 { return []int64{-1 << 63, 1<<63 - 1, 0, -1}[rng.IntN(4)] },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 2, 255, 256, 1000, 70000} {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				keys := make([]int64, n)
				for i := range keys {
					keys[i] = gen(i)
				}
				want := make([]int32, n)
				for i := range want {
					want[i] = int32(i)
				}
				slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(keys[a], keys[b]) })
				require.Equal(t, want, sortedOrder(keys))
				order, sorted := (*slab)(nil).sortedOrderKeys(keys, nil)
				require.Equal(t, want, order)
				for k, p := range want {
					require.Equal(t, keys[p], sorted[k])
				}
			})
		}
	}
}

// TestDenseClusters checks numbering in order of first appearance on both
// paths (array lookup for small labels, sorting for large ones).
func TestDenseClusters(t *testing.T) {
	tests := []struct {
		name   string
		labels []int64
		dense  []int32
		byIdx  []int64
		sizes  []int32
	}{
		{"empty", nil, []int32{}, nil, nil},
		{"small", []int64{5, 3, 5, 0}, []int32{0, 1, 0, 2}, []int64{5, 3, 0}, []int32{2, 1, 1}},
		{"large", []int64{1 << 50, 7, 1 << 50, 1 << 62}, []int32{0, 1, 0, 2}, []int64{1 << 50, 7, 1 << 62}, []int32{2, 1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dense, byIdx, sizes := denseClusters(tc.labels)
			assert.Equal(t, tc.dense, dense)
			assert.Equal(t, tc.byIdx, byIdx)
			assert.Equal(t, tc.sizes, sizes)
		})
	}
}

// TestLargeDocumentsAgainstBruteForce scores documents of a few hundred
// mentions with unsorted, negative and huge ids (so the radix paths run) and
// compares every non-CEAF metric with the brute-force oracle; CEAF is
// compared with a canonical relabelling of the same document, which takes
// the other paths (sorted ids, small labels).
func TestLargeDocumentsAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for trial := 0; trial < 12; trial++ {
		d := randomDoc(rng, 600, 40, trial%2 == 0)
		for _, s := range []*Side{&d.Key, &d.Response} {
			for i := range s.Mentions {
				s.Mentions[i] = s.Mentions[i]*1_000_003 - 1<<45 // negative and unsorted
			}
		}
		opt := classicOptions(t)
		opt.Singletons = SingletonPolicy(trial % 2)
		got := scoreRow(t, d, opt)
		want := bruteCountsNoCEAF(d, opt)
		for c, v := range want {
			require.InDelta(t, v, got[c], 1e-9*max(1, v), "trial %d column %s", trial, c)
		}
		canon := canonical(d)
		assertRowsClose(t, scoreRow(t, canon, opt), got, fmt.Sprintf("trial %d canonical", trial))
	}
}

// canonical renames mentions to 0, 1, 2, ... in order of first appearance
// (key first) and clusters to small integers, keeping the mention order.
func canonical(d Document) Document {
	ids := map[int64]int64{}
	side := func(s Side) Side {
		labels := map[int64]int64{}
		var out Side
		for i, m := range s.Mentions {
			id, ok := ids[m]
			if !ok {
				id = int64(len(ids))
				ids[m] = id
			}
			c, ok := labels[s.Clusters[i]]
			if !ok {
				c = int64(len(labels))
				labels[s.Clusters[i]] = c
			}
			out.Mentions = append(out.Mentions, id)
			out.Clusters = append(out.Clusters, c)
		}
		return out
	}
	return Document{Name: d.Name, Key: side(d.Key), Response: side(d.Response)}
}

// TestTableLayout checks the documented numbering of a Table: key mentions
// first in input order, then twinless response mentions in input order;
// clusters in order of first appearance; cells by key cluster.
func TestTableLayout(t *testing.T) {
	d := Document{
		Key:      Side{Mentions: []int64{30, 10, 20, 40}, Clusters: []int64{9, 4, 9, 4}},
		Response: Side{Mentions: []int64{99, 20, 30, 5, 10}, Clusters: []int64{1, 2, 2, 1, 3}},
	}
	opt := Options{}
	var dups []Duplicate
	tab, err := NewTable(&d, 0, &opt, &dups)
	require.NoError(t, err)
	// Union: 30 10 20 40 | 99 5.
	assert.Equal(t, []int32{0, 1, 0, 1, -1, -1}, tab.KeyOf)
	assert.Equal(t, []int32{1, 2, 1, -1, 0, 0}, tab.RespOf)
	assert.Equal(t, []int32{2, 2}, tab.KeySize)
	assert.Equal(t, []int32{2, 2, 1}, tab.RespSize)
	assert.Equal(t, []Cell{{K: 0, R: 1, N: 2}, {K: 1, R: 2, N: 1}}, tab.Cells)
	assert.Equal(t, 4, tab.NumKey)
	assert.Equal(t, 5, tab.NumResp)
	assert.Equal(t, 3, tab.NumBoth)
	assert.Equal(t, 6, tab.NumMentions())
	assert.Empty(t, dups)
	// The input is not modified.
	assert.Equal(t, []int64{99, 20, 30, 5, 10}, d.Response.Mentions)
}

// FuzzSortedOrder checks the radix sort against the standard library's
// stable sort on at least 256 keys derived from the bytes (shifted by
// varying amounts, so that the differing bits and the bucket sizes vary).
func FuzzSortedOrder(f *testing.F) {
	f.Add([]byte{1, 2, 3})
	f.Add([]byte{0, 255, 7, 63, 200, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		n := 256 + 4*len(data)
		keys := make([]int64, n)
		for i := range keys {
			b := data[i%len(data)]
			s := data[(i/len(data)+i)%len(data)] % 64
			keys[i] = int64(b) << s
			if b&1 == 1 {
				keys[i] = -keys[i]
			}
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(keys[a], keys[b]) })
		require.Equal(t, want, sortedOrder(keys))
	})
}
