package gocore

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/corefscore/corefscore/gocore/assign"
)

// Universal Anaphora scoring: identity chains with split-antecedent
// (plural) anaphors, non-referring markables, bridging references and
// discourse deixis, as the Universal Anaphora scorer (Yu et al., LREC 2022)
// scores them, with split antecedents entering every metric the way Paun,
// Yu, Moosavi & Poesio (2022) define it.
//
// A plural entity P (one that other entities are ElementOf) gets one more
// item in its cluster, its split antecedent: the set of the leaf entities
// reached from P through ElementOf. Split antecedents of the key and of the
// response are aligned one to one, for each metric, by the F1 of that
// metric computed between their sets of antecedent entities; an aligned
// split antecedent then counts as its partner with the partner's recall
// (recall side), precision (precision side) or F1 (CEAF, BLANC) as partial
// credit. LEA and BLANC weight each link that involves a split antecedent
// by its score once (the paper's reading; see UAOptions).
//
// These documents do not go through the contingency table: a split
// antecedent is partly equal to several clusters of the other side, which a
// table of exact overlaps cannot hold. ScoreUA writes the same counts
// columns as Score does.

// UASplitMode says what becomes of split antecedents.
type UASplitMode int8

const (
	// UASplitKeep scores split antecedents in every metric (the default).
	UASplitKeep UASplitMode = 0
	// UASplitExclude drops them: plural entities are scored as their own
	// markables only.
	UASplitExclude UASplitMode = 1
	// UASplitOnly scores the alignment of the split antecedents alone: each
	// metric's columns hold its counts summed over the aligned pairs
	// (numerators) and over all split antecedents (denominators).
	UASplitOnly UASplitMode = 2
)

// UAOptions are the Universal Anaphora modes (Options.UA). The singleton
// mode is Options.Singletons.
type UAOptions struct {
	// Split is what becomes of split antecedents.
	Split UASplitMode
	// NonReferring scores the identification of non-referring markables
	// (-Pseudo entities) as metric "non_referring"; it does not change the
	// coreference scores.
	NonReferring bool
	// Bridging scores bridging references as the metrics
	// "bridging_anaphora", "bridging_markable" and "bridging_entity".
	Bridging bool
	// DiscourseDeixis scores the discourse deixis column instead of the
	// identity column (singletons and split antecedents kept).
	DiscourseDeixis bool
	// MinSpan matches a response markable to a key markable with a minimum
	// span when it covers that span and stays inside the key markable, for
	// every metric: exact matches are taken first, then minimum-span
	// matches one to one, in markable order.
	MinSpan bool
}

// UAMarkable is one markable of a UA document.
type UAMarkable struct {
	Start, End       int32 // first and last token (0-based, inclusive)
	MinStart, MinEnd int32 // the minimum span, -1 when none
	Entity           int32 // index in UASide.Entities
	// ElementOf lists the entities (indices) that this markable's entity is
	// an element of: the plurals it is a split antecedent of.
	ElementOf []int32
}

// UAEntity is an entity of a UA document; Pseudo marks a non-referring one.
type UAEntity struct {
	Name   string
	Pseudo bool
}

// UABridge is a bridging reference: markable indices of the anaphor and of
// its antecedent (anchor).
type UABridge struct{ Anaphor, Antecedent int32 }

// UASide is one annotation of a UA document. Markables are in the order
// they open; entities in the order of their first markable.
type UASide struct {
	Markables []UAMarkable
	Entities  []UAEntity
	Bridging  []UABridge
}

// UADocument is one key/response pair of UA annotations.
type UADocument struct {
	Name          string
	Key, Response UASide
}

// UA metric names beyond the classic ones.
const (
	MetricNonReferring     = "non_referring"
	MetricBridgingAnaphora = "bridging_anaphora"
	MetricBridgingMarkable = "bridging_markable"
	MetricBridgingEntity   = "bridging_entity"
)

// uaCoreMetrics are the metrics of the UA scorer.
var uaCoreMetrics = []string{"muc", "bcub", "ceafm", "ceafe", "blanc", "lea"}

// uaExtraMetrics are computed when named: mention identification, and the
// scores of the non-referring and bridging modes.
var uaExtraMetrics = []string{"mentions", MetricNonReferring, MetricBridgingAnaphora, MetricBridgingMarkable, MetricBridgingEntity}

// UAMetrics returns the metrics ScoreUA computes under opt: the selected
// ones, or by default the UA scorer's set (muc, bcub, ceafm, ceafe, blanc,
// lea) with non_referring and the bridging scores when their modes are on.
// A selected metric that does not apply to UA documents is an error of kind
// KindOption.
func UAMetrics(opt *Options) (MetricSet, error) {
	var s MetricSet
	add := func(name string) { s |= 1 << uint(metricIndex(name)) }
	if opt.Metrics == 0 {
		for _, n := range uaCoreMetrics {
			add(n)
		}
		if opt.UA.NonReferring {
			add(MetricNonReferring)
		}
		if opt.UA.Bridging {
			add(MetricBridgingAnaphora)
			add(MetricBridgingMarkable)
			add(MetricBridgingEntity)
		}
		return s, nil
	}
	allowed := append(append([]string{}, uaCoreMetrics...), uaExtraMetrics...)
	for i, m := range registry {
		if !opt.Metrics.Has(i) {
			continue
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == m.name
		}
		if !ok {
			return 0, newError(KindOption, "metric %q does not apply to Universal Anaphora documents; they are scored with %s",
				m.name, strings.Join(allowed, ", "))
		}
	}
	return opt.Metrics, nil
}

// CheckUAOptions refuses combinations of UA modes that the UA scorer would
// silently override: discourse deixis is scored with singletons and split
// antecedents kept and nothing else, the split-antecedent alignment alone
// with singletons kept and nothing else.
func CheckUAOptions(opt *Options) error {
	u := opt.UA
	if opt.Match != MatchExact || opt.ZeroMatch != ZeroLinear {
		return newError(KindOption, "Universal Anaphora markables are matched exactly or by their minimum spans "+
			"(min_span); partial, head and dependent matching are for CoNLL-U files")
	}
	if u.DiscourseDeixis && (u.Split != UASplitKeep || u.NonReferring || u.Bridging || opt.Singletons != SingletonsKeep) {
		return newError(KindOption, "discourse deixis is scored with singletons and split antecedents kept, "+
			"without non-referring or bridging scores; leave those options out")
	}
	if u.Split == UASplitOnly && (u.NonReferring || u.Bridging || opt.Singletons != SingletonsKeep) {
		return newError(KindOption, "the split-antecedent alignment is scored with singletons kept, "+
			"without non-referring or bridging scores; leave those options out")
	}
	return nil
}

// ScoreUA scores UA documents into counts (len(docs) rows of NumColumns()
// columns, row-major), in parallel as Score does, and returns the metrics it
// computed. Columns of metrics not computed are zero.
//
// Cost per document: linear in its markables for the interning and every
// metric but CEAF (an assignment over overlapping clusters, see
// assign.MaxWeight), plus, per metric, the split-antecedent alignment: a
// metric computation for each key/response pair of split antecedents and a
// dense assignment over them.
func ScoreUA(docs []UADocument, opt Options, counts []float64) (MetricSet, error) {
	ncol := NumColumns()
	if len(counts) != len(docs)*ncol {
		return 0, newError(KindArgument, "counts matrix has %d cells, want %d documents x %d columns", len(counts), len(docs), ncol)
	}
	if err := CheckUAOptions(&opt); err != nil {
		return 0, err
	}
	set, err := UAMetrics(&opt)
	if err != nil {
		return 0, err
	}
	opt = withDefaults(opt)
	clear(counts)
	errs := make([]error, len(docs))
	parallelFor(len(docs), min(workersOf(&opt), max(1, len(docs))), func(i int) bool {
		if opt.stopped() {
			errs[i] = errCancelled()
			return true
		}
		errs[i] = scoreUADoc(&docs[i], &opt, set, counts[i*ncol:(i+1)*ncol])
		return errs[i] != nil
	})
	for i, e := range errs {
		if e != nil {
			return 0, &DocError{Doc: i, Name: docs[i].Name, Err: e}
		}
	}
	return set, nil
}

// uaItems interns the items of one document, shared by its two sides: a
// markable span (after minimum-span matching) or a split antecedent (its
// set of antecedent clusters), so that equal items have equal ids.
type uaItems struct {
	spans   map[[2]int32]int32
	splits  map[string]int32
	members [][][]int32 // the antecedent clusters of a split item (span ids), nil for a span
}

func (it *uaItems) span(s [2]int32) int32 {
	if id, ok := it.spans[s]; ok {
		return id
	}
	id := int32(len(it.members))
	it.spans[s] = id
	it.members = append(it.members, nil)
	return id
}

// split interns a split antecedent from its antecedent clusters (each a
// set of span ids; the order of clusters and of their spans is free, a
// repeated cluster counts once).
func (it *uaItems) split(members [][]int32) int32 {
	byKey := map[string][]int32{}
	for _, m := range members {
		slices.Sort(m)
		var b strings.Builder
		for _, x := range m {
			b.WriteString(strconv.Itoa(int(x)))
			b.WriteByte(',')
		}
		byKey[b.String()] = m
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	key := strings.Join(keys, ";")
	if id, ok := it.splits[key]; ok {
		return id
	}
	ms := make([][]int32, len(keys))
	for i, k := range keys {
		ms[i] = byKey[k]
	}
	id := int32(len(it.members))
	it.splits[key] = id
	it.members = append(it.members, ms)
	return id
}

func (it *uaItems) isSplit(id int32) bool { return it.members[id] != nil }

// uaPart is one side's partition after the mode's processing.
type uaPart struct {
	clusters  [][]int32
	clusterOf map[int32]int32   // item -> its (last) cluster
	in        map[int32][]int32 // item -> every cluster holding it
	splits    []int32           // split items, in cluster order
	nonRef    []int32           // first markable of each non-referring entity
	bridges   map[int32]int32   // anaphor span -> antecedent span
}

func newPart(clusters [][]int32, it *uaItems) *uaPart {
	p := &uaPart{clusters: clusters, clusterOf: map[int32]int32{}, in: map[int32][]int32{}}
	for ci, c := range clusters {
		for _, m := range c {
			p.clusterOf[m] = int32(ci)
			if l := p.in[m]; len(l) == 0 || l[len(l)-1] != int32(ci) {
				p.in[m] = append(l, int32(ci))
			}
			if it != nil && it.isSplit(m) {
				p.splits = append(p.splits, m)
			}
		}
	}
	return p
}

// minSpanMatch returns the span each response markable is scored as: the
// key markable it matches (exact spans first, then a key markable whose
// minimum span it covers while staying inside it, one to one, in markable
// order), or its own span.
func minSpanMatch(key, resp *UASide, on bool) [][2]int32 {
	out := make([][2]int32, len(resp.Markables))
	for i, m := range resp.Markables {
		out[i] = [2]int32{m.Start, m.End}
	}
	if !on {
		return out
	}
	keySpans := map[[2]int32]bool{}
	for _, k := range key.Markables {
		keySpans[[2]int32{k.Start, k.End}] = true
	}
	taken := map[[2]int32]bool{}
	for _, s := range out {
		if keySpans[s] {
			taken[s] = true
		}
	}
	for i, s := range out {
		if keySpans[s] {
			continue
		}
		for _, k := range key.Markables {
			ks := [2]int32{k.Start, k.End}
			if k.MinStart < 0 || taken[ks] {
				continue
			}
			if k.Start <= s[0] && s[0] <= k.MinStart && k.MinEnd <= s[1] && s[1] <= k.End {
				taken[ks] = true
				out[i] = ks
				break
			}
		}
	}
	return out
}

// uaProcess builds one side's partition under the modes, as the UA
// scorer's process_clusters does: each entity a cluster of its markables in
// order, plus its split antecedent when it is a plural (split antecedents
// kept); non-referring entities set apart; singletons dropped when asked
// (a split antecedent counts as a member); clusters with equal split
// antecedents merged (then every cluster is a set).
func uaProcess(s *UASide, spans [][2]int32, it *uaItems, keepSingletons bool, split UASplitMode, withBridges bool) (*uaPart, error) {
	ne := len(s.Entities)
	markablesOf := make([][]int32, ne)
	children := make([][]int32, ne)
	for i, m := range s.Markables {
		if m.Entity < 0 || int(m.Entity) >= ne {
			return nil, invalidf("markable %d names entity %d of %d", i, m.Entity, ne)
		}
		markablesOf[m.Entity] = append(markablesOf[m.Entity], it.span(spans[i]))
		for _, p := range m.ElementOf {
			if p < 0 || int(p) >= ne {
				return nil, invalidf("markable %d is an element of entity %d of %d", i, p, ne)
			}
			children[p] = append(children[p], m.Entity)
		}
	}
	if split != UASplitExclude {
		if e := elementCycle(children); e >= 0 {
			return nil, invalidf("entity %q is an element of itself through ElementOf", s.Entities[e].Name)
		}
	}
	var clusters [][]int32
	var nonRef []int32
	for e := 0; e < ne; e++ {
		if len(markablesOf[e]) == 0 {
			continue // named by ElementOf only: no entity to score
		}
		c := append([]int32(nil), markablesOf[e]...)
		if len(children[e]) > 0 && split != UASplitExclude {
			var members [][]int32
			queue := []int32{int32(e)}
			for len(queue) > 0 {
				cur := queue[0]
				queue = queue[1:]
				if len(children[cur]) > 0 {
					queue = append(queue, children[cur]...)
				} else {
					members = append(members, append([]int32(nil), markablesOf[cur]...))
				}
			}
			c = append(c, it.split(members))
		}
		if s.Entities[e].Pseudo {
			nonRef = append(nonRef, c[0])
			continue
		}
		if !keepSingletons && len(c) == 1 {
			continue
		}
		clusters = append(clusters, c)
	}
	if split != UASplitExclude {
		clusters = mergeEqualSplits(clusters, it)
	}
	p := newPart(clusters, it)
	p.nonRef = nonRef
	if withBridges {
		p.bridges = map[int32]int32{}
		for _, b := range s.Bridging {
			if b.Anaphor < 0 || int(b.Anaphor) >= len(spans) || b.Antecedent < 0 || int(b.Antecedent) >= len(spans) {
				return nil, invalidf("bridging pair (%d, %d) names a markable out of range", b.Anaphor, b.Antecedent)
			}
			p.bridges[it.span(spans[b.Anaphor])] = it.span(spans[b.Antecedent])
		}
	}
	return p, nil
}

// elementCycle returns an entity on a cycle of the ElementOf graph, or -1.
func elementCycle(children [][]int32) int {
	state := make([]int8, len(children)) // 0 new, 1 on the path, 2 done
	var visit func(e int32) bool
	visit = func(e int32) bool {
		state[e] = 1
		for _, c := range children[e] {
			if state[c] == 1 || (state[c] == 0 && visit(c)) {
				return true
			}
		}
		state[e] = 2
		return false
	}
	for e := range children {
		if state[e] == 0 && visit(int32(e)) {
			for i, s := range state {
				if s == 1 {
					return i
				}
			}
		}
	}
	return -1
}

// mergeEqualSplits merges clusters whose split antecedents are equal (the
// paper's equivalence of plurals with the same antecedents) and makes every
// cluster a set, keeping first occurrences in order.
func mergeEqualSplits(clusters [][]int32, it *uaItems) [][]int32 {
	var out [][]int32
	var seen []map[int32]bool
	splitAt := map[int32]int{}
	for _, c := range clusters {
		at := -1
		for _, m := range c {
			if it.isSplit(m) {
				if j, ok := splitAt[m]; ok {
					at = j
					break
				}
			}
		}
		if at < 0 {
			at = len(out)
			out = append(out, nil)
			seen = append(seen, map[int32]bool{})
		}
		for _, m := range c {
			if !seen[at][m] {
				seen[at][m] = true
				out[at] = append(out[at], m)
				if it.isSplit(m) {
					splitAt[m] = at
				}
			}
		}
	}
	return out
}

// uaPartner is the split antecedent of the other side aligned to one, with
// the score it is credited by.
type uaPartner struct {
	item  int32
	score float64
}

type uaSplitMaps struct {
	recall, precision, f1 map[int32]uaPartner // key->resp (recall, f1), resp->key (precision)
}

// uaMetric is one of the UA scorer's metrics (BLANC as its two halves).
type uaMetric int8

const (
	uaMUC uaMetric = iota
	uaBcub
	uaCeafm
	uaCeafe
	uaBlancCoref
	uaBlancNoncoref
	uaLEA
	uaMentions
)

// uaCounts returns (pn, pd, rn, rd) of metric mt between a key and a
// response partition. alignment says the partitions are two split
// antecedents' antecedent clusters (MUC then counts singletons).
func uaCounts(mt uaMetric, key, resp *uaPart, it *uaItems, sm uaSplitMaps, alignment bool, stop func() bool) (pn, pd, rn, rd float64, err error) {
	switch mt {
	case uaMUC:
		pn, pd = uaMUCCounts(resp.clusters, key, key.clusterOf, sm.precision, it, alignment)
		rn, rd = uaMUCCounts(key.clusters, resp, resp.clusterOf, sm.recall, it, alignment)
	case uaBcub:
		pn, pd = uaBcubCounts(resp.clusters, key.clusterOf, sm.precision, it)
		rn, rd = uaBcubCounts(key.clusters, resp.clusterOf, sm.recall, it)
	case uaCeafm, uaCeafe:
		var sim float64
		sim, err = uaCeaf(key, resp, sm.f1, it, mt == uaCeafe, stop)
		pn, rn = sim, sim
		if mt == uaCeafe {
			pd, rd = float64(len(resp.clusters)), float64(len(key.clusters))
		} else {
			pd, rd = float64(itemCount(resp.clusters)), float64(itemCount(key.clusters))
		}
	case uaBlancCoref:
		pn = uaLinkWeight(key.clusters, resp.clusterOf, sm.f1, it)
		rn = pn
		pd, rd = linkCount(resp.clusters), linkCount(key.clusters)
	case uaBlancNoncoref:
		pn = uaNonLinkWeight(key.clusters, resp.clusterOf, sm.f1, it)
		rn = pn
		nk, nr := float64(itemCount(key.clusters)), float64(itemCount(resp.clusters))
		rd = nk*(nk-1)/2 - linkCount(key.clusters)
		pd = nr*(nr-1)/2 - linkCount(resp.clusters)
	case uaMentions:
		pn, pd = uaMentionCounts(resp.clusters, key.clusterOf)
		rn, rd = uaMentionCounts(key.clusters, resp.clusterOf)
	case uaLEA:
		pn, pd = uaLEACounts(resp.clusters, key, key.clusterOf, sm.precision, it)
		rn, rd = uaLEACounts(key.clusters, resp, resp.clusterOf, sm.recall, it)
	}
	return pn, pd, rn, rd, err
}

func itemCount(clusters [][]int32) int {
	n := 0
	for _, c := range clusters {
		n += len(c)
	}
	return n
}

func linkCount(clusters [][]int32) float64 {
	s := 0.0
	for _, c := range clusters {
		s += link(int32(len(c)))
	}
	return s
}

// uaMentionCounts is mention identification: the distinct items of
// clusters (split antecedents included, as the UA scorer's mentions
// function counts them) and how many of them the other side has.
func uaMentionCounts(clusters [][]int32, toOther map[int32]int32) (float64, float64) {
	seen := map[int32]bool{}
	correct := 0.0
	for _, c := range clusters {
		for _, m := range c {
			if seen[m] {
				continue
			}
			seen[m] = true
			if _, ok := toOther[m]; ok {
				correct++
			}
		}
	}
	return correct, float64(len(seen))
}

// resolve returns the item m counts as on the other side and its weight:
// an aligned split antecedent counts as its partner, by the alignment's
// score; anything else as itself, by 1.
func resolve(m int32, sm map[int32]uaPartner, it *uaItems) (int32, float64) {
	if it.isSplit(m) {
		if p, ok := sm[m]; ok {
			return p.item, p.score
		}
	}
	return m, 1
}

// uaMUCCounts is MUC's (numerator, denominator) of clusters against the
// other side (toOther maps its items to its clusters). A split antecedent
// aligned into a partition that its cluster already meets costs 1 - score
// instead of a whole link. With countSingletons a one-item cluster is one
// link, correct when its item is a one-item cluster of the other side.
func uaMUCCounts(clusters [][]int32, other *uaPart, toOther map[int32]int32, sm map[int32]uaPartner, it *uaItems, countSingletons bool) (float64, float64) {
	tp, p := 0.0, 0.0
	for _, c := range clusters {
		if len(c) == 1 && countSingletons {
			p++
			if g, ok := toOther[c[0]]; ok && len(other.clusters[g]) == 1 {
				tp++
			}
			continue
		}
		p += float64(len(c) - 1)
		tp += float64(len(c))
		linked := map[int32]bool{}
		split := int32(-1)
		for _, m := range c {
			if it.isSplit(m) {
				split = m
			} else if g, ok := toOther[m]; ok {
				linked[g] = true
			} else {
				tp--
			}
		}
		if split >= 0 {
			if q, ok := sm[split]; ok && linked[toOther[q.item]] {
				tp -= 1 - q.score
			} else {
				tp--
			}
		}
		tp -= float64(len(linked))
	}
	return tp, p
}

// uaBcubCounts is B-cubed's (numerator, denominator) of clusters.
func uaBcubCounts(clusters [][]int32, toOther map[int32]int32, sm map[int32]uaPartner, it *uaItems) (float64, float64) {
	num, den := 0.0, 0.0
	for _, c := range clusters {
		overlap := map[int32]float64{}
		for _, m := range c {
			if it.isSplit(m) {
				if q, ok := sm[m]; ok {
					overlap[toOther[q.item]] += q.score
				}
			} else if g, ok := toOther[m]; ok {
				overlap[g]++
			}
		}
		correct := 0.0
		for _, g := range sortedKeys(overlap) {
			correct += overlap[g] * overlap[g]
		}
		num += correct / float64(len(c))
		den += float64(len(c))
	}
	return num, den
}

func sortedKeys(m map[int32]float64) []int32 {
	keys := make([]int32, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
	return keys
}

// uaCeaf is the CEAF similarity: the best one-to-one alignment of key and
// response clusters by φ3 (shared items, an aligned split antecedent by
// its F1) or, entity-based, φ4 = 2 φ3 / (|K| + |R|).
func uaCeaf(key, resp *uaPart, f1 map[int32]uaPartner, it *uaItems, entity bool, stop func() bool) (float64, error) {
	var edges []assign.Edge
	for i, c := range key.clusters {
		overlap := map[int32]float64{}
		for _, m := range c {
			if it.isSplit(m) {
				if q, ok := f1[m]; ok {
					for _, j := range resp.in[q.item] {
						overlap[j] += q.score
					}
				}
				continue
			}
			for _, j := range resp.in[m] {
				overlap[j]++
			}
		}
		for _, j := range sortedKeys(overlap) {
			w := overlap[j]
			if entity {
				w = 2 * w / float64(len(c)+len(resp.clusters[j]))
			}
			if w > 0 {
				edges = append(edges, assign.Edge{Left: int32(i), Right: j, Weight: w})
			}
		}
	}
	total, err := assign.MaxWeightTotalPoll(len(key.clusters), len(resp.clusters), edges, stop)
	if err == assign.ErrStopped {
		return 0, errCancelled()
	}
	return total, err
}

// weightedPairs returns the sum over pairs of items of the products of
// their weights, grouped: Σ_g ((Σ w)² - Σ w²) / 2.
type pairSum struct{ sum, sq float64 }

func (p pairSum) pairs() float64 { return (p.sum*p.sum - p.sq) / 2 }

// weightGroups sums the weights (and squared weights) of cluster c's items
// by the other side's cluster each lies in; items in none are left out.
func weightGroups(c []int32, toOther map[int32]int32, sm map[int32]uaPartner, it *uaItems) map[int32]pairSum {
	groups := map[int32]pairSum{}
	for _, m := range c {
		r, w := resolve(m, sm, it)
		if g, ok := toOther[r]; ok {
			s := groups[g]
			s.sum, s.sq = s.sum+w, s.sq+w*w
			groups[g] = s
		}
	}
	return groups
}

// uaLinkWeight is BLANC's correct coreference links: the links of the key
// whose two items lie in one response cluster, each weighted by the
// product of its items' weights (an aligned split antecedent by its F1).
func uaLinkWeight(clusters [][]int32, toOther map[int32]int32, sm map[int32]uaPartner, it *uaItems) float64 {
	total := 0.0
	for _, c := range clusters {
		groups := weightGroups(c, toOther, sm, it)
		for _, g := range sortedGroupKeys(groups) {
			total += groups[g].pairs()
		}
	}
	return total
}

func sortedGroupKeys[V any](m map[int32]V) []int32 {
	keys := make([]int32, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
	return keys
}

// uaNonLinkWeight is BLANC's correct non-coreference links: pairs of items
// in different key clusters and different response clusters, weighted by
// the product of their weights.
func uaNonLinkWeight(clusters [][]int32, toOther map[int32]int32, sm map[int32]uaPartner, it *uaItems) float64 {
	var all pairSum
	byResp := map[int32]pairSum{}
	sameKey, sameBoth := 0.0, 0.0
	for _, c := range clusters {
		var k pairSum
		kr := map[int32]pairSum{}
		for _, m := range c {
			r, w := resolve(m, sm, it)
			g, ok := toOther[r]
			if !ok {
				continue
			}
			for _, p := range []*pairSum{&all, &k} {
				p.sum, p.sq = p.sum+w, p.sq+w*w
			}
			s := byResp[g]
			s.sum, s.sq = s.sum+w, s.sq+w*w
			byResp[g] = s
			s = kr[g]
			s.sum, s.sq = s.sum+w, s.sq+w*w
			kr[g] = s
		}
		sameKey += k.pairs()
		for _, g := range sortedGroupKeys(kr) {
			sameBoth += kr[g].pairs()
		}
	}
	sameResp := 0.0
	for _, g := range sortedGroupKeys(byResp) {
		sameResp += byResp[g].pairs()
	}
	return all.pairs() - sameKey - sameResp + sameBoth
}

// uaLEACounts is LEA's (numerator, denominator) of clusters: each cluster's
// size times the fraction of its links found in the other side, a link
// with an aligned split antecedent weighted by its score (once per link);
// a one-item cluster is its self-link.
func uaLEACounts(clusters [][]int32, other *uaPart, toOther map[int32]int32, sm map[int32]uaPartner, it *uaItems) (float64, float64) {
	num, den := 0.0, 0.0
	for _, c := range clusters {
		n := float64(len(c))
		if len(c) == 1 {
			if g, ok := toOther[c[0]]; ok && len(other.clusters[g]) == 1 {
				num++
			}
			den++
			continue
		}
		groups := weightGroups(c, toOther, sm, it)
		common := 0.0
		for _, g := range sortedGroupKeys(groups) {
			common += groups[g].pairs()
		}
		num += n * common / (n * (n - 1) / 2)
		den += n
	}
	return num, den
}

// uaAlign aligns the split antecedents of key and resp for metric mt: the
// metric is computed between the antecedent clusters of every key and
// response split antecedent, and the assignment of the largest total F1
// pairs them. It returns the partner maps and the alignment's own counts
// (pn, pd, rn, rd): numerators over the aligned pairs, denominators over
// all split antecedents.
func uaAlign(mt uaMetric, key, resp *uaPart, it *uaItems, stop func() bool) (uaSplitMaps, [4]float64, error) {
	var counter [4]float64
	sm := uaSplitMaps{recall: map[int32]uaPartner{}, precision: map[int32]uaPartner{}, f1: map[int32]uaPartner{}}
	nk, nr := len(key.splits), len(resp.splits)
	if nk == 0 && nr == 0 {
		return sm, counter, nil
	}
	parts := func(splits []int32) []*uaPart {
		out := make([]*uaPart, len(splits))
		for i, s := range splits {
			out[i] = newPart(it.members[s], it)
		}
		return out
	}
	kp, rp := parts(key.splits), parts(resp.splits)
	empty := newPart(nil, it)
	for _, k := range kp {
		_, _, _, rd, err := uaCounts(mt, k, empty, it, uaSplitMaps{}, true, stop)
		if err != nil {
			return sm, counter, err
		}
		counter[3] += rd
	}
	for _, r := range rp {
		_, pd, _, _, err := uaCounts(mt, empty, r, it, uaSplitMaps{}, true, stop)
		if err != nil {
			return sm, counter, err
		}
		counter[1] += pd
	}
	if nk == 0 || nr == 0 {
		return sm, counter, nil
	}
	// Only split antecedents that share a markable can score above zero:
	// the metric is computed for those pairs only (the others score 0).
	withSpan := map[int32][]int32{}
	for i, s := range key.splits {
		for _, c := range it.members[s] {
			for _, m := range c {
				if l := withSpan[m]; len(l) == 0 || l[len(l)-1] != int32(i) {
					withSpan[m] = append(l, int32(i))
				}
			}
		}
	}
	type cell struct{ pn, pd, rn, rd, f float64 }
	cells := map[[2]int32]cell{}
	var edges []assign.Edge
	for j, s := range resp.splits {
		var cand []int32
		seen := map[int32]bool{}
		for _, c := range it.members[s] {
			for _, m := range c {
				for _, i := range withSpan[m] {
					if !seen[i] {
						seen[i] = true
						cand = append(cand, i)
					}
				}
			}
		}
		sort.Slice(cand, func(a, b int) bool { return cand[a] < cand[b] })
		for _, i := range cand {
			pn, pd, rn, rd, err := uaCounts(mt, kp[i], rp[j], it, uaSplitMaps{}, true, stop)
			if err != nil {
				return sm, counter, err
			}
			c := cell{pn: pn, pd: pd, rn: rn, rd: rd, f: f1Of(pn, pd, rn, rd)}
			cells[[2]int32{i, int32(j)}] = c
			if c.f > 0 {
				edges = append(edges, assign.Edge{Left: i, Right: int32(j), Weight: c.f})
			}
		}
	}
	match, err := uaAssign(nk, nr, edges, stop)
	if err != nil {
		return sm, counter, err
	}
	for i, j := range match {
		if j < 0 {
			continue
		}
		c := cells[[2]int32{int32(i), j}]
		counter[0] += c.pn
		counter[2] += c.rn
		ks, rs := key.splits[i], resp.splits[j]
		if c.rn > 0 {
			sm.recall[ks] = uaPartner{rs, c.rn / c.rd}
		}
		if c.pn > 0 {
			sm.precision[rs] = uaPartner{ks, c.pn / c.pd}
		}
		if c.f > 0 {
			sm.f1[ks] = uaPartner{rs, c.f}
		}
	}
	return sm, counter, nil
}

// uaDenseLimit bounds the key x response split antecedents of a document
// aligned in SciPy's order (scipyOrderAssign, cubic); above it the sparse
// solver is used, which finds an equally good alignment but may break ties
// otherwise.
const uaDenseLimit = 1 << 16

// uaAssign returns the response split antecedent aligned to each key one
// (-1: none) for the largest total F1 over the edges: in SciPy's order on
// the dense matrix (the UA scorer's choice among equal totals), or on large
// documents by the sparse solver.
func uaAssign(nk, nr int, edges []assign.Edge, stop func() bool) ([]int32, error) {
	match := make([]int32, nk)
	for i := range match {
		match[i] = -1
	}
	if nk*nr <= uaDenseLimit {
		cost := make([]float64, nk*nr)
		for _, e := range edges {
			cost[int(e.Left)*nr+int(e.Right)] = -e.Weight
		}
		for _, p := range scipyOrderAssign(nk, nr, cost) {
			if cost[p[0]*nr+p[1]] < 0 {
				match[p[0]] = int32(p[1])
			}
		}
		return match, nil
	}
	sort.Slice(edges, func(a, b int) bool {
		return edges[a].Left < edges[b].Left || (edges[a].Left == edges[b].Left && edges[a].Right < edges[b].Right)
	})
	_, m, err := assign.MaxWeightPoll(nk, nr, edges, stop)
	if err == assign.ErrStopped {
		return nil, errCancelled()
	}
	return m, err
}

// f1Of is the F1 of counts, 0 when recall or precision is 0.
func f1Of(pn, pd, rn, rd float64) float64 {
	p, r := 0.0, 0.0
	if pd != 0 {
		p = pn / pd
	}
	if rd != 0 {
		r = rn / rd
	}
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// uaRegistryMetric maps the UA scorer's metrics to registry names and, for
// BLANC, to the half of its columns.
var uaRegistryMetric = []struct {
	mt     uaMetric
	name   string
	offset int
}{
	{uaMUC, "muc", 0}, {uaBcub, "bcub", 0}, {uaCeafm, "ceafm", 0}, {uaCeafe, "ceafe", 0},
	{uaBlancCoref, "blanc", 0}, {uaBlancNoncoref, "blanc", 4}, {uaLEA, "lea", 0}, {uaMentions, "mentions", 0},
}

// scoreUADoc scores one UA document into row.
func scoreUADoc(d *UADocument, opt *Options, set MetricSet, row []float64) error {
	u := opt.UA
	keepSingletons := opt.Singletons == SingletonsKeep || u.DiscourseDeixis || u.Split == UASplitOnly
	it := &uaItems{spans: map[[2]int32]int32{}, splits: map[string]int32{}}
	keySpans := minSpanMatch(&d.Key, &d.Key, false)
	respSpans := minSpanMatch(&d.Key, &d.Response, u.MinSpan)
	key, err := uaProcess(&d.Key, keySpans, it, keepSingletons, u.Split, u.Bridging)
	if err != nil {
		return sideErr(err, KeySide)
	}
	resp, err := uaProcess(&d.Response, respSpans, it, keepSingletons, u.Split, u.Bridging)
	if err != nil {
		return sideErr(err, ResponseSide)
	}
	stop := opt.Stop
	for _, rm := range uaRegistryMetric {
		i := metricIndex(rm.name)
		if !set.Has(i) {
			continue
		}
		sm, counter, err := uaAlign(rm.mt, key, resp, it, stop)
		if err != nil {
			return err
		}
		out := row[columnStart[i]+rm.offset:]
		if u.Split == UASplitOnly {
			writeRP(out, counter[2], counter[3], counter[0], counter[1])
			continue
		}
		pn, pd, rn, rd, err := uaCounts(rm.mt, key, resp, it, sm, false, stop)
		if err != nil {
			return err
		}
		writeRP(out, rn, rd, pn, pd)
	}
	if i := metricIndex(MetricNonReferring); set.Has(i) {
		tp, fn, fp := uaNonReferring(key.nonRef, resp.nonRef)
		writeRP(row[columnStart[i]:], tp, tp+fn, tp, tp+fp)
	}
	if set.Has(metricIndex(MetricBridgingAnaphora)) || set.Has(metricIndex(MetricBridgingMarkable)) ||
		set.Has(metricIndex(MetricBridgingEntity)) {
		if key.bridges == nil {
			return newError(KindOption, "bridging scores need the bridging mode")
		}
		b := uaBridging(key.bridges, resp.bridges, key.clusterOf)
		for k, name := range []string{MetricBridgingAnaphora, MetricBridgingMarkable, MetricBridgingEntity} {
			if i := metricIndex(name); set.Has(i) {
				tp, fp, fn := b[k][0], b[k][1], b[k][2]
				writeRP(row[columnStart[i]:], tp, tp+fn, tp, tp+fp)
			}
		}
	}
	return nil
}

func sideErr(err error, side SideKind) error {
	e := newError(KindMention, "%s", strings.TrimSuffix(err.Error(), ": "+ErrInvalidInput.Error()))
	e.Side = int(side)
	return e
}

// uaNonReferring counts the non-referring markables found (tp), missed (fn)
// and wrongly claimed (fp); each markable of a side counts once per
// occurrence, as in the UA scorer.
func uaNonReferring(key, resp []int32) (tp, fn, fp float64) {
	inKey, inResp := map[int32]bool{}, map[int32]bool{}
	for _, m := range key {
		inKey[m] = true
	}
	for _, m := range resp {
		inResp[m] = true
	}
	for _, m := range key {
		if inResp[m] {
			tp++
		} else {
			fn++
		}
	}
	for _, m := range resp {
		if !inKey[m] {
			fp++
		}
	}
	return tp, fn, fp
}

// uaBridging returns (tp, fp, fn) of bridging anaphora recognition, full
// bridging at markable level (the same anchor) and at entity level (an
// anchor in the key anchor's entity).
func uaBridging(key, resp map[int32]int32, keyCluster map[int32]int32) [3][3]float64 {
	var b [3][3]float64
	sameEntity := func(a, c int32) bool {
		ga, oka := keyCluster[a]
		gc, okc := keyCluster[c]
		return oka && okc && ga == gc
	}
	for ka, kant := range key {
		sant, ok := resp[ka]
		if !ok {
			b[0][2]++
			b[1][2]++
			b[2][2]++
			continue
		}
		b[0][0]++
		if kant == sant {
			b[1][0]++
			b[2][0]++
			continue
		}
		b[1][2]++
		if sameEntity(kant, sant) {
			b[2][0]++
		} else {
			b[2][2]++
		}
	}
	for sa, sant := range resp {
		kant, ok := key[sa]
		if !ok {
			b[0][1]++
			b[1][1]++
			b[2][1]++
			continue
		}
		if sant != kant {
			b[1][1]++
			if !sameEntity(sant, kant) {
				b[2][1]++
			}
		}
	}
	return b
}
