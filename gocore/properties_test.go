package gocore

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// classicMetrics are the metrics these property tests cover.
var classicMetrics = []string{"mentions", "muc", "bcub", "bcub_entity", "ceafm", "ceafe", "blanc", "lea"}

// classicOptions selects the classic metrics.
func classicOptions(t testing.TB) Options {
	t.Helper()
	set, err := ParseMetrics(classicMetrics)
	require.NoError(t, err)
	return Options{Metrics: set}
}

// classicColumns are the counts columns of the classic metrics.
func classicColumns() []string {
	var cols []string
	for _, c := range Columns() {
		for _, m := range classicMetrics {
			if strings.HasPrefix(c, m+".") {
				cols = append(cols, c)
			}
		}
	}
	return cols
}

// fractions lists a metric's (numerator, denominator) column pairs.
func fractions() [][2]string {
	var out [][2]string
	for _, c := range classicColumns() {
		if strings.HasSuffix(c, "_num") {
			out = append(out, [2]string{c, strings.TrimSuffix(c, "_num") + "_den"})
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// Brute-force oracle: every classic metric from its definition over mentions,
// pairs and explicit alignments, with none of the engine's algebra.

// partition is one side after the duplicate and singleton policies: the
// cluster label of each mention and the mentions of each cluster.
type partition struct {
	of       map[int64]int64
	clusters map[int64][]int64
	order    []int64 // cluster labels in order of first appearance
}

func newPartition(s Side, singletons SingletonPolicy) partition {
	p := partition{of: map[int64]int64{}, clusters: map[int64][]int64{}}
	for i, m := range s.Mentions {
		if _, dup := p.of[m]; dup {
			continue // keep the first occurrence
		}
		c := s.Clusters[i]
		p.of[m] = c
		if _, ok := p.clusters[c]; !ok {
			p.order = append(p.order, c)
		}
		p.clusters[c] = append(p.clusters[c], m)
	}
	if singletons == SingletonsExclude {
		var order []int64
		for _, c := range p.order {
			if len(p.clusters[c]) == 1 {
				delete(p.of, p.clusters[c][0])
				delete(p.clusters, c)
				continue
			}
			order = append(order, c)
		}
		p.order = order
	}
	return p
}

func (p partition) size() int { return len(p.of) }

// sameCluster reports whether a and b are both on the side and together.
func (p partition) sameCluster(a, b int64) bool {
	ca, okA := p.of[a]
	cb, okB := p.of[b]
	return okA && okB && ca == cb
}

// bruteRP computes one direction (recall when from is the key) of the
// metrics that are defined symmetrically; the precision is the same with
// the sides swapped.
func bruteRP(from, to partition) map[string][2]float64 {
	out := map[string][2]float64{}
	// Mentions.
	common := 0
	for m := range from.of {
		if _, ok := to.of[m]; ok {
			common++
		}
	}
	out["mentions"] = [2]float64{float64(common), float64(from.size())}
	// MUC: |S| - |p(S)|, p(S) = response clusters met + mentions missing.
	var mucNum, mucDen float64
	// B³: Σ_m |S ∩ R(m)| / |S|; per-class B³ divides once more by |S|.
	var b3, b3e float64
	// LEA: |S| · resolved links / links.
	var leaNum float64
	for _, c := range from.order {
		s := from.clusters[c]
		parts := map[int64]bool{}
		missing := 0
		for _, m := range s {
			if rc, ok := to.of[m]; ok {
				parts[rc] = true
			} else {
				missing++
			}
		}
		mucNum += float64(len(s) - len(parts) - missing)
		mucDen += float64(len(s) - 1)
		var b3S float64
		for _, m := range s {
			for _, o := range s {
				if to.sameCluster(m, o) {
					b3S += 1.0 / float64(len(s))
				}
			}
		}
		b3 += b3S
		b3e += b3S / float64(len(s))
		if len(s) == 1 {
			m := s[0]
			if rc, ok := to.of[m]; ok && len(to.clusters[rc]) == 1 {
				leaNum++
			}
			continue
		}
		resolved := 0
		for i := range s {
			for j := i + 1; j < len(s); j++ {
				if to.sameCluster(s[i], s[j]) {
					resolved++
				}
			}
		}
		links := float64(len(s)*(len(s)-1)) / 2
		leaNum += float64(len(s)) * float64(resolved) / links
	}
	out["muc"] = [2]float64{mucNum, mucDen}
	out["bcub"] = [2]float64{b3, float64(from.size())}
	out["bcub_entity"] = [2]float64{b3e, float64(len(from.order))}
	out["lea"] = [2]float64{leaNum, float64(from.size())}
	return out
}

// bruteAlign returns the best total of phi over one-to-one alignments of key
// clusters to response clusters, by trying every alignment.
func bruteAlign(key, resp partition, phi func(k, r []int64) float64) float64 {
	used := make([]bool, len(resp.order))
	var best float64
	var rec func(i int, acc float64)
	rec = func(i int, acc float64) {
		if i == len(key.order) {
			best = math.Max(best, acc)
			return
		}
		rec(i+1, acc)
		for j, rc := range resp.order {
			if !used[j] {
				used[j] = true
				rec(i+1, acc+phi(key.clusters[key.order[i]], resp.clusters[rc]))
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

func overlap(a, b []int64) int {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if x == y {
				n++
			}
		}
	}
	return n
}

// bruteBLANC enumerates mention pairs on each side.
func bruteBLANC(key, resp partition) (coref, non [4]float64) {
	pairs := func(p partition) (c, n map[[2]int64]bool) {
		c, n = map[[2]int64]bool{}, map[[2]int64]bool{}
		var ms []int64
		for _, cl := range p.order {
			ms = append(ms, p.clusters[cl]...)
		}
		for i := range ms {
			for j := i + 1; j < len(ms); j++ {
				a, b := min(ms[i], ms[j]), max(ms[i], ms[j])
				if p.sameCluster(a, b) {
					c[[2]int64{a, b}] = true
				} else {
					n[[2]int64{a, b}] = true
				}
			}
		}
		return c, n
	}
	kc, kn := pairs(key)
	rc, rn := pairs(resp)
	both := func(a, b map[[2]int64]bool) float64 {
		n := 0
		for p := range a {
			if b[p] {
				n++
			}
		}
		return float64(n)
	}
	cc, nn := both(kc, rc), both(kn, rn)
	return [4]float64{cc, float64(len(kc)), cc, float64(len(rc))},
		[4]float64{nn, float64(len(kn)), nn, float64(len(rn))}
}

// bruteCounts returns the classic counts of d by brute force, keyed by
// column name: bruteCountsNoCEAF and the exhaustive CEAF alignments.
func bruteCounts(d Document, opt Options) map[string]float64 {
	out := bruteCountsNoCEAF(d, opt)
	key := newPartition(d.Key, opt.Singletons)
	resp := newPartition(d.Response, opt.Singletons)
	ceafm := bruteAlign(key, resp, func(k, r []int64) float64 { return float64(overlap(k, r)) })
	ceafe := bruteAlign(key, resp, func(k, r []int64) float64 {
		return 2 * float64(overlap(k, r)) / float64(len(k)+len(r))
	})
	out["ceafm.recall_num"], out["ceafm.recall_den"] = ceafm, float64(key.size())
	out["ceafm.precision_num"], out["ceafm.precision_den"] = ceafm, float64(resp.size())
	out["ceafe.recall_num"], out["ceafe.recall_den"] = ceafe, float64(len(key.order))
	out["ceafe.precision_num"], out["ceafe.precision_den"] = ceafe, float64(len(resp.order))
	return out
}

// bruteCountsNoCEAF returns the counts of every classic metric but CEAF (whose
// exhaustive alignment is exponential) by brute force, keyed by column name.
func bruteCountsNoCEAF(d Document, opt Options) map[string]float64 {
	key := newPartition(d.Key, opt.Singletons)
	resp := newPartition(d.Response, opt.Singletons)
	out := map[string]float64{}
	r, p := bruteRP(key, resp), bruteRP(resp, key)
	for m, rv := range r {
		out[m+".recall_num"], out[m+".recall_den"] = rv[0], rv[1]
		out[m+".precision_num"], out[m+".precision_den"] = p[m][0], p[m][1]
	}
	coref, non := bruteBLANC(key, resp)
	for i, s := range rpColumns {
		out["blanc.coref."+s] = coref[i]
		out["blanc.noncoref."+s] = non[i]
	}
	return out
}

// ---------------------------------------------------------------------------
// Random documents.

// randomDoc returns a seeded small document: up to maxMentions mentions per
// side drawn from a shared pool (so sides overlap partly), at most maxClusters
// clusters per side, arbitrary non-negative ids, and repeated mentions when
// dups is set.
func randomDoc(rng *rand.Rand, maxMentions, maxClusters int, dups bool) Document {
	pool := maxMentions + maxMentions/2 + 1
	base := rng.Int64N(1 << 40)
	side := func() Side {
		var s Side
		n := rng.IntN(maxMentions + 1)
		nc := 1 + rng.IntN(maxClusters)
		labels := make([]int64, nc)
		for i := range labels {
			labels[i] = rng.Int64N(1<<50) + int64(i) // distinct enough; collisions only merge clusters
		}
		for _, m := range rng.Perm(pool)[:min(n, pool)] {
			s.Mentions = append(s.Mentions, base+int64(m)*7919)
			s.Clusters = append(s.Clusters, labels[rng.IntN(nc)])
		}
		if dups && len(s.Mentions) > 0 {
			for k := rng.IntN(3); k > 0; k-- {
				s.Mentions = append(s.Mentions, s.Mentions[rng.IntN(len(s.Mentions))])
				s.Clusters = append(s.Clusters, labels[rng.IntN(nc)])
			}
		}
		return s
	}
	return Document{Name: fmt.Sprintf("doc-%d", rng.Uint32()), Key: side(), Response: side()}
}

// scoreRow scores one document and returns its row by column name.
func scoreRow(t testing.TB, d Document, opt Options) map[string]float64 {
	t.Helper()
	counts := make([]float64, NumColumns())
	_, err := ScoreBatch([]Document{d}, opt, counts)
	require.NoError(t, err)
	row := map[string]float64{}
	for i, c := range Columns() {
		row[c] = counts[i]
	}
	return row
}

// assertRowsClose compares the classic columns of two rows.
func assertRowsClose(t testing.TB, want, got map[string]float64, msg string) {
	t.Helper()
	for _, c := range classicColumns() {
		require.InDelta(t, want[c], got[c], 1e-9*math.Max(1, math.Abs(want[c])), "%s: column %s", msg, c)
	}
}

// ---------------------------------------------------------------------------
// Properties.

// TestAgainstBruteForce compares every classic metric with its brute-force
// definition on random documents, under both singleton policies, with and
// without repeated mentions.
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 3000; trial++ {
		d := randomDoc(rng, 12, 6, trial%3 == 0)
		for _, singletons := range []SingletonPolicy{SingletonsKeep, SingletonsExclude} {
			opt := classicOptions(t)
			opt.Singletons = singletons
			got := scoreRow(t, d, opt)
			assertRowsClose(t, bruteCounts(d, opt), got, fmt.Sprintf("trial %d singletons %d: %+v", trial, singletons, d))
		}
	}
}

// TestPerfectResponse: a response equal to the key scores 1 on every metric
// whose denominator is not zero. MUC on all-singleton keys has no links: 0/0
// by convention; likewise BLANC's coreference half, and its non-coreference
// half on a one-cluster key.
func TestPerfectResponse(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 500; trial++ {
		d := randomDoc(rng, 20, 8, false)
		d.Response = d.Key
		row := scoreRow(t, d, classicOptions(t))
		for _, f := range fractions() {
			num, den := row[f[0]], row[f[1]]
			require.InDelta(t, den, num, 1e-9, "trial %d %s", trial, f[0])
		}
		if len(d.Key.Mentions) > 0 {
			for _, m := range []string{"mentions", "bcub", "bcub_entity", "ceafm", "ceafe", "lea"} {
				require.Positive(t, row[m+".recall_den"], m)
			}
		}
	}
	// All-singleton key: MUC is 0/0 on both sides.
	d := docOf([][]string{{"a"}, {"b"}, {"c"}}, [][]string{{"a"}, {"b"}, {"c"}})
	row := scoreRow(t, d, classicOptions(t))
	assert.Equal(t, [4]float64{0, 0, 0, 0}, [4]float64{row["muc.recall_num"], row["muc.recall_den"], row["muc.precision_num"], row["muc.precision_den"]})
	assert.Equal(t, 0.0, row["blanc.coref.recall_den"])
	assert.Equal(t, 3.0, row["lea.recall_num"])
	assert.Equal(t, 3.0, row["lea.recall_den"])
}

// TestSwapSides: R(key, response) = P(response, key) for every metric.
func TestSwapSides(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := 0; trial < 1000; trial++ {
		d := randomDoc(rng, 25, 8, trial%4 == 0)
		s := Document{Name: d.Name, Key: d.Response, Response: d.Key}
		for _, singletons := range []SingletonPolicy{SingletonsKeep, SingletonsExclude} {
			opt := classicOptions(t)
			opt.Singletons = singletons
			a, b := scoreRow(t, d, opt), scoreRow(t, s, opt)
			for _, c := range classicColumns() {
				swapped := strings.Replace(c, "recall", "PRECISION", 1)
				swapped = strings.Replace(swapped, "precision", "recall", 1)
				swapped = strings.Replace(swapped, "PRECISION", "precision", 1)
				require.InDelta(t, a[c], b[swapped], 1e-9*math.Max(1, a[c]), "trial %d: %s vs swapped %s", trial, c, swapped)
			}
		}
	}
}

// TestScoresInUnitInterval: 0 <= numerator <= denominator everywhere.
func TestScoresInUnitInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for trial := 0; trial < 1000; trial++ {
		d := randomDoc(rng, 40, 12, trial%2 == 0)
		opt := classicOptions(t)
		opt.Singletons = SingletonPolicy(trial % 2)
		row := scoreRow(t, d, opt)
		for _, f := range fractions() {
			require.GreaterOrEqual(t, row[f[0]], 0.0, f[0])
			require.LessOrEqual(t, row[f[0]], row[f[1]]*(1+1e-12), "trial %d %s", trial, f[0])
		}
	}
}

// TestRenumberingInvariance: renaming clusters (per side) and mentions
// (consistently on both sides) changes nothing; neither does shuffling the
// order of the mentions when no mention is repeated.
func TestRenumberingInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for trial := 0; trial < 1000; trial++ {
		dups := trial%3 == 0
		d := randomDoc(rng, 30, 10, dups)
		mentionMap := map[int64]int64{}
		renameM := func(m int64) int64 {
			if r, ok := mentionMap[m]; ok {
				return r
			}
			r := rng.Int64N(1 << 60)
			mentionMap[m] = r
			return r
		}
		renumber := func(s Side) Side {
			clusterMap := map[int64]int64{}
			out := Side{}
			for i, m := range s.Mentions {
				c, ok := clusterMap[s.Clusters[i]]
				if !ok {
					c = int64(len(clusterMap))*13 + rng.Int64N(13)
					clusterMap[s.Clusters[i]] = c
				}
				out.Mentions = append(out.Mentions, renameM(m))
				out.Clusters = append(out.Clusters, c)
			}
			if !dups {
				rng.Shuffle(len(out.Mentions), func(i, j int) {
					out.Mentions[i], out.Mentions[j] = out.Mentions[j], out.Mentions[i]
					out.Clusters[i], out.Clusters[j] = out.Clusters[j], out.Clusters[i]
				})
			}
			return out
		}
		e := Document{Name: d.Name, Key: renumber(d.Key), Response: renumber(d.Response)}
		opt := classicOptions(t)
		opt.Singletons = SingletonPolicy(trial % 2)
		assertRowsClose(t, scoreRow(t, d, opt), scoreRow(t, e, opt), fmt.Sprintf("trial %d", trial))
	}
}

// additiveColumns are the columns where scoring the disjoint union of
// documents as one document gives the sum of their rows: all classic
// columns except BLANC's non-coreference links, which gain the pairs across
// documents.
func additiveColumns() []string {
	var out []string
	for _, c := range classicColumns() {
		if !strings.HasPrefix(c, "blanc.noncoref.") {
			out = append(out, c)
		}
	}
	return out
}

// disjointUnion merges documents into one, renaming every mention and
// cluster so that nothing is shared between the parts.
func disjointUnion(docs []Document) Document {
	var u Document
	for i, d := range docs {
		shift := func(x int64) int64 { return x*64 + int64(i) }
		for j, m := range d.Key.Mentions {
			u.Key.Mentions = append(u.Key.Mentions, shift(m))
			u.Key.Clusters = append(u.Key.Clusters, shift(d.Key.Clusters[j]))
		}
		for j, m := range d.Response.Mentions {
			u.Response.Mentions = append(u.Response.Mentions, shift(m))
			u.Response.Clusters = append(u.Response.Clusters, shift(d.Response.Clusters[j]))
		}
	}
	return u
}

// TestAdditivity: the sum of ScoreBatch rows equals the score of the
// disjoint union on every additive column, and BLANC's non-coreference
// columns are indeed not additive in general (the union adds cross-document
// pairs), though their coreference columns are.
func TestAdditivity(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ncol := NumColumns()
	sawNonAdditive := false
	for trial := 0; trial < 300; trial++ {
		docs := make([]Document, 1+rng.IntN(6))
		for i := range docs {
			docs[i] = randomDoc(rng, 15, 6, trial%2 == 0)
			docs[i].Key.Mentions = append([]int64(nil), docs[i].Key.Mentions...)
			for j := range docs[i].Key.Mentions { // keep ids small enough to shift
				docs[i].Key.Mentions[j] %= 1 << 40
			}
			docs[i].Response.Mentions = append([]int64(nil), docs[i].Response.Mentions...)
			for j := range docs[i].Response.Mentions {
				docs[i].Response.Mentions[j] %= 1 << 40
			}
			for _, s := range []*Side{&docs[i].Key, &docs[i].Response} {
				s.Clusters = append([]int64(nil), s.Clusters...)
				for j := range s.Clusters {
					s.Clusters[j] %= 1 << 40
				}
			}
		}
		opt := classicOptions(t)
		opt.Singletons = SingletonPolicy(trial % 2)
		counts := make([]float64, len(docs)*ncol)
		_, err := ScoreBatch(docs, opt, counts)
		require.NoError(t, err)
		sum := map[string]float64{}
		for i, c := range Columns() {
			for d := range docs {
				sum[c] += counts[d*ncol+i]
			}
		}
		union := scoreRow(t, disjointUnion(docs), opt)
		for _, c := range additiveColumns() {
			require.InDelta(t, sum[c], union[c], 1e-9*math.Max(1, sum[c]), "trial %d column %s", trial, c)
		}
		if sum["blanc.noncoref.recall_den"] != union["blanc.noncoref.recall_den"] {
			sawNonAdditive = true
		}
	}
	assert.True(t, sawNonAdditive, "BLANC non-coreference links should gain cross-document pairs")
}

// TestWorkersIdentical: the counts matrix and duplicate reports are
// bit-identical for 1, 2 and 8 workers.
func TestWorkersIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	docs := make([]Document, 200)
	for i := range docs {
		docs[i] = randomDoc(rng, 40, 10, i%5 == 0)
	}
	docs = append(docs, synthDoc(7, 5000), synthDoc(8, 3000))
	var first []float64
	var firstDups []Duplicate
	for _, w := range []int{1, 2, 8, 0} {
		opt := classicOptions(t)
		opt.Workers = w
		counts := make([]float64, len(docs)*NumColumns())
		dups, err := ScoreBatch(docs, opt, counts)
		require.NoError(t, err)
		if first == nil {
			first, firstDups = counts, dups
			continue
		}
		require.Equal(t, first, counts, "workers=%d", w)
		require.Equal(t, firstDups, dups, "workers=%d", w)
	}
}

// TestDuplicates: under the default policy the first occurrence is kept and
// every later one is reported; under DuplicatesError the document is refused
// with ErrDuplicateMention, named.
func TestDuplicates(t *testing.T) {
	ok := Document{Name: "clean", Key: Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}},
		Response: Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}}}
	bad := Document{Name: "repeats",
		Key:      Side{Mentions: []int64{1, 2, 3, 2}, Clusters: []int64{0, 0, 1, 1}},
		Response: Side{Mentions: []int64{1, 2, 1, 1}, Clusters: []int64{5, 5, 6, 5}}}
	opt := classicOptions(t)
	counts := make([]float64, 2*NumColumns())
	dups, err := ScoreBatch([]Document{ok, bad}, opt, counts)
	require.NoError(t, err)
	assert.Equal(t, []Duplicate{
		{Doc: 1, Side: KeySide, Mention: 2, Pos: 3, FirstCluster: 0, Cluster: 1},
		{Doc: 1, Side: ResponseSide, Mention: 1, Pos: 2, FirstCluster: 5, Cluster: 6},
		{Doc: 1, Side: ResponseSide, Mention: 1, Pos: 3, FirstCluster: 5, Cluster: 5},
	}, dups)
	// Keep-first: the document scores as key {1 2}{3}, response {1 2}.
	clean := Document{Key: Side{Mentions: []int64{1, 2, 3}, Clusters: []int64{0, 0, 1}},
		Response: Side{Mentions: []int64{1, 2}, Clusters: []int64{5, 5}}}
	want := scoreRow(t, clean, opt)
	got := map[string]float64{}
	for i, c := range Columns() {
		got[c] = counts[NumColumns()+i]
	}
	assertRowsClose(t, want, got, "keep-first")

	opt.Duplicates = DuplicatesError
	_, err = ScoreBatch([]Document{ok, bad}, opt, counts)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrDuplicateMention)
	var de *DocError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, 1, de.Doc)
	assert.Contains(t, err.Error(), `document 1 ("repeats")`)
	assert.Contains(t, err.Error(), "key mention 3: the mention occurs twice (first in cluster 0, then in cluster 1)")
	e := AsError(err)
	assert.Equal(t, KindDuplicate, e.Kind)
	assert.Equal(t, 1, e.Doc)
	assert.Equal(t, int(KeySide), e.Side)
	assert.Equal(t, 3, e.Mention, "position of the repeat in the key's arrays")
}

// TestSingletonsExclude: one-mention clusters vanish from both sides, after
// duplicates are removed, and the rest is scored as if they were absent.
func TestSingletonsExclude(t *testing.T) {
	d := docOf([][]string{{"a", "b"}, {"c"}, {"d", "e", "f"}}, [][]string{{"a"}, {"b", "c"}, {"d", "e"}, {"x"}})
	// A repeated mention does not make a cluster a non-singleton.
	d.Key.Mentions = append(d.Key.Mentions, d.Key.Mentions[2])
	d.Key.Clusters = append(d.Key.Clusters, d.Key.Clusters[2])
	without := docOf([][]string{{"a", "b"}, {"d", "e", "f"}}, [][]string{{"b", "c"}, {"d", "e"}})
	opt := classicOptions(t)
	opt.Singletons = SingletonsExclude
	got := scoreRow(t, d, opt)
	optKeep := classicOptions(t)
	assertRowsClose(t, scoreRow(t, without, optKeep), got, "exclude")
	assert.Equal(t, 5.0, got["mentions.recall_den"])
	assert.Equal(t, 4.0, got["mentions.precision_den"])
}

// TestInvalidInput: malformed documents return an error that names the
// document and wraps ErrInvalidInput; nothing panics.
func TestInvalidInput(t *testing.T) {
	good := Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}}
	tests := []struct {
		name     string
		key      Side
		response Side
		contains string
	}{
		{"fewer clusters than mentions", Side{Mentions: []int64{1, 2}, Clusters: []int64{0}}, good, "2 mention ids but 1 cluster ids"},
		{"more clusters than mentions", good, Side{Mentions: []int64{1}, Clusters: []int64{0, 1}}, "response has 1 mention ids but 2 cluster ids"},
		{"negative cluster id", Side{Mentions: []int64{1, 2}, Clusters: []int64{0, -3}}, good, "negative cluster id -3"},
		{"types length", Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}, Types: []MentionType{1}}, good, "1 mention types"},
		{"bad type code", good, Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}, Types: []MentionType{1, 9}}, "mention type 9"},
		{"negative type code", good, Side{Mentions: []int64{1, 2}, Clusters: []int64{0, 0}, Types: []MentionType{-1, 1}}, "mention type -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs := []Document{{Name: "fine", Key: good, Response: good}, {Name: "broken", Key: tc.key, Response: tc.response}}
			counts := make([]float64, 2*NumColumns())
			_, err := ScoreBatch(docs, Options{}, counts)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalidInput)
			assert.Contains(t, err.Error(), `document 1 ("broken")`)
			assert.Contains(t, err.Error(), tc.contains)
		})
	}
	t.Run("counts length", func(t *testing.T) {
		_, err := ScoreBatch([]Document{{Key: good, Response: good}}, Options{}, make([]float64, 3))
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrInvalidInput)
	})
	t.Run("row length", func(t *testing.T) {
		var dups []Duplicate
		opt := Options{}
		err := ScoreDocument(&Document{Key: good, Response: good}, 0, &opt, make([]float64, 2), &dups)
		assert.ErrorIs(t, err, ErrInvalidInput)
	})
	t.Run("unknown metric", func(t *testing.T) {
		_, err := ParseMetrics([]string{"muc", "nope"})
		assert.ErrorIs(t, err, ErrInvalidInput)
	})
	t.Run("empty batch", func(t *testing.T) {
		dups, err := ScoreBatch(nil, Options{}, nil)
		require.NoError(t, err)
		assert.Empty(t, dups)
	})
}

// decodeDocs turns fuzz bytes into up to three small documents, possibly
// malformed (lengths, cluster ids and type codes come from the bytes).
func decodeDocs(data []byte) []Document {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	nDocs := 1 + next()%3
	docs := make([]Document, nDocs)
	for i := range docs {
		for _, s := range []*Side{&docs[i].Key, &docs[i].Response} {
			flags := next()
			n := next() % 14
			for j := 0; j < n; j++ {
				s.Mentions = append(s.Mentions, int64(next()%16))
				c := int64(next() % 7)
				if flags&1 != 0 && j == 0 {
					c = -c - 1 // negative cluster id
				}
				s.Clusters = append(s.Clusters, c)
			}
			if flags&2 != 0 && n > 0 {
				s.Clusters = s.Clusters[:n-1] // mismatched lengths
			}
			if flags&4 != 0 {
				for j := 0; j < n; j++ {
					s.Types = append(s.Types, MentionType(int8(next()%5)))
				}
			}
		}
	}
	return docs
}

// FuzzScoreBatch scores arbitrary byte-decoded batches: the engine never
// panics, returns ErrInvalidInput-wrapping errors that name a document, and
// when it succeeds agrees with the brute-force oracle and keeps every score
// in [0, 1].
func FuzzScoreBatch(f *testing.F) {
	f.Add([]byte{0, 0, 3, 1, 0, 2, 0, 3, 1, 0, 3, 1, 0, 2, 1, 4, 1})
	f.Add([]byte{2, 1, 5, 1, 1, 2, 1, 3, 2, 3, 2, 4, 2, 0, 4, 1, 1, 2, 2, 9, 9, 3, 3})
	f.Add([]byte{0, 4, 2, 1, 1, 2, 1, 3, 3, 0, 2, 1, 1, 2, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		docs := decodeDocs(data)
		for _, singletons := range []SingletonPolicy{SingletonsKeep, SingletonsExclude} {
			opt := classicOptions(t)
			opt.Singletons = singletons
			ncol := NumColumns()
			counts := make([]float64, len(docs)*ncol)
			_, err := ScoreBatch(docs, opt, counts)
			if err != nil {
				var de *DocError
				require.ErrorAs(t, err, &de)
				require.True(t, errors.Is(err, ErrInvalidInput), "%v", err)
				require.Contains(t, err.Error(), fmt.Sprintf("document %d", de.Doc))
				return
			}
			for d, doc := range docs {
				got := map[string]float64{}
				for i, c := range Columns() {
					got[c] = counts[d*ncol+i]
				}
				assertRowsClose(t, bruteCounts(doc, opt), got, "fuzz")
				for _, fr := range fractions() {
					require.GreaterOrEqual(t, got[fr[0]], 0.0)
					require.LessOrEqual(t, got[fr[0]], got[fr[1]]*(1+1e-12))
				}
			}
		}
	})
}
