package gocore

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

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
// mentions are appended to dups. The selected metrics run concurrently on up
// to opt.Workers goroutines (below 1: runtime.GOMAXPROCS(0)) once the
// contingency table is built; the counts do not depend on the number.
func ScoreDocument(d *Document, doc int, opt *Options, row []float64, dups *[]Duplicate) error {
	return scoreDocument(d, doc, opt, row, dups, workersOf(opt))
}

// workersOf returns opt.Workers, or runtime.GOMAXPROCS(0) when below 1.
func workersOf(opt *Options) int {
	if opt.Workers < 1 {
		return runtime.GOMAXPROCS(0)
	}
	return opt.Workers
}

// heavyFirst lists the registry positions in the order a document's metrics
// are handed to its goroutines: the alignments (CEAF_e, CEAF_m, LCEAF_e,
// LCEAF_m, DA's correspondence), which cost the most on large documents,
// first, then the linear ones in registry order.
var heavyFirst = func() []int {
	heavy := []string{"ceafe", "ceafm", "lceafe", "lceafm", "da"}
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

// scoreDocument is ScoreDocument with workers goroutines for the metrics
// (the caller's included). Each metric writes only its own columns of row
// and reads the table (whose shared caches are locked), so the metrics of
// one document are independent: running them concurrently gives the same
// counts bit for bit. The error reported is that of the first failing
// metric in registry order, as when they run one after the other.
func scoreDocument(d *Document, doc int, opt *Options, row []float64, dups *[]Duplicate, workers int) error {
	if len(row) != NumColumns() {
		return invalidf("counts row has %d columns, want %d", len(row), NumColumns())
	}
	t, err := NewTable(d, doc, opt, dups)
	if err != nil {
		return err
	}
	var selected []int
	for _, i := range heavyFirst {
		if opt.Metrics.Has(i) {
			selected = append(selected, i)
		}
	}
	errs := make([]error, len(registry))
	run := func(i int) {
		m := registry[i]
		if err := m.compute(t, opt, row[columnStart[i]:columnStart[i+1]]); err != nil {
			errs[i] = errors.Wrapf(err, "metric %s", m.name)
		}
	}
	// Small documents are not worth a goroutine: the metrics are linear in
	// the table and the alignments of a few hundred cells take microseconds.
	if workers = min(workers, len(selected)); workers <= 1 || len(t.Cells) < parallelMinCells {
		for _, i := range selected {
			run(i)
		}
	} else {
		var next atomic.Int64
		var panicked atomic.Value
		work := func() {
			defer func() {
				if r := recover(); r != nil {
					panicked.Store(fmt.Sprint(r))
				}
			}()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(selected) {
					return
				}
				run(selected[k])
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
		if r := panicked.Load(); r != nil {
			return errors.Errorf("gocore: internal error: %v", r)
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// parallelMinCells is the number of contingency-table cells from which the
// metrics of one document run concurrently.
const parallelMinCells = 4096

// firstUntyped describes the first mention without a type, for errors.
func (t *Table) firstUntyped(d *Document) string {
	if t.Types == nil {
		return "no mention types were given"
	}
	for m, ty := range t.Types {
		if ty == TypeUnknown {
			side := "response"
			if m < t.NumKey {
				side = "key"
			}
			return side + " mention " + strconv.FormatInt(t.IDs[m], 10) + " has none"
		}
	}
	return "all mentions typed"
}

// ScoreBatch scores docs in parallel into counts, a row-major matrix of
// len(docs) rows and NumColumns() columns that the caller allocates. Rows of
// documents are independent, so the result is identical for any number of
// workers. It returns the repeated mentions found, in document order. The
// error, if any, is a *DocError for the lowest-numbered failing document
// (wrapping ErrInvalidInput, ErrDuplicateMention or ErrMissingTypes), or an
// ErrInvalidInput error when counts has the wrong length.
//
// Documents are scored on min(Workers, len(docs)) goroutines, the caller's
// included; when there are fewer documents than workers, each document's
// metrics share Workers / len(docs) goroutines (see ScoreDocument). Cost per document: O(n) to build its table for n mentions, then
// each selected metric's own cost (linear in the table, except the CEAF
// alignment: see assign.MaxWeight).
func ScoreBatch(docs []Document, opt Options, counts []float64) ([]Duplicate, error) {
	ncol := NumColumns()
	if len(counts) != len(docs)*ncol {
		return nil, invalidf("counts matrix has %d cells, want %d documents x %d columns", len(counts), len(docs), ncol)
	}
	opt = withDefaults(opt)
	workers := workersOf(&opt)
	if workers > len(docs) {
		workers = len(docs)
	}
	clear(counts)
	// Workers left over when there are fewer documents than workers go to
	// the metrics inside each document (a single large document uses them
	// all).
	inner := max(1, workersOf(&opt)/max(1, len(docs)))
	if workers <= 1 {
		return scoreSequential(docs, &opt, counts, inner)
	}
	errs := make([]error, len(docs))
	dups := make([][]Duplicate, len(docs))
	// Workers take the next unscored document from a shared counter; each
	// writes only its documents' rows, errors and duplicate lists.
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(docs) {
				return
			}
			errs[i] = scoreRecovering(&docs[i], i, &opt, counts[i*ncol:(i+1)*ncol], &dups[i], inner)
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
	var all []Duplicate
	for i, err := range errs {
		if err != nil {
			return nil, &DocError{Doc: i, Name: docs[i].Name, Err: err}
		}
		all = append(all, dups[i]...)
	}
	return all, nil
}

// scoreSequential is ScoreBatch on the calling goroutine alone (one worker,
// or a single document): no goroutine, no per-document error and duplicate
// slices. Documents are scored in order and the first failure stops the
// batch, which is the lowest-numbered one, as in the parallel path.
func scoreSequential(docs []Document, opt *Options, counts []float64, inner int) ([]Duplicate, error) {
	ncol := NumColumns()
	var all []Duplicate
	for i := range docs {
		if err := scoreRecovering(&docs[i], i, opt, counts[i*ncol:(i+1)*ncol], &all, inner); err != nil {
			return nil, &DocError{Doc: i, Name: docs[i].Name, Err: err}
		}
	}
	return all, nil
}

// scoreRecovering scores one document and turns a panic into an error, so a
// bug never takes the caller's process down.
func scoreRecovering(d *Document, doc int, opt *Options, row []float64, dups *[]Duplicate, inner int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.Errorf("gocore: internal error: %v", r)
		}
	}()
	return scoreDocument(d, doc, opt, row, dups, inner)
}
