package gocore

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/corefscore/corefscore/gocore/assign"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// truncPct is the reference scorer's printed percentage, int(n / d * 10000)
// / 100.
func truncPct(n, d float64) float64 { return math.Trunc(n/d*10000) / 100 }

// TestReferenceSumsIssueCase is the smallest case of issue 11: key {t0..t4}
// plus four singletons, response {t0, t1, t2}, one 9-token document. Perl
// adds 3/5 once per response mention (1.7999999999999998) and prints
// B-cubed recall (1.8 / 9) 19.99%; one term n²/|K| per cell gives exactly
// 1.8 and 20%.
func TestReferenceSumsIssueCase(t *testing.T) {
	d := Document{
		Key:      Side{Mentions: []int64{0, 1, 2, 3, 4, 5, 6, 7, 8}, Clusters: []int64{0, 0, 0, 0, 0, 1, 2, 3, 4}},
		Response: Side{Mentions: []int64{0, 1, 2}, Clusters: []int64{0, 0, 0}},
	}
	col := ColumnIndex("bcub.recall_num")
	row := func(opt Options) []float64 {
		counts := make([]float64, NumColumns())
		_, err := ScoreBatch([]Document{d}, opt, counts)
		require.NoError(t, err)
		return counts
	}
	ref, exact := row(Options{ReferenceSums: true}), row(Options{})
	perl, term := 0.0, 3.0/5 // float64 arithmetic, not exact constants
	for range 3 {
		perl += term
	}
	require.NotEqual(t, 1.8, perl)
	assert.Equal(t, perl, ref[col])
	assert.Equal(t, 9.0/5, exact[col])
	assert.Equal(t, 19.99, truncPct(ref[col], ref[col+1]))
	assert.Equal(t, 20.0, truncPct(exact[col], exact[col+1]))
	// Only the B-cubed and CEAF_e numerators may differ, and only in the
	// last bits.
	for c, name := range Columns() {
		assert.InDelta(t, exact[c], ref[c], 1e-12, name)
	}
}

// TestReferenceSumsTerms checks the two reference sums on random documents
// against a direct transcription of the reference's loops: B-cubed one term
// per response mention in chain order, CEAF_e 1 - (1 - φ4) per key chain in
// order; and that they stay within rounding of the default sums.
func TestReferenceSumsTerms(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		d := lmSynthDoc(seed, 20+5*int(seed))
		counts := make([]float64, 2*NumColumns())
		_, err := ScoreBatch([]Document{d}, Options{ReferenceSums: true}, counts[:NumColumns()])
		require.NoError(t, err)
		_, err = ScoreBatch([]Document{d}, Options{}, counts[NumColumns():])
		require.NoError(t, err)
		ref, exact := counts[:NumColumns()], counts[NumColumns():]

		// The reference's BCUBED, on the response's chains in order of
		// first appearance.
		keyOf := map[int64]int64{}
		keySize := map[int64]int{}
		for i, m := range d.Key.Mentions {
			keyOf[m] = d.Key.Clusters[i]
			keySize[d.Key.Clusters[i]]++
		}
		var order []int64
		chains := map[int64][]int64{}
		for i, m := range d.Response.Mentions {
			c := d.Response.Clusters[i]
			if _, ok := chains[c]; !ok {
				order = append(order, c)
			}
			chains[c] = append(chains[c], m)
		}
		var r, p float64
		for _, c := range order {
			for _, m := range chains[c] {
				k, ok := keyOf[m]
				if !ok {
					continue
				}
				ci := 0
				for _, o := range chains[c] {
					if ko, ok := keyOf[o]; ok && ko == k {
						ci++
					}
				}
				p += float64(ci) / float64(len(chains[c]))
				r += float64(ci) / float64(keySize[k])
			}
		}
		assert.Equal(t, r, ref[ColumnIndex("bcub.recall_num")], "seed %d", seed)
		assert.Equal(t, p, ref[ColumnIndex("bcub.precision_num")], "seed %d", seed)
		for _, c := range []string{"bcub.recall_num", "bcub.precision_num", "ceafe.recall_num", "ceafe.precision_num"} {
			assert.InDelta(t, exact[ColumnIndex(c)], ref[ColumnIndex(c)], 1e-9, "seed %d %s", seed, c)
		}
	}
}

// tiedDoc returns a document rich in tied CEAF_e alignments, shaped like
// a system output against its key: key chains of 1 to 6 mentions (mostly
// singletons), a response that drops some mentions, moves some to other
// chains (existing or new ones) and adds a few of its own. Key chains and
// response chains with no common mention are common.
func tiedDoc(rng *rand.Rand, mentions int) Document {
	var d Document
	chains := 0
	for m := 0; m < mentions; chains++ {
		size := 1
		for size < 6 && rng.IntN(3) == 0 {
			size++
		}
		for ; size > 0 && m < mentions; size-- {
			d.Key.Mentions = append(d.Key.Mentions, int64(m))
			d.Key.Clusters = append(d.Key.Clusters, int64(chains))
			m++
		}
	}
	for _, m := range rng.Perm(mentions) {
		c := d.Key.Clusters[m]
		switch rng.IntN(8) {
		case 0:
			continue
		case 1, 2:
			c = int64(rng.IntN(chains + 3))
		}
		d.Response.Mentions = append(d.Response.Mentions, int64(m))
		d.Response.Clusters = append(d.Response.Clusters, c)
	}
	for k := rng.IntN(3); k > 0; k-- {
		d.Response.Mentions = append(d.Response.Mentions, int64(mentions+k))
		d.Response.Clusters = append(d.Response.Clusters, int64(rng.IntN(chains+3)))
	}
	return d
}

// TestRefCeafeUniqueAgreesWithTheMunkresReplay: when refCeafeUnique takes a
// document, its CEAF_e numerator is the reference Munkres replay's, bit for
// bit. 12,000 seeded random documents, half of them rich in ties
// (tiedDoc), half of any shape (randomDoc); both outcomes must be common,
// and among the documents taken, some with a component of two chains or
// more on both sides (the solver's road, not only the stars') and some
// with components of several candidate profiles whose combinations gave
// one sum (refTiedSum's road).
func TestRefCeafeUniqueAgreesWithTheMunkresReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	opt := Options{ReferenceSums: true}
	taken, left, takenSolved, takenTied := 0, 0, 0, 0
	for i := range 12000 {
		d := randomDoc(rng, 4+i%40, 1+i%12, false)
		if i%2 == 1 {
			d = tiedDoc(rng, 2+i%70)
		}
		tab, err := NewTable(&d, 0, &opt, nil)
		require.NoError(t, err)
		phi := func(c Cell) float64 { return 2 * float64(c.N) / float64(tab.KeySize[c.K]+tab.RespSize[c.R]) }
		got, ok, err := refCeafeUnique(tab, phi)
		require.NoError(t, err)
		if !ok {
			left++
			continue
		}
		taken++
		if _, ties, _, _ := refCeafeProfiles(tab, phi); len(ties) > 0 {
			takenTied++
		}
		comp := refComponents(tab)
		for c := range comp.keys {
			if comp.keys[c] > 1 && comp.resps[c] > 1 {
				takenSolved++
				break
			}
		}
		want, err := refCeafeReplayNum(tab, phi)
		require.NoError(t, err)
		require.Equal(t, math.Float64bits(want), math.Float64bits(got), "document %d: %v vs %v", i, got, want)
	}
	t.Logf("taken %d (%d with a component that is not a star, %d with tied profiles), left to the replay %d",
		taken, takenSolved, takenTied, left)
	assert.Greater(t, taken, 3000, "documents the shortcut takes")
	assert.Greater(t, takenSolved, 500, "of which with a component that is not a star")
	assert.Greater(t, takenTied, 1000, "of which with tied profiles")
	assert.Greater(t, left, 1000, "documents left to the replay")
}

// TestRefCeafeReplayNeedsTheWholeDocument is why refCeafeReplayNum replays
// the whole matrix: on tied documents, the reference's Munkres on one
// component's rows and columns alone sometimes gives a key chain another
// similarity than the replay on the whole document.
func TestRefCeafeReplayNeedsTheWholeDocument(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 6))
	opt := Options{ReferenceSums: true}
	tied, differ := 0, 0
	for i := range 2000 {
		d := tiedDoc(rng, 4+i%60)
		tab, err := NewTable(&d, 0, &opt, nil)
		require.NoError(t, err)
		phi := func(c Cell) float64 { return 2 * float64(c.N) / float64(tab.KeySize[c.K]+tab.RespSize[c.R]) }
		if _, ties, ok, _ := refCeafeProfiles(tab, phi); ok && len(ties) == 0 {
			continue
		}
		tied++
		whole := referenceAlignment(tab.Cells, len(tab.KeySize), len(tab.RespSize), phi)
		comp := refComponents(tab)
		for c := range comp.keys {
			// The component's chains, renumbered in chain order.
			var cells []Cell
			keyAt, respAt := map[int32]int32{}, map[int32]int32{}
			for _, ci := range comp.cells[comp.start[c]:comp.start[c+1]] {
				cells = append(cells, tab.Cells[ci])
				keyAt[tab.Cells[ci].K], respAt[tab.Cells[ci].R] = 0, 0
			}
			keys, resps := renumber(keyAt), renumber(respAt)
			for j, cell := range cells {
				cells[j].K, cells[j].R = keyAt[cell.K], respAt[cell.R]
			}
			local := referenceAlignment(cells, len(keys), len(resps), func(cell Cell) float64 {
				return phi(Cell{K: keys[cell.K], R: resps[cell.R], N: cell.N})
			})
			if !assert.ObjectsAreEqual(local, subMap(whole, keys)) {
				differ++
				break
			}
		}
	}
	t.Logf("%d of %d tied documents differ", differ, tied)
	assert.Greater(t, tied, 1000)
	assert.Greater(t, differ, 0, "a tied component solved alone that chose as in its document every time")
}

// referenceAlignment is the similarity that the reference's Munkres gives
// each key chain (0 when unaligned) on the matrix refCeafeReplayNum builds.
func referenceAlignment(cells []Cell, nk, nr int, phi func(Cell) float64) []float64 {
	cols := max(nk, nr)
	cost := make([]float64, nk*cols)
	for i := range cost {
		cost[i] = 1
	}
	for _, c := range cells {
		cost[int(c.K)*cols+int(c.R)] = 1 - phi(c)
	}
	rowTo, err := assign.ReferenceMunkres(nk, cols, cost, nil)
	if err != nil {
		panic(err)
	}
	out := make([]float64, nk)
	for _, c := range cells {
		if rowTo[c.K] == int(c.R) {
			out[c.K] = phi(c)
		}
	}
	return out
}

// renumber gives the keys of at their rank in increasing order and returns
// them in that order.
func renumber(at map[int32]int32) []int32 {
	var order []int32
	for k := range at {
		order = append(order, k)
	}
	slices.Sort(order)
	for i, k := range order {
		at[k] = int32(i)
	}
	return order
}

// subMap returns xs at the given indices.
func subMap(xs []float64, at []int32) []float64 {
	out := make([]float64, len(at))
	for i, k := range at {
		out[i] = xs[k]
	}
	return out
}

// TestRefListUniqueAgreesWithRefSolveUnique: the two ways of deciding a
// component (listing its alignments, re-solving with the exact solver)
// tell one profile from more alike, and the same profile when unique, on random
// components with CEAF_e-like similarities 2a/b (ties common); the listing
// declines a component too large for its budget.
func TestRefListUniqueAgreesWithRefSolveUnique(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	decided, unique := 0, 0
	for trial := range 5000 {
		lk, lr := 2+rng.IntN(7), 2+rng.IntN(7)
		var edges []assign.Edge
		for k := range lk {
			for r := range lr {
				if rng.IntN(3) == 0 || r == k%lr {
					b := 2 + rng.IntN(6)
					edges = append(edges, assign.Edge{Left: int32(k), Right: int32(r), Weight: 2 * float64(1+rng.IntN(b/2)) / float64(b)})
				}
			}
		}
		var listed refProfiles
		solved := make([]float64, lk)
		ok := refListProfiles(edges, lk, lr, &listed)
		listUnique := listed.count() == 1
		solveUnique, err := refSolveUnique(edges, lk, lr, solved, nil)
		require.NoError(t, err)
		if !ok {
			continue
		}
		decided++
		require.Equal(t, solveUnique, listUnique, "trial %d: %v", trial, edges)
		if listUnique {
			unique++
			require.Equal(t, solved, listed.values, "trial %d: %v", trial, edges)
		}
	}
	t.Logf("%d of 5000 decided by listing, %d of them unique", decided, unique)
	assert.Greater(t, decided, 4000)
	assert.Greater(t, unique, 500)
	assert.Less(t, unique, decided-500)

	var dense []assign.Edge
	for k := range 30 {
		for r := range 30 {
			dense = append(dense, assign.Edge{Left: int32(k), Right: int32(r), Weight: 0.5})
		}
	}
	ok := refListProfiles(dense, 30, 30, &refProfiles{})
	assert.False(t, ok, "a 30 x 30 complete component within the listing's budget")
}

// TestReferenceTotalsAreTheReferences: under ReferenceTotals, the CEAF_e
// numerators of a batch, added row by row from 0 as the drop-in form adds
// its totals, have the bits of those under ReferenceSums alone (every
// document its reference numerator), and every other count is the same.
// 1,500 seeded batches of 1 to 30 tied documents: some rows must hold
// another candidate than the reference's (the replay spared), and batches
// of one tied document whose candidates differ must be settled by the
// replay (their one row is the total).
func TestReferenceTotalsAreTheReferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 9))
	ncol := NumColumns()
	ceafe := ColumnIndex("ceafe.recall_num")
	otherRows, settledSingles := 0, 0
	for batch := range 1500 {
		docs := make([]Document, 1+rng.IntN(30))
		if batch%3 == 0 {
			docs = docs[:1]
		}
		for i := range docs {
			docs[i] = tiedDoc(rng, 4+rng.IntN(60))
		}
		ref, totals := make([]float64, len(docs)*ncol), make([]float64, len(docs)*ncol)
		_, err := ScoreBatch(docs, Options{ReferenceSums: true}, ref)
		require.NoError(t, err)
		_, err = ScoreBatch(docs, Options{ReferenceSums: true, ReferenceTotals: true}, totals)
		require.NoError(t, err)
		var refSum, totalsSum [2]float64
		for i := range docs {
			for k, c := range []int{ceafe, ceafe + 2} {
				refSum[k] += ref[i*ncol+c]
				totalsSum[k] += totals[i*ncol+c]
			}
			if ref[i*ncol+ceafe] != totals[i*ncol+ceafe] {
				otherRows++
			}
			for c := range ncol {
				if c != ceafe && c != ceafe+2 {
					require.Equal(t, math.Float64bits(ref[i*ncol+c]), math.Float64bits(totals[i*ncol+c]), "batch %d document %d column %d", batch, i, c)
				}
			}
		}
		require.Equal(t, math.Float64bits(refSum[0]), math.Float64bits(totalsSum[0]), "batch %d", batch)
		require.Equal(t, math.Float64bits(refSum[1]), math.Float64bits(totalsSum[1]), "batch %d", batch)
		if len(docs) == 1 {
			tab, err := NewTable(&docs[0], 0, &Options{ReferenceSums: true}, nil)
			require.NoError(t, err)
			aligned, ties, ok, err := refCeafeProfiles(tab, tab.phi4)
			require.NoError(t, err)
			if ok {
				if low, high, ok := refTiedSums(aligned, ties, false); ok && low != high {
					settledSingles++
				}
			}
		}
	}
	t.Logf("%d rows held another candidate; %d one-document batches settled by the replay", otherRows, settledSingles)
	assert.Greater(t, otherRows, 100)
	assert.Greater(t, settledSingles, 20)
}

// TestReferenceTotalsCancelled: a stop reported while the totals are
// settled (the replay of a one-document batch whose candidates differ)
// comes back as a cancellation of that document.
func TestReferenceTotalsCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 10))
	for range 2000 {
		d := tiedDoc(rng, 40+rng.IntN(40))
		tab, err := NewTable(&d, 0, &Options{ReferenceSums: true}, nil)
		require.NoError(t, err)
		aligned, ties, ok, err := refCeafeProfiles(tab, tab.phi4)
		require.NoError(t, err)
		if !ok {
			continue
		}
		if low, high, ok := refTiedSums(aligned, ties, false); !ok || low == high {
			continue
		}
		// The polls of a run that is not stopped; the last is the settling
		// replay's (the settling comes last), where the stopped run stops.
		calls, polls := 0, 0
		opt := Options{ReferenceSums: true, ReferenceTotals: true, Metrics: 1 << uint(ceafeIndex),
			Stop: func() bool { polls++; return false }}
		counts := make([]float64, NumColumns())
		_, err = ScoreBatch([]Document{d}, opt, counts)
		require.NoError(t, err)
		opt.Stop = func() bool { calls++; return calls == polls }
		_, err = ScoreBatch([]Document{d}, opt, counts)
		var de *DocError
		require.ErrorAs(t, err, &de)
		assert.Equal(t, KindCancelled, AsError(err).Kind)
		return
	}
	t.Fatal("no tied document whose candidates differ")
}

// TestRefTiedSumsAgainstEveryCombination: the least and greatest sums of
// refTiedSums (its odometer adds again only from the first key chain a turn
// changed) are those of every combination of the ties' profiles added one
// by one from 0, on random key chains and ties (similarities 2a/b, so that
// sums both meet and differ); stopped at the first that differs, it finds
// them different exactly then.
func TestRefTiedSumsAgainstEveryCombination(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 11))
	phi := func() float64 {
		if rng.IntN(4) == 0 {
			return 0
		}
		b := 2 + rng.IntN(12)
		return 2 * float64(1+rng.IntN(b/2)) / float64(b)
	}
	differ := 0
	for trial := range 3000 {
		n := 2 + rng.IntN(60)
		aligned := make([]float64, n)
		for k := range aligned {
			aligned[k] = phi()
		}
		var ties []refTie
		combinations := 1
		for _, k := range rng.Perm(n)[:rng.IntN(min(n, 12))] {
			if len(ties) > 0 && rng.IntN(2) == 0 && len(ties[len(ties)-1].keys) < 4 {
				ties[len(ties)-1].keys = append(ties[len(ties)-1].keys, int32(k))
				continue
			}
			ties = append(ties, refTie{keys: []int32{int32(k)}})
		}
		for c := range ties {
			slices.Sort(ties[c].keys)
			count := 2 + rng.IntN(3)
			if combinations*count > refMaxCombinations {
				count = 1
			}
			combinations *= count
			for range count * len(ties[c].keys) {
				ties[c].profiles = append(ties[c].profiles, phi())
			}
		}
		// Every combination, added key chain by key chain.
		low, high := math.Inf(1), math.Inf(-1)
		pick := make([]int, len(ties))
		xs := slices.Clone(aligned)
		for range combinations {
			for c, tie := range ties {
				for i, k := range tie.keys {
					xs[k] = tie.profiles[pick[c]*len(tie.keys)+i]
				}
			}
			var sum float64
			for _, x := range xs {
				if x != 0 {
					sum += 1 - (1 - x)
				}
			}
			low, high = min(low, sum), max(high, sum)
			for c := range pick {
				if pick[c]++; pick[c] < ties[c].count() {
					break
				}
				pick[c] = 0
			}
		}
		firstLow, firstHigh, ok := refTiedSums(slices.Clone(aligned), cloneTies(ties), true)
		require.True(t, ok, "trial %d", trial)
		require.Equal(t, low == high, firstLow == firstHigh, "trial %d", trial)
		gotLow, gotHigh, ok := refTiedSums(aligned, ties, false)
		require.True(t, ok, "trial %d", trial)
		require.Equal(t, math.Float64bits(low), math.Float64bits(gotLow), "trial %d", trial)
		require.Equal(t, math.Float64bits(high), math.Float64bits(gotHigh), "trial %d", trial)
		if low != high {
			differ++
		}
	}
	t.Logf("%d of 3000 with sums that differ", differ)
	assert.Greater(t, differ, 300)
	assert.Greater(t, 3000-differ, 150, "trials whose sums all meet")
}

// cloneTies copies ties deeply (refTiedSums rewrites their profiles).
func cloneTies(ties []refTie) []refTie {
	out := make([]refTie, len(ties))
	for c, tie := range ties {
		out[c] = refTie{keys: slices.Clone(tie.keys), profiles: slices.Clone(tie.profiles)}
	}
	return out
}
