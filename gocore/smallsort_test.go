package gocore

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSmallOrder checks both of smallOrder's sorts, at every size around
// insertionSortMax, against a stable sort by key.
func TestSmallOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	gens := map[string]func(i int) int64{
		"random":   func(int) int64 { return int64(rng.Uint64()) },
		"repeats":  func(int) int64 { return rng.Int64N(5) },
		"sorted":   func(i int) int64 { return int64(i / 3) },
		"reversed": func(i int) int64 { return -int64(i) },
		"extremes": func(int) int64 { return []int64{-1 << 63, 1<<63 - 1, 0, -1}[rng.IntN(4)] },
	}
	for name, gen := range gens {
		for n := 0; n <= 2*insertionSortMax+2; n++ {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				keys := make([]int64, n)
				order := make([]int32, n)
				for i := range keys {
					keys[i], order[i] = gen(i), int32(i)
				}
				want := slices.Clone(order)
				slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(keys[a], keys[b]) })
				smallOrder(order, keys)
				require.Equal(t, want, order)
			})
		}
	}
}
