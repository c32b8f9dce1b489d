package gocore

import (
	"fmt"

	"github.com/pkg/errors"
)

// MentionType is the linguistic type of a mention, used by the
// linguistically aware metrics and by DA. The int8 codes are part of the C ABI.
type MentionType int8

// Mention type codes. TypeUnknown means the caller gave no type.
const (
	TypeUnknown MentionType = 0
	TypeName    MentionType = 1
	TypeNominal MentionType = 2
	TypePronoun MentionType = 3
)

// String returns the lower-case name used by the Python API ("name",
// "nominal", "pronoun", "unknown").
func (t MentionType) String() string {
	switch t {
	case TypeName:
		return "name"
	case TypeNominal:
		return "nominal"
	case TypePronoun:
		return "pronoun"
	case TypeUnknown:
		return "unknown"
	}
	return fmt.Sprintf("MentionType(%d)", int8(t))
}

// Side is one annotation of a document (the key or the response): parallel
// arrays with one entry per mention. Types is either nil (no types known) or
// as long as Mentions.
type Side struct {
	Mentions []int64
	Clusters []int64
	Types    []MentionType
	// Shapes is either nil or as long as Mentions: the nodes, head and
	// dependencies of each mention, which partial and head matching, the
	// dependent zero alignment, MOR and the zero score read (the CoNLL-U
	// reader fills it). Mentions with equal ids must have equal nodes.
	Shapes []Shape
}

// Len returns the number of mentions on the side, duplicates included.
func (s Side) Len() int { return len(s.Mentions) }

// Document is one key/response pair to score.
type Document struct {
	Name     string
	Key      Side
	Response Side
	// Syntax, when not nil, is the key's words, tags and parse (CoNLL-2012
	// files that have them); mention ids are then packed token spans of it.
	// Only the Kummerfeld-Klein analysis reads it (see kkSyntax).
	Syntax *Syntax
}

// SideKind names a side in reports.
type SideKind int8

// The two sides of a document.
const (
	KeySide      SideKind = 0
	ResponseSide SideKind = 1
)

// String returns "key" or "response".
func (s SideKind) String() string {
	if s == KeySide {
		return "key"
	}
	return "response"
}

// SingletonPolicy says whether one-mention clusters are scored.
type SingletonPolicy int8

const (
	// SingletonsKeep scores singletons, as the CoNLL reference scorer does
	// (the default).
	SingletonsKeep SingletonPolicy = 0
	// SingletonsExclude drops one-mention clusters on both sides before
	// scoring, the CorefUD convention. Sizes are taken after duplicates are
	// removed.
	SingletonsExclude SingletonPolicy = 1
)

// DuplicatePolicy says what happens when a mention id occurs more than once
// on one side of a document.
type DuplicatePolicy int8

const (
	// DuplicatesKeepFirst keeps the first occurrence (in array order) and
	// reports every later one (the default). On the reference scorer's test
	// cases A7-A9 this gives its numbers: it too drops a repeated response
	// mention that matches a key mention. It differs from the reference only
	// where the reference itself is inconsistent: a repeated key mention, or a
	// repeated response mention with no key twin, which the reference keeps in
	// both clusters.
	DuplicatesKeepFirst DuplicatePolicy = 0
	// DuplicatesError refuses the document with ErrDuplicateMention.
	DuplicatesError DuplicatePolicy = 1
)

// Duplicate reports a mention that occurs more than once on one side.
type Duplicate struct {
	Doc          int // index of the document in the batch
	Side         SideKind
	Mention      int64 // the repeated mention id
	Pos          int   // its position in the side's arrays of the document
	FirstCluster int64 // the cluster of its first (kept) occurrence
	Cluster      int64 // the cluster of this (dropped) occurrence
}

// Options are the engine's switches. The zero value is the reference
// scorer's behaviour with every metric.
type Options struct {
	// Metrics selects metrics; the zero set means all metrics. Columns of
	// metrics not selected are left at zero.
	Metrics MetricSet
	// Singletons is the singleton policy.
	Singletons SingletonPolicy
	// Duplicates is the duplicate-mention policy.
	Duplicates DuplicatePolicy
	// Workers bounds the number of goroutines that score documents; values
	// below 1 mean runtime.GOMAXPROCS(0). Results do not depend on it.
	Workers int
	// LinkWeights is (w_nam, w_nom, w_pro, w_sing) for the linguistically
	// aware metrics; the zero value means DefaultLinkWeights.
	LinkWeights [4]float64
	// DAWeights is (a, b, c) for the DA similarity; the zero value means
	// DefaultDAWeights.
	DAWeights [3]float64
	// DAGreedy selects the paper's greedy correspondence heuristic instead of
	// the optimal one-to-one correspondence.
	DAGreedy bool
	// Match is how key and response mentions are paired before scoring
	// (see MatchMode); anything but MatchExact needs Side.Shapes with heads.
	Match MatchMode
	// ZeroMatch is how zero mentions are aligned (see ZeroMatch);
	// ZeroDependent needs Side.Shapes.
	ZeroMatch ZeroMatch
	// lookupView asks matching for one of the CorefUD scorer's lookups
	// where they differ from its key-side ones (scoreDocOn, scorerLookups).
	lookupView lookupView
	// ReferenceSums makes the B-cubed and CEAF_e numerators sums of the
	// same terms, in the same order, as those of the CoNLL reference scorer
	// v8.01 (see refBcubNums and refCeafeNum), so that a document read in
	// the reference's order (gocore/conll keeps it) gets Perl's numerators
	// bit for bit and its printed, truncated percentages. The default adds
	// one term per contingency-table cell instead; the two differ in the last
	// bits only. The drop-in text output asks for it.
	ReferenceSums bool
	// ReferenceTotals, with ReferenceSums, asks Score for the reference's
	// CEAF_e numerators only where a caller that prints corpus totals reads
	// them: summed over the documents in order (row 0 first, from 0, as the
	// drop-in form's totals are), they are the reference's bit for bit, but
	// the numerator of a document whose optimal alignments tie may be
	// another of its candidates' (refCeafeLow), which spares most
	// documents the reference's Munkres. Score alone reads it
	// (ScoreDocument's one row is its own total: it ignores it).
	ReferenceTotals bool
	// SpanMentions says that mention ids are packed token spans,
	// start<<32 | end with an inclusive end (the conll readers' ids and the
	// Python package's span packing); ids with bit 62 or 63 set are not
	// spans. The Kummerfeld-Klein analysis (metric "kk") then repairs span
	// errors: as the Berkeley analyser does when the document has a Syntax,
	// otherwise pairing response and key mentions whose spans overlap;
	// without it no span error is found and ids are opaque.
	SpanMentions bool
	// TypesGiven says the caller supplied mention types: an untyped mention
	// is then an error for the typed metrics of the default set, rather than
	// a reason to leave them out (see Score).
	TypesGiven bool
	// MaxDuplicates bounds the repeated-mention records kept: 0 keeps all,
	// a negative value none. They are counted either way.
	MaxDuplicates int
	// Stop, when not nil, is polled while scoring; once it returns true the
	// call gives up with an error of kind KindCancelled.
	Stop func() bool
	// BlancRule is the BLANC averaging rule ("key" or "either"), validated
	// here and applied by the caller's arithmetic on the counts.
	BlancRule string
	// Format and ClustersField are read by the file readers (package conll):
	// the files' format ("" guesses it) and the jsonlines field holding a
	// response document's clusters ("" reads "clusters", else
	// "predicted_clusters").
	Format        string
	ClustersField string
	// AllowDisjoint makes the file readers score a key and a response that
	// have no document name in common, every key document against an empty
	// response; by default they refuse them (see conll.Pair).
	AllowDisjoint bool
	// UA holds the Universal Anaphora modes, read by ScoreUA (and refused
	// by the file readers for other formats).
	UA UAOptions
}

// Sentinel errors that callers can test with errors.Is.
var (
	// ErrInvalidInput is wrapped by every error about malformed input.
	ErrInvalidInput = errors.New("gocore: invalid input")
	// ErrDuplicateMention is returned under DuplicatesError.
	ErrDuplicateMention = errors.New("gocore: duplicate mention")
	// ErrMissingTypes is returned when a metric needs mention types that the
	// input lacks.
	ErrMissingTypes = errors.New("gocore: mention types missing")
	// ErrMissingShapes is returned when mention matching or a metric needs
	// mention nodes or heads (Side.Shapes) that the input lacks.
	ErrMissingShapes = errors.New("gocore: mention nodes or heads missing")
)

// DocError is an error about one document of a batch.
type DocError struct {
	Doc  int    // index in the batch
	Name string // document name, may be empty
	Err  error
}

// Error names the document by index and, when known, by name.
func (e *DocError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("document %d (%q): %v", e.Doc, e.Name, e.Err)
	}
	return fmt.Sprintf("document %d: %v", e.Doc, e.Err)
}

// Unwrap returns the underlying error.
func (e *DocError) Unwrap() error { return e.Err }

// invalidf returns an error wrapping ErrInvalidInput with a description.
func invalidf(format string, args ...any) error {
	return errors.Wrapf(ErrInvalidInput, format, args...)
}
