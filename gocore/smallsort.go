package gocore

import (
	"cmp"
	"slices"
)

// insertionSortMax is the largest number of keys smallOrder sorts by
// insertion. Below it an insertion sort moves each position past the keys
// out of order before it (n²/4 moves for keys in random order, n-1
// comparisons for keys in order), a few instructions each; a comparison
// sort calls its comparison function about n·log2(n) times. On the per-call
// road's 50-mention response (two sorted runs interleaved) the order took
// ~15k instructions of the whole call's ~158k with slices.SortFunc.
const insertionSortMax = 64

// smallOrder sorts order, the positions 0..n-1 of keys in position order,
// by (key, position), for n below sortedOrder's radix sort: by insertion up
// to insertionSortMax keys, else by slices.SortFunc ((key, position) is a
// total order, so an unstable sort gives the stable order, with fewer
// comparisons than a stable merge).
func smallOrder(order []int32, keys []int64) {
	if len(order) > insertionSortMax {
		slices.SortFunc(order, func(a, b int32) int {
			if c := cmp.Compare(keys[a], keys[b]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		return
	}
	for i := 1; i < len(order); i++ {
		p := order[i]
		k := keys[p]
		j := i
		// Positions before i are smaller than p: a key equal to k stays before it.
		for ; j > 0 && keys[order[j-1]] > k; j-- {
			order[j] = order[j-1]
		}
		order[j] = p
	}
}
