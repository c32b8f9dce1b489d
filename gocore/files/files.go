// Package files composes reading and scoring: it reads a key file and a
// response file with the readers of package conll, pairs their documents,
// and scores or analyses them with the engine (gocore), locating what the
// engine reports in the files. The readers only read; this package is the
// one place where a pair of files is scored.
package files

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
)

// FileDuplicate is a repeated mention found in a file: the engine's record
// and where the repeat lies in the file.
type FileDuplicate struct {
	gocore.Duplicate
	Line       int   // 1-based line where this occurrence closes
	Start, End int64 // its first and last token (the document's numbering)
}

// FileResult is what scoring a key file against a response file produced.
type FileResult struct {
	Names  []string  // the key's document names, in key order
	Counts []float64 // len(Names) rows of gocore.NumColumns() columns
	// Applied, NumDuplicates and Warnings are as in gocore.Report; the
	// warnings of pairing the documents come first.
	Applied       gocore.MetricSet
	Duplicates    []FileDuplicate
	NumDuplicates int64
	Warnings      []gocore.Warning
}

// ScoreFiles reads a key file and a response file (format as for conll.Read; ""
// guesses each file's format on its own), pairs their documents (conll.Pair) and
// scores them with gocore.ScoreBatch. It returns the key's document names,
// the counts matrix (len(names) rows of gocore.NumColumns() columns), the
// repeated mentions the engine found (Doc indexes names), and the warnings
// of Pair. The two files are parsed concurrently.
func ScoreFiles(keyPath, respPath, format string, opt gocore.Options) (names []string, counts []float64, dups []gocore.Duplicate, warnings []string, err error) {
	opt.Format = format
	res, err := Score(keyPath, respPath, opt)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for _, d := range res.Duplicates {
		dups = append(dups, d.Duplicate)
	}
	for _, w := range res.Warnings {
		warnings = append(warnings, w.Msg)
	}
	return res.Names, res.Counts, dups, warnings, nil
}

// Score reads a key file and a response file, each parsed once and the two
// concurrently (opt.Format, "" to guess each file's format; opt.ClustersField
// for jsonlines responses), pairs their documents (conll.Pair) and scores them with
// gocore.Score. Errors are *gocore.Error: KindNotFound or KindIO for a file
// that cannot be read, KindParse for malformed content (Path, Line, Side),
// and the engine's kinds with Doc indexing the key's documents.
func Score(keyPath, respPath string, opt gocore.Options) (*FileResult, error) {
	if opt.Format == conll.FormatUA || (opt.Format == "" && conll.IsUAFile(keyPath)) {
		return scoreUA(keyPath, respPath, opt)
	}
	if uaRequested(&opt) {
		e := gocore.NewError(gocore.KindOption, "the Universal Anaphora modes (split_antecedents, non_referring, "+
			"bridging, discourse_deixis, min_span) need CoNLL-UA files (format ua)")
		return nil, e
	}
	key, resp, docs, respOf, pairWarnings, err := conll.ReadPair(keyPath, respPath, opt, conll.PairExtras{})
	if err != nil {
		return nil, err
	}
	return scorePair(keyPath, respPath, key, resp, docs, respOf, pairWarnings, opt)
}

// scorePair is Score on the documents readPair returned.
func scorePair(keyPath, respPath string, key, resp []conll.Doc, docs []gocore.Document, respOf []int,
	pairWarnings []gocore.Warning, opt gocore.Options) (*FileResult, error) {
	keyOf := make([]int, len(resp)) // the key document of each response document, -1
	for j := range keyOf {
		keyOf[j] = -1
	}
	for i, j := range respOf {
		if j >= 0 {
			keyOf[j] = i
		}
	}
	warnings, repeats, nRepeats := readerFacts(key, func(i int) int { return i }, 0)
	rw, rr, nr := readerFacts(resp, func(j int) int { return keyOf[j] }, 1)
	warnings, repeats, nRepeats = append(warnings, rw...), append(repeats, rr...), nRepeats+nr
	warnings = append(warnings, pairWarnings...)
	if opt.Duplicates == gocore.DuplicatesError && len(repeats) > 0 {
		r := repeats[0]
		e := gocore.NewError(gocore.KindDuplicate, "the same mention is repeated in one coreference cell")
		e.Doc, e.Side, e.Line, e.Start, e.End = r.Doc, int(r.Side), r.Line, r.Start, r.End
		if e.Doc >= 0 {
			e.Name = docs[e.Doc].Name
		}
		e.Path = keyPath
		if e.Side == 1 {
			e.Path = respPath
		}
		return nil, e
	}
	res := &FileResult{Names: make([]string, len(docs)), Counts: make([]float64, len(docs)*gocore.NumColumns())}
	for i := range docs {
		res.Names[i] = docs[i].Name
	}
	if opt.MaxDuplicates == 0 || opt.MaxDuplicates > MaxFileDuplicates {
		opt.MaxDuplicates = MaxFileDuplicates
	}
	opt.SpanMentions = true // mention ids read from files are packed token spans
	rep, err := gocore.Score(docs, opt, res.Counts)
	if err != nil {
		e := gocore.AsError(err)
		locate(e, key, resp, respOf)
		return nil, e
	}
	res.Applied, res.NumDuplicates = rep.Applied, rep.NumDuplicates+nRepeats
	res.Warnings = append(warnings, rep.Warnings...)
	for _, d := range rep.Duplicates {
		fd := FileDuplicate{Duplicate: d, Start: -1, End: -1}
		if m := fileMention(key, resp, respOf, d.Doc, int(d.Side), d.Pos); m != nil {
			fd.Line, fd.Start, fd.End = int(m.Line), int64(m.Start), int64(m.End)
		}
		res.Duplicates = append(res.Duplicates, fd)
	}
	// The repeats the readers dropped join the engine's records, in
	// document order, within the same bound.
	res.Duplicates = append(res.Duplicates, repeats...)
	sort.SliceStable(res.Duplicates, func(a, b int) bool { return res.Duplicates[a].Doc < res.Duplicates[b].Doc })
	if len(res.Duplicates) > MaxFileDuplicates {
		res.Duplicates = res.Duplicates[:MaxFileDuplicates]
	}
	return res, nil
}

// MaxFileDuplicates bounds the repeated-mention records a file result keeps
// (FileResult.NumDuplicates counts them all).
const MaxFileDuplicates = 10000

// readerFacts collects what the reader noted on the documents of one side:
// its warnings (Side and Doc filled in; docIndex maps a document of the
// side to the key's document index, -1 when unpaired) and the repeats it
// dropped, as duplicate records.
func readerFacts(docs []conll.Doc, docIndex func(int) int, side int) ([]gocore.Warning, []FileDuplicate, int64) {
	var ws []gocore.Warning
	var reps []FileDuplicate
	var n int64
	for i := range docs {
		d := docIndex(i)
		for _, w := range docs[i].Warnings {
			w.Side = side
			if w.Kind != gocore.WarnOther {
				w.Doc = d
			}
			ws = append(ws, w)
		}
		n += docs[i].NumRepeats
		if d < 0 {
			continue
		}
		for _, m := range docs[i].Repeats {
			if len(reps) >= MaxFileDuplicates {
				break
			}
			reps = append(reps, FileDuplicate{Duplicate: gocore.Duplicate{Doc: d, Side: gocore.SideKind(side),
				Mention: -1, Pos: -1, FirstCluster: m.Cluster, Cluster: m.Cluster},
				Line: int(m.Line), Start: int64(m.Start), End: int64(m.End)})
		}
	}
	return ws, reps, n
}

// fileMention returns the file mention behind position pos of one side of
// document d, or nil.
func fileMention(key, resp []conll.Doc, respOf []int, d, side, pos int) *conll.Mention {
	if d < 0 || d >= len(key) {
		return nil
	}
	src := &key[d]
	if side == 1 {
		if respOf[d] < 0 {
			return nil
		}
		src = &resp[respOf[d]]
	}
	if pos < 0 || pos >= len(src.Mentions) {
		return nil
	}
	return &src.Mentions[pos]
}

// locate adds the file facts (path, line, tokens) of the mention an engine
// error names; the batch position it carries means nothing to a file's
// reader, so it becomes -1.
func locate(e *gocore.Error, key, resp []conll.Doc, respOf []int) {
	if e.Side < 0 || e.Doc < 0 || e.Doc >= len(key) {
		return
	}
	src := &key[e.Doc]
	if e.Side == 1 && respOf[e.Doc] >= 0 {
		src = &resp[respOf[e.Doc]]
	}
	e.Path, e.Line = src.Path, src.Line
	if m := fileMention(key, resp, respOf, e.Doc, e.Side, e.Mention); m != nil {
		e.Start, e.End = int64(m.Start), int64(m.End)
		if m.Line > 0 {
			e.Line = int(m.Line)
		}
		if e.Kind == gocore.KindDuplicate {
			// The engine's cluster numbers are the reader's; the file's
			// entity labels are what its reader knows.
			first := fileFirst(src, m)
			e.Msg = fmt.Sprintf("the mention occurs twice (first in entity %s, then in entity %s)",
				entityLabel(src, first), entityLabel(src, m.Cluster))
		}
	}
	e.Mention = -1
}

// fileFirst returns the cluster of the first mention of src with m's words.
func fileFirst(src *conll.Doc, m *conll.Mention) int64 {
	for i := range src.Mentions {
		o := &src.Mentions[i]
		if o.Start == m.Start && o.End == m.End && slices.Equal(src.Words(o), src.Words(m)) {
			return o.Cluster
		}
	}
	return m.Cluster
}

// entityLabel returns the file's label of cluster c of src.
func entityLabel(src *conll.Doc, c int64) string {
	if c >= 0 && c < int64(len(src.Entities)) {
		return src.Entities[c]
	}
	return strconv.FormatInt(c, 10)
}

// AnalyzeFiles reads and pairs two files as Score does and returns the key's
// document names, the error records of gocore.AnalyzeBatch (Doc indexes
// names; mention ids are packed spans, Start<<32 | End) and the warnings of
// pairing the documents. opt.SpanMentions is set. The two files are read
// concurrently.
func AnalyzeFiles(keyPath, respPath, format string, opt gocore.Options) (names []string, recs []gocore.ErrorRecord, warnings []string, err error) {
	opt.Format, opt.SpanMentions = format, true
	_, _, docs, _, pairWarnings, err := conll.ReadPair(keyPath, respPath, opt, conll.PairExtras{Syntax: true})
	if err != nil {
		return nil, nil, nil, err
	}
	names = make([]string, len(docs))
	for i := range docs {
		names[i] = docs[i].Name
	}
	for _, w := range pairWarnings {
		warnings = append(warnings, w.Msg)
	}
	recs, err = gocore.AnalyzeBatch(docs, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	return names, recs, warnings, nil
}

// FileReport is what a report of a key file against a response file draws,
// from one read of each file: the scores, the error analysis and the
// documents with the key's words.
type FileReport struct {
	Score *FileResult // as Score returns it
	// Names and Records are as AnalyzeFiles returns them (Doc indexes
	// Names, the key's documents; mention ids are packed spans), and
	// AnalysisWarnings the pairing's warnings.
	Names            []string
	Records          []gocore.ErrorRecord
	AnalysisWarnings []string
	// Key is the key file's documents as read (with mention types), KeyText
	// the words of each (see Documents). Response holds, for each key
	// document in key order, the response document the scoring paired it
	// with (see Pair), or an empty document of the key's name when none: a
	// viewer shows document i of both side by side without a pairing rule
	// of its own.
	Key, Response []conll.Doc
	KeyText       []conll.Text
}

// Report reads a key file and a response file, each once and the two
// concurrently (the key with its words, both with mention types), pairs
// their documents as Score does with opt, and from that one read both
// scores them as Score does (opt) and analyses them as AnalyzeFiles does
// (analysisOpt: its metrics choose the analyses, its other choices apply to
// the analysis; how the files are read and paired is opt's). The scoring
// and the analysis run concurrently. wordBytes > 0 keeps only the key's
// first words (conll.PairExtras.WordBytes). Errors are those of Score.
func Report(keyPath, respPath string, opt, analysisOpt gocore.Options, wordBytes int) (*FileReport, error) {
	rep := &FileReport{}
	key, resp, docs, respOf, pairWarnings, err := conll.ReadPair(keyPath, respPath, opt,
		conll.PairExtras{Types: true, KeyText: &rep.KeyText, Syntax: true, WordBytes: wordBytes})
	if err != nil {
		return nil, err
	}
	rep.Key, rep.Response = key, make([]conll.Doc, len(key))
	for i, j := range respOf {
		if j >= 0 {
			rep.Response[i] = resp[j]
		} else {
			rep.Response[i] = conll.Doc{Name: key[i].Name, Path: respPath, NumTokens: -1}
		}
	}
	rep.Names = make([]string, len(docs))
	for i := range docs {
		rep.Names[i] = docs[i].Name
	}
	for _, w := range pairWarnings {
		rep.AnalysisWarnings = append(rep.AnalysisWarnings, w.Msg)
	}
	analysisOpt.SpanMentions = true
	analysisOpt.Stop = opt.Stop
	var analysisErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				analysisErr = gocore.NewError(gocore.KindInternal, "internal error in the analysis: %v", r)
			}
		}()
		// The scoring may set fields of the documents' tables; the analysis
		// reads the documents only.
		rep.Records, analysisErr = gocore.AnalyzeBatch(docs, analysisOpt)
	}()
	rep.Score, err = scorePair(keyPath, respPath, key, resp, docs, respOf, pairWarnings, opt)
	<-done
	if err != nil {
		return nil, err
	}
	if analysisErr != nil {
		return nil, analysisErr
	}
	return rep, nil
}
