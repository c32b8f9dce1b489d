package conll

import (
	"fmt"
	"io/fs"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/corefscore/corefscore/gocore"
	"github.com/pkg/errors"
)

// ReadPair reads a key file and a response file, each parsed once and the
// two concurrently, and pairs their documents; with partial or head matching
// it reads CoNLL-2012 heads from the POS tags and checks that every mention
// has one. It returns both files' documents, the paired documents, the
// response document of each key document (-1: none) and the pairing's
// warnings. A read stops when the caller asks or when the other read failed,
// which then reports its own error. x asks for more than the scoring needs.
// Errors are *gocore.Error: KindNotFound or KindIO for a file that cannot be
// read, KindParse for malformed content (Path, Line, Side). The readers
// only read: scoring the pair is package files' (gocore/files).
func ReadPair(keyPath, respPath string, opt gocore.Options, x PairExtras) (key, resp []Doc, docs []gocore.Document, respOf []int, warnings []gocore.Warning, err error) {
	if opt.Format == FormatUA || isUAFile(keyPath) {
		// Only files.Score reads UA files (the UA scorer); the analyses and
		// the report work on identity chains without split antecedents.
		e := gocore.NewError(gocore.KindOption, "Universal Anaphora files are scored (score, score_files), "+
			"not analysed or read as documents")
		e.Path = keyPath
		return nil, nil, nil, nil, nil, e
	}
	types := x.Types || opt.Metrics.ReadsTypes() || opt.Match != gocore.MatchExact
	var keyFailed, respFailed atomic.Bool
	stopIf := func(other *atomic.Bool) func() bool {
		return func() bool { return other.Load() || (opt.Stop != nil && opt.Stop()) }
	}
	var respErr error
	respEmpty := false // a blank response file: no document, not an error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				respErr = gocore.NewError(gocore.KindInternal, "internal error reading %s: %v", respPath, r)
			}
			if respErr != nil {
				respFailed.Store(true)
			}
		}()
		resp, respErr = readSide(respPath, opt, types, true, stopIf(&keyFailed), x.RespText, nil, x.WordBytes)
		if isEmptyFile(respErr) {
			resp, respErr, respEmpty = nil, nil, true
		}
	}()
	var syntax *[]*gocore.Syntax // the key's, when the analysis reads it
	if x.Syntax || opt.Metrics.ReadsSyntax() {
		syntax = new([]*gocore.Syntax)
	}
	key, err = readSide(keyPath, opt, types, false, stopIf(&respFailed), x.KeyText, syntax, x.WordBytes)
	if err != nil {
		keyFailed.Store(true)
	}
	<-done
	if err != nil && !(errors.Is(err, gocore.ErrCancelled) && respErr != nil && !errors.Is(respErr, gocore.ErrCancelled)) {
		return nil, nil, nil, nil, nil, sideError(err, 0, keyPath)
	}
	if respErr != nil {
		return nil, nil, nil, nil, nil, sideError(respErr, 1, respPath)
	}
	if opt.Stop != nil && opt.Stop() {
		return nil, nil, nil, nil, nil, gocore.NewError(gocore.KindCancelled, "cancelled")
	}
	docs, respOf, warnings, err = pair(key, resp, pairing{spanShapes: opt.Match != gocore.MatchExact, allowDisjoint: opt.AllowDisjoint})
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	if syntax != nil {
		for i, s := range *syntax {
			docs[i].Syntax = s // docs are in key order
		}
	}
	if respEmpty {
		// The reference scores a system that produced nothing: every key
		// document against an empty response, all scores 0. One warning
		// says so rather than pair's summary of missing documents.
		warnings = []gocore.Warning{{Kind: gocore.WarnOther, Side: 1, Doc: -1, Count: 1,
			Msg: fmt.Sprintf("the response file is empty: every key document (%d) is scored against an empty response, all scores 0, as the reference scorer does", len(key))}}
	}
	if opt.Match != gocore.MatchExact {
		if err := checkHeads(key, resp, respOf, opt); err != nil {
			return nil, nil, nil, nil, nil, err
		}
	}
	collectAfterReading(docs, opt.Stop)
	return key, resp, docs, respOf, warnings, nil
}

// collectThreshold is the number of mentions (both sides) from which a read
// ends with a collection (collectAfterReading).
const collectThreshold = 1 << 20

// collectAfterReading runs a garbage collection when the documents just
// read hold at least collectThreshold mentions. The collector sets its next
// goal at twice the heap it last found live, and the last collection of a
// large read ran while both readers' working arrays were still live; the
// engine's tables then grew the heap to twice that. Collected here, after
// the readers' arrays became garbage, the goal follows what scoring keeps
// (the 1M-mention document: about 0.1 s of CPU, tens of MB less peak).
//
// The caller waits for the collection only while stop (nil: never true),
// polled every stopPoll, says to go on: a full collection of a large heap
// takes up to a second on a loaded machine, and a cancelled call returns at
// once while the collection ends on its own.
func collectAfterReading(docs []gocore.Document, stop func() bool) {
	n := 0
	for i := range docs {
		n += len(docs[i].Key.Mentions) + len(docs[i].Response.Mentions)
		if n >= collectThreshold {
			break
		}
	}
	if n < collectThreshold {
		return
	}
	if stop == nil {
		runtime.GC()
		return
	}
	done := make(chan struct{})
	go func() {
		runtime.GC()
		close(done)
	}()
	tick := time.NewTicker(stopPoll)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			if stop() {
				return
			}
		}
	}
}

// PairExtras are what a read of a pair of files may do beyond what scoring
// needs: read mention types whatever the metrics (Types), and keep the words
// of the key's or the response's documents (KeyText, RespText, when not nil;
// see Documents). WordBytes > 0 keeps only each file's first words, at
// most WordBytes bytes of them (a report's page can show no more); 0 keeps
// them all.
type PairExtras struct {
	Types             bool
	KeyText, RespText *[]Text
	// Syntax reads the key's words, tags and parse into each paired
	// document's Syntax (CoNLL-2012 keys that have them), for the
	// Kummerfeld-Klein analysis; scoring with metric "kk" asks for it too.
	Syntax bool
	// WordBytes > 0 keeps only the first words of the texts (see textsOf).
	WordBytes int
}

// readSide reads one side's file.
func readSide(path string, opt gocore.Options, types, response bool, stop func() bool, text *[]Text, syntax *[]*gocore.Syntax, wordBytes int) ([]Doc, error) {
	o := readOpts{format: opt.Format, types: types, response: response, stop: stop, text: text, syntax: syntax, wordBytes: wordBytes}
	if response {
		o.clustersField = opt.ClustersField
	}
	return readWith(path, o)
}

// SideError is sideError for the packages above the readers (gocore/files).
func SideError(err error, side int, path string) error { return sideError(err, side, path) }

// sideError turns a reading error into a *gocore.Error of the right kind for
// one side.
func sideError(err error, side int, path string) error {
	var pe *ParseError
	var ge *gocore.Error
	var e *gocore.Error
	switch {
	case errors.As(err, &pe):
		e = gocore.NewError(gocore.KindParse, "%s", pe.Msg)
		e.Path, e.Line, e.Name = pe.Path, pe.Line, pe.Doc
	case errors.As(err, &ge):
		c := *ge
		e = &c
	case errors.Is(err, gocore.ErrCancelled):
		return gocore.NewError(gocore.KindCancelled, "cancelled")
	case errors.Is(err, fs.ErrNotExist):
		e = gocore.NewError(gocore.KindNotFound, "no such file")
		e.Path = path
	default:
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			e = gocore.NewError(gocore.KindIO, "%v", pathErr.Err)
		} else if errors.Is(err, gocore.ErrInvalidInput) {
			e = gocore.NewError(gocore.KindParse, "%s", err.Error())
		} else {
			e = gocore.NewError(gocore.KindIO, "%s", err.Error())
		}
		e.Path = path
	}
	e.Side = side
	if e.Path == "" {
		e.Path = path
	}
	return e
}
