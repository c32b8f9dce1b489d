package gocore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// A partition is a set of sets: a document's counts must not depend on the
// order in which it lists its clusters, the mentions of each cluster, or the
// labels it gives its clusters. These tests check every counts column bit
// for bit (math.Float64bits), since the rows of one document read through
// two roads (a CoNLL file and Python lists, say) are compared exactly.

// reordering is a way of listing a side anew.
type reordering int

const (
	shuffleClusters reordering = iota // clusters in another order, each listed together
	shuffleWithin                     // the mentions of each cluster in another order
	shuffleBoth                       // both
	interleave                        // the mention arrays shuffled as a whole
)

func (r reordering) String() string {
	return [...]string{"clusters", "within clusters", "clusters and within", "interleaved"}[r]
}

// reorderSide returns s listed another way, under new cluster labels:
// grouped by cluster (as a file or a list of lists gives them) with the
// clusters, the mentions of each cluster, or both shuffled; or its mention
// arrays shuffled as a whole. Types go with their mentions. s must hold no
// repeated mention (which occurrence is kept depends on the order by
// design).
func reorderSide(rng *rand.Rand, s Side, how reordering) Side {
	labels := map[int64]int64{}
	var order []int64 // cluster labels in order of first appearance
	members := map[int64][]int{}
	for i, c := range s.Clusters {
		if _, ok := members[c]; !ok {
			order = append(order, c)
			labels[c] = rng.Int64N(1<<40)*int64(len(s.Clusters)+1) + int64(len(order)) // distinct
		}
		members[c] = append(members[c], i)
	}
	if how != shuffleWithin {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	var positions []int
	for _, c := range order {
		ms := members[c]
		if how != shuffleClusters {
			rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		}
		positions = append(positions, ms...)
	}
	if how == interleave {
		rng.Shuffle(len(positions), func(i, j int) { positions[i], positions[j] = positions[j], positions[i] })
	}
	out := Side{Mentions: []int64{}, Clusters: []int64{}}
	if s.Types != nil {
		out.Types = []MentionType{}
	}
	for _, p := range positions {
		out.Mentions = append(out.Mentions, s.Mentions[p])
		out.Clusters = append(out.Clusters, labels[s.Clusters[p]])
		if s.Types != nil {
			out.Types = append(out.Types, s.Types[p])
		}
	}
	return out
}

// withoutRepeats returns s keeping the first occurrence of each mention.
func withoutRepeats(s Side) Side {
	seen := map[int64]bool{}
	var out Side
	for i, m := range s.Mentions {
		if seen[m] {
			continue
		}
		seen[m] = true
		out.Mentions = append(out.Mentions, m)
		out.Clusters = append(out.Clusters, s.Clusters[i])
		if s.Types != nil {
			out.Types = append(out.Types, s.Types[i])
		}
	}
	return out
}

// fullyTyped reports whether every mention of d has a known type.
func fullyTyped(d Document) bool {
	for _, s := range []Side{d.Key, d.Response} {
		if len(s.Mentions) > 0 && s.Types == nil {
			return false
		}
		if slices.Contains(s.Types, TypeUnknown) {
			return false
		}
	}
	return true
}

// orderMetrics names every metric that applies to d, the analyses
// included: the typed metrics when d is fully typed. The CRAC measures need
// mention shapes, which these documents do not have.
func orderMetrics(t *testing.T, d Document) MetricSet {
	t.Helper()
	names := append([]string{}, classicMetrics...)
	names = append(names, "kk", "ms")
	if fullyTyped(d) {
		names = append(names, "lmuc", "lbcub", "lceafm", "lceafe", "da")
	}
	set, err := ParseMetrics(names)
	require.NoError(t, err)
	return set
}

// orderOptions are the option sets each document is scored under.
func orderOptions(t *testing.T, d Document) map[string]Options {
	t.Helper()
	named := orderMetrics(t, d)
	out := map[string]Options{}
	for _, singletons := range []SingletonPolicy{SingletonsKeep, SingletonsExclude} {
		out[fmt.Sprintf("named/singletons=%d", singletons)] = Options{Metrics: named, Singletons: singletons}
		out[fmt.Sprintf("default/singletons=%d", singletons)] = Options{Singletons: singletons}
		if fullyTyped(d) {
			// Link weights whose sums are not exact in binary, and the
			// greedy DA correspondence.
			out[fmt.Sprintf("weights/singletons=%d", singletons)] = Options{
				Metrics: named, Singletons: singletons,
				LinkWeights: [4]float64{1, 0.7, 0.3, 0.1}, DAWeights: [3]float64{0.6, 0.25, 0.15}, DAGreedy: true,
			}
		}
	}
	return out
}

// requireSameBits scores d and e under opt and requires bit-identical rows.
func requireSameBits(t *testing.T, d, e Document, opt Options, msg string) {
	t.Helper()
	want := make([]float64, NumColumns())
	got := make([]float64, NumColumns())
	_, err := ScoreBatch([]Document{d}, opt, want)
	require.NoError(t, err, msg)
	_, err = ScoreBatch([]Document{e}, opt, got)
	require.NoError(t, err, msg)
	cols := Columns()
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
			require.Failf(t, "counts depend on the order of the input",
				"%s: column %s is %v as given, %v reordered (%+v)", msg, cols[i], want[i], got[i], d)
		}
	}
}

// checkOrderInvariance scores d as given and reordered every way (key,
// response, both) under every option set.
func checkOrderInvariance(t *testing.T, rng *rand.Rand, d Document, name string) {
	t.Helper()
	d.Key, d.Response = withoutRepeats(d.Key), withoutRepeats(d.Response)
	for optName, opt := range orderOptions(t, d) {
		for how := shuffleClusters; how <= interleave; how++ {
			for sides := 1; sides <= 3; sides++ {
				e := d
				if sides&1 != 0 {
					e.Key = reorderSide(rng, d.Key, how)
				}
				if sides&2 != 0 {
					e.Response = reorderSide(rng, d.Response, how)
				}
				requireSameBits(t, d, e, opt, fmt.Sprintf("%s %s, %v, sides %s", name, optName, how, [...]string{"", "key", "response", "both"}[sides]))
			}
		}
	}
}

// TestOrderInvariance: every counts column of every metric, typed and
// untyped, with and without singletons, is bit-identical when the clusters,
// the mentions within clusters, or both sides of a document are listed in
// another order under other labels.
func TestOrderInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(2012, 19))
	trials := 100
	if testing.Short() {
		trials = 20
	}
	for trial := 0; trial < trials; trial++ {
		checkOrderInvariance(t, rng, randomDoc(rng, 40, 10, false), fmt.Sprintf("random doc %d", trial))
		checkOrderInvariance(t, rng, lmSmallDoc(rng), fmt.Sprintf("small typed doc %d", trial))
		checkOrderInvariance(t, rng, randomSpanDoc(rng), fmt.Sprintf("span doc %d", trial))
		if trial%5 == 0 {
			checkOrderInvariance(t, rng, lmSynthDoc(uint64(trial)+1, 30+rng.IntN(150)), fmt.Sprintf("synthetic typed doc %d", trial))
		}
	}
}

// TestOrderInvarianceTies: documents made of clusters of a few repeated
// shapes, where many alignments tie, give one CEAF total in every order.
func TestOrderInvarianceTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 77))
	for trial := 0; trial < 60; trial++ {
		var d Document
		next := int64(0)
		for c := 0; c < 2+rng.IntN(12); c++ {
			size := 1 + rng.IntN(4)
			for i := 0; i < size; i++ {
				d.Key.Mentions = append(d.Key.Mentions, next)
				d.Key.Clusters = append(d.Key.Clusters, int64(c))
				// The response splits key clusters in two, or joins two.
				d.Response.Mentions = append(d.Response.Mentions, next)
				d.Response.Clusters = append(d.Response.Clusters, int64(c/2*2+i%2))
				next++
			}
		}
		d.Key.Types = make([]MentionType, len(d.Key.Mentions))
		d.Response.Types = make([]MentionType, len(d.Response.Mentions))
		for i := range d.Key.Types {
			d.Key.Types[i] = MentionType(1 + rng.IntN(3))
			d.Response.Types[i] = d.Key.Types[i]
		}
		checkOrderInvariance(t, rng, d, fmt.Sprintf("tie doc %d", trial))
	}
}

// TestOrderInvarianceExample is the case that motivated the exact sums: one
// document whose B-cubed and CEAF_e numerators came out 1 ulp apart when its
// clusters were listed in two orders.
func TestOrderInvarianceExample(t *testing.T) {
	found := false
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 2000 && !found; trial++ {
		d := randomDoc(rng, 40, 10, false)
		e := Document{Name: d.Name, Key: reorderSide(rng, d.Key, shuffleBoth), Response: reorderSide(rng, d.Response, shuffleBoth)}
		opt := classicOptions(t)
		a, b := scoreRow(t, d, opt), scoreRow(t, e, opt)
		// A plain in-order sum of the same terms differs: the test
		// documents then do exercise the order.
		if plainBcub(d) != plainBcub(e) {
			found = true
			require.Equal(t, math.Float64bits(a["bcub.recall_num"]), math.Float64bits(b["bcub.recall_num"]))
		}
	}
	require.True(t, found, "no random document shows an order-dependent plain sum: the generator no longer exercises the property")
}

// plainBcub is B-cubed's recall numerator summed in input order, the way
// the engine summed it before exactsum: the witness that order matters.
func plainBcub(d Document) float64 {
	opt := withDefaults(Options{})
	var dups []Duplicate
	tb, err := NewTable(&d, 0, &opt, &dups)
	if err != nil {
		panic(err)
	}
	var r float64
	for _, c := range tb.Cells {
		r += float64(c.N) * float64(c.N) / float64(tb.KeySize[c.K])
	}
	return r
}

// FuzzOrderInvariance: any valid byte-decoded document gives the same bits
// however its sides are reordered.
func FuzzOrderInvariance(f *testing.F) {
	f.Add([]byte{0, 0, 3, 1, 0, 2, 0, 3, 1, 0, 3, 1, 0, 2, 1, 4, 1})
	f.Add([]byte{0, 4, 9, 1, 1, 2, 1, 3, 3, 4, 2, 5, 1, 6, 2, 7, 0, 8, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 9, 1, 1, 2, 2, 3, 3, 4, 1, 5, 2, 6, 3, 7, 1, 8, 2, 1, 2, 3, 1, 2, 3, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		d := decodeDocs(data)[0]
		row := make([]float64, NumColumns())
		if _, err := ScoreBatch([]Document{d}, Options{}, row); err != nil {
			return // not a valid document: FuzzScoreBatch checks the error
		}
		d.Key, d.Response = withoutRepeats(d.Key), withoutRepeats(d.Response)
		for _, opt := range orderOptions(t, d) {
			if _, err := ScoreBatch([]Document{d}, opt, row); err != nil {
				return // an option set this document cannot take (types)
			}
		}
		seed := uint64(len(data))
		for _, b := range data {
			seed = seed*131 + uint64(b)
		}
		checkOrderInvariance(t, rand.New(rand.NewPCG(seed, 1)), d, "fuzz")
	})
}
