package conll

import (
	"math/rand/v2"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/require"
)

// TestSpanIndex checks spanIndex against the walks it replaces
// (mentionTypeOf and simpleHead over the span's classes) on every span of
// random documents, the index extended as tokens come (as the CoNLL-U reader
// extends it).
func TestSpanIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tags := []string{"NN", "NNP", "NNS", "PRP", "IN", "CC", "POS", "$", "JJ", "CD", ",", ".", "DT", "VB", "WP", "_"}
	for doc := range 200 {
		n := 1 + rng.IntN(60)
		classes := make([]tokenClass, 0, n)
		var idx spanIndex
		for w := range n {
			classes = append(classes, classifyPTB([]byte(tags[rng.IntN(len(tags))])))
			if rng.IntN(3) == 0 {
				idx.extend(classes) // some tokens indexed early, others caught up later
			}
			end := int32(w)
			for start := int32(0); start <= end; start++ {
				idx.extend(classes)
				cs := classes[start : end+1]
				ne := rng.IntN(4) == 0
				require.Equal(t, mentionTypeOf(cs, ne), idx.typeOf(classes, start, end, ne), "doc %d span %d-%d", doc, start, end)
				allTagged := mentionTypeOf(cs, false) != gocore.TypeUnknown
				require.Equal(t, allTagged, idx.tagged(start, end), "doc %d span %d-%d", doc, start, end)
				if allTagged {
					require.Equal(t, start+int32(simpleHead(cs)), idx.head(classes, start, end), "doc %d span %d-%d", doc, start, end)
				}
			}
		}
		idx.reset()
	}
}

// TestDepIndex checks depIndex.firstOutside against a walk over the words
// on every span of random dependency trees (chains, stars and random
// heads, as long as several super-blocks), the index extended as words
// come.
func TestDepIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for doc := range 6 {
		n := 1 + rng.IntN(3*depBlock*depSuper)
		deps := make([]int32, 0, n)
		var idx depIndex
		walk := func(start, end int32) int32 {
			for w := start; w <= end; w++ {
				if deps[w] < start || deps[w] > end {
					return w
				}
			}
			return -1
		}
		for w := range n {
			var h int32
			switch doc % 3 {
			case 0: // a chain: each word's head is the next one, the last is the root
				h = int32(w + 1)
				if w == n-1 {
					h = -1
				}
			case 1: // a star around word 0
				h = 0
				if w == 0 {
					h = -1
				}
			default:
				h = int32(rng.IntN(n+1)) - 1
			}
			deps = append(deps, h)
		}
		for range 2000 {
			end := int32(rng.IntN(n))
			start := end - int32(rng.IntN(int(end)+1))
			if rng.IntN(2) == 0 {
				start = int32(rng.IntN(int(end) + 1))
			}
			idx.extend(deps[:end+1])
			require.Equal(t, walk(start, end), idx.firstOutside(deps, start, end), "doc %d span %d-%d", doc, start, end)
		}
		idx.reset()
	}
}
