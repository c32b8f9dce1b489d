package gocore

import (
	"strings"
)

// The four counts that most metrics reduce to, in this column order.
var rpColumns = []string{"recall_num", "recall_den", "precision_num", "precision_den"}

// metricDef is one entry of the metric registry.
type metricDef struct {
	name       string
	columns    []string // column suffixes; the full name is name + "." + suffix
	readsTypes bool     // the metric reads mention types (readers may skip them otherwise)
	// onRequest marks a count-only analysis (no recall or precision): it is
	// computed only when named, never as part of the default set.
	onRequest bool
	compute   func(t *Table, opt *Options, out []float64) error
}

// registry lists every metric, in column order. It is the one definition of
// the metric names and of the counts columns: the C ABI and Python read them
// from here.
var registry = []metricDef{
	{name: "mentions", columns: rpColumns, compute: mentionCounts},
	{name: "muc", columns: rpColumns, compute: mucCounts},
	{name: "bcub", columns: rpColumns, compute: bcubCounts},
	{name: "bcub_entity", columns: rpColumns, compute: bcubEntityCounts},
	{name: "ceafm", columns: rpColumns, compute: ceafmCounts},
	{name: "ceafe", columns: rpColumns, compute: ceafeCounts},
	{name: "blanc", columns: blancColumns, compute: blancCounts},
	{name: "lea", columns: rpColumns, compute: leaCounts},
	// The linguistically aware metrics and DA check mention types themselves
	// (typesUsable, daModeOf): they are skipped, not refused, on untyped
	// documents when every metric is selected implicitly.
	{name: "lmuc", columns: rpColumns, readsTypes: true, compute: lmucCounts},
	{name: "lbcub", columns: rpColumns, readsTypes: true, compute: lbcubCounts},
	{name: "lceafm", columns: rpColumns, readsTypes: true, compute: lceafmCounts},
	{name: "lceafe", columns: rpColumns, readsTypes: true, compute: lceafeCounts},
	{name: "da", columns: daColumns, readsTypes: true, compute: daCounts},
	// The CRAC 2022 measures read mention shapes (words, heads): they are
	// skipped, not refused, on documents without them (shapesUsable).
	{name: "mor", columns: rpColumns, compute: morCountsMetric},
	{name: "zero", columns: rpColumns, compute: zeroCounts},
	// The error analyses (analysis.go): counts of errors, no scores. They
	// use mention types when known and never refuse a document without.
	{name: "kk", columns: kkColumns, readsTypes: true, onRequest: true, compute: kkCounts},
	{name: "ms", columns: msColumns, readsTypes: true, onRequest: true, compute: msCounts},
	// The Universal Anaphora scores (ua.go): computed by ScoreUA on UA
	// documents only, so on request and refused elsewhere.
	{name: MetricNonReferring, columns: rpColumns, onRequest: true, compute: uaOnly},
	{name: MetricBridgingAnaphora, columns: rpColumns, onRequest: true, compute: uaOnly},
	{name: MetricBridgingMarkable, columns: rpColumns, onRequest: true, compute: uaOnly},
	{name: MetricBridgingEntity, columns: rpColumns, onRequest: true, compute: uaOnly},
}

// uaOnly is the compute function of the metrics that only Universal
// Anaphora documents have.
func uaOnly(*Table, *Options, []float64) error {
	return newError(KindOption, "needs Universal Anaphora files (format ua)")
}

// MetricSet is a set of metrics, one bit per registry entry in order. The
// zero set means the default set: every metric but the analyses computed on
// request only (kk, ms).
type MetricSet uint64

// Has reports whether metric i (its registry position) is in the set.
func (s MetricSet) Has(i int) bool { return s&(1<<uint(i)) != 0 || (s == 0 && !registry[i].onRequest) }

// ReadsTypes reports whether a metric of the set reads mention types: a
// reader can leave types unknown (and skip the columns they come from) when
// it does not.
func (s MetricSet) ReadsTypes() bool {
	for i, m := range registry {
		if m.readsTypes && s.Has(i) {
			return true
		}
	}
	return false
}

// ReadsSyntax reports whether the set names the Kummerfeld-Klein analysis
// ("kk"), which reads a CoNLL-2012 key's words, tags and parse
// (Document.Syntax) when the file has them.
func (s MetricSet) ReadsSyntax() bool { return s.Has(metricIndex("kk")) }

// MetricNames returns the metric names in registry order.
func MetricNames() []string {
	names := make([]string, len(registry))
	for i, m := range registry {
		names[i] = m.name
	}
	return names
}

// ParseMetrics turns metric names into a MetricSet. An empty list means all
// metrics.
func ParseMetrics(names []string) (MetricSet, error) {
	var s MetricSet
	for _, name := range names {
		i := metricIndex(name)
		if i < 0 {
			return 0, invalidf("unknown metric %q; known metrics: %s", name, strings.Join(MetricNames(), ", "))
		}
		s |= 1 << uint(i)
	}
	return s, nil
}

func metricIndex(name string) int {
	for i, m := range registry {
		if m.name == name {
			return i
		}
	}
	return -1
}

// columnStart[i] is the first column of metric i; the last entry is the total.
var columnStart = func() []int {
	starts := make([]int, len(registry)+1)
	for i, m := range registry {
		starts[i+1] = starts[i] + len(m.columns)
	}
	return starts
}()

// NumColumns returns the number of counts columns.
func NumColumns() int { return columnStart[len(registry)] }

// Columns returns the full names of the counts columns in order, such as
// "muc.recall_num" or "blanc.coref.precision_den".
func Columns() []string {
	cols := make([]string, 0, NumColumns())
	for _, m := range registry {
		for _, c := range m.columns {
			cols = append(cols, m.name+"."+c)
		}
	}
	return cols
}

// ColumnIndex returns the position of a full column name, or -1.
func ColumnIndex(name string) int {
	for i, c := range Columns() {
		if c == name {
			return i
		}
	}
	return -1
}

// link returns the number of links among n mentions, n(n-1)/2.
func link(n int32) float64 { return float64(n) * float64(n-1) / 2 }

// writeRP writes the four standard counts.
func writeRP(out []float64, recallNum, recallDen, precisionNum, precisionDen float64) {
	out[0], out[1], out[2], out[3] = recallNum, recallDen, precisionNum, precisionDen
}

// ColumnMetric returns the registry position of the metric of column i, or
// -1 when i is not a column.
func ColumnMetric(i int) int {
	if i < 0 || i >= NumColumns() {
		return -1
	}
	for m := range registry {
		if i < columnStart[m+1] {
			return m
		}
	}
	return -1
}
