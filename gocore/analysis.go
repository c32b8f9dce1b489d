package gocore

import (
	"fmt"
	"slices"

	"github.com/pkg/errors"
)

// This file holds two error analyses. Their counts are registry metrics
// ("kk" and "ms"), so they add up over a corpus like every other column; the
// errors themselves, one record each, come from Analyze and AnalyzeBatch.
//
// Kummerfeld & Klein (2013), "Error-Driven Analysis of Challenges in
// Coreference Resolution": the response is turned into the key by a sequence
// of operations (alter span, split, remove, introduce, merge), and groups of
// operations are named by seven categories. See kkAnalyze.
//
// Martschat & Strube (2014), "Recall Error Analysis for Coreference
// Resolution": a recall error is an edge of a spanning tree of a key entity
// whose ends lie in different parts of the entity's partition by the response
// (a mention absent from the response is a part of its own); precision errors
// are the same with the roles of key and response swapped. See msAnalyze.

// ErrorCategory names one kind of error. The int8 codes are part of the
// planned C ABI.
type ErrorCategory int8

// Error categories: the seven of Kummerfeld & Klein (2013), then the two
// link errors of Martschat & Strube (2014).
const (
	SpanError         ErrorCategory = 1 // a response mention's span differs from a key mention's
	ConflatedEntities ErrorCategory = 2 // a part of a response entity split off (it belongs to another key entity)
	ExtraMention      ErrorCategory = 3 // a response mention in no key entity, removed from a response entity
	ExtraEntity       ErrorCategory = 4 // a response entity with no non-pronoun key mention, its extra mentions removed
	DividedEntity     ErrorCategory = 5 // a part of a key entity merged into the rest of it
	MissingMention    ErrorCategory = 6 // a key mention absent from the response, introduced and merged
	MissingEntity     ErrorCategory = 7 // a key entity with no non-pronoun mention in the response, its missing mentions introduced
	RecallError       ErrorCategory = 8 // a spanning-tree edge of a key entity cut by the response
	PrecisionError    ErrorCategory = 9 // a spanning-tree edge of a response entity cut by the key
)

var categoryNames = [...]string{"", "span_error", "conflated_entities", "extra_mention", "extra_entity",
	"divided_entity", "missing_mention", "missing_entity", "recall_error", "precision_error"}

// String returns the category's snake_case name, as in the counts columns
// ("span_error", ..., "precision_error").
func (c ErrorCategory) String() string {
	if c >= 1 && int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return fmt.Sprintf("ErrorCategory(%d)", int8(c))
}

// ErrorCategories returns every category in code order.
func ErrorCategories() []ErrorCategory {
	out := make([]ErrorCategory, 0, len(categoryNames)-1)
	for c := SpanError; c <= PrecisionError; c++ {
		out = append(out, c)
	}
	return out
}

// ErrorRecord is one error found by Analyze.
//
// Mentions are mention ids in text (id) order, except where a category says
// otherwise:
//
//	SpanError          [response mention, key mention it becomes]
//	ConflatedEntities  the part split off its response entity
//	ExtraMention       [the mention removed]
//	ExtraEntity        the mentions removed
//	DividedEntity      the part merged into the rest of its key entity
//	MissingMention     [the mention introduced]
//	MissingEntity      the mentions introduced (together, as one entity)
//	RecallError        [anaphor, antecedent]: the cut tree edge, later mention first
//	PrecisionError     [anaphor, antecedent]
//
// KeyEntities and ResponseEntities are the caller's cluster ids of the
// entities involved (-1 in the link errors for a mention absent from that
// side). Anchor, when HasAnchor, is a mention of the part that stays (a
// split) or of the part joined (a merge, an introduction): applying the
// records in category order to the response yields the key (see kkAnalyze).
// Types are the link ends' mention types (link errors only). The slices of
// the records of one document may share a backing array: treat them as
// read-only.
type ErrorRecord struct {
	Doc              int // index of the document in the batch
	Category         ErrorCategory
	Mentions         []int64
	KeyEntities      []int64
	ResponseEntities []int64
	Anchor           int64
	HasAnchor        bool
	Types            [2]MentionType
}

// kkColumns are the Kummerfeld-Klein counts: errors per category.
var kkColumns = []string{"span_error", "conflated_entities", "extra_mention", "extra_entity",
	"divided_entity", "missing_mention", "missing_entity"}

// msTypeNames are the mention types that group link errors, in column order.
var msTypeNames = []string{"name", "nominal", "pronoun"}

// msColumns are the Martschat-Strube counts: recall and precision errors,
// then each of them by (anaphor type, antecedent type) when both are known,
// such as "recall.pronoun_name".
var msColumns = func() []string {
	cols := []string{"recall_errors", "precision_errors"}
	for _, side := range []string{"recall", "precision"} {
		for _, a := range msTypeNames {
			for _, b := range msTypeNames {
				cols = append(cols, side+"."+a+"_"+b)
			}
		}
	}
	return cols
}()

// kkCounts writes the Kummerfeld-Klein category counts of t.
func kkCounts(t *Table, opt *Options, out []float64) error {
	a := newAnalysis(t)
	a.kk(opt, out, nil)
	return nil
}

// msCounts writes the Martschat-Strube link error counts of t.
func msCounts(t *Table, _ *Options, out []float64) error {
	a := newAnalysis(t)
	a.ms(out, nil)
	return nil
}

// Analyze returns the errors of one document, one record each: the
// Kummerfeld-Klein errors (when metric "kk" is selected by opt.Metrics; the
// zero set selects all) in category order, then the Martschat-Strube recall
// and precision errors (metric "ms"); both unless opt.Metrics names one of
// them. Records carry Doc 0. The duplicate and
// singleton policies apply as in scoring; nil opt means the zero Options.
// The counts of the records equal the "kk" and "ms" columns of ScoreDocument.
// Cost: O(n log n) for n mentions.
func Analyze(d *Document, opt *Options) ([]ErrorRecord, error) {
	if opt == nil {
		opt = &Options{}
	}
	var dups []Duplicate
	t, err := NewTable(d, 0, opt, &dups)
	if err != nil {
		return nil, err
	}
	var recs []ErrorRecord
	t.stop = opt.Stop // the analyses' loops poll it (analysisPoller)
	a := newAnalysis(t)
	kk, ms := metricIndex("kk"), metricIndex("ms")
	both := opt.Metrics&(1<<uint(kk)|1<<uint(ms)) == 0 // neither named: both analyses
	if both || opt.Metrics.Has(kk) {
		a.kk(opt, make([]float64, len(kkColumns)), &recs)
	}
	if opt.stopped() {
		return nil, errCancelled()
	}
	if both || opt.Metrics.Has(ms) {
		a.ms(make([]float64, len(msColumns)), &recs)
	}
	if opt.stopped() {
		return nil, errCancelled()
	}
	return recs, nil
}

// poller returns a poller of the table's stop function for one of the
// analysis's loops over mentions or entities: a loop that halts leaves its
// records unfinished, and Analyze then returns the cancellation.
func (a *analysis) poller() *poller { return &poller{stop: a.t.stop} }

// AnalyzeBatch is Analyze over a batch, records in document order with Doc
// set to the document's index. Documents are analysed on up to opt.Workers
// goroutines (as in ScoreBatch); the records do not depend on their number.
// The error, if any, is a *DocError for the lowest-numbered failing
// document; a panic is turned into an error.
func AnalyzeBatch(docs []Document, opt Options) ([]ErrorRecord, error) {
	workers := workersOf(&opt)
	per := make([][]ErrorRecord, len(docs))
	errs := make([]error, len(docs))
	parallelFor(len(docs), workers, func(i int) bool {
		if opt.stopped() {
			errs[i] = errCancelled()
			return true
		}
		per[i], errs[i] = analyzeRecovering(&docs[i], &opt)
		return errs[i] != nil
	})
	if opt.stopped() { // documents not analysed leave no error of their own
		return nil, errCancelled()
	}
	total := 0
	for i, err := range errs {
		if errors.Is(err, ErrCancelled) {
			return nil, errCancelled()
		}
		if err != nil {
			return nil, &DocError{Doc: i, Name: docs[i].Name, Err: err}
		}
		total += len(per[i])
	}
	recs := make([]ErrorRecord, 0, total)
	for i, r := range per {
		for k := range r {
			r[k].Doc = i
		}
		recs = append(recs, r...)
	}
	return recs, nil
}

func analyzeRecovering(d *Document, opt *Options) (recs []ErrorRecord, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.Errorf("gocore: internal error: %v", r)
		}
	}()
	return Analyze(d, opt)
}

// analysis is a Table's mentions in text order with their clusters, which
// the span repair may change.
type analysis struct {
	t      *Table
	arena  []int64 // backing store of the records' id slices (one allocation per growth, not per record)
	order  []int32 // mention indices by increasing id
	keyOf  []int32 // as t.KeyOf, then -1 for a mention crossing a sentence break (with a parse)
	respOf []int32 // as t.RespOf, then the response cluster a key mention receives by a span repair
	// syn is the document's parse when kk reads it (span ids and a
	// well-formed Syntax), kkTypes then each mention's type as the Berkeley
	// analyser finds it from the parse (for kk only: ms keeps t.Types).
	syn     *kkSyntax
	kkTypes []MentionType
	// crossDropped: dropCrossSentence took mentions out (keyOf and respOf
	// are then copies, and the response sizes must be recounted).
	crossDropped bool
}

func newAnalysis(t *Table) *analysis {
	return &analysis{t: t, keyOf: t.KeyOf, respOf: t.RespOf, order: t.analysisOrder()}
}

// analysisOrder returns the mention indices by increasing id (text order for
// span ids), computed once per table (kk and ms share it; a radix sort, see
// sortedOrder). Read-only for callers.
func (t *Table) analysisOrder() []int32 {
	if t.order == nil {
		t.order = sortedOrder(t.IDs)
	}
	return t.order
}

// typeOf returns mention m's type (TypeUnknown without types).
func (a *analysis) typeOf(m int32) MentionType {
	if a.t.Types == nil {
		return TypeUnknown
	}
	return a.t.Types[m]
}

// isPronoun reports whether m is known to be a pronoun. Kummerfeld & Klein
// choose the part that stays in a split or merge by its first non-pronoun
// mention; without types every mention counts as a non-pronoun.
func (a *analysis) isPronoun(m int32) bool {
	if a.kkTypes != nil {
		return a.kkTypes[m] == TypePronoun
	}
	return a.typeOf(m) == TypePronoun
}

// useSyntax sets a.syn and a.kkTypes from the table's Syntax when it has
// one that can be read as trees and every mention id is a span of it.
func (a *analysis) useSyntax() {
	t := a.t
	if t.syntax == nil {
		return
	}
	syn := newKKSyntax(t.syntax)
	if syn == nil {
		return
	}
	n := int64(len(t.syntax.Words))
	types := make([]MentionType, len(t.IDs))
	for m, id := range t.IDs {
		s, e, ok := spanOf(id)
		if !ok || e >= n {
			return
		}
		types[m] = syn.mentionType(int32(s), int32(e))
	}
	a.syn, a.kkTypes = syn, types
}

// spanOf decodes a packed span id; ok is false for an id that is not one.
func spanOf(id int64) (start, end int64, ok bool) {
	if id < 0 || id&(1<<62) != 0 {
		return 0, 0, false
	}
	start, end = id>>32, id&0xffffffff
	return start, end, start <= end
}

// repairSpans is Kummerfeld & Klein's Alter Span step on a document without
// a parse. Their tool pairs a response mention missing from the key with a
// key mention missing from the response when the two have the same
// syntactic head (or differ only by a leading "the", a trailing "'s" or
// punctuation), and only where that pairing is one-to-one (see
// repairSpansParsed). Without a parse, the head test is replaced by overlap: a
// twinless response mention and a twinless key mention are paired when their
// spans overlap and each overlaps no other twinless mention of the other
// side. The key mention then takes the response mention's response cluster,
// and the response mention leaves the analysis. Records are SpanError.
func (a *analysis) repairSpans(out []float64, recs *[]ErrorRecord) {
	t := a.t
	type iv struct {
		start, end int64
		m          int32
		key        bool
	}
	var ivs []iv
	base := a.respOf // the response as the analysis sees it (singletons dropped)
	pl := a.poller()
	for _, m := range a.order {
		if pl.halt() {
			return
		}
		isKey, isResp := t.KeyOf[m] >= 0, base[m] >= 0
		if isKey == isResp {
			continue // on both sides: not a span error
		}
		s, e, ok := spanOf(t.IDs[m])
		if !ok {
			continue
		}
		ivs = append(ivs, iv{s, e, m, isKey})
	}
	if len(ivs) == 0 {
		return
	}
	slices.SortStableFunc(ivs, func(x, y iv) int {
		switch {
		case x.start < y.start:
			return -1
		case x.start > y.start:
			return 1
		}
		return 0
	})
	// deg counts overlaps with the other side (capped at 2); partner is the
	// last one seen.
	deg := make([]int8, len(ivs))
	partner := make([]int32, len(ivs))
	var active [2][]int32 // indices into ivs, per side (0 key, 1 response)
	for i, v := range ivs {
		side := 1
		if v.key {
			side = 0
		}
		other := 1 - side
		kept := active[other][:0]
		for _, j := range active[other] {
			if ivs[j].end < v.start {
				continue // ended before v starts; ivs come by start, so for good
			}
			kept = append(kept, j)
			// ivs[j] starts no later than v and ends at or after v's start.
			if deg[i] < 2 {
				deg[i]++
			}
			if deg[j] < 2 {
				deg[j]++
			}
			partner[i], partner[j] = j, int32(i)
		}
		active[other] = kept
		active[side] = append(active[side], int32(i))
	}
	a.keyOf = slices.Clone(t.KeyOf)
	a.respOf = slices.Clone(base)
	for i, v := range ivs {
		if v.key || deg[i] != 1 || deg[partner[i]] != 1 {
			continue
		}
		r, k := v.m, ivs[partner[i]].m
		a.respOf[k] = base[r]
		a.respOf[r] = -1
		out[0]++
		if recs != nil {
			*recs = append(*recs, ErrorRecord{Category: SpanError,
				Mentions:         a.keep(t.IDs[r], t.IDs[k]),
				KeyEntities:      a.keep(t.KeyLabels[t.KeyOf[k]]),
				ResponseEntities: a.keep(t.RespLabels[base[r]])})
		}
	}
}

// repairSpansParsed is the Berkeley analyser's Alter Span step
// (match_boundaries) on a parsed document. The twinless response mentions
// (singletons dropped) and key mentions are paired in two passes, each
// pair a SpanError whose key mention takes the response mention's
// cluster:
//
//  1. Trimmed spans: a response mention pairs with a key mention when
//     their spans are equal once leading words "the" and one-character
//     non-letters and trailing words "'s" and one-character non-letters are
//     trimmed (kkSyntax.trimmed). Response mentions are taken in text
//     order; each takes, among the unpaired key mentions with its trimmed
//     span, the last in text order, and the others of them are used up as
//     well (the analyser marks every key mention it compares equal as used,
//     and keeps the last). The analyser iterates over Python sets here, so
//     where two response mentions compete for one key mention its choice
//     follows hash order, not text order.
//  2. Heads: of the mentions still twinless, a response and a key mention
//     that are the only ones of their side with a given head token
//     (kkSyntax.head) are paired.
func (a *analysis) repairSpansParsed(out []float64, recs *[]ErrorRecord) {
	t, syn := a.t, a.syn
	base := a.respOf // the response as the analysis sees it (singletons dropped)
	keyOf := a.keyOf // the key as it sees it (mentions crossing a sentence break dropped)
	var resp []int32
	keyByTrim := map[int64][]int32{}
	for _, m := range a.order {
		isKey, isResp := keyOf[m] >= 0, base[m] >= 0
		if isKey == isResp {
			continue
		}
		s, e, _ := spanOf(t.IDs[m]) // spans: useSyntax checked
		if isResp {
			resp = append(resp, m)
		} else {
			tr := syn.trimmed(int32(s), int32(e))
			keyByTrim[tr] = append(keyByTrim[tr], m)
		}
	}
	if len(resp) == 0 || len(keyByTrim) == 0 {
		return
	}
	a.respOf = slices.Clone(base)
	paired := make(map[int32]bool) // key mentions used up, response mentions paired
	pair := func(r, k int32) {
		a.respOf[k] = base[r]
		a.respOf[r] = -1
		paired[r], paired[k] = true, true
		out[0]++
		if recs != nil {
			*recs = append(*recs, ErrorRecord{Category: SpanError,
				Mentions:         a.keep(t.IDs[r], t.IDs[k]),
				KeyEntities:      a.keep(t.KeyLabels[t.KeyOf[k]]),
				ResponseEntities: a.keep(t.RespLabels[base[r]])})
		}
	}
	used := make(map[int32]bool)
	for _, r := range resp {
		s, e, _ := spanOf(t.IDs[r])
		k := int32(-1)
		for _, c := range keyByTrim[syn.trimmed(int32(s), int32(e))] {
			if !used[c] {
				used[c] = true
				k = c
			}
		}
		if k >= 0 {
			pair(r, k)
		}
	}
	// Pass 2, by head: a head met once on each side pairs its mentions.
	type byHead struct {
		r, k   int32
		nr, nk int
	}
	heads := map[int32]*byHead{}
	var headOrder []int32
	note := func(m int32, isResp bool) {
		s, e, _ := spanOf(t.IDs[m])
		h := syn.head(int32(s), int32(e))
		b := heads[h]
		if b == nil {
			b = &byHead{}
			heads[h] = b
			headOrder = append(headOrder, h)
		}
		if isResp {
			b.r, b.nr = m, b.nr+1
		} else {
			b.k, b.nk = m, b.nk+1
		}
	}
	for _, m := range a.order {
		if paired[m] {
			continue
		}
		isKey, isResp := keyOf[m] >= 0, base[m] >= 0
		if isKey != isResp {
			note(m, isResp)
		}
	}
	for _, h := range headOrder {
		if b := heads[h]; b.nr == 1 && b.nk == 1 {
			pair(b.r, b.k)
		}
	}
}

// members groups the mentions that are on a side (cluster >= 0) by cluster,
// each group in text order: the CSR arrays start (one more than clusters)
// and list.
func (a *analysis) members(of []int32, clusters int) (start []int32, list []int32) {
	start = make([]int32, clusters+1)
	for _, m := range a.order {
		if c := of[m]; c >= 0 {
			start[c+1]++
		}
	}
	for c := 0; c < clusters; c++ {
		start[c+1] += start[c]
	}
	list = make([]int32, start[clusters])
	next := slices.Clone(start[:clusters])
	for _, m := range a.order {
		if c := of[m]; c >= 0 {
			list[next[c]] = m
			next[c]++
		}
	}
	return start, list
}

// splitter splits entities by the clusters of the other side, reusing its
// buffers across entities (no map, no allocation per entity).
type splitter struct {
	a      *analysis
	slot   []int32 // part index of each cluster of the other side, valid where stamp == cur
	stamp  []int32
	cur    int32
	partOf []int32 // part index of each member of the last entity, -1 when absent
}

func newSplitter(a *analysis, otherClusters int) *splitter {
	return &splitter{a: a, slot: make([]int32, otherClusters), stamp: make([]int32, otherClusters)}
}

// split splits one entity's mentions ms (in text order) by their cluster on
// the other side (by) into parts, numbered in order of their first mention,
// and the mentions absent from the other side; s.partOf holds each member's
// part. The anchor is the part whose first non-pronoun mention comes first
// (the first part when every mention in a part is a pronoun), -1 without
// parts; nonPronoun tells whether any part has a non-pronoun mention.
func (s *splitter) split(ms []int32, by []int32) (nParts, nAbsent, anchor int, nonPronoun bool) {
	s.cur++
	s.partOf = s.partOf[:0]
	anchor = -1
	for _, m := range ms {
		c := by[m]
		if c < 0 {
			nAbsent++
			s.partOf = append(s.partOf, -1)
			continue
		}
		if s.stamp[c] != s.cur {
			s.stamp[c] = s.cur
			s.slot[c] = int32(nParts)
			nParts++
		}
		p := s.slot[c]
		s.partOf = append(s.partOf, p)
		if !nonPronoun && !s.a.isPronoun(m) {
			nonPronoun = true
			anchor = int(p)
		}
	}
	if anchor < 0 && nParts > 0 {
		anchor = 0
	}
	return nParts, nAbsent, anchor, nonPronoun
}

// groups returns the members of each part and the absent members of the
// last split of ms (for records).
func (s *splitter) groups(ms []int32, nParts int) (parts [][]int32, absent []int32) {
	parts = make([][]int32, nParts)
	for i, m := range ms {
		if p := s.partOf[i]; p >= 0 {
			parts[p] = append(parts[p], m)
		} else {
			absent = append(absent, m)
		}
	}
	return parts, absent
}

// ids returns the mention ids of ms.
func (a *analysis) ids(ms []int32) []int64 {
	n := len(a.arena)
	for _, m := range ms {
		a.arena = append(a.arena, a.t.IDs[m])
	}
	return a.arena[n:len(a.arena):len(a.arena)]
}

// keep returns vals as a slice of the arena. Earlier slices stay valid when
// the arena grows: they keep the old backing array.
func (a *analysis) keep(vals ...int64) []int64 {
	n := len(a.arena)
	a.arena = append(a.arena, vals...)
	return a.arena[n:len(a.arena):len(a.arena)]
}

// labelsOf returns the distinct caller cluster ids of the clusters of parts
// on a side (of gives each mention's dense cluster, labels the ids).
func (a *analysis) labelsOf(parts [][]int32, of []int32, labels []int64) []int64 {
	n := len(a.arena)
	for _, p := range parts {
		a.arena = append(a.arena, labels[of[p[0]]])
	}
	return a.arena[n:len(a.arena):len(a.arena)]
}

// kk writes the Kummerfeld-Klein counts (kkColumns order) to out and, when
// recs is not nil, appends the records.
//
// The categories are those of the authors' implementation, the Berkeley
// Coreference Analyser (classify_coreference_errors.py), step for step:
//
//  1. Response singletons are dropped (the analyser ignores them: an extra
//     one is no error, a key mention found only as one is missing).
//  2. Spans are repaired (SpanError): by the analyser's trimmed spans and
//     parse heads when the document has a Syntax (repairSpansParsed), by
//     overlap otherwise (repairSpans). With a Syntax, mention types are
//     also the analyser's, from the parse (kkSyntax.mentionType).
//  3. Each response entity R is split into its parts R ∩ K, one per key
//     entity K, and its extra mentions (in no key entity), each a part of
//     its own; each key entity K is assembled from its parts K ∩ R and its
//     missing mentions (in no response entity), each a part of its own.
//     With one part there is nothing to split or merge.
//  4. ExtraEntity: R has no non-pronoun key mention and two or more extra
//     mentions: one error, its extra mentions removed together.
//     MissingEntity: no mention of K in the response is a non-pronoun and
//     two or more of K's mentions are missing: one error, introduced
//     together.
//  5. The part that stays (no error) is the one holding the entity's
//     earliest non-pronoun mention, over all its mentions, extra or
//     missing ones included; when every mention is a pronoun (or types are
//     unknown: then none is), the one holding its first mention. An extra
//     mention can thus stay (it anchors the split of every key part) and a
//     missing one can stay (never introduced; the other parts merge into
//     it). A part already taken by step 4 does not stay.
//  6. ExtraMention: each extra mention left. MissingMention: each missing
//     mention left.
//  7. ConflatedEntities: each part R ∩ K left. DividedEntity: each part
//     K ∩ R left.
//
// So a key entity whose only missing mention is a singleton has no error,
// and neither has a key singleton absent from the response. Records name
// the mentions of each operation; Anchor is a mention of the part that
// stays (a split, a merge, an introduction) when there is one. Applying
// the records in category order to the response (singletons dropped), an
// absent anchor being introduced first, gives the key but for what the
// analyser leaves uncounted: the extra mentions that stay, and the key
// singletons it never introduces.
func (a *analysis) kk(opt *Options, out []float64, recs *[]ErrorRecord) {
	clear(out)
	t := a.t
	if opt.SpanMentions {
		a.useSyntax()
	}
	if a.syn != nil {
		a.dropCrossSentence()
	}
	a.dropResponseSingletons()
	if opt.SpanMentions {
		if a.syn != nil {
			a.repairSpansParsed(out, recs)
		} else {
			a.repairSpans(out, recs)
		}
	}
	// staying returns the index in ms of the mention whose part stays:
	// the earliest non-pronoun mention, else the first.
	staying := func(ms []int32) int {
		for i, m := range ms {
			if !a.isPronoun(m) {
				return i
			}
		}
		return 0
	}
	// Response entities: extra mentions and splits.
	sp := newSplitter(a, len(t.KeySize))
	start, list := a.members(a.respOf, len(t.RespSize))
	pl := a.poller()
	for r := 0; r+1 < len(start); r++ {
		if pl.halt() {
			return
		}
		ms := list[start[r]:start[r+1]]
		nParts, nExtra, _, _ := sp.split(ms, a.keyOf)
		if nParts+nExtra <= 1 {
			continue
		}
		goldNonPronoun := false
		for _, m := range ms {
			if a.keyOf[m] >= 0 && !a.isPronoun(m) {
				goldNonPronoun = true
				break
			}
		}
		extraEntity := !goldNonPronoun && nExtra >= 2
		stay := staying(ms)
		stayPart := int(sp.partOf[stay]) // -1: an extra mention stays
		extraStays := stayPart < 0 && !extraEntity
		if extraEntity {
			out[3]++
		} else {
			out[2] += float64(nExtra)
			if extraStays {
				out[2]--
			}
		}
		conflated := nParts
		if stayPart >= 0 {
			conflated--
		}
		out[1] += float64(conflated)
		if recs == nil {
			continue
		}
		parts, extra := sp.groups(ms, nParts)
		rLabel := a.keep(t.RespLabels[r])
		keys := a.labelsOf(parts, a.keyOf, t.KeyLabels)
		var anchor int64 // a mention of the part that stays, if one does
		hasAnchor := !(extraEntity && stayPart < 0)
		if hasAnchor {
			anchor = t.IDs[ms[stay]]
		}
		if extraEntity {
			*recs = append(*recs, ErrorRecord{Category: ExtraEntity, Mentions: a.ids(extra),
				KeyEntities: keys, ResponseEntities: rLabel})
		} else {
			for _, m := range extra {
				if m == ms[stay] {
					continue
				}
				*recs = append(*recs, ErrorRecord{Category: ExtraMention, Mentions: a.keep(t.IDs[m]),
					KeyEntities: keys, ResponseEntities: rLabel})
			}
		}
		for p, part := range parts {
			if p == stayPart {
				continue
			}
			*recs = append(*recs, ErrorRecord{Category: ConflatedEntities, Mentions: a.ids(part),
				KeyEntities: a.keep(t.KeyLabels[a.keyOf[part[0]]]), ResponseEntities: rLabel,
				Anchor: anchor, HasAnchor: hasAnchor})
		}
	}
	// Key entities: missing mentions and merges.
	sp = newSplitter(a, len(t.RespSize))
	start, list = a.members(a.keyOf, len(t.KeySize))
	for k := 0; k+1 < len(start); k++ {
		if pl.halt() {
			return
		}
		ms := list[start[k]:start[k+1]]
		nParts, nMissing, _, _ := sp.split(ms, a.respOf)
		if nParts+nMissing <= 1 {
			continue
		}
		foundNonPronoun := false
		for _, m := range ms {
			if a.respOf[m] >= 0 && !a.isPronoun(m) {
				foundNonPronoun = true
				break
			}
		}
		missingEntity := !foundNonPronoun && nMissing >= 2
		stay := staying(ms)
		stayPart := int(sp.partOf[stay]) // -1: a missing mention stays
		if missingEntity {
			out[6]++
		} else {
			out[5] += float64(nMissing)
			if stayPart < 0 {
				out[5]--
			}
		}
		divided := nParts
		if stayPart >= 0 {
			divided--
		}
		out[4] += float64(divided)
		if recs == nil {
			continue
		}
		parts, missing := sp.groups(ms, nParts)
		kLabel := a.keep(t.KeyLabels[k])
		resps := a.labelsOf(parts, a.respOf, t.RespLabels)
		anchor := t.IDs[ms[stay]]
		if missingEntity {
			// Introduced together, as an entity of their own unless a part
			// of K stays.
			rec := ErrorRecord{Category: MissingEntity, Mentions: a.ids(missing),
				KeyEntities: kLabel, ResponseEntities: resps}
			if stayPart >= 0 {
				rec.Anchor, rec.HasAnchor = anchor, true
			}
			*recs = append(*recs, rec)
		} else {
			for _, m := range missing {
				if m == ms[stay] {
					continue
				}
				*recs = append(*recs, ErrorRecord{Category: MissingMention, Mentions: a.keep(t.IDs[m]),
					KeyEntities: kLabel, ResponseEntities: resps, Anchor: anchor, HasAnchor: true})
			}
		}
		for p, part := range parts {
			if p == stayPart {
				continue
			}
			*recs = append(*recs, ErrorRecord{Category: DividedEntity, Mentions: a.ids(part),
				KeyEntities: kLabel, ResponseEntities: a.keep(t.RespLabels[a.respOf[part[0]]]),
				Anchor: anchor, HasAnchor: true})
		}
	}
	if recs != nil {
		// Category order (span errors first, as found), then by first mention:
		// the order in which the operations apply.
		slices.SortStableFunc(*recs, func(x, y ErrorRecord) int { return int(x.Category) - int(y.Category) })
	}
}

// dropResponseSingletons takes the mentions of one-mention response
// entities out of the analysis (respOf -1), as the Berkeley analyser does
// before anything else.
func (a *analysis) dropResponseSingletons() {
	sizes := a.t.RespSize
	if a.crossDropped {
		sizes = make([]int32, len(sizes))
		for _, c := range a.respOf {
			if c >= 0 {
				sizes[c]++
			}
		}
	}
	var single []bool
	for c, n := range sizes {
		if n == 1 {
			if single == nil {
				single = make([]bool, len(sizes))
			}
			single[c] = true
		}
	}
	if single == nil {
		return
	}
	a.respOf = slices.Clone(a.respOf)
	for m, c := range a.respOf {
		if c >= 0 && single[c] {
			a.respOf[m] = -1
		}
	}
}

// dropCrossSentence takes the mentions that cross a sentence break out of
// the analysis on both sides (keyOf, respOf -1), as the Berkeley analyser's
// reader drops them (it forgets an open mention at a blank line and ignores
// the bracket that closes it later).
func (a *analysis) dropCrossSentence() {
	for m, id := range a.t.IDs {
		s, e, _ := spanOf(id) // spans: useSyntax checked
		if !a.syn.crossesSentence(int32(s), int32(e)) {
			continue
		}
		if !a.crossDropped {
			a.keyOf, a.respOf = slices.Clone(a.keyOf), slices.Clone(a.respOf)
			a.crossDropped = true
		}
		a.keyOf[m], a.respOf[m] = -1, -1
	}
}

// ms writes the Martschat-Strube counts (msColumns order) to out and, when
// recs is not nil, appends the records: recall errors, then precision
// errors.
//
// The spanning tree. Martschat & Strube leave the tree open and discuss the
// choice; their analysis (and cort's recall_accessibility) takes, for each
// mention m of an entity but its first, one antecedent edge (m, a) with a
// earlier in the text:
//
//   - if a mention of m's own part (the response entity of m, for recall)
//     precedes m, a is the closest such mention: the edge is not an error;
//   - otherwise, when m is a name or a nominal, a is the closest preceding
//     name, else the closest preceding nominal, else the closest preceding
//     mention (antecedents by accessibility: a noun phrase is resolved to the
//     most informative earlier mention);
//   - a pronoun, or any mention when types are unknown, takes the closest
//     preceding mention.
//
// Every edge of the second and third kind is an error. An entity cut into p
// parts therefore has exactly p - 1 errors, whichever tree is taken: the
// recall errors of a document are its MUC recall losses and the precision
// errors its MUC precision losses (the tree only decides which links are
// named). Precision uses the same rule with key and response swapped (cort
// takes the system's own antecedents when it has them; the engine sees only
// partitions). Text order is the order of mention ids. Errors are grouped by
// (anaphor type, antecedent type) when both types are known.
func (a *analysis) ms(out []float64, recs *[]ErrorRecord) {
	clear(out)
	t := a.t
	for side := 0; side < 2; side++ {
		own, other := t.KeyOf, t.RespOf
		nClusters := len(t.KeySize)
		ownLabels, otherLabels := t.KeyLabels, t.RespLabels
		cat := RecallError
		if side == 1 {
			own, other = t.RespOf, t.KeyOf
			nClusters = len(t.RespSize)
			ownLabels, otherLabels = t.RespLabels, t.KeyLabels
			cat = PrecisionError
		}
		start, list := a.members(own, nClusters)
		// seen[p] == c+1: a mention of part p (a cluster on the other side)
		// has been met in entity c.
		otherClusters := len(t.RespSize)
		if side == 1 {
			otherClusters = len(t.KeySize)
		}
		seen := make([]int32, otherClusters)
		pl := a.poller()
		for c := 0; c < nClusters; c++ {
			if pl.halt() {
				return
			}
			ms := list[start[c]:start[c+1]]
			lastAny, lastName, lastNominal := int32(-1), int32(-1), int32(-1)
			for _, m := range ms {
				if lastAny >= 0 {
					if p := other[m]; p < 0 || seen[p] != int32(c+1) {
						ant := lastAny
						if ty := a.typeOf(m); ty == TypeName || ty == TypeNominal {
							if lastName >= 0 {
								ant = lastName
							} else if lastNominal >= 0 {
								ant = lastNominal
							}
						}
						a.countLink(side, m, ant, out)
						if recs != nil {
							lab := func(x int32) int64 {
								if other[x] < 0 {
									return -1
								}
								return otherLabels[other[x]]
							}
							r := ErrorRecord{Category: cat, Mentions: a.keep(t.IDs[m], t.IDs[ant]),
								Types: [2]MentionType{a.typeOf(m), a.typeOf(ant)}}
							if side == 0 {
								r.KeyEntities = a.keep(ownLabels[c])
								r.ResponseEntities = a.keep(lab(m), lab(ant))
							} else {
								r.ResponseEntities = a.keep(ownLabels[c])
								r.KeyEntities = a.keep(lab(m), lab(ant))
							}
							*recs = append(*recs, r)
						}
					}
				}
				if p := other[m]; p >= 0 {
					seen[p] = int32(c + 1)
				}
				lastAny = m
				switch a.typeOf(m) {
				case TypeName:
					lastName = m
				case TypeNominal:
					lastNominal = m
				}
			}
		}
	}
}

// countLink counts one link error of side (0 recall, 1 precision).
func (a *analysis) countLink(side int, m, ant int32, out []float64) {
	out[side]++
	tm, ta := a.typeOf(m), a.typeOf(ant)
	if tm == TypeUnknown || ta == TypeUnknown {
		return
	}
	out[2+side*9+int(tm-1)*3+int(ta-1)]++
}

// FlatRecords is a batch of ErrorRecords as parallel arrays, the layout the C
// ABI copies into caller buffers: one entry per record in Doc, Category,
// Anchor and HasAnchor, two per record in Types (anaphor, antecedent), and
// three CSR groups, where record r's mentions are
// Mentions[MentionOffsets[r]:MentionOffsets[r+1]] and likewise for the key
// and response entities (offsets have one entry more than records).
type FlatRecords struct {
	Doc            []int64
	Category       []int8
	Anchor         []int64 // 0 where HasAnchor is 0
	HasAnchor      []int8
	Types          []int8
	MentionOffsets []int64
	Mentions       []int64
	KeyOffsets     []int64
	KeyEntities    []int64
	RespOffsets    []int64
	RespEntities   []int64
}

// Flatten lays records out as FlatRecords. Cost: linear in their size.
func Flatten(recs []ErrorRecord) FlatRecords {
	n := len(recs)
	// The flat lists sized once: grown by appending, they were copied again
	// and again (half the time of flattening a 1M-mention document's errors).
	var nm, nk, nr int
	for i := range recs {
		nm, nk, nr = nm+len(recs[i].Mentions), nk+len(recs[i].KeyEntities), nr+len(recs[i].ResponseEntities)
	}
	f := FlatRecords{
		Doc: make([]int64, n), Category: make([]int8, n), Anchor: make([]int64, n),
		HasAnchor: make([]int8, n), Types: make([]int8, 2*n),
		MentionOffsets: make([]int64, 1, n+1), KeyOffsets: make([]int64, 1, n+1), RespOffsets: make([]int64, 1, n+1),
		Mentions: make([]int64, 0, nm), KeyEntities: make([]int64, 0, nk), RespEntities: make([]int64, 0, nr),
	}
	for i, r := range recs {
		f.Doc[i] = int64(r.Doc)
		f.Category[i] = int8(r.Category)
		if r.HasAnchor {
			f.Anchor[i], f.HasAnchor[i] = r.Anchor, 1
		}
		f.Types[2*i], f.Types[2*i+1] = int8(r.Types[0]), int8(r.Types[1])
		f.Mentions = append(f.Mentions, r.Mentions...)
		f.MentionOffsets = append(f.MentionOffsets, int64(len(f.Mentions)))
		f.KeyEntities = append(f.KeyEntities, r.KeyEntities...)
		f.KeyOffsets = append(f.KeyOffsets, int64(len(f.KeyEntities)))
		f.RespEntities = append(f.RespEntities, r.ResponseEntities...)
		f.RespOffsets = append(f.RespOffsets, int64(len(f.RespEntities)))
	}
	return f
}
