package gocore

import (
	"runtime"
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
// mentions are appended to dups.
func ScoreDocument(d *Document, doc int, opt *Options, row []float64, dups *[]Duplicate) error {
	if len(row) != NumColumns() {
		return invalidf("counts row has %d columns, want %d", len(row), NumColumns())
	}
	t, err := NewTable(d, doc, opt, dups)
	if err != nil {
		return err
	}
	for i, m := range registry {
		if !opt.Metrics.Has(i) {
			continue
		}
		if err := m.compute(t, opt, row[columnStart[i]:columnStart[i+1]]); err != nil {
			return errors.Wrapf(err, "metric %s", m.name)
		}
	}
	return nil
}

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
// included. Cost per document: O(n) to build its table for n mentions, then
// each selected metric's own cost (linear in the table, except the CEAF
// alignment: see assign.MaxWeight).
func ScoreBatch(docs []Document, opt Options, counts []float64) ([]Duplicate, error) {
	ncol := NumColumns()
	if len(counts) != len(docs)*ncol {
		return nil, invalidf("counts matrix has %d cells, want %d documents x %d columns", len(counts), len(docs), ncol)
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
	if workers <= 1 {
		return scoreSequential(docs, &opt, counts)
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
			errs[i] = scoreRecovering(&docs[i], i, &opt, counts[i*ncol:(i+1)*ncol], &dups[i])
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
func scoreSequential(docs []Document, opt *Options, counts []float64) ([]Duplicate, error) {
	ncol := NumColumns()
	var all []Duplicate
	for i := range docs {
		if err := scoreRecovering(&docs[i], i, opt, counts[i*ncol:(i+1)*ncol], &all); err != nil {
			return nil, &DocError{Doc: i, Name: docs[i].Name, Err: err}
		}
	}
	return all, nil
}

// scoreRecovering scores one document and turns a panic into an error, so a
// bug never takes the caller's process down.
func scoreRecovering(d *Document, doc int, opt *Options, row []float64, dups *[]Duplicate) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.Errorf("gocore: internal error: %v", r)
		}
	}()
	return ScoreDocument(d, doc, opt, row, dups)
}
