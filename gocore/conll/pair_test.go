package conll

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestForEach checks that every index is visited once, for any count, and
// that a panic in one call reaches the caller.
func TestForEach(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 177, 1000} {
		seen := make([]atomic.Int32, n)
		forEach(n, func(i int) { seen[i].Add(1) })
		for i := range seen {
			require.Equal(t, int32(1), seen[i].Load(), "n=%d i=%d", n, i)
		}
	}
	assert.PanicsWithValue(t, "doc 7", func() {
		forEach(100, func(i int) {
			if i == 7 {
				panic("doc 7")
			}
		})
	})
}

// TestPairLargeDocumentSides checks that a document large enough to have its
// two sides converted concurrently (sidesApart) gets each side's own
// mentions and clusters, as one interner converts them one after the other.
func TestPairLargeDocumentSides(t *testing.T) {
	doc := func(shift int32) Doc {
		d := Doc{Name: "big", NumTokens: 1 << 20, Entities: []string{"0", "1", "2"}}
		for i := range int32(sidesApart/2 + 1) {
			d.Mentions = append(d.Mentions, Mention{Start: 2*i + shift, End: 2*i + shift + 1, Cluster: int64(i % 3)})
		}
		return d
	}
	key, resp := []Doc{doc(0)}, []Doc{doc(1)}
	docs, _, err := Pair(key, resp)
	require.NoError(t, err)
	var in interner
	assert.Equal(t, in.side(&key[0]), docs[0].Key)
	assert.Equal(t, in.side(&resp[0]), docs[0].Response)
	assert.NotEqual(t, docs[0].Key.Mentions, docs[0].Response.Mentions)
}
