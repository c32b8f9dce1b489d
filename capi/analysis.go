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

// analyzeBatch analyses a batch of documents and keeps the result.
func analyzeBatch(docs []gocore.Document, names []string, opt gocore.Options) (int64, analysisSizes, error) {
	recs, err := gocore.AnalyzeBatch(docs, opt)
	if err != nil {
		return 0, analysisSizes{}, gocore.AsError(err)
	}
	if err := checkStop(opt.Stop); err != nil {
		return 0, analysisSizes{}, err
	}
	res := &analysisResult{names: names, flat: gocore.Flatten(recs)}
	if res.names == nil {
		res.names = make([]string, len(docs))
	}
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
