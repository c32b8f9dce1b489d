package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// manyToOneCase is a one-sentence document (8 words) whose CorefUD
// dependent zero lookups send two mentions to one, with the counts the
// CorefUD scorer 1.2 gives it (exact matching, singletons kept), recorded
// from a run, and those of the alignment alone (dependent-strict) where
// they differ.
type manyToOneCase struct {
	name      string
	key, resp rdSide
	recorded  map[string]any // (pn, pd, rn, rd)
	strict    map[string]any
}

// zeroAt is the zero mention on the k-th empty node after word w of
// sentence 0, in entity eid.
func zeroAt(w, k, eid int) rdMention {
	n := rdNode{0, w, k}
	return rdMention{parts: [][2]rdNode{{n, n}}, head: n, eid: eid}
}

// wordAt is the one-word mention of word w, in entity eid.
func wordAt(w, eid int) rdMention {
	n := rdNode{0, w, 0}
	return rdMention{parts: [][2]rdNode{{n, n}}, head: n, eid: eid}
}

// manyToOneCases are the three lookups of the CorefUD scorer that can send
// two mentions to one, each in its smallest document we know.
var manyToOneCases = []manyToOneCase{
	{
		// Key lookups: key zeros 1.1 (2:nsubj) and 2.2 (3:nsubj) with word
		// 6, key zero 2.1 (3:nsubj) alone; response zeros 2.1 (2:obj) and
		// 2.2 (3:nsubj) together, word 6 alone. The alignment pairs key
		// 1.1 with response 2.1 and key 2.1 with response 2.2; the
		// dictionary then sends key 2.2 (by its response partner's entry
		// at 2.2) to position 2.1, where key 1.1's lookup lands too: both
		// are credited with response 2.1 (MUC recall 1/2, not 0/2).
		name: "key lookups",
		key: rdSide{zeros: map[rdNode]string{{0, 1, 1}: "2:nsubj", {0, 2, 1}: "3:nsubj", {0, 2, 2}: "3:nsubj"},
			ments: []rdMention{zeroAt(1, 1, 0), zeroAt(2, 2, 0), wordAt(6, 0), zeroAt(2, 1, 1)}},
		resp: rdSide{zeros: map[rdNode]string{{0, 2, 1}: "2:obj", {0, 2, 2}: "3:nsubj"},
			ments: []rdMention{zeroAt(2, 1, 0), zeroAt(2, 2, 0), wordAt(6, 1)}},
		recorded: map[string]any{"muc": []any{0.0, 1.0, 1.0, 2.0}, "bcub": []any{2.0, 3.0, 5.0 / 3, 4.0}, "lea": []any{0.0, 3.0, 1.0, 4.0},
			"ceafe": []any{0.8, 2.0, 0.8, 2.0}, "blanc.coref": []any{1.0, 1.0, 1.0, 3.0}, "zero": []any{1.0, 1.0, 1.0, 1.0}},
		strict: map[string]any{"muc": []any{0.0, 1.0, 0.0, 2.0}, "zero": []any{0.0, 1.0, 0.0, 1.0}},
	},
	{
		// Response lookups: key zeros 1.1 (2:obj) and 2.1 (2:nsubj) in one
		// entity; response zeros 1.1 (2:nsubj), 2.1 (2:nsubj|3:obj) and
		// 2.2 (2:obj) in one entity. The alignment pairs key 1.1 with
		// response 2.2 and key 2.1 with response 1.1; the response entry
		// at 1.1 overwrites the key's, so responses 2.1 and 2.2 both look
		// up key 1.1: MUC precision 2/2 and B-cubed precision 3/3.
		name: "response lookups",
		key: rdSide{zeros: map[rdNode]string{{0, 1, 1}: "2:obj", {0, 2, 1}: "2:nsubj"},
			ments: []rdMention{zeroAt(1, 1, 0), zeroAt(2, 1, 0)}},
		resp: rdSide{zeros: map[rdNode]string{{0, 1, 1}: "2:nsubj", {0, 2, 1}: "2:nsubj|3:obj", {0, 2, 2}: "2:obj"},
			ments: []rdMention{zeroAt(1, 1, 0), zeroAt(2, 1, 0), zeroAt(2, 2, 0)}},
		recorded: map[string]any{"muc": []any{2.0, 2.0, 1.0, 1.0}, "bcub": []any{3.0, 3.0, 2.0, 2.0}, "lea": []any{3.0, 3.0, 2.0, 2.0},
			"ceafm": []any{2.0, 3.0, 2.0, 2.0}, "zero": []any{1.0, 2.0, 1.0, 1.0}},
		strict: map[string]any{"muc": []any{1.0, 2.0, 1.0, 1.0}, "zero": []any{0.0, 2.0, 0.0, 1.0}},
	},
	{
		// The zero score's lookup (by position first): key zeros 1.1
		// (4:obl) after word 1 and 1.2 (2:nsubj|3:obj) after word 8, each
		// the second mention of its entity; response zero 1.1
		// (2:nsubj|3:obj) with word 1, and the span of empty nodes 1.1-1.2
		// (head 1.2, 4:obl) with word 8. Key 1.1 finds response zero 1.1
		// at its position, key 1.2 reaches it through the alignment
		// dictionary: both anaphors are scored against it.
		name: "zero lookup",
		key: rdSide{zeros: map[rdNode]string{{0, 1, 1}: "4:obl", {0, 1, 2}: "2:nsubj|3:obj"},
			ments: []rdMention{wordAt(1, 0), zeroAt(1, 1, 0), wordAt(8, 1), zeroAt(1, 2, 1)}},
		resp: rdSide{zeros: map[rdNode]string{{0, 1, 1}: "2:nsubj|3:obj", {0, 1, 2}: "4:obl"},
			ments: []rdMention{wordAt(1, 0), zeroAt(1, 1, 0), wordAt(8, 1),
				{parts: [][2]rdNode{{{0, 1, 1}, {0, 1, 2}}}, head: rdNode{0, 1, 2}, eid: 1}}},
		recorded: map[string]any{"zero": []any{1.0, 1.0, 1.0, 1.0}, "muc": []any{0.0, 2.0, 0.0, 2.0}, "bcub": []any{2.0, 4.0, 1.5, 4.0}},
		strict:   map[string]any{"zero": []any{0.0, 1.0, 0.0, 1.0}},
	},
}

// TestCorefUDLookupsManyToOne: where the CorefUD scorer's lookups send two
// mentions to one, its counts are reproduced (both mentions credited), and
// dependent-strict keeps the alignment alone. The recorded counts are
// checked against a run of the scorer when COREFSCORE_COREFUD_SCORER is
// set.
func TestCorefUDLookupsManyToOne(t *testing.T) {
	dir := t.TempDir()
	conf := "exact,dependent,keep"
	withScorer := os.Getenv("COREFSCORE_COREFUD_SCORER") != ""
	for _, c := range manyToOneCases {
		d := &rdDoc{name: strings.ReplaceAll(c.name, " ", "-"), words: []int{8}, key: c.key, resp: c.resp}
		for _, side := range []*rdSide{&d.key, &d.resp} {
			all := side.ments
			side.ments = nil
			for _, m := range all {
				require.True(t, d.ok(side, m), "%s: mention %v", c.name, m)
				side.ments = append(side.ments, m)
			}
		}
		var kb, rb strings.Builder
		d.write(&kb, &d.key)
		d.write(&rb, &d.resp)
		key, resp := filepath.Join(dir, d.name+".key.conllu"), filepath.Join(dir, d.name+".resp.conllu")
		require.NoError(t, os.WriteFile(key, []byte(kb.String()), 0o600))
		require.NoError(t, os.WriteFile(resp, []byte(rb.String()), 0o600))
		_, counts, _, _, err := ScoreFiles(key, resp, conll.FormatCoNLLU, confOptions(t, conf))
		require.NoError(t, err)
		compareCounts(t, c.name, sumRows(counts), c.recorded, nil)
		strict := confOptions(t, conf)
		strict.ZeroMatch = gocore.ZeroDependentStrict
		_, sc, _, _, err := ScoreFiles(key, resp, conll.FormatCoNLLU, strict)
		require.NoError(t, err)
		compareCounts(t, c.name+" (dependent-strict)", sumRows(sc), c.strict, nil)
		if withScorer {
			want := runScorer(t, corefudScorer(t), []scorerJob{{Key: key, Resp: resp, Confs: []string{conf}}})[0][conf]
			for m, v := range c.recorded {
				assert.Equal(t, v, want[m], "%s: %s as recorded", c.name, m)
			}
			delete(want, "aligned") // the alignment's size; our mention count is the lookups'
			compareCounts(t, c.name+" (scorer)", sumRows(counts), want, nil)
		}
	}
}
