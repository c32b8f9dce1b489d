package gocore

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/corefscore/corefscore/gocore/assign"
	"github.com/pkg/errors"
)

// Default weights of the linguistically aware metrics and of DA.
var (
	// DefaultLinkWeights is W4 of Chen & Ng (2013): (w_nam, w_nom, w_pro, w_sing).
	DefaultLinkWeights = [4]float64{1.0, 0.75, 0.5, 1.0}
	// DefaultDAWeights is (a, b, c) of Trouilleux et al. (2000).
	DefaultDAWeights = [3]float64{0.6, 0.3, 0.1}
)

// withDefaults returns opt with zero-valued weights replaced by defaults.
func withDefaults(opt Options) Options {
	if opt.LinkWeights == [4]float64{} {
		opt.LinkWeights = DefaultLinkWeights
	}
	if opt.DAWeights == [3]float64{} {
		opt.DAWeights = DefaultDAWeights
	}
	return opt
}

// workersOf returns opt.Workers, or runtime.GOMAXPROCS(0) when below 1.
func workersOf(opt *Options) int {
	if opt.Workers < 1 {
		return runtime.GOMAXPROCS(0)
	}
	return opt.Workers
}

// ScoreDocument writes the counts of one document into row (NumColumns()
// long). doc is the document's index, used in duplicate reports; repeated
// mentions are appended to dups (when not nil). A typed metric that the
// document's types do not allow under opt (see Score) is left at zero. The
// metrics run on up to opt.Workers goroutines (below 1: one per CPU).
func ScoreDocument(d *Document, doc int, opt *Options, row []float64, dups *[]Duplicate) error {
	if len(row) != NumColumns() {
		return invalidf("counts row has %d columns, want %d", len(row), NumColumns())
	}
	o := withDefaults(*opt)
	o.ReferenceTotals = false // one row: its own total
	r := scoreDoc(d, doc, &o, row, workersOf(&o))
	if dups != nil {
		*dups = append(*dups, r.dups...)
	}
	return r.err
}

// docResult is what scoring one document produced besides its row.
type docResult struct {
	dups    []Duplicate // the first opt.MaxDuplicates repeated mentions
	nDups   int64       // all of them
	skipped MetricSet   // typed metrics left out: some mention is untyped
	typed   bool        // some mention has a type
	// ceafeTied: under Options.ReferenceTotals, the document's CEAF_e
	// candidates differ; its row holds the least, ceafeHigh the greatest.
	ceafeTied bool
	ceafeHigh float64
	err       error
}

// scoreDoc scores one document into row, turning a panic into an error so
// that a bug never takes the caller's process down. Its metrics run on up to
// inner goroutines once the contingency table is built: each writes only its
// own columns and reads the table (whose shared caches are locked), so the
// counts are the same bit for bit for any number. A small document (at most
// docScratchMentions mentions) is scored in a docScratch from docPool.
func scoreDoc(d *Document, doc int, opt *Options, row []float64, inner int) (r docResult) {
	defer func() {
		if p := recover(); p != nil {
			r.err = newError(KindInternal, "internal error: %v", p)
		}
	}()
	if opt.Stop != nil && opt.Stop() {
		r.err = newError(KindCancelled, "cancelled")
		return r
	}
	// The metrics get a copy of the options and write to a result that
	// live in the scratch (or on the heap), so that neither the caller's
	// options nor r need to.
	if len(d.Key.Mentions)+len(d.Response.Mentions) > docScratchMentions {
		o, res := new(Options), new(docResult)
		*o = *opt
		scoreDocOn(d, doc, o, row, inner, nil, res)
		return *res
	}
	sc := docPool.Get().(*docScratch)
	sc.opt = *opt
	scoreDocOn(d, doc, &sc.opt, row, inner, sc, &sc.r)
	r = sc.r
	sc.release() // not reached on a panic: that scratch is left to the collector
	return r
}

// docScratchMentions is the largest document (both sides, repeats
// included) that scoreDoc scores in a docScratch from docPool; at most
// slabMentions. A variable so that tests can turn the pool off.
var docScratchMentions = slabMentions

// scoreDocOn is scoreDoc on the memory of sc (nil: allocated), into r.
func scoreDocOn(d *Document, doc int, opt *Options, row []float64, inner int, sc *docScratch, r *docResult) {
	t, err := newTable(d, doc, opt, &r.dups, &r.nDups, inner, sc)
	if err != nil {
		r.err = err
		return
	}
	t.stop = opt.Stop
	r.typed = t.HasTypes && t.NumMentions() > 0
	if t.Types != nil && !t.HasTypes {
		for _, ty := range t.Types {
			if ty != TypeUnknown {
				r.typed = true
				break
			}
		}
	}
	var selected []int
	var errs []error
	if sc != nil {
		selected, errs = sc.selected[:0], sc.errs[:len(registry)]
	} else {
		selected, errs = make([]int, 0, len(registry)), make([]error, len(registry))
	}
	for _, i := range heavyFirst {
		if opt.Metrics.Has(i) {
			selected = append(selected, i)
		}
	}
	// Small documents are not worth a goroutine: the metrics are linear in the
	// table and the alignments of a few thousand cells take microseconds.
	if len(t.Cells) < parallelMinCells || inner <= 1 {
		for _, i := range selected {
			if runMetric(t, opt, row, errs, i) {
				break
			}
		}
	} else {
		parallelFor(len(selected), inner, func(k int) bool { return runMetric(t, opt, row, errs, selected[k]) })
	}
	if t.keyManyToOne && opt.lookupView == keyLookups {
		fromKeyLookupsMany(d, doc, opt, row, errs) // CEAF_e too, with exact sums: no candidates
	} else {
		r.ceafeTied, r.ceafeHigh = t.refTied, t.refHigh
	}
	if t.lookupsDiffer && opt.lookupView == keyLookups {
		precisionFromResponseLookups(d, doc, opt, row, errs)
	}
	if t.zeroDiffers && opt.lookupView == keyLookups {
		zeroFromZeroLookups(d, doc, opt, row, errs)
	}
	// Outcomes in registry order: the error reported is the first failing
	// metric's, whatever the order the metrics ran in.
	for i, err := range errs {
		switch {
		case err == nil:
		case err == errSkipped:
			r.skipped |= 1 << uint(i)
			clear(row[columnStart[i]:columnStart[i+1]])
		default:
			r.err = t.locate(d, err, registry[i].name)
			return
		}
	}
}

// responseLookupMetrics are the metrics whose precision the CorefUD scorer
// computes by looking response mentions up among the key's (MUC, B-cubed,
// LEA); CEAF and BLANC look key mentions up only.
var responseLookupMetrics = []string{"muc", "bcub", "lea"}

// precisionFromResponseLookups scores d again with the mentions paired as
// the CorefUD scorer's response lookups pair them (Options.lookupView)
// and takes the precision counts of responseLookupMetrics from there: the
// scorer's two lookups differ on this document (Table.lookupsDiffer).
func precisionFromResponseLookups(d *Document, doc int, opt *Options, row []float64, errs []error) {
	view := *opt
	view.lookupView = responseLookups
	var dups []Duplicate
	var n int64
	t, err := newTable(d, doc, &view, &dups, &n, 1, nil) // fails only when stopped
	if err == nil {
		t.stop = opt.Stop
		if t.cellsFromLookups { // no pairing of mentions: no reference order of terms
			view.ReferenceSums = false
		}
	}
	for _, name := range responseLookupMetrics {
		i := metricIndex(name)
		if !opt.Metrics.Has(i) || errs[i] != nil {
			continue
		}
		if err != nil {
			errs[i] = err
			continue
		}
		var out [4]float64
		if err := registry[i].compute(t, &view, out[:]); err != nil {
			errs[i] = err
			continue
		}
		copy(row[columnStart[i]+2:columnStart[i]+4], out[2:4])
	}
}

// keyLookupMetrics are the metrics that the CorefUD scorer computes by
// looking key mentions up among the response's: the recall of MUC, B-cubed
// and LEA (recallOnly), and CEAF and BLANC entirely.
var keyLookupMetrics = []struct {
	name       string
	recallOnly bool
}{{"muc", true}, {"bcub", true}, {"lea", true}, {"ceafm", false}, {"ceafe", false}, {"blanc", false}}

// fromKeyLookupsMany scores d again with the cells of the CorefUD scorer's
// key lookups, which send two key mentions to one response mention
// (Table.keyManyToOne), and takes keyLookupMetrics' counts from there. The
// sums are exact ones: the reference scorer's order of terms has no
// meaning for counts no pairing of mentions gives.
func fromKeyLookupsMany(d *Document, doc int, opt *Options, row []float64, errs []error) {
	view := *opt
	view.lookupView = keyLookupsMany
	view.ReferenceSums = false
	var dups []Duplicate
	var n int64
	t, err := newTable(d, doc, &view, &dups, &n, 1, nil) // fails only when stopped
	if err == nil {
		t.stop = opt.Stop
	}
	for _, m := range keyLookupMetrics {
		i := metricIndex(m.name)
		if !opt.Metrics.Has(i) || errs[i] != nil {
			continue
		}
		if err != nil {
			errs[i] = err
			continue
		}
		cols := row[columnStart[i]:columnStart[i+1]]
		out := make([]float64, len(cols))
		if err := registry[i].compute(t, &view, out); err != nil {
			errs[i] = err
			continue
		}
		if m.recallOnly {
			copy(cols[:2], out[:2])
		} else {
			copy(cols, out)
		}
	}
}

// zeroFromZeroLookups scores the zero metric of d again with the mentions
// paired as the CorefUD scorer's zero score pairs them: a key zero first by
// position, then through the alignment (Table.zeroDiffers).
func zeroFromZeroLookups(d *Document, doc int, opt *Options, row []float64, errs []error) {
	i := metricIndex("zero")
	if !opt.Metrics.Has(i) || errs[i] != nil {
		return
	}
	view := *opt
	view.lookupView = zeroLookups
	var dups []Duplicate
	var n int64
	t, err := newTable(d, doc, &view, &dups, &n, 1, nil) // fails only when stopped
	if err != nil {
		errs[i] = err
		return
	}
	t.stop = opt.Stop
	errs[i] = registry[i].compute(t, &view, row[columnStart[i]:columnStart[i+1]])
}

// runMetric computes metric i of t into its columns of row and its outcome
// into errs[i]; it returns true when the metric failed (other than by being
// skipped), which stops the document's other metrics.
func runMetric(t *Table, opt *Options, row []float64, errs []error, i int) bool {
	if opt.Stop != nil && opt.Stop() {
		errs[i] = newError(KindCancelled, "cancelled")
	} else {
		errs[i] = registry[i].compute(t, opt, row[columnStart[i]:columnStart[i+1]])
	}
	return errs[i] != nil && errs[i] != errSkipped
}

// parallelFor calls run(i) for i = 0 .. n-1 on up to workers goroutines, the
// caller's included, each taking the next index from a shared counter. Once a
// call returns true, no new index is taken (those running finish). A panic in
// a worker is re-raised in the caller. With workers <= 1 the calls are made in
// order on the caller's goroutine.
func parallelFor(n, workers int, run func(i int) (stop bool)) {
	if workers = min(workers, n); workers <= 1 {
		for i := 0; i < n; i++ {
			if run(i) {
				return
			}
		}
		return
	}
	var next atomic.Int64
	var stopped atomic.Bool
	var panicked atomic.Value
	work := func() {
		defer func() {
			if p := recover(); p != nil {
				panicked.Store(fmt.Sprint(p))
				stopped.Store(true)
			}
		}()
		for !stopped.Load() {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			if run(i) {
				stopped.Store(true)
			}
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(p)
	}
}

// parallelMinCells is the number of contingency-table cells from which the
// metrics of one document run concurrently.
const parallelMinCells = 4096

// heavyFirst lists the registry positions in the order a document's metrics
// are handed to its goroutines: longest first, which keeps the goroutines
// busy to the end. DA (its own table, type counts and correspondence) and
// LCEAF_e (which builds the link weights and type counts the other typed
// metrics share) are the longest on a large document, then CEAF_e, CEAF_m
// and LCEAF_m (alignments), then the others in registry order. On the 1M
// synthetic document with every metric, DA first instead of fifth cut the
// wall time on 2 cores from 0.77-0.84 s to 0.55-0.66 s.
var heavyFirst = func() []int {
	heavy := []string{"da", "lceafe", "ceafe", "ceafm", "lceafm"}
	order := make([]int, 0, len(registry))
	for _, name := range heavy {
		order = append(order, metricIndex(name))
	}
	for i, m := range registry {
		if !slices.Contains(heavy, m.name) {
			order = append(order, i)
		}
	}
	return order
}()

// errSkipped is returned by a typed metric that leaves a document out (its
// types do not allow it and it was not asked for: see Score).
var errSkipped = errors.New("gocore: metric skipped")

// locate turns a metric's error into an *Error whose Mention, when it names
// one, is the mention's position in its side of d (a metric knows only the
// table's numbering) and whose message names the metric.
func (t *Table) locate(d *Document, err error, metric string) error {
	e, ok := err.(*Error)
	if !ok {
		if errors.Is(err, assign.ErrStopped) {
			return newError(KindCancelled, "cancelled")
		}
		return errors.Wrapf(err, "metric %s", metric)
	}
	if e.tableMention >= 0 && e.tableMention < len(t.IDs) {
		m := e.tableMention
		side, ids := KeySide, d.Key.Mentions
		if m >= t.NumKey {
			side, ids = ResponseSide, d.Response.Mentions
		}
		e.Side, e.Mention = int(side), -1
		for p, id := range ids {
			if id == t.IDs[m] {
				e.Mention = p
				break
			}
		}
		e.tableMention = -1
	}
	e.Msg = metric + ": " + e.Msg
	return e
}

// Report is what Score found besides the counts.
type Report struct {
	// Applied has bit i set when metric i was computed for every document.
	Applied MetricSet
	// Duplicates are the first opt.MaxDuplicates repeated mentions (all when
	// MaxDuplicates is 0), in document order; NumDuplicates counts all.
	Duplicates    []Duplicate
	NumDuplicates int64
	// Warnings about the input that did not stop scoring.
	Warnings []Warning
}

// defaultMetrics is the default set as bits: every metric but those computed on request.
var defaultMetrics = func() MetricSet {
	var s MetricSet
	for i, m := range registry {
		if !m.onRequest {
			s |= 1 << uint(i)
		}
	}
	return s
}()

// typedMetrics is the set of the metrics that read mention types.
var typedMetrics = func() MetricSet {
	var s MetricSet
	for i, m := range registry {
		if m.readsTypes {
			s |= 1 << uint(i)
		}
	}
	return s
}()

// ScoreBatch is Score returning only the repeated mentions.
func ScoreBatch(docs []Document, opt Options, counts []float64) ([]Duplicate, error) {
	r, err := Score(docs, opt, counts)
	if err != nil {
		return nil, err
	}
	return r.Duplicates, nil
}

// Score scores docs in parallel into counts, a row-major matrix of
// len(docs) rows and NumColumns() columns that the caller allocates. Rows of
// documents are independent, so the result is identical for any number of
// workers. The error, if any, is a *DocError for the lowest-numbered failing
// document around an *Error (see AsError), or an *Error of kind
// KindArgument when counts has the wrong length, or of kind KindCancelled
// when opt.Stop reported true (polled between documents, between metrics and
// inside the CEAF and DA alignments).
//
// Metrics that read mention types (lmuc, lbcub, lceafm, lceafe, da) and meet
// a mention their rule needs typed but is not: when such a metric is named
// in opt.Metrics, or opt.TypesGiven is set, the document is refused with
// KindMissingTypes naming the mention; otherwise (the default set, types not
// promised) the metric is left out of the whole batch: its columns are zero
// in every row and its Applied bit is clear, and when some mention of the
// batch did carry a type a WarnTypesSkipped warning says so (its Doc is the
// first document that lacked types).
//
// Documents are scored on min(Workers, len(docs)) goroutines, the caller's
// included. Cost per document: O(n) to build its table for n mentions, then
// each selected metric's own cost (linear in the table, except the CEAF
// alignment: see assign.MaxWeight).
func Score(docs []Document, opt Options, counts []float64) (Report, error) {
	ncol := NumColumns()
	if len(counts) != len(docs)*ncol {
		return Report{}, newError(KindArgument, "counts matrix has %d cells, want %d documents x %d columns", len(counts), len(docs), ncol)
	}
	if opt.UA != (UAOptions{}) {
		return Report{}, newError(KindOption, "the Universal Anaphora modes need UA documents (ScoreUA, or files in format ua)")
	}
	opt = withDefaults(opt)
	workers := min(workersOf(&opt), len(docs))
	// Workers left over when there are fewer documents than workers go to the
	// metrics inside each document (a single large document uses them all).
	inner := max(1, workersOf(&opt)/max(1, len(docs)))
	clear(counts)
	if len(docs) == 1 { // one document: its result stays on the stack
		var one [1]docResult
		one[0] = scoreDoc(&docs[0], 0, &opt, counts, inner)
		return gatherSettled(docs, &opt, counts, one[:])
	}
	results := make([]docResult, len(docs))
	scoreDocs(docs, opt, counts, results, workers, inner)
	return gatherSettled(docs, &opt, counts, results)
}

// gatherSettled is gather, then, under Options.ReferenceTotals, the
// CEAF_e totals made the reference's (refSettleTotals).
func gatherSettled(docs []Document, opt *Options, counts []float64, results []docResult) (Report, error) {
	rep, err := gather(docs, opt, counts, results)
	if err == nil && opt.ReferenceSums && opt.ReferenceTotals && opt.Metrics.Has(ceafeIndex) {
		err = refSettleTotals(docs, opt, counts, results)
	}
	return rep, err
}

// scoreDocs scores docs into the rows of counts and their results on up to
// workers goroutines (inner each), as Score does. Each worker writes only
// its documents' rows and results; a failure stops the others from taking
// new documents. opt is a copy: the workers share it, not Score's.
func scoreDocs(docs []Document, opt Options, counts []float64, results []docResult, workers, inner int) {
	ncol := NumColumns()
	parallelFor(len(docs), workers, func(i int) bool {
		results[i] = scoreDoc(&docs[i], i, &opt, counts[i*ncol:(i+1)*ncol], inner)
		return results[i].err != nil
	})
}

// gather assembles the report of Score from the documents' results: the
// first error, the duplicates in document order, and the typed metrics left
// out of the whole batch.
func gather(docs []Document, opt *Options, counts []float64, results []docResult) (Report, error) {
	var rep Report
	var skipped MetricSet
	firstSkipped, typed := -1, false
	for i := range results {
		r := &results[i]
		if r.err != nil {
			return Report{}, &DocError{Doc: i, Name: docs[i].Name, Err: r.err}
		}
		rep.NumDuplicates += r.nDups
		for _, d := range r.dups {
			if opt.MaxDuplicates != 0 && len(rep.Duplicates) >= max(opt.MaxDuplicates, 0) {
				break
			}
			rep.Duplicates = append(rep.Duplicates, d)
		}
		skipped |= r.skipped
		if r.skipped&typedMetrics != 0 && firstSkipped < 0 {
			firstSkipped = i
		}
		typed = typed || r.typed
	}
	selected := opt.Metrics
	if selected == 0 {
		selected = defaultMetrics
	}
	rep.Applied = selected &^ skipped
	if skipped != 0 {
		ncol := NumColumns()
		for i := range registry {
			if skipped&(1<<uint(i)) == 0 {
				continue
			}
			for d := range docs {
				clear(counts[d*ncol+columnStart[i] : d*ncol+columnStart[i+1]])
			}
		}
		var names []string
		for i, m := range registry {
			if typed && m.readsTypes && skipped&(1<<uint(i)) != 0 {
				names = append(names, m.name)
			}
		}
		if names != nil {
			rep.Warnings = append(rep.Warnings, Warning{Kind: WarnTypesSkipped, Side: -1, Doc: firstSkipped, Count: 1,
				Msg: "metrics " + strings.Join(names, ", ") + " were left out: some mentions have a type and some do not; " +
					"give every mention a type, or say that types are given to make this an error"})
		}
	}
	return rep, nil
}
