package gocore

import (
	"math"
	"strconv"
	"strings"
)

// MaxWorkers is the largest worker count the workers option takes: more
// goroutines than CPUs only cost memory, and a larger number is a mistake.
const MaxWorkers = 4096

// OptionKeys lists the keys ParseOptions accepts, in the order it documents
// them.
var OptionKeys = []string{"metrics", "singletons", "duplicates", "workers", "link_weights", "da_weights",
	"da_greedy", "types_given", "span_mentions", "sums", "blanc_rule", "format", "clusters_field",
	"match", "zero_match", "preset", "allow_disjoint", "split_antecedents", "non_referring", "bridging",
	"discourse_deixis", "min_span"}

// ParseOptions validates (key, value) pairs, as a user types them, into
// Options with every default applied; this is the one place where options
// are parsed. Keys and values:
//
//	metrics         comma-separated metric names (MetricNames); omitted: the default set
//	singletons      keep | exclude
//	duplicates      warn | raise (warn keeps the first occurrence and reports the others)
//	workers         an integer from 1 to MaxWorkers; omitted: one per CPU
//	link_weights    four numbers w_nam,w_nom,w_pro,w_sing, finite, > 0 (scaled by the largest)
//	da_weights      three numbers a,b,c with a + b + c = 1, a > b > c >= 0, a > b + c
//	da_greedy       true | false
//	types_given     true | false
//	span_mentions   true | false: mention ids are packed token spans (the kk analysis repairs spans)
//	sums            exact | reference | reference-totals: B-cubed and CEAF_e numerators summed as the
//	                reference scorer does (reference-totals: only their totals over the documents in
//	                order are the reference's, see Options.ReferenceTotals)
//	blanc_rule      key | either
//	format          "" | conll2012 | conllu | jsonlines | ua
//	clusters_field  the jsonlines field of a response document's clusters
//	match           exact | partial | head: how key and response mentions are paired (MatchMode)
//	zero_match      linear | dependent | dependent-strict: how zero mentions are aligned (ZeroMatch)
//	preset          crac | conll: several options at once (ApplyPreset)
//	allow_disjoint  true | false: score files with no document name in common (see AllowDisjoint)
//	split_antecedents  keep | exclude | only (UA files; UAOptions.Split)
//	non_referring, bridging, discourse_deixis, min_span  true | false (UA files; UAOptions)
//
// A preset is applied first, wherever it stands among the pairs, so that
// keys given beside it override it: preset=crac with singletons=keep is the
// CRAC setting with singletons kept. A key given twice takes its last value. The error is an *Error of kind
// KindOption whose Option is the index of the offending pair and whose
// message names neither the key nor any caller's syntax (the caller prefixes
// the key in its own), e.g. `must be keep or exclude; got "x"`.
func ParseOptions(keys, values []string) (Options, error) {
	opt := withDefaults(Options{BlancRule: "key"})
	if len(keys) != len(values) {
		return Options{}, newError(KindArgument, "%d option keys but %d values", len(keys), len(values))
	}
	for i, key := range keys {
		if key != "preset" {
			continue
		}
		if err := ApplyPreset(&opt, values[i]); err != nil {
			e := newError(KindOption, "must be crac or conll; got %q", values[i])
			e.Option = i
			return Options{}, e
		}
	}
	for i, key := range keys {
		if key == "preset" {
			continue
		}
		if err := opt.set(key, values[i]); err != nil {
			err.Option = i
			return Options{}, err
		}
	}
	return opt, nil
}

// set applies one option.
func (opt *Options) set(key, value string) *Error {
	bad := func(format string, args ...any) *Error { return newError(KindOption, format, args...) }
	switch key {
	case "metrics":
		opt.Metrics = 0
		if strings.TrimSpace(value) == "" {
			return bad("must name at least one metric (leave it out for the default set); known metrics: %s",
				strings.Join(MetricNames(), ", "))
		}
		for _, name := range strings.Split(value, ",") {
			name = strings.TrimSpace(name)
			i := metricIndex(name)
			if i < 0 {
				return bad("unknown metric %q; known metrics: %s", name, strings.Join(MetricNames(), ", "))
			}
			opt.Metrics |= 1 << uint(i)
		}
	case "singletons":
		switch value {
		case "keep":
			opt.Singletons = SingletonsKeep
		case "exclude":
			opt.Singletons = SingletonsExclude
		default:
			return bad("must be keep or exclude; got %q", value)
		}
	case "duplicates":
		switch value {
		case "warn":
			opt.Duplicates = DuplicatesKeepFirst
		case "raise":
			opt.Duplicates = DuplicatesError
		default:
			return bad("must be warn or raise; got %q", value)
		}
	case "workers":
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil {
			return bad("must be an integer; got %q", value)
		}
		if n < 1 || n > MaxWorkers {
			return bad("must be an integer from 1 to %d (leave it out for one per CPU); got %q", MaxWorkers, value)
		}
		opt.Workers = n
	case "link_weights":
		w, e := parseFloats(value, 4, "w_nam,w_nom,w_pro,w_sing")
		if e != nil {
			return e
		}
		if err := checkLinkWeights([4]float64(w)); err != nil {
			return err.(*Error)
		}
		opt.LinkWeights = scaleLinkWeights([4]float64(w))
	case "da_weights":
		w, e := parseFloats(value, 3, "a,b,c")
		if e != nil {
			return e
		}
		if _, err := daWeightsOf(&Options{DAWeights: [3]float64(w)}); err != nil {
			return err.(*Error)
		}
		opt.DAWeights = [3]float64(w)
	case "split_antecedents":
		mode, ok := map[string]UASplitMode{"keep": UASplitKeep, "exclude": UASplitExclude, "only": UASplitOnly}[value]
		if !ok {
			return bad("must be keep, exclude or only; got %q", value)
		}
		opt.UA.Split = mode
	case "non_referring", "bridging", "discourse_deixis", "min_span":
		b, ok := map[string]bool{"true": true, "false": false}[value]
		if !ok {
			return bad("must be true or false; got %q", value)
		}
		*map[string]*bool{"non_referring": &opt.UA.NonReferring, "bridging": &opt.UA.Bridging,
			"discourse_deixis": &opt.UA.DiscourseDeixis, "min_span": &opt.UA.MinSpan}[key] = b
	case "da_greedy", "types_given", "span_mentions", "allow_disjoint":
		b, ok := map[string]bool{"true": true, "false": false}[value]
		if !ok {
			return bad("must be true or false; got %q", value)
		}
		switch key {
		case "da_greedy":
			opt.DAGreedy = b
		case "types_given":
			opt.TypesGiven = b
		case "allow_disjoint":
			opt.AllowDisjoint = b
		default:
			opt.SpanMentions = b
		}
	case "sums":
		switch value {
		case "exact":
			opt.ReferenceSums, opt.ReferenceTotals = false, false
		case "reference":
			opt.ReferenceSums, opt.ReferenceTotals = true, false
		case "reference-totals":
			opt.ReferenceSums, opt.ReferenceTotals = true, true
		default:
			return bad("must be exact, reference or reference-totals; got %q", value)
		}
	case "blanc_rule":
		if value != "key" && value != "either" {
			return bad("must be key or either; got %q", value)
		}
		opt.BlancRule = value
	case "format":
		switch value {
		case "", "conll2012", "conllu", "jsonlines", "ua":
			opt.Format = value
		default:
			return bad("must be conll2012, conllu, jsonlines or ua (or empty to guess); got %q", value)
		}
	case "clusters_field":
		if value == "" || strings.ContainsAny(value, "\"\\") {
			return bad("must be a field name; got %q", value)
		}
		opt.ClustersField = value
	case "match":
		m, err := ParseMatchMode(value)
		if err != nil || value == "" {
			return bad("must be exact, partial or head; got %q", value)
		}
		opt.Match = m
	case "zero_match":
		z, err := ParseZeroMatch(value)
		if err != nil || value == "" {
			return bad("must be linear, dependent or dependent-strict; got %q", value)
		}
		opt.ZeroMatch = z
	default:
		return bad("unknown option %q; known options: %s", key, strings.Join(OptionKeys, ", "))
	}
	return nil
}

// parseFloats parses n comma-separated numbers, each finite and >= 0, not
// all zero (all-zero weights are refused rather than read as the defaults).
func parseFloats(value string, n int, form string) ([]float64, *Error) {
	parts := strings.Split(value, ",")
	if len(parts) != n {
		return nil, newError(KindOption, "must be %d comma-separated numbers %s; got %q", n, form, value)
	}
	out := make([]float64, n)
	zero := true
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil && !math.IsInf(x, 0) {
			return nil, newError(KindOption, "must be %d comma-separated numbers %s; %q is not a number", n, form, p)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return nil, newError(KindOption, "must be finite and >= 0; got %s", strings.TrimSpace(p))
		}
		out[i] = x
		zero = zero && x == 0
	}
	if zero {
		return nil, newError(KindOption, "must not all be zero; got %q", value)
	}
	return out, nil
}
