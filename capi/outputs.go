package main

// This file holds the options that belong to the calls rather than to the
// engine (what a scoring call produces) and the file call that composes
// reading, scoring and analysis from them, on Go values.

import (
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
	"github.com/corefscore/corefscore/gocore/files"
)

// output is one thing a scoring call can produce ("outputs" option).
type output uint8

const (
	outScores output = 1 << iota
	outAnalysis
	outKeyDocuments
	outResponseDocuments
)

var outputNames = map[string]output{"scores": outScores, "analysis": outAnalysis,
	"key_documents": outKeyDocuments, "response_documents": outResponseDocuments}

// callOptions are what an options handle holds: the engine's options and
// the call's outputs.
type callOptions struct {
	engine   gocore.Options
	outputs  output
	analysis gocore.MetricSet // the analyses of outAnalysis (kk, ms); 0: both
	// wordBytes > 0: the key's documents keep only their first words, at
	// most wordBytes bytes of them in file order ("words_limit"); 0: all.
	wordBytes int
	marshal   bool // input=marshal: cs_score_batch reads one document from marshal bytes
}

// parseCallOptions validates options: "outputs" and "analysis" here, every
// other key by the engine. An error's Option is the index in keys.
func parseCallOptions(keys, values []string) (callOptions, error) {
	co := callOptions{outputs: outScores}
	var engineKeys, engineValues []string
	var index []int // engine option i is keys[index[i]]
	for i, k := range keys {
		var err *gocore.Error
		switch k {
		case "outputs":
			co.outputs, err = parseOutputs(values[i])
		case "analysis":
			co.analysis, err = parseAnalyses(values[i])
		case "input":
			co.marshal, err = parseInput(values[i])
		case "words_limit":
			co.wordBytes, err = parseWordsLimit(values[i])
		default:
			engineKeys, engineValues, index = append(engineKeys, k), append(engineValues, values[i]), append(index, i)
			continue
		}
		if err != nil {
			err.Option = i
			return callOptions{}, err
		}
	}
	opt, err := gocore.ParseOptions(engineKeys, engineValues)
	if err != nil {
		if e := gocore.AsError(err); e.Option >= 0 && e.Option < len(index) {
			e.Option = index[e.Option]
			return callOptions{}, e
		}
		return callOptions{}, err
	}
	co.engine = opt
	return co, nil
}

func parseInput(value string) (bool, *gocore.Error) {
	switch strings.TrimSpace(value) {
	case "arrays":
		return false, nil
	case "marshal":
		return true, nil
	}
	return false, gocore.NewError(gocore.KindOption, "must be arrays or marshal; got %q", value)
}

// maxWordsLimit is the largest words_limit taken: a limit beyond any file.
const maxWordsLimit = 1 << 40

func parseWordsLimit(value string) (int, *gocore.Error) {
	n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	if err != nil || n < 1 || n > maxWordsLimit {
		return 0, gocore.NewError(gocore.KindOption, "must be a number of bytes from 1 to %d; got %q", int64(maxWordsLimit), value)
	}
	return int(n), nil
}

func parseOutputs(value string) (output, *gocore.Error) {
	var set output
	for _, name := range strings.Split(value, ",") {
		o, ok := outputNames[strings.TrimSpace(name)]
		if !ok {
			return 0, gocore.NewError(gocore.KindOption,
				"must name scores, analysis, key_documents or response_documents; got %q", name)
		}
		set |= o
	}
	return set, nil
}

func parseAnalyses(value string) (gocore.MetricSet, *gocore.Error) {
	names := strings.Split(value, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if names[i] != "kk" && names[i] != "ms" {
			return 0, gocore.NewError(gocore.KindOption, "must name kk and/or ms; got %q", n)
		}
	}
	set, err := gocore.ParseMetrics(names)
	if err != nil {
		return 0, gocore.AsError(err)
	}
	return set, nil
}

// analysisOptions are the options of the analysis that co asks for.
func (co *callOptions) analysisOptions() gocore.Options {
	opt := co.engine
	opt.Metrics = co.analysis
	return opt
}

// filesOut is what scoreFiles produced: a handle (0: not asked for) and the
// result behind it per output.
type filesOut struct {
	scores             int64
	score              *files.FileResult
	analysis           int64
	analysisSizes      analysisSizes
	keyDocs, respDocs  int64
	keySizes, respSize documentsSizes
}

// scoreFiles reads a key file and a response file (either path "" when only
// the other's documents are asked for) and keeps what the options' outputs
// ask for, each behind its handle.
func scoreFiles(keyPath, respPath string, optHandle int64, stop func() bool) (out filesOut, err error) {
	co, err := callOptionsOf(optHandle)
	if err != nil {
		return out, err
	}
	defer beginGCBudget(fileSizes(keyPath, respPath))()
	opt := co.engine
	opt.Stop = stop
	want := co.outputs
	if keyPath == "" || respPath == "" {
		side, path, docsOut := 0, keyPath, outKeyDocuments
		if keyPath == "" {
			side, path, docsOut = 1, respPath, outResponseDocuments
		}
		if want != docsOut || path == "" {
			return out, argErr("both paths are needed unless the outputs are the one file's documents")
		}
		docs, texts, err := conll.Documents(path, side, opt, co.wordBytes)
		if err != nil {
			return out, gocore.AsError(err)
		}
		res := &documentsResult{docs: docs, texts: texts}
		if side == 0 {
			out.keyDocs, out.keySizes = documentsHandles.put(res), res.sizes()
		} else {
			out.respDocs, out.respSize = documentsHandles.put(res), res.sizes()
		}
		return out, nil
	}
	switch want {
	case outScores:
		res, err := files.Score(keyPath, respPath, opt)
		if err != nil {
			return out, err
		}
		out.scores, out.score = resultHandles.put(res), res
		return out, nil
	case outAnalysis:
		aopt := co.analysisOptions()
		aopt.Stop = stop
		names, recs, warnings, err := files.AnalyzeFiles(keyPath, respPath, opt.Format, aopt)
		if err != nil {
			return out, gocore.AsError(err)
		}
		out.analysis, out.analysisSizes = keepAnalysis(names, recs, warnings)
		return out, checkStop(stop)
	}
	rep, err := files.Report(keyPath, respPath, opt, co.analysisOptions(), co.wordBytes)
	if err != nil {
		return out, gocore.AsError(err)
	}
	if err := checkStop(stop); err != nil {
		return out, err
	}
	if want&outScores != 0 {
		out.scores, out.score = resultHandles.put(rep.Score), rep.Score
	}
	if want&outAnalysis != 0 {
		out.analysis, out.analysisSizes = keepAnalysis(rep.Names, rep.Records, rep.AnalysisWarnings)
	}
	if want&outKeyDocuments != 0 {
		res := &documentsResult{docs: rep.Key, texts: rep.KeyText}
		out.keyDocs, out.keySizes = documentsHandles.put(res), res.sizes()
	}
	if want&outResponseDocuments != 0 {
		res := &documentsResult{docs: rep.Response, texts: make([]conll.Text, len(rep.Response))}
		out.respDocs, out.respSize = documentsHandles.put(res), res.sizes()
	}
	releaseAfterLargeReport(rep)
	return out, nil
}

// largeReportMentions is the number of mentions (both files) from which a
// report's file call returns the memory it no longer uses to the system
// before it returns (releaseAfterLargeReport).
const largeReportMentions = 1 << 20

// releaseAfterLargeReport returns the collector's free memory to the system
// after a report's file call on large files. The caller copies the results
// into memory of its own next, which cannot reuse what the Go heap keeps:
// on the 1M-mention document the heap's peak (the key file's bytes, the
// readers' and the engine's work arrays) is several hundred MB above what
// the results hold, and the caller's peak stacked on top of it. It costs
// one collection, which runs on its own goroutine while the call returns:
// the caller's Ctrl-C need not wait for it, and the caller's copies are made
// meanwhile (the memory they need is a fraction of what is released).
func releaseAfterLargeReport(rep *files.FileReport) {
	n := 0
	for i := range rep.Key {
		n += len(rep.Key[i].Mentions) + len(rep.Response[i].Mentions)
	}
	if n >= largeReportMentions {
		go debug.FreeOSMemory()
	}
}

// checkStop is the cancelled error when the caller's flag is set.
func checkStop(stop func() bool) error {
	if stop != nil && stop() {
		return gocore.NewError(gocore.KindCancelled, "cancelled")
	}
	return nil
}

// keepAnalysis keeps an analysis of files behind a handle.
func keepAnalysis(names []string, recs []gocore.ErrorRecord, warnings []string) (int64, analysisSizes) {
	ws := make([]gocore.Warning, len(warnings))
	for i, w := range warnings {
		ws[i] = gocore.Warning{Kind: gocore.WarnOther, Side: -1, Doc: -1, Msg: w}
	}
	res := &analysisResult{names: names, flat: gocore.Flatten(recs), warnings: warnRecords(ws)}
	return analysisHandles.put(res), res.sizes()
}

// freeFiles frees the handles of a files result (after a failure).
func freeFiles(out filesOut) {
	for _, h := range []int64{out.scores, out.analysis, out.keyDocs, out.respDocs} {
		freeHandle(h)
	}
}
