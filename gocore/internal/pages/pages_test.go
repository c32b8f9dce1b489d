package pages

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMakeIsZeroed checks that Make returns n zero elements for sizes on
// both sides of minBytes and element sizes that do and do not divide a page.
func TestMakeIsZeroed(t *testing.T) {
	type odd struct {
		a int64
		b [3]int32
		c bool
	}
	for _, n := range []int{0, 1, 7, minBytes/8 - 1, minBytes / 8, minBytes, 3*minBytes + 5} {
		ints := Make[int64](n)
		require.Len(t, ints, n)
		for i, v := range ints {
			require.Zero(t, v, "n %d, element %d", n, i)
		}
		odds := Make[odd](n)
		require.Len(t, odds, n)
		for i, v := range odds {
			require.Zero(t, v, "n %d, element %d", n, i)
		}
	}
	require.Len(t, Make[struct{}](10), 10)
}
