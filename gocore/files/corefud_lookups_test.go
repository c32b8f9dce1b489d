package files

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zeroDocs writes n one-sentence CoNLL-U document pairs (6 words) whose
// zeros crowd a few words: one to three zeros per side after words 1 to 3,
// DEPS drawn from a few (parent, relation) pairs, and mentions on words 4
// to 6, in two entities. The dependent alignment then often pairs a key
// zero with a response zero at another position while a zero sits at the
// first one's position. It returns each pair's files.
func zeroDocs(t *testing.T, dir string, seed int64, n int) (keys, resps []string) {
	rng := rand.New(rand.NewSource(seed)) //nolint:gosec // test data
	deps := []string{"2:nsubj", "2:obj", "3:nsubj", "5:obl"}
	for d := range n {
		s := flatSkeleton(t, dir, fmt.Sprintf("z%d-%d", seed, d), 6)
		side := func() ([]udZero, []udMention) {
			var zs []udZero
			var ms []udMention
			used := map[int32]int{}
			for range 1 + rng.Intn(3) {
				w := int32(rng.Intn(3))
				used[w]++
				zs = append(zs, udZero{after: w, deps: deps[rng.Intn(len(deps))]})
				node := gocore.NodeOf(s.sentOf[w], int(w)+1, used[w])
				ms = append(ms, udMention{first: node, last: node, head: node, eid: rng.Intn(2)})
			}
			for w := int32(3); w < 6; w++ {
				if rng.Intn(2) == 0 {
					ms = append(ms, udMention{first: gocore.WordNode(w), last: gocore.WordNode(w), head: gocore.WordNode(w), eid: rng.Intn(2)})
				}
			}
			return zs, ms
		}
		var kb, rb strings.Builder
		kz, km := side()
		rz, rm := side()
		s.write(&kb, kz, km)
		s.write(&rb, rz, rm)
		kp, rp := filepath.Join(dir, fmt.Sprintf("z%d-%d.key.conllu", seed, d)), filepath.Join(dir, fmt.Sprintf("z%d-%d.resp.conllu", seed, d))
		require.NoError(t, os.WriteFile(kp, []byte(kb.String()), 0o600))
		require.NoError(t, os.WriteFile(rp, []byte(rb.String()), 0o600))
		keys, resps = append(keys, kp), append(resps, rp)
	}
	return keys, resps
}

// TestCorefUDZeroLookupsAgainstScorer: with the dependent zero alignment,
// MUC, B-cubed, CEAF, BLANC, LEA and the zero score pair mentions as the
// CorefUD scorer's lookups pair them (its alignment dictionary, then a
// lookup by position; for the zero score by position first), two mentions
// sent to one included, so that on 300 documents crowded with zeros every
// count of these metrics equals the scorer's. Needs
// COREFSCORE_COREFUD_SCORER.
func TestCorefUDZeroLookupsAgainstScorer(t *testing.T) {
	scorer := corefudScorer(t)
	keys, resps := zeroDocs(t, t.TempDir(), 5, 300)
	conf := "exact,dependent,keep"
	var jobs []scorerJob
	for i := range keys {
		jobs = append(jobs, scorerJob{Key: keys[i], Resp: resps[i], Confs: []string{conf}})
	}
	want := runScorer(t, scorer, jobs)
	strictDiffers := 0
	for i, job := range jobs {
		w := want[i][conf]
		require.NotContains(t, w, "error")
		_, counts, _, _, err := ScoreFiles(job.Key, job.Resp, conll.FormatCoNLLU, confOptions(t, conf))
		require.NoError(t, err)
		got := sumRows(counts)
		scored := map[string]any{}
		for _, m := range []string{"muc", "bcub", "ceafe", "ceafm", "lea", "blanc.coref", "blanc.noncoref", "zero"} {
			scored[m] = w[m]
		}
		compareCounts(t, job.Key, got, scored, nil)
		strict := confOptions(t, conf)
		strict.ZeroMatch = gocore.ZeroDependentStrict
		_, sc, _, _, err := ScoreFiles(job.Key, job.Resp, conll.FormatCoNLLU, strict)
		require.NoError(t, err)
		if sumRows(sc)["bcub.recall_num"] != got["bcub.recall_num"] || sumRows(sc)["bcub.precision_num"] != got["bcub.precision_num"] {
			strictDiffers++
		}
	}
	assert.Positive(t, strictDiffers, "dependent-strict (the alignment alone) differs somewhere")
	t.Logf("on %d of %d documents dependent-strict gives other B-cubed counts", strictDiffers, len(jobs))
}

// TestCorefUDZeroLookupFixed: key zeros 1.1 and 2.1 (both DEPS 2:nsubj) in
// one entity; response zeros 1.1 (5:obl) and 2.1 (2:nsubj) in another, 2.2
// (3:nsubj) with word 5 in a third. Both key zeros are best aligned with
// response 2.1: the alignment pairs key 1.1 with it and leaves key 2.1
// out, but the scorer's dictionary then sends key 2.1 to position 1.1, so
// its metrics pair key 2.1 with response 1.1 too: B-cubed (2 / 2, 2 / 4)
// where the alignment alone (dependent-strict) gives (0.5 / 2, 0.5 / 4).
// The recorded counts are the CorefUD scorer 1.2's; with
// COREFSCORE_COREFUD_SCORER set they are also checked against a run.
func TestCorefUDZeroLookupFixed(t *testing.T) {
	dir := t.TempDir()
	s := flatSkeleton(t, dir, "lookup", 6)
	zero := func(w int32, k int, eid int) udMention {
		n := gocore.NodeOf(s.sentOf[w], int(w)+1, k)
		return udMention{first: n, last: n, head: n, eid: eid}
	}
	word := func(w int32, eid int) udMention {
		return udMention{first: gocore.WordNode(w), last: gocore.WordNode(w), head: gocore.WordNode(w), eid: eid}
	}
	var kb, rb strings.Builder
	s.write(&kb, []udZero{{after: 0, deps: "2:nsubj"}, {after: 1, deps: "2:nsubj"}}, []udMention{zero(0, 1, 0), zero(1, 1, 0)})
	s.write(&rb, []udZero{{after: 0, deps: "5:obl"}, {after: 1, deps: "2:nsubj"}, {after: 1, deps: "3:nsubj"}},
		[]udMention{zero(0, 1, 1), zero(1, 1, 1), zero(1, 2, 0), word(4, 0)})
	key, resp := filepath.Join(dir, "lookup.key.conllu"), filepath.Join(dir, "lookup.resp.conllu")
	require.NoError(t, os.WriteFile(key, []byte(kb.String()), 0o600))
	require.NoError(t, os.WriteFile(resp, []byte(rb.String()), 0o600))
	conf := "exact,dependent,keep"
	_, counts, _, _, err := ScoreFiles(key, resp, conll.FormatCoNLLU, confOptions(t, conf))
	require.NoError(t, err)
	got := sumRows(counts)
	recorded := map[string]any{ // (pn, pd, rn, rd)
		"bcub": []any{2.0, 4.0, 2.0, 2.0},
		"muc":  []any{1.0, 2.0, 1.0, 1.0},
		"lea":  []any{2.0, 4.0, 2.0, 2.0},
	}
	compareCounts(t, conf, got, recorded, nil)
	strict := confOptions(t, conf)
	strict.ZeroMatch = gocore.ZeroDependentStrict
	_, sc, _, _, err := ScoreFiles(key, resp, conll.FormatCoNLLU, strict)
	require.NoError(t, err)
	compareCounts(t, "dependent-strict", sumRows(sc), map[string]any{"bcub": []any{0.5, 4.0, 0.5, 2.0}}, nil)
	if os.Getenv("COREFSCORE_COREFUD_SCORER") != "" {
		want := runScorer(t, corefudScorer(t), []scorerJob{{Key: key, Resp: resp, Confs: []string{conf}}})[0][conf]
		for m := range recorded {
			assert.Equal(t, recorded[m], want[m], "%s as recorded", m)
		}
		delete(want, "aligned") // the alignment's size (1); the metrics pair 2 mentions
		compareCounts(t, conf+" (scorer)", got, want, nil)
	}
}
