package gocore

import (
	"fmt"
	"strings"

	"github.com/pkg/errors"
)

// ErrorKind classifies an *Error. The values are those of the C ABI's
// CS_ERR_* codes.
type ErrorKind int8

// Error kinds.
const (
	KindNone         ErrorKind = 0
	KindArgument     ErrorKind = 1  // a bad call: lengths, offsets, NULL arrays
	KindOption       ErrorKind = 2  // an option's name or value
	KindMention      ErrorKind = 3  // a malformed mention, cluster id or type code
	KindDuplicate    ErrorKind = 4  // a repeated mention under DuplicatesError
	KindMissingTypes ErrorKind = 5  // a metric that reads types meets an untyped mention
	KindParse        ErrorKind = 6  // a file's content is malformed
	KindNotFound     ErrorKind = 7  // a file does not exist
	KindIO           ErrorKind = 8  // another read error
	KindCancelled    ErrorKind = 9  // the caller asked to stop
	KindInternal     ErrorKind = 10 // a bug
	// KindMissingHeads: mention matching (partial, head, dependent zeros)
	// or a metric that reads mention words (mor, zero) meets input without
	// them (Side.Shapes).
	KindMissingHeads ErrorKind = 11
)

// ErrCancelled is wrapped by errors of kind KindCancelled.
var ErrCancelled = errors.New("gocore: cancelled")

// errInternal is wrapped by errors of kind KindInternal.
var errInternal = errors.New("gocore: internal error")

// Error is an error whose facts are fields, so that a caller (the C ABI)
// reports them without reading the message. Fields that do not apply are -1
// (Line and Path: zero values). Msg says what is wrong and repeats none of
// the fields: Error() adds them for Go callers.
type Error struct {
	Kind    ErrorKind
	Doc     int    // document index (batch order, or the key file's order), -1
	Name    string // the document's name, when known
	Side    int    // 0 key, 1 response, -1
	Option  int    // index of the offending option, -1
	Mention int    // position of the mention in its side of the document, -1
	Path    string // the file, when there is one
	Line    int    // 1-based line of Path, 0 = none
	Start   int64  // first and last token of the mention in a file, -1
	End     int64
	Msg     string

	tableMention int // a metric's mention number in its Table, -1; see Table.locate
}

// newError returns an *Error of kind k with every locating field unset.
func newError(k ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: k, Doc: -1, Side: -1, Option: -1, Mention: -1, Start: -1, End: -1,
		Msg: fmt.Sprintf(format, args...), tableMention: -1}
}

// NewError is newError for the other packages of the module (readers, the C
// ABI).
func NewError(k ErrorKind, format string, args ...any) *Error { return newError(k, format, args...) }

// Error returns the message with the location in front: file and line,
// document, side and mention, as they apply.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Path != "" {
		b.WriteString(e.Path)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Doc >= 0 {
		if e.Name != "" {
			fmt.Fprintf(&b, "document %d (%q): ", e.Doc, e.Name)
		} else {
			fmt.Fprintf(&b, "document %d: ", e.Doc)
		}
	}
	if e.Side >= 0 {
		b.WriteString(SideKind(e.Side).String())
		if e.Mention >= 0 {
			fmt.Fprintf(&b, " mention %d", e.Mention)
		}
		if e.Start >= 0 {
			fmt.Fprintf(&b, " [%d, %d]", e.Start, e.End)
		}
		b.WriteString(": ")
	}
	if e.Option >= 0 {
		fmt.Fprintf(&b, "option %d: ", e.Option)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the sentinel of the kind, so errors.Is(err,
// ErrInvalidInput) and friends keep working.
func (e *Error) Unwrap() error {
	switch e.Kind {
	case KindDuplicate:
		return ErrDuplicateMention
	case KindMissingTypes:
		return ErrMissingTypes
	case KindMissingHeads:
		return ErrMissingShapes
	case KindCancelled:
		return ErrCancelled
	case KindInternal, KindNotFound, KindIO:
		return errInternal
	}
	return ErrInvalidInput
}

// AsError returns err's *Error, turning any other error into one: a
// wrapped *Error is found with errors.As (a *DocError around it fills Doc
// and Name); ErrCancelled becomes KindCancelled; input sentinels become
// KindArgument; anything else is KindInternal.
func AsError(err error) *Error {
	var out Error
	var e *Error
	var de *DocError
	switch {
	case errors.As(err, &e):
		out = *e
	case errors.Is(err, ErrCancelled):
		out = *newError(KindCancelled, "cancelled")
	case errors.Is(err, ErrMissingTypes):
		out = *newError(KindMissingTypes, "%s", trimSentinel(err))
	case errors.Is(err, ErrMissingShapes):
		out = *newError(KindMissingHeads, "%s", trimSentinel(err))
	case errors.Is(err, ErrDuplicateMention):
		out = *newError(KindDuplicate, "%s", trimSentinel(err))
	case errors.Is(err, ErrInvalidInput):
		out = *newError(KindArgument, "%s", trimSentinel(err))
	default:
		out = *newError(KindInternal, "internal error: %s", trimSentinel(err))
	}
	if errors.As(err, &de) && out.Doc < 0 {
		out.Doc, out.Name = de.Doc, de.Name
	}
	return &out
}

// trimSentinel returns err's text without the ": gocore: ..." sentinel
// suffix that errors.Wrap leaves at its end.
func trimSentinel(err error) string {
	s := err.Error()
	for _, sentinel := range []error{ErrInvalidInput, ErrDuplicateMention, ErrMissingTypes, ErrMissingShapes, errInternal} {
		s = strings.TrimSuffix(s, ": "+sentinel.Error())
	}
	return s
}

// inputError returns a KindMention error about the mention at position pos
// of one side.
func inputError(k ErrorKind, side SideKind, pos int, format string, args ...any) *Error {
	e := newError(k, format, args...)
	e.Side, e.Mention = int(side), pos
	return e
}

// WarningKind classifies a Warning; the values are the C ABI's CS_WARN_*.
type WarningKind int32

// Warning kinds.
const (
	WarnResponseOnly WarningKind = 1   // a response document with no key document
	WarnBadItem      WarningKind = 2   // a coreference item that is not a number was skipped
	WarnNamePairing  WarningKind = 3   // documents paired by a looser name rule
	WarnTypesSkipped WarningKind = 4   // typed metrics left out: some mention is untyped
	WarnOther        WarningKind = 100 // anything else
)

// Warning is a fact about the input that did not stop scoring. Fields that
// do not apply are -1 (Line: 0). Count says how many times it occurred: a
// repeated warning is kept once.
type Warning struct {
	Kind  WarningKind
	Side  int
	Doc   int
	Line  int
	Count int64
	Msg   string
}

// stopped polls opt.Stop.
func (opt *Options) stopped() bool { return opt.Stop != nil && opt.Stop() }

// errCancelled is the error of a call stopped by Options.Stop.
func errCancelled() error { return newError(KindCancelled, "cancelled") }

// poller polls a stop function from inside a long loop, once every
// pollEvery steps; nil polls nothing.
type poller struct {
	stop func() bool
	n    int
	hit  bool
}

// pollEvery is how many steps pass between two polls (a power of 2).
const pollEvery = 1024

// halt counts one step and reports whether the work must stop. It is
// small enough to be inlined in the loops that call it once per element;
// every pollEvery steps it calls tick.
func (p *poller) halt() bool {
	if p == nil {
		return false
	}
	p.n++
	if p.n&(pollEvery-1) != 0 {
		return p.hit
	}
	return p.tick()
}

// tick polls the stop function (when there is one and it has not already
// said to stop) and reports whether the work must stop.
//
//go:noinline
func (p *poller) tick() bool {
	if p.stop != nil && !p.hit && p.stop() {
		p.hit = true
	}
	return p.hit
}

// halted polls at once and reports whether the work must stop.
func (p *poller) halted() bool {
	if p != nil && p.stop != nil && !p.hit && p.stop() {
		p.hit = true
	}
	return p != nil && p.hit
}
