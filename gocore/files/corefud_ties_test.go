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
	"github.com/stretchr/testify/require"
)

// flatSkeleton returns a CoNLL-U document skeleton of one sentence of n
// words (w1 ... wn, word 1 the root, every other word its dependent),
// named name.
func flatSkeleton(t *testing.T, dir, name string, n int) *udSkeleton {
	var b strings.Builder
	fmt.Fprintf(&b, "# newdoc id = %s\n# global.Entity = eid-etype-head-other\n# sent_id = %s-1\n", name, name)
	for i := 1; i <= n; i++ {
		head, rel := 1, "dep"
		if i == 1 {
			head, rel = 0, "root"
		}
		fmt.Fprintf(&b, "%d\tw%d\tw\tX\t_\t_\t%d\t%s\t_\t_\n", i, i, head, rel)
	}
	path := filepath.Join(dir, name+".conllu")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o600))
	return readSkeleton(t, path)
}

// spanSet is the mentions of one side being generated: no span twice, no
// two mentions of one entity overlapping (the bracket notation could not
// tell them apart).
type spanSet struct{ ms []udMention }

func (s *spanSet) add(first, last, head int32, eid int) bool {
	for _, m := range s.ms {
		f, l := int32(m.first>>16)-1, int32(m.last>>16)-1
		if f == first && l == last {
			return false
		}
		if m.eid == eid && first <= l && f <= last {
			return false
		}
	}
	s.ms = append(s.ms, udMention{first: gocore.WordNode(first), last: gocore.WordNode(last), head: gocore.WordNode(head), eid: eid})
	return true
}

// headTieFiles writes a key and a response CoNLL-U file of n one-sentence
// documents full of head-match ties: key mentions of 2 to 4 words, and in
// the response, for most of them, two mentions with the key mention's head
// and the same overlap with it (one word shorter at either end, or shifted
// by one word either way), in different entities, besides exact copies,
// copies with another head, and spurious mentions.
func headTieFiles(t *testing.T, dir string, seed int64, n int) (keyPath, respPath string) {
	rng := rand.New(rand.NewSource(seed)) //nolint:gosec // test data
	var kb, rb strings.Builder
	for d := range n {
		words := 8 + rng.Intn(8)
		s := flatSkeleton(t, dir, fmt.Sprintf("tie%d-%d", seed, d), words)
		entities := 2 + rng.Intn(3)
		var key, resp spanSet
		for range 2 + rng.Intn(4) {
			size := int32(2 + rng.Intn(3))
			first := int32(rng.Intn(words - int(size)))
			last := first + size - 1
			head := first + int32(rng.Intn(int(size)))
			if !key.add(first, last, head, rng.Intn(entities)) {
				continue
			}
			switch x := rng.Float64(); {
			case x < 0.6: // a tie
				a, b := [2]int32{first + 1, last}, [2]int32{first, last - 1}
				if rng.Intn(2) == 0 && first > 0 && int(last)+1 < words {
					a, b = [2]int32{first - 1, last - 1}, [2]int32{first + 1, last + 1}
				}
				for _, sp := range [][2]int32{a, b} {
					if sp[0] <= head && head <= sp[1] {
						resp.add(sp[0], sp[1], head, rng.Intn(entities))
					}
				}
			case x < 0.8:
				resp.add(first, last, head, rng.Intn(entities))
			default:
				resp.add(first, last, first+(head-first+1)%size, rng.Intn(entities))
			}
		}
		for range rng.Intn(3) {
			first := int32(rng.Intn(words))
			resp.add(first, first, first, rng.Intn(entities))
		}
		s.write(&kb, nil, key.ms)
		s.write(&rb, nil, resp.ms)
	}
	keyPath, respPath = filepath.Join(dir, fmt.Sprintf("ties%d.key.conllu", seed)), filepath.Join(dir, fmt.Sprintf("ties%d.resp.conllu", seed))
	require.NoError(t, os.WriteFile(keyPath, []byte(kb.String()), 0o600))
	require.NoError(t, os.WriteFile(respPath, []byte(rb.String()), 0o600))
	return keyPath, respPath
}

// TestCorefUDHeadTiesAgainstScorer: on 200 documents full of head-match
// ties, head and partial matching pair the mentions the CorefUD scorer
// pairs, so every count equals the scorer's, singletons kept or not.
// Needs COREFSCORE_COREFUD_SCORER.
func TestCorefUDHeadTiesAgainstScorer(t *testing.T) {
	scorer := corefudScorer(t)
	dir := t.TempDir()
	confs := []string{"head,dependent,keep", "head,dependent,exclude", "partial,dependent,keep", "head,linear,keep"}
	var jobs []scorerJob
	for seed := int64(1); seed <= 4; seed++ {
		k, r := headTieFiles(t, dir, seed, 50)
		jobs = append(jobs, scorerJob{Key: k, Resp: r, Confs: confs})
	}
	want := runScorer(t, scorer, jobs)
	for i, job := range jobs {
		for _, conf := range confs {
			require.NotContains(t, want[i][conf], "error", conf)
			_, counts, _, _, err := ScoreFiles(job.Key, job.Resp, conll.FormatCoNLLU, confOptions(t, conf))
			require.NoError(t, err)
			compareCounts(t, fmt.Sprintf("seed %d %s", i+1, conf), sumRows(counts), want[i][conf], nil)
		}
	}
}

// headTieFixed writes a head tie found by the random search: one sentence
// of 10 words; key e0 = {w1-w4 (head w3), w7-w9 (head w8)}, e2 = {w1-w2
// (head w2), w5-w7 (head w5)}; response e0 = {w1-w2 (head w1)}, e2 = {w5-w6
// (head w5), w8-w10 (head w8)}, e1 = {w6-w8 (head w8)}. The key mention
// w7-w9 shares 2 of its 3 words and its head with both w6-w8 and w8-w10:
// the CorefUD scorer (SciPy's solver on its whole matrix) pairs it with
// w8-w10, not with the earlier w6-w8.
func headTieFixed(t *testing.T, dir string) (keyPath, respPath string) {
	s := flatSkeleton(t, dir, "headtie", 10)
	var key, resp spanSet
	key.add(0, 3, 2, 0)
	key.add(6, 8, 7, 0)
	key.add(0, 1, 1, 2)
	key.add(4, 6, 4, 2)
	resp.add(0, 1, 0, 0)
	resp.add(4, 5, 4, 2)
	resp.add(7, 9, 7, 2)
	resp.add(5, 7, 7, 1)
	var kb, rb strings.Builder
	s.write(&kb, nil, key.ms)
	s.write(&rb, nil, resp.ms)
	keyPath, respPath = filepath.Join(dir, "headtie.key.conllu"), filepath.Join(dir, "headtie.resp.conllu")
	require.NoError(t, os.WriteFile(keyPath, []byte(kb.String()), 0o600))
	require.NoError(t, os.WriteFile(respPath, []byte(rb.String()), 0o600))
	return keyPath, respPath
}

// TestCorefUDHeadTieFixed: the fixed head tie gives the scorer's counts,
// recorded from one run of the CorefUD scorer 1.2 (with
// --match head --keep-singletons), and compared with a run of it when
// COREFSCORE_COREFUD_SCORER is set. Pairing w7-w9 with w6-w8 instead would
// give B-cubed (1.5 / 4, 1 / 4).
func TestCorefUDHeadTieFixed(t *testing.T) {
	dir := t.TempDir()
	k, r := headTieFixed(t, dir)
	conf := "head,dependent,keep"
	_, counts, _, _, err := ScoreFiles(k, r, conll.FormatCoNLLU, confOptions(t, conf))
	require.NoError(t, err)
	sum := sumRows(counts)
	recorded := map[string]any{ // (pn, pd, rn, rd) as the scorer reports them
		"aligned": 2.0,
		"bcub":    []any{1.0, 4.0, 1.0, 4.0},
		"muc":     []any{0.0, 1.0, 0.0, 2.0},
	}
	compareCounts(t, conf+" (recorded)", sum, recorded, nil)
	if os.Getenv("COREFSCORE_COREFUD_SCORER") != "" {
		want := runScorer(t, corefudScorer(t), []scorerJob{{Key: k, Resp: r, Confs: []string{conf}}})[0][conf]
		compareCounts(t, conf, sum, want, nil)
		compareCounts(t, conf+" (recorded against the scorer)", map[string]float64{
			"mentions.recall_num": want["aligned"].(float64),
			"bcub.precision_num":  want["bcub"].([]any)[0].(float64), "bcub.precision_den": want["bcub"].([]any)[1].(float64),
			"bcub.recall_num": want["bcub"].([]any)[2].(float64), "bcub.recall_den": want["bcub"].([]any)[3].(float64),
			"muc.precision_num": want["muc"].([]any)[0].(float64), "muc.precision_den": want["muc"].([]any)[1].(float64),
			"muc.recall_num": want["muc"].([]any)[2].(float64), "muc.recall_den": want["muc"].([]any)[3].(float64),
		}, recorded, nil)
	}
}

// TestCorefUDSetOrderTie records the one remaining difference in the
// pairing of mentions (README, "Policies and fidelity"): two response
// mentions with the same first node, last node and size, {w1, w2, w4} and
// {w1, w3, w4} (head w1, discontinuous), both cover 3 of the 4 words of key
// mention w1-w4 (head w1). The CorefUD scorer sorts the mentions by first
// node, last node and size, so these two come in its Python set's order
// (their hashes), which picks {w1, w2, w4} under head matching and {w1, w3,
// w4} under partial matching whichever entity each belongs to; we take the
// first in the reader's order, here {w1, w2, w4}: under partial matching
// our MUC counts differ from the scorer's. Key e0 = {w1-w4, w5}, e9 = {w6}; response {w1, w2, w4}
// and {w1, w3, w4} in the entities of w5 and w6, in the two orders. MUC
// counts (pn, pd, rn, rd): ours always; the scorer's are checked when
// COREFSCORE_COREFUD_SCORER is set.
func TestCorefUDSetOrderTie(t *testing.T) {
	dir := t.TempDir()
	w := func(i int) rdNode { return rdNode{0, i, 0} }
	disc := func(a, b [2]int, eid int) rdMention {
		return rdMention{parts: [][2]rdNode{{w(a[0]), w(a[1])}, {w(b[0]), w(b[1])}}, head: w(1), eid: eid}
	}
	key := rdSide{ments: []rdMention{{parts: [][2]rdNode{{w(1), w(4)}}, head: w(1), eid: 0}, wordAt(5, 0), wordAt(6, 9)}}
	cases := []struct {
		name        string
		first       int // entity of {w1, w2, w4}; {w1, w3, w4} is in the other of 1 and 2
		conf        string
		ours, their []any
	}{
		{"w5 with {w1,w2,w4}", 1, "head,linear,keep", []any{1.0, 2.0, 1.0, 1.0}, []any{1.0, 2.0, 1.0, 1.0}},
		{"w5 with {w1,w3,w4}", 2, "head,linear,keep", []any{0.0, 2.0, 0.0, 1.0}, []any{0.0, 2.0, 0.0, 1.0}},
		{"w5 with {w1,w2,w4}", 1, "partial,linear,keep", []any{1.0, 2.0, 1.0, 1.0}, []any{0.0, 2.0, 0.0, 1.0}},
		{"w5 with {w1,w3,w4}", 2, "partial,linear,keep", []any{0.0, 2.0, 0.0, 1.0}, []any{1.0, 2.0, 1.0, 1.0}},
	}
	for i, c := range cases {
		resp := rdSide{ments: []rdMention{disc([2]int{1, 2}, [2]int{4, 4}, c.first), disc([2]int{1, 1}, [2]int{3, 4}, 3-c.first),
			wordAt(5, 1), wordAt(6, 2)}}
		d := &rdDoc{name: fmt.Sprintf("settie%d", i), words: []int{6}, key: key, resp: resp}
		var kb, rb strings.Builder
		d.write(&kb, &d.key)
		d.write(&rb, &d.resp)
		k, r := filepath.Join(dir, d.name+".key.conllu"), filepath.Join(dir, d.name+".resp.conllu")
		require.NoError(t, os.WriteFile(k, []byte(kb.String()), 0o600))
		require.NoError(t, os.WriteFile(r, []byte(rb.String()), 0o600))
		_, counts, _, _, err := ScoreFiles(k, r, conll.FormatCoNLLU, confOptions(t, c.conf))
		require.NoError(t, err)
		compareCounts(t, c.name+" "+c.conf, sumRows(counts), map[string]any{"muc": c.ours}, nil)
		if os.Getenv("COREFSCORE_COREFUD_SCORER") != "" {
			want := runScorer(t, corefudScorer(t), []scorerJob{{Key: k, Resp: r, Confs: []string{c.conf}}})[0][c.conf]
			require.Equal(t, c.their, want["muc"], "%s %s: the scorer's MUC counts as recorded", c.name, c.conf)
		}
	}
}
