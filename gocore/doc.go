// Package gocore is the corefscore scoring engine: it scores coreference
// partitions of documents with every classic metric and returns additive
// per-document counts.
//
// The model is deliberately flat, so that the C ABI can view caller arrays
// without copying. A Document has two Sides, the key (gold) and the response
// (system); a Side is three parallel arrays: mention ids, cluster ids and an
// optional mention type per mention. Equal mention ids on the two sides mean
// the same mention; cluster ids are arbitrary non-negative labels local to a
// side.
//
// Every metric reduces, for one document, to a few numbers that add up across
// documents (a recall numerator and denominator, a precision numerator and
// denominator, and for some metrics a few more). ScoreBatch writes them into
// a dense row-major matrix counts[nDocs][NumColumns()], one named column per
// count (see Columns). Corpus scores are the sums of the rows: the micro
// average of the CoNLL reference scorer.
//
// Inside, each document is first turned into a Table: the sparse contingency
// table between key and response clusters, built in time linear in the number
// of mentions. Each metric is a function of that table:
//
//	MUC        Σ_ij (n_ij - 1) over the non-empty cells, against Σ_i (|K_i| - 1)
//	B-cubed    Σ_ij n_ij² / |K_i|  and  Σ_ij n_ij² / |R_j|
//	CEAF       maximum-weight one-to-one alignment, per connected component
//	BLANC      Σ_ij C(n_ij, 2) and the non-coreference links among common mentions
//	LEA        Σ_i |K_i| · Σ_j link(n_ij) / link(|K_i|)
//	L-metrics  Chen & Ng (2013): MUC, B-cubed and CEAF with link weights by
//	           mention type (lmetrics.go)
//	DA         Trouilleux et al. (2000): denotation assignments and their
//	           errors, from a type-weighted Dice correspondence (da.go)
//	kk         Kummerfeld & Klein (2013): errors per category of the
//	           operations that turn the response into the key (analysis.go)
//	ms         Martschat & Strube (2014): recall and precision link errors,
//	           cut edges of a spanning tree per entity, by mention types
//
// A partition is a set of sets, so a document's counts must not depend on the
// order in which it lists its clusters and mentions. Integer counts never do;
// every count that adds fractional terms (B-cubed, LEA, CEAF_e, the
// L-metrics) adds them exactly and rounds once (internal/exactsum), so its
// bits do not depend on that order either, nor on which of several tied
// optimal alignments the solver returns.
//
// The two error analyses also return one record per error (Analyze,
// AnalyzeBatch): the mentions and the key and response entities involved.
//
// Policies that the reference scorer leaves implicit are explicit Options:
// what to do with a mention that occurs twice on one side (Duplicates) and
// whether one-mention clusters are scored (Singletons).
//
// Mention matching (match.go) runs before the table is built: by default a
// key and a response mention are the same when their ids are equal (the
// CoNLL reference scorer's exact matching); Options.Match and
// Options.ZeroMatch select the CorefUD scorer's partial or head matching and
// its dependent alignment of zero mentions, which read each mention's nodes,
// head and DEPS (Side.Shapes). Matched response mentions take their key
// partner's id, so every metric scores matched mentions unchanged. The CRAC
// 2022 measures MOR and the zero score (crac.go) read the same shapes.
//
// Universal Anaphora documents (UADocument: split-antecedent plurals,
// non-referring markables, bridging, discourse deixis, minimum spans) are
// scored by ScoreUA without the table, since a split antecedent is partly
// equal to several clusters of the other side (ua.go); it writes the same
// counts columns, plus non_referring and the bridging scores.
package gocore
