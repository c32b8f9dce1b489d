package files

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// udDoc builds a one-sentence CoNLL-U document of n words ("w1" ...) in the
// eid-etype-head-other layout; entity[i] is the Entity= value of word i+1,
// and empty lists extra lines placed after word N: "N.k<TAB>DEPS<TAB>Entity".
func udDoc(n int, entity map[int]string, empty map[int][]string) string {
	var b strings.Builder
	b.WriteString("# newdoc id = doc\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n")
	for i := 1; i <= n; i++ {
		misc := "_"
		if v, ok := entity[i]; ok {
			misc = "Entity=" + v
		}
		fmt.Fprintf(&b, "%d\tw%d\t_\tNOUN\t_\t_\t0\tdep\t_\t%s\n", i, i, misc)
		for _, e := range empty[i] {
			f := strings.Split(e, "\t")
			misc := "_"
			if f[2] != "" {
				misc = "Entity=" + f[2]
			}
			fmt.Fprintf(&b, "%s\tz\t_\t_\t_\t_\t_\t_\t%s\t%s\n", f[0], f[1], misc)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// scoreUD writes key and response and scores them with opt.
func scoreUD(t *testing.T, key, resp string, opt gocore.Options) map[string]float64 {
	t.Helper()
	dir := t.TempDir()
	kp, rp := filepath.Join(dir, "key.conllu"), filepath.Join(dir, "resp.conllu")
	require.NoError(t, os.WriteFile(kp, []byte(key), 0o644))
	require.NoError(t, os.WriteFile(rp, []byte(resp), 0o644))
	_, counts, dups, _, err := ScoreFiles(kp, rp, "", opt)
	require.NoError(t, err)
	require.Empty(t, dups)
	return sumRows(counts)
}

// TestMatchModes checks which mentions each match mode pairs, on a key
// {the big dog (head dog), it} {a red car (head car)} and a response
// {big dog, it} {a red car too (head car)}: exact pairs only "it"; partial
// also "big dog" (inside the key mention, with its head); head also the
// longer "a red car too" (same head). MOR does not depend on the mode.
func TestMatchModes(t *testing.T) {
	key := udDoc(10, map[int]string{1: "(e1-x-3-", 3: "e1)", 6: "(e1-x-1-)", 7: "(e2-x-3-", 9: "e2)"}, nil)
	resp := udDoc(10, map[int]string{2: "(e1-x-2-", 3: "e1)", 6: "(e1-x-1-)", 7: "(e2-x-3-", 10: "e2)"}, nil)
	for _, c := range []struct {
		match   gocore.MatchMode
		matched float64
		muc     float64 // recall numerator (of 1 link)
	}{
		{gocore.MatchExact, 1, 0},
		{gocore.MatchPartial, 2, 1},
		{gocore.MatchHead, 3, 1},
	} {
		got := scoreUD(t, key, resp, gocore.Options{Match: c.match})
		assert.Equal(t, c.matched, got["mentions.recall_num"], c.match.String())
		assert.Equal(t, 3.0, got["mentions.recall_den"])
		assert.Equal(t, c.muc, got["muc.recall_num"], c.match.String())
		// MOR: overlaps 2 + 1 + 3 of 3 + 1 + 3 key words and 2 + 1 + 4 response words.
		assert.Equal(t, []float64{6, 7, 6, 7}, []float64{got["mor.recall_num"], got["mor.recall_den"],
			got["mor.precision_num"], got["mor.precision_den"]}, c.match.String())
	}
	// A moved response head breaks head matching but not partial matching.
	moved := udDoc(10, map[int]string{2: "(e1-x-1-", 3: "e1)", 6: "(e1-x-1-)", 7: "(e2-x-3-", 9: "e2)"}, nil)
	assert.Equal(t, 2.0, scoreUD(t, key, moved, gocore.Options{Match: gocore.MatchHead})["mentions.recall_num"])
	assert.Equal(t, 3.0, scoreUD(t, key, moved, gocore.Options{Match: gocore.MatchPartial})["mentions.recall_num"])
}

// TestMatchTies checks the tie rule: a key mention (words 1-4, head 2) and
// two response mentions inside it that cover its head, words 1-2 and 2-3,
// each half of it. The earlier one is matched (as SciPy's solver in the
// CorefUD scorer picks it), so the response's link from 1-2 to word 6 is
// right and the one from 2-3 to word 8 is spurious.
func TestMatchTies(t *testing.T) {
	key := udDoc(9, map[int]string{1: "(e1-x-2-", 4: "e1)", 6: "(e1-x-1-)"}, nil)
	resp := udDoc(9, map[int]string{1: "(e1-x-2-", 2: "e1)(e2-x-1-", 3: "e2)", 6: "(e1-x-1-)", 8: "(e2-x-1-)"}, nil)
	got := scoreUD(t, key, resp, gocore.Options{Match: gocore.MatchPartial})
	assert.Equal(t, 2.0, got["mentions.recall_num"])
	assert.Equal(t, []float64{1, 1, 1, 2}, []float64{got["muc.recall_num"], got["muc.recall_den"],
		got["muc.precision_num"], got["muc.precision_den"]})
}

// TestZeroAlignment checks both zero alignments and the zero score on a key
// {w1, zero 3.1 (DEPS 3:nsubj)} and a response whose zero is 4.1 with the
// same DEPS: only the dependent alignment pairs them. A zero without DEPS
// (where the CorefUD scorer divides by zero) is aligned by its id.
func TestZeroAlignment(t *testing.T) {
	key := udDoc(5, map[int]string{1: "(e1-x-1-)"}, map[int][]string{3: {"3.1\t3:nsubj\t(e1-x-1-)"}})
	resp := udDoc(5, map[int]string{1: "(e1-x-1-)"}, map[int][]string{4: {"4.1\t3:nsubj\t(e1-x-1-)"}})
	for _, c := range []struct {
		zero gocore.ZeroMatch
		muc  float64
		zs   []float64 // zero score: recall num, den, precision num, den
	}{
		{gocore.ZeroLinear, 0, []float64{0, 1, 0, 1}},    // a missed anaphor, a spurious one
		{gocore.ZeroDependent, 1, []float64{1, 1, 1, 1}}, // the anaphor found
	} {
		got := scoreUD(t, key, resp, gocore.Options{ZeroMatch: c.zero})
		assert.Equal(t, c.muc, got["muc.recall_num"], c.zero.String())
		assert.Equal(t, c.zs, []float64{got["zero.recall_num"], got["zero.recall_den"],
			got["zero.precision_num"], got["zero.precision_den"]}, c.zero.String())
	}
	noDeps := udDoc(5, map[int]string{1: "(e1-x-1-)"}, map[int][]string{3: {"3.1\t_\t(e1-x-1-)"}})
	for _, z := range []gocore.ZeroMatch{gocore.ZeroLinear, gocore.ZeroDependent} {
		got := scoreUD(t, noDeps, noDeps, gocore.Options{ZeroMatch: z, Match: gocore.MatchHead})
		assert.Equal(t, 2.0, got["mentions.recall_num"], z.String())
	}
	// A mention that opens on a word and closes on an empty node.
	open := udDoc(5, map[int]string{2: "(e1-x-1-", 4: "(e1-x-1-)"}, map[int][]string{3: {"3.1\t3:obj\te1)"}})
	got := scoreUD(t, open, open, gocore.Options{})
	assert.Equal(t, 2.0, got["mentions.recall_num"])
	assert.Equal(t, 4.0, got["mor.recall_den"], "words 2 and 3 and the empty node 3.1; word 4")
}

// TestCoNLL2012Heads checks that partial and head matching of CoNLL-2012
// files take heads from the POS column, and are refused without one.
func TestCoNLL2012Heads(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, pos bool, first int) string {
		var b strings.Builder
		b.WriteString("#begin document (d); part 000\n")
		tags := []string{"DT", "JJ", "NN", "VBD", "PRP"}
		for i, w := range []string{"the", "big", "dog", "saw", "it"} {
			tag := tags[i]
			if !pos {
				tag = "-"
			}
			coref := "-"
			switch {
			case i == first && i == 2:
				coref = "(1)"
			case i == first:
				coref = "(1"
			case i == 2:
				coref = "1)"
			case i == 4:
				coref = "(1)"
			}
			fmt.Fprintf(&b, "d\t0\t%d\t%s\t%s\t-\t-\t-\t-\t-\t-\t%s\n", i, w, tag, coref)
		}
		b.WriteString("\n#end document\n")
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
		return p
	}
	key, resp := write("key.conll", true, 0), write("resp.conll", true, 1)
	_, counts, _, _, err := ScoreFiles(key, resp, "", gocore.Options{Match: gocore.MatchHead})
	require.NoError(t, err)
	assert.Equal(t, 2.0, sumRows(counts)["mentions.recall_num"], "big dog and the big dog share the head dog")
	_, counts, _, _, err = ScoreFiles(key, resp, "", gocore.Options{})
	require.NoError(t, err)
	assert.Equal(t, 1.0, sumRows(counts)["mentions.recall_num"])
	bare := write("bare.conll", false, 1)
	_, _, _, _, err = ScoreFiles(key, bare, "", gocore.Options{Match: gocore.MatchPartial})
	require.Error(t, err)
	assert.ErrorIs(t, err, gocore.ErrMissingShapes)
	e := gocore.AsError(err)
	assert.Equal(t, gocore.KindMissingHeads, e.Kind)
	assert.Equal(t, []any{0, 1, bare}, []any{e.Doc, e.Side, e.Path}, "the document, the side and the file are fields")
	assert.Positive(t, e.Line)
	assert.Contains(t, e.Msg, "needs the head of every mention")
	assert.Contains(t, e.Msg, "POS column", "says how to get heads")
}

// TestRepeatedResponseMention checks where we differ from the CorefUD
// scorer on purpose: a response mention in two entities is kept once (in the
// first), and reported, as for CoNLL-2012 files; the CorefUD scorer keeps it
// in both entities.
func TestRepeatedResponseMention(t *testing.T) {
	key := udDoc(4, map[int]string{1: "(e1-x-1-)", 3: "(e1-x-1-)"}, nil)
	resp := udDoc(4, map[int]string{1: "(e1-x-1-)", 3: "(e1-x-1-)(e2-x-1-)", 4: "(e2-x-1-)"}, nil)
	dir := t.TempDir()
	kp, rp := filepath.Join(dir, "key.conllu"), filepath.Join(dir, "resp.conllu")
	require.NoError(t, os.WriteFile(kp, []byte(key), 0o644))
	require.NoError(t, os.WriteFile(rp, []byte(resp), 0o644))
	for _, m := range []gocore.MatchMode{gocore.MatchExact, gocore.MatchHead} {
		_, counts, dups, _, err := ScoreFiles(kp, rp, "", gocore.Options{Match: m})
		require.NoError(t, err)
		require.Len(t, dups, 1, m.String())
		assert.Equal(t, gocore.ResponseSide, dups[0].Side)
		got := sumRows(counts)
		assert.Equal(t, 3.0, got["mentions.precision_den"], "the repeated mention counts once")
		assert.Equal(t, 1.0, got["muc.recall_num"], "its first entity links it to word 1")
	}
}

// TestZeroScoreFollowsAlignment: the zero score as the CorefUD scorer
// computes it, and as dependent-strict reads it. Key {w1, zero 3.1
// (3:nsubj)} {w5, w6}; response {w1, zero 3.1 (3:dep)} {w5, zero 5.1
// (3:nsubj), w6}. The dependent alignment pairs the key zero with 5.1 (10·1
// + 1 against 10·0 + 1), in the other entity: MUC and B-cubed score that
// link as wrong. The scorer's zero score alone first looks the key zero up
// by position, finds 3.1 and counts a correct anaphor (its counts: 1/1
// recall, 1/2 precision); dependent-strict follows the alignment in every
// metric: a wrong link, and 3.1 spurious.
func TestZeroScoreFollowsAlignment(t *testing.T) {
	key := udDoc(6, map[int]string{1: "(e1-x-1-)", 5: "(e2-x-1-)", 6: "(e2-x-1-)"}, map[int][]string{3: {"3.1\t3:nsubj\t(e1-x-1-)"}})
	resp := udDoc(6, map[int]string{1: "(e1-x-1-)", 5: "(e2-x-1-)", 6: "(e2-x-1-)"},
		map[int][]string{3: {"3.1\t3:dep\t(e1-x-1-)"}, 5: {"5.1\t3:nsubj\t(e2-x-1-)"}})
	got := scoreUD(t, key, resp, gocore.Options{Match: gocore.MatchHead, ZeroMatch: gocore.ZeroDependentStrict})
	assert.Equal(t, []float64{0, 1, 0, 2}, []float64{got["zero.recall_num"], got["zero.recall_den"],
		got["zero.precision_num"], got["zero.precision_den"]})
	assert.Equal(t, 1.0, got["muc.recall_num"], "w5-w6 kept, the zero's link lost")
	got = scoreUD(t, key, resp, gocore.Options{Match: gocore.MatchHead, ZeroMatch: gocore.ZeroDependent})
	assert.Equal(t, []float64{1, 1, 1, 2}, []float64{got["zero.recall_num"], got["zero.recall_den"],
		got["zero.precision_num"], got["zero.precision_den"]}, "the scorer's zero score")
	assert.Equal(t, 1.0, got["muc.recall_num"], "the other metrics follow the alignment here")
	// By position (linear), 3.1 is the key zero's match: a correct anaphor.
	got = scoreUD(t, key, resp, gocore.Options{Match: gocore.MatchHead})
	assert.Equal(t, []float64{1, 1, 1, 2}, []float64{got["zero.recall_num"], got["zero.recall_den"],
		got["zero.precision_num"], got["zero.precision_den"]})
}
