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
