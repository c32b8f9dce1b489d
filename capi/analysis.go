package main

// This file holds the error analysis and document calls behind the exports,
// on Go values: a result kept behind a handle until taken, its sizes, and
// the checks of the caller's capacities.

import (
	"fmt"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
)

// analysisResult is an analysis kept for cs_take_analysis.
type analysisResult struct {
	names    []string
	flat     gocore.FlatRecords
	warnings []warnRecord
}

// analysisSizes are the sizes cs_analysis_sizes reports.
type analysisSizes struct {
	nDocs, namesLen, nRecords, nMentions, nKey, nResp, nWarnings int64
}

// documentsResult is a file's documents kept for cs_take_documents.
type documentsResult struct {
	docs  []conll.Doc
	texts []conll.Text
}

// documentsSizes are the sizes cs_documents_sizes reports.
type documentsSizes struct {
	nDocs, namesLen, nMentions, nWords, wordsLen, nSentences int64
}

var (
	analysisHandles  handles[*analysisResult]
	documentsHandles handles[*documentsResult]
)

func (r *analysisResult) sizes() analysisSizes {
	return analysisSizes{nDocs: int64(len(r.names)), namesLen: totalLen(r.names), nRecords: int64(len(r.flat.Doc)),
		nMentions: int64(len(r.flat.Mentions)), nKey: int64(len(r.flat.KeyEntities)),
		nResp: int64(len(r.flat.RespEntities)), nWarnings: int64(len(r.warnings))}
}

// totalLen is the summed length of strings.
func totalLen(ss []string) int64 {
	var n int64
	for _, s := range ss {
		n += int64(len(s))
	}
	return n
}

// analyzeBatch analyses a batch of caller documents and keeps the result.
func analyzeBatch(key, resp flatSide, names []string, optHandle int64, stop func() bool) (int64, analysisSizes, error) {
	opt, err := optionsOf(optHandle)
	if err != nil {
		return 0, analysisSizes{}, err
	}
	opt.Stop = stop
	docs, err := buildDocs(key, resp, names)
	if err != nil {
		return 0, analysisSizes{}, err
	}
	if err := checkSpans(key, resp, &opt); err != nil {
		return 0, analysisSizes{}, err
	}
	recs, err := gocore.AnalyzeBatch(docs, opt)
	if err != nil {
		return 0, analysisSizes{}, gocore.AsError(err)
	}
	if stop != nil && stop() {
		return 0, analysisSizes{}, gocore.NewError(gocore.KindCancelled, "cancelled")
	}
	res := &analysisResult{names: names, flat: gocore.Flatten(recs)}
	if res.names == nil {
		res.names = make([]string, len(docs))
	}
	return analysisHandles.put(res), res.sizes(), nil
}

// analyzeFiles analyses a key file against a response file and keeps the
// result (mention ids are packed spans, start<<32 | end).
func analyzeFiles(keyPath, respPath string, optHandle int64, stop func() bool) (int64, analysisSizes, error) {
	opt, err := optionsOf(optHandle)
	if err != nil {
		return 0, analysisSizes{}, err
	}
	opt.Stop = stop
	names, recs, warnings, err := conll.AnalyzeFiles(keyPath, respPath, opt.Format, opt)
	if err != nil {
		return 0, analysisSizes{}, gocore.AsError(err)
	}
	if stop != nil && stop() {
		return 0, analysisSizes{}, gocore.NewError(gocore.KindCancelled, "cancelled")
	}
	ws := make([]gocore.Warning, len(warnings))
	for i, w := range warnings {
		ws[i] = gocore.Warning{Kind: gocore.WarnOther, Side: -1, Doc: -1, Msg: w}
	}
	res := &analysisResult{names: names, flat: gocore.Flatten(recs), warnings: warnRecords(ws)}
	return analysisHandles.put(res), res.sizes(), nil
}

// analysisOut are the caller's buffers of cs_take_analysis as Go slices
// (capacities as given; offsets slices have records+1 entries).
type analysisOut struct {
	names                              []byte
	nameOffsets                        []int64
	records                            []errorRecord
	mentionOffsets, keyOffsets, respOf []int64
	mentions, keyEntities, respEnts    []int64
}

// errorRecord is a cs_error_record as Go values.
type errorRecord struct {
	doc, anchor         int64
	category, hasAnchor int8
	types               [2]int8
}

// checkAnalysisTake checks capacities against sizes.
func checkAnalysisTake(s analysisSizes, namesCap, docsCap, recordsCap, mentionsCap, keyCap, respCap int64) error {
	if namesCap < s.namesLen || docsCap < s.nDocs || recordsCap < s.nRecords || mentionsCap < s.nMentions ||
		keyCap < s.nKey || respCap < s.nResp {
		return errBufferTooSmall{fmt.Sprintf("the analysis needs %d name bytes, %d documents, %d records, %d mentions, "+
			"%d key and %d response entities; got room for %d, %d, %d, %d, %d and %d",
			s.namesLen, s.nDocs, s.nRecords, s.nMentions, s.nKey, s.nResp,
			namesCap, docsCap, recordsCap, mentionsCap, keyCap, respCap)}
	}
	return nil
}

// writeNameList writes names and their offsets (len(names)+1 entries).
func writeNameList(names []string, out []byte, offsets []int64) {
	pos := int64(0)
	offsets[0] = 0
	for i, s := range names {
		copy(out[pos:], s)
		pos += int64(len(s))
		offsets[i+1] = pos
	}
}

// write copies an analysis into the caller's buffers (checked before).
func (r *analysisResult) write(o analysisOut) {
	writeNameList(r.names, o.names, o.nameOffsets)
	f := &r.flat
	for i := range f.Doc {
		o.records[i] = errorRecord{doc: f.Doc[i], anchor: f.Anchor[i], category: f.Category[i],
			hasAnchor: f.HasAnchor[i], types: [2]int8{f.Types[2*i], f.Types[2*i+1]}}
	}
	copy(o.mentionOffsets, f.MentionOffsets)
	copy(o.keyOffsets, f.KeyOffsets)
	copy(o.respOf, f.RespOffsets)
	copy(o.mentions, f.Mentions)
	copy(o.keyEntities, f.KeyEntities)
	copy(o.respEnts, f.RespEntities)
}

// readDocuments reads one file's documents and words and keeps them.
func readDocuments(path string, side int, optHandle int64, stop func() bool) (int64, documentsSizes, error) {
	if side != 0 && side != 1 {
		return 0, documentsSizes{}, argErr("side must be 0 (key) or 1 (response), got %d", side)
	}
	opt, err := optionsOf(optHandle)
	if err != nil {
		return 0, documentsSizes{}, err
	}
	opt.Stop = stop
	docs, texts, err := conll.Documents(path, side, opt)
	if err != nil {
		return 0, documentsSizes{}, gocore.AsError(err)
	}
	res := &documentsResult{docs: docs, texts: texts}
	return documentsHandles.put(res), res.sizes(), nil
}

func (r *documentsResult) sizes() documentsSizes {
	s := documentsSizes{nDocs: int64(len(r.docs))}
	for i := range r.docs {
		s.namesLen += int64(len(r.docs[i].Name))
		s.nMentions += int64(len(r.docs[i].Mentions))
		s.nWords += int64(len(r.texts[i].Words))
		s.wordsLen += totalLen(r.texts[i].Words)
		s.nSentences += int64(len(r.texts[i].SentenceEnds))
	}
	return s
}

// docMention is a cs_doc_mention as Go values.
type docMention struct {
	start, end, cluster int64
	typ                 int32
	line                int32
}

// documentsOut are the caller's buffers of cs_take_documents.
type documentsOut struct {
	names                                           []byte
	nameOffsets, mentionOffsets, wordDocs, sentDocs []int64 // n_docs + 1 each
	mentions                                        []docMention
	words                                           []byte
	wordOffsets                                     []int64 // n_words + 1
	sentenceEnds                                    []int64
}

// checkDocumentsTake checks capacities against sizes.
func checkDocumentsTake(s documentsSizes, namesCap, docsCap, mentionsCap, wordsCap, nWordsCap, sentencesCap int64) error {
	if namesCap < s.namesLen || docsCap < s.nDocs || mentionsCap < s.nMentions || wordsCap < s.wordsLen ||
		nWordsCap < s.nWords || sentencesCap < s.nSentences {
		return errBufferTooSmall{fmt.Sprintf("the documents need %d name bytes, %d documents, %d mentions, %d word bytes, "+
			"%d words and %d sentences; got room for %d, %d, %d, %d, %d and %d",
			s.namesLen, s.nDocs, s.nMentions, s.wordsLen, s.nWords, s.nSentences,
			namesCap, docsCap, mentionsCap, wordsCap, nWordsCap, sentencesCap)}
	}
	return nil
}

// write copies the documents into the caller's buffers (checked before).
func (r *documentsResult) write(o documentsOut) {
	names := make([]string, len(r.docs))
	for i := range r.docs {
		names[i] = r.docs[i].Name
	}
	writeNameList(names, o.names, o.nameOffsets)
	var m, w, s, bytePos int64
	o.mentionOffsets[0], o.wordDocs[0], o.sentDocs[0], o.wordOffsets[0] = 0, 0, 0, 0
	for i := range r.docs {
		for _, x := range r.docs[i].Mentions {
			o.mentions[m] = docMention{start: int64(x.Start), end: int64(x.End), cluster: x.Cluster,
				typ: int32(x.Type), line: x.Line}
			m++
		}
		for _, word := range r.texts[i].Words {
			copy(o.words[bytePos:], word)
			bytePos += int64(len(word))
			w++
			o.wordOffsets[w] = bytePos
		}
		for _, e := range r.texts[i].SentenceEnds {
			o.sentenceEnds[s] = int64(e)
			s++
		}
		o.mentionOffsets[i+1], o.wordDocs[i+1], o.sentDocs[i+1] = m, w, s
	}
}

// reportHandles are the results of reportFiles, each kept behind its handle.
type reportHandles struct {
	scores, analysis, keyDocs, respDocs int64
	score                               *conll.FileResult
	analysisSizes                       analysisSizes
	keySizes, respSizes                 documentsSizes
}

// reportFiles reads a key file and a response file once each and keeps the
// scores, the analysis and both files' documents (the key's with words).
func reportFiles(keyPath, respPath string, scoreHandle, analysisHandle int64, stop func() bool) (reportHandles, error) {
	opt, err := optionsOf(scoreHandle)
	if err != nil {
		return reportHandles{}, err
	}
	aopt, err := optionsOf(analysisHandle)
	if err != nil {
		return reportHandles{}, err
	}
	opt.Stop = stop
	rep, err := conll.Report(keyPath, respPath, opt, aopt)
	if err != nil {
		return reportHandles{}, gocore.AsError(err)
	}
	if stop != nil && stop() {
		return reportHandles{}, gocore.NewError(gocore.KindCancelled, "cancelled")
	}
	ws := make([]gocore.Warning, len(rep.AnalysisWarnings))
	for i, w := range rep.AnalysisWarnings {
		ws[i] = gocore.Warning{Kind: gocore.WarnOther, Side: -1, Doc: -1, Msg: w}
	}
	an := &analysisResult{names: rep.Names, flat: gocore.Flatten(rep.Records), warnings: warnRecords(ws)}
	keyDocs := &documentsResult{docs: rep.Key, texts: rep.KeyText}
	respDocs := &documentsResult{docs: rep.Response, texts: make([]conll.Text, len(rep.Response))}
	return reportHandles{
		scores: resultHandles.put(rep.Score), score: rep.Score,
		analysis: analysisHandles.put(an), analysisSizes: an.sizes(),
		keyDocs: documentsHandles.put(keyDocs), keySizes: keyDocs.sizes(),
		respDocs: documentsHandles.put(respDocs), respSizes: respDocs.sizes(),
	}, nil
}
