package gocore

import (
	"runtime"
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

// ScoreDocument writes the counts of one document into row (NumColumns()
// long). doc is the document's index, used in duplicate reports; repeated
// mentions are appended to dups. A typed metric that the document's types do
// not allow under opt (see Score) is left at zero.
func ScoreDocument(d *Document, doc int, opt *Options, row []float64, dups *[]Duplicate) error {
	if len(row) != NumColumns() {
		return invalidf("counts row has %d columns, want %d", len(row), NumColumns())
	}
	o := withDefaults(*opt)
	r := scoreDoc(d, doc, &o, row)
	*dups = append(*dups, r.dups...)
	return r.err
}

// docResult is what scoring one document produced besides its row.
type docResult struct {
	dups    []Duplicate // the first opt.MaxDuplicates repeated mentions
	nDups   int64       // all of them
	skipped MetricSet   // typed metrics left out: some mention is untyped
	typed   bool        // some mention has a type
	err     error
}

// scoreDoc scores one document into row, turning a panic into an error so
// that a bug never takes the caller's process down.
func scoreDoc(d *Document, doc int, opt *Options, row []float64) (r docResult) {
	defer func() {
		if p := recover(); p != nil {
			r.err = newError(KindInternal, "internal error: %v", p)
		}
	}()
	if opt.Stop != nil && opt.Stop() {
		r.err = newError(KindCancelled, "cancelled")
		return r
	}
	t, err := newTable(d, doc, opt, &r.dups, &r.nDups)
	if err != nil {
		r.err = err
		return r
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
	for i, m := range registry {
		if !opt.Metrics.Has(i) {
			continue
		}
		if opt.Stop != nil && opt.Stop() {
			r.err = newError(KindCancelled, "cancelled")
			return r
		}
		out := row[columnStart[i]:columnStart[i+1]]
		err := m.compute(t, opt, out)
		switch {
		case err == nil:
		case err == errSkipped:
			r.skipped |= 1 << uint(i)
			clear(out)
		default:
			r.err = t.locate(d, err, m.name)
			return r
		}
	}
	return r
}

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
	opt = withDefaults(opt)
	workers := opt.Workers
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > len(docs) {
		workers = len(docs)
	}
	clear(counts)
	results := make([]docResult, len(docs))
	if workers <= 1 {
		for i := range docs {
			results[i] = scoreDoc(&docs[i], i, &opt, counts[i*ncol:(i+1)*ncol])
			if results[i].err != nil {
				break
			}
		}
	} else {
		// Workers take the next unscored document from a shared counter;
		// each writes only its documents' rows and results. A failure stops
		// the others from taking new documents.
		var next atomic.Int64
		var failed atomic.Bool
		work := func() {
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(docs) {
					return
				}
				results[i] = scoreDoc(&docs[i], i, &opt, counts[i*ncol:(i+1)*ncol])
				if results[i].err != nil {
					failed.Store(true)
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
		work() // the calling goroutine is one of the workers
		wg.Wait()
	}
	return gather(docs, &opt, counts, results)
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
			if m.readsTypes && skipped&(1<<uint(i)) != 0 {
				names = append(names, m.name)
			}
		}
		if typed && names != nil {
			rep.Warnings = append(rep.Warnings, Warning{Kind: WarnTypesSkipped, Side: -1, Doc: firstSkipped, Count: 1,
				Msg: "metrics " + strings.Join(names, ", ") + " were left out: some mentions have a type and some do not; " +
					"give every mention a type, or say that types are given to make this an error"})
		}
	}
	return rep, nil
}
