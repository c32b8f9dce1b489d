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
