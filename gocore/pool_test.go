package gocore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/pkg/errors"
	"github.com/stretchr/testify/require"
)

// scratchCase is one document and options of the docScratch tests, with
// what scoring it without the pool gave.
type scratchCase struct {
	name   string
	doc    Document
	opt    Options
	counts []float64
	rep    Report
	err    string
}

// scratchCases returns documents of varied sizes and shapes (tiny, a few
// hundred mentions, beyond docScratchMentions; repeated mentions, types,
// excluded singletons, every metric, an error), each scored without the
// pool.
func scratchCases(t testing.TB) []scratchCase {
	every, err := ParseMetrics(MetricNames())
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(16, 16))
	var cases []scratchCase
	add := func(name string, d Document, opt Options) {
		cases = append(cases, scratchCase{name: name, doc: d, opt: opt})
	}
	for i := 0; i < 60; i++ {
		switch i % 6 {
		case 0:
			add("tiny", smallDoc(), Options{})
		case 1:
			add("random", randomDoc(rng, 40, 8, false), Options{})
		case 2:
			add("random with repeats", randomDoc(rng, 120, 20, true), Options{Metrics: every, MaxDuplicates: 2})
		case 3:
			add("synthetic typed", withTypes(synthDoc(uint64(i), 50+rng.IntN(400))), Options{Metrics: every})
		case 4:
			add("synthetic without singletons", synthDoc(uint64(i), 30+rng.IntN(300)), Options{Singletons: SingletonsExclude, ReferenceSums: true})
		default:
			if i%12 == 5 {
				add("beyond the pool", withTypes(synthDoc(uint64(i), 2*slabMentions)), Options{})
			} else {
				add("repeat refused", randomDoc(rng, 30, 5, true), Options{Duplicates: DuplicatesError})
			}
		}
	}
	saved := docScratchMentions
	defer func() { docScratchMentions = saved }()
	docScratchMentions = -1
	for i := range cases {
		c := &cases[i]
		c.counts, c.rep, c.err = scoreCase(c)
	}
	return cases
}

// scoreCase scores one case alone and returns its counts, report and error
// message ("" for none).
func scoreCase(c *scratchCase) ([]float64, Report, string) {
	counts := make([]float64, NumColumns())
	rep, err := Score([]Document{c.doc}, c.opt, counts)
	if err != nil {
		return counts, rep, err.Error()
	}
	return counts, rep, ""
}

// sameCase returns an error when a pooled score differs from the case's.
func sameCase(c *scratchCase, i int) error {
	counts, rep, msg := scoreCase(c)
	if msg != c.err {
		return errors.Errorf("case %d (%s): error %q, without the pool %q", i, c.name, msg, c.err)
	}
	for k := range counts {
		if math.Float64bits(counts[k]) != math.Float64bits(c.counts[k]) {
			return errors.Errorf("case %d (%s): column %s is %v, without the pool %v", i, c.name, Columns()[k], counts[k], c.counts[k])
		}
	}
	if fmt.Sprint(rep) != fmt.Sprint(c.rep) {
		return errors.Errorf("case %d (%s): report %v, without the pool %v", i, c.name, rep, c.rep)
	}
	return nil
}

// TestDocScratchMatchesFresh scores documents one after the other, so that
// each reuses the scratch of documents of other sizes and shapes, and
// checks that counts (bit for bit), reports and errors are those of
// scoring without the pool.
func TestDocScratchMatchesFresh(t *testing.T) {
	cases := scratchCases(t)
	for i := range cases {
		require.NoError(t, sameCase(&cases[i], i))
	}
	require.Less(t, docScratchMentions, 2*slabMentions, "the large cases test the path without the pool")
}

// TestDocScratchConcurrent scores the same documents on several goroutines
// at once, each in its own order, so that scratches pass between
// goroutines and documents; run it with -race.
func TestDocScratchConcurrent(t *testing.T) {
	cases := scratchCases(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 5))
			for _, i := range rng.Perm(len(cases)) {
				if errs[g] = sameCase(&cases[i], i); errs[g] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}
