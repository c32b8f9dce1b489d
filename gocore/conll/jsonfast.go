package conll

import (
	"bytes"
	"encoding/json"
	"math"
)

// The jsonlines reader's fast path: a document of the usual shape is read
// by hand, in one pass over its bytes and with a few allocations per
// document, instead of through encoding/json's reflection (an allocation
// per token of "sentences" and per mention of "clusters": 25-35 MB/s). The
// fast path is strict: anything it does not fully understand (an escape in
// a key or in doc_key, a repeated or case-folded field name, a null,
// a number that is not a plain integer, invalid JSON) sends the line to
// encoding/json, whose result and messages stay those of the format.
// TestJSONFastMatchesEncodingJSON checks the two on tricky lines.

// jsonFast enables the fast path; tests turn it off to compare.
var jsonFast = true

// scanJSONDoc reads one jsonlines document of the usual shape: an object
// whose "doc_key" is a string without escapes, with optional "sentences"
// (an array of arrays, whose elements are only counted), "clusters" and
// "predicted_clusters" (kept raw, see parseClusters) and any other fields
// (skipped). nTokens is -1 without "sentences". ok is false when the line
// is anything else; the caller then decodes it with encoding/json.
func scanJSONDoc(line []byte) (jd jsonDoc, nTokens int, ok bool) {
	nTokens = -1
	i := skipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		return jd, 0, false
	}
	i = skipWS(line, i+1)
	if i < len(line) && line[i] == '}' {
		i++
	} else {
		var seen [4]bool // doc_key, sentences, clusters, predicted_clusters
		for {
			ks, ke, j, ok := plainString(line, i)
			if !ok {
				return jd, 0, false
			}
			key := line[ks:ke]
			for _, c := range key {
				if c >= 0x80 { // encoding/json folds some non-ASCII letters onto ASCII ones
					return jd, 0, false
				}
			}
			if j = skipWS(line, j); j >= len(line) || line[j] != ':' {
				return jd, 0, false
			}
			j = skipWS(line, j+1)
			field := -1
			for f, name := range [...]string{"doc_key", "sentences", "clusters", "predicted_clusters"} {
				if string(key) == name {
					field = f
				} else if equalFoldASCII(key, name) { // encoding/json would match it: leave it to it
					return jd, 0, false
				}
			}
			if field >= 0 {
				if seen[field] {
					return jd, 0, false
				}
				seen[field] = true
			}
			var end int
			switch field {
			case 0:
				s, e, next, ok := plainString(line, j)
				if !ok {
					return jd, 0, false
				}
				name := string(line[s:e])
				jd.DocKey, end = &name, next
			case 1:
				n, next, ok := countSentences(line, j)
				if !ok {
					return jd, 0, false
				}
				nTokens, end = n, next
			default:
				var fc fastClusters
				var next int
				if field >= 2 {
					fc.ments, fc.nClusters, next, fc.ok = parseMentions(line, j)
				}
				if fc.ok {
					jd.fast[field-2] = fc
				} else if next, ok = skipValue(line, j, 0); !ok || (field >= 2 && line[j] == 'n') { // null: leave it to encoding/json
					return jd, 0, false
				}
				end = next
				switch field {
				case 2:
					jd.Clusters = json.RawMessage(line[j:end])
				case 3:
					jd.Predicted = json.RawMessage(line[j:end])
				}
			}
			i = skipWS(line, end)
			if i < len(line) && line[i] == ',' {
				i = skipWS(line, i+1)
				continue
			}
			if i < len(line) && line[i] == '}' {
				i++
				break
			}
			return jd, 0, false
		}
	}
	if skipWS(line, i) != len(line) {
		return jd, 0, false
	}
	return jd, nTokens, true
}

// equalFoldASCII reports whether b and s are equal under ASCII case folding.
func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		x, y := b[i]|0x20, s[i]|0x20
		if x != y || (x < 'a' || x > 'z') && b[i] != s[i] {
			return false
		}
	}
	return true
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plainString reads a JSON string without escapes at b[i]: its contents are
// b[s:e], next is the index after its closing quote.
func plainString(b []byte, i int) (s, e, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, 0, 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return i + 1, j, j + 1, true
		case c == '\\' || c < 0x20:
			return 0, 0, 0, false
		}
	}
	return 0, 0, 0, false
}

// countSentences reads "sentences", an array of arrays of any values, and
// returns the number of values in the inner arrays.
func countSentences(b []byte, i int) (n, next int, ok bool) {
	if i >= len(b) || b[i] != '[' {
		return 0, 0, false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return 0, i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '[' {
			return 0, 0, false
		}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == ']' {
			i++
		} else {
			for {
				// A token is usually a string without escapes, then ", ":
				// read here with one table lookup a byte, no call.
				j := i + 1
				if i < len(b) && b[i] == '"' {
					for j < len(b) && !stringStop[b[j]] {
						j++
					}
				}
				if j < len(b) && b[j] == '"' && b[i] == '"' {
					i = j + 1
				} else if i, ok = skipValue(b, i, 1); !ok {
					return 0, 0, false
				}
				n++
				if i+1 < len(b) && b[i] == ',' && b[i+1] == ' ' && b[min(i+2, len(b)-1)] != ' ' {
					i += 2
					continue
				}
				i = skipWS(b, i)
				if i < len(b) && b[i] == ',' {
					i = skipWS(b, i+1)
					continue
				}
				if i < len(b) && b[i] == ']' {
					i++
					break
				}
				return 0, 0, false
			}
		}
		i = skipWS(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return n, i + 1, true
		}
		return 0, 0, false
	}
}

// stringStop marks the bytes that end the plain run of a JSON string: its
// closing quote, an escape, a control character (invalid there).
var stringStop = [256]bool{'"': true, '\\': true, 0x00: true, 0x01: true, 0x02: true, 0x03: true, 0x04: true,
	0x05: true, 0x06: true, 0x07: true, 0x08: true, 0x09: true, 0x0a: true, 0x0b: true, 0x0c: true, 0x0d: true,
	0x0e: true, 0x0f: true, 0x10: true, 0x11: true, 0x12: true, 0x13: true, 0x14: true, 0x15: true, 0x16: true,
	0x17: true, 0x18: true, 0x19: true, 0x1a: true, 0x1b: true, 0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true}

// maxJSONDepth bounds the nesting skipValue follows (encoding/json's own
// bound is 10,000; deeper values go to it).
const maxJSONDepth = 1000

// skipValue checks the JSON value at b[i] (after no white space) and returns
// the index after it; ok is false for invalid JSON.
func skipValue(b []byte, i, depth int) (next int, ok bool) {
	if i >= len(b) || depth > maxJSONDepth {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '[' || c == '{':
		closing := byte(']')
		if c == '{' {
			closing = '}'
		}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == closing {
			return i + 1, true
		}
		for {
			if c == '{' {
				if i, ok = skipString(b, i); !ok {
					return 0, false
				}
				if i = skipWS(b, i); i >= len(b) || b[i] != ':' {
					return 0, false
				}
				i = skipWS(b, i+1)
			}
			if i, ok = skipValue(b, i, depth+1); !ok {
				return 0, false
			}
			i = skipWS(b, i)
			if i < len(b) && b[i] == ',' {
				i = skipWS(b, i+1)
				continue
			}
			if i < len(b) && b[i] == closing {
				return i + 1, true
			}
			return 0, false
		}
	case c == '-' || isDigit(c):
		return skipNumber(b, i)
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
			return i + len(lit), true
		}
	}
	return 0, false
}

// skipString checks the JSON string at b[i] (the input is valid UTF-8: the
// line reader checks it) and returns the index after it.
func skipString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, true
		case c < 0x20:
			return 0, false
		case c == '\\':
			j++
			if j >= len(b) {
				return 0, false
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) {
					return 0, false
				}
				for _, h := range b[j+1 : j+5] {
					if !isDigit(h) && (h|0x20 < 'a' || h|0x20 > 'f') {
						return 0, false
					}
				}
				j += 4
			default:
				return 0, false
			}
		}
	}
	return 0, false
}

// skipNumber checks the JSON number at b[i] and returns the index after it.
func skipNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && isDigit(b[i]):
		i = digitsAt(b, i)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		j := digitsAt(b, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digitsAt(b, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

// parseClusters reads a clusters field, a list of clusters each a list of
// spans each a list of integers, as encoding/json reads it into [][][]int64,
// with three allocations instead of one per mention and per cluster. ok is
// false for anything else (a number that is not a plain integer in range,
// a null, invalid JSON): encoding/json then reads it and says what is
// wrong.
func parseClusters(raw []byte) (clusters [][][]int64, ok bool) {
	// First pass: count, and check the shape.
	nClusters, nSpans, nNums := 0, 0, 0
	if !walkClusters(raw, func(level int, _ int64) {
		switch level {
		case 0:
			nClusters++
		case 1:
			nSpans++
		default:
			nNums++
		}
	}) {
		return nil, false
	}
	nums := make([]int64, 0, nNums)
	spans := make([][]int64, 0, nSpans)
	clusters = make([][][]int64, 0, nClusters)
	spanStart, clusterStart := 0, 0
	walkClusters(raw, func(level int, v int64) {
		switch level {
		case 0: // a cluster ends
			clusters = append(clusters, spans[clusterStart:len(spans):len(spans)])
			clusterStart = len(spans)
		case 1: // a span ends
			spans = append(spans, nums[spanStart:len(nums):len(nums)])
			spanStart = len(nums)
		default:
			nums = append(nums, v)
		}
	})
	return clusters, true
}

// plainInt reads a JSON number at b[i] that is an integer without a
// fraction or an exponent and fits an int64, and returns the index after it.
func plainInt(b []byte, i int) (v int64, next int, ok bool) {
	if i >= len(b) {
		return 0, 0, false
	}
	j, ok := skipNumber(b, i)
	if !ok {
		return 0, 0, false
	}
	neg := b[i] == '-'
	k := i
	if neg {
		k++
	}
	var u uint64
	for ; k < j; k++ {
		c := b[k]
		if !isDigit(c) || u > (math.MaxUint64-9)/10 {
			return 0, 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	switch {
	case !neg && u <= math.MaxInt64:
		return int64(u), j, true
	case neg && u <= 1<<63:
		return int64(-u), j, true // -u wraps to MinInt64 exactly at 1<<63
	}
	return 0, 0, false
}

// walkClusters parses raw as [[[int, ...], ...], ...] (white space
// anywhere), calling visit(2, v) for each number, visit(1, 0) at the end of
// each span and visit(0, 0) at the end of each cluster; false for anything
// else.
func walkClusters(raw []byte, visit func(level int, v int64)) bool {
	var list func(i, level int) (int, bool)
	list = func(i, level int) (int, bool) {
		if i >= len(raw) || raw[i] != '[' {
			return 0, false
		}
		i = skipWS(raw, i+1)
		if i < len(raw) && raw[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if level < 2 {
				if i, ok = list(i, level+1); !ok {
					return 0, false
				}
				visit(level, 0)
			} else {
				v, j, ok := plainInt(raw, i)
				if !ok { // a fraction, an exponent, out of range, not a number
					return 0, false
				}
				visit(2, v)
				i = j
			}
			i = skipWS(raw, i)
			if i < len(raw) && raw[i] == ',' {
				i = skipWS(raw, i+1)
				continue
			}
			if i < len(raw) && raw[i] == ']' {
				return i + 1, true
			}
			return 0, false
		}
	}
	i, ok := list(skipWS(raw, 0), 0)
	return ok && skipWS(raw, i) == len(raw)
}

// fastClusters are the mentions of a clusters field that parseMentions
// read (ok), their Line not yet set.
type fastClusters struct {
	ments     []Mention
	nClusters int
	ok        bool
}

// parseMentions reads a clusters field of the usual shape at b[i], [[[start,
// end], ...], ...] with every number a plain non-negative decimal (no sign,
// fraction, exponent or leading zero) and every span valid as far as the
// field alone says (start <= end <= 2147483647), straight into mentions, in
// one pass and one allocation, and returns the index after it; nClusters
// counts the empty clusters too. ok is false for anything else, which
// skipValue and mentionsOf then read (and refuse with their messages). The
// mentions are fewer than the "[" of the field, which bytes.Count finds at
// memory speed, so the array is sized once; nil when there are none.
func parseMentions(b []byte, i int) (ments []Mention, nClusters, next int, ok bool) {
	start := i
	if i >= len(b) || b[i] != '[' {
		return nil, 0, 0, false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil, 0, i + 1, true
	}
	for c := int64(0); ; c++ { // a cluster
		if i >= len(b) || b[i] != '[' {
			return nil, 0, 0, false
		}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == ']' {
			i++
		} else {
			for { // a span
				if i >= len(b) || b[i] != '[' {
					return nil, 0, 0, false
				}
				if ments == nil {
					// The usual field ends at its first "]]]": the spans are
					// fewer than its "[". (Written otherwise, the array grows.)
					if end := bytes.Index(b[i:], []byte("]]]")); end >= 0 {
						ments = make([]Mention, 0, max(1, bytes.Count(b[start:i+end], []byte{'['})-2))
					}
				}
				var s, e int64
				if s, i, ok = spanNumber(b, skipWS(b, i+1)); !ok {
					return nil, 0, 0, false
				}
				if i = skipWS(b, i); i >= len(b) || b[i] != ',' {
					return nil, 0, 0, false
				}
				if e, i, ok = spanNumber(b, skipWS(b, i+1)); !ok || e < s || e > math.MaxInt32 {
					return nil, 0, 0, false
				}
				if i = skipWS(b, i); i >= len(b) || b[i] != ']' {
					return nil, 0, 0, false
				}
				ments = append(ments, Mention{Start: int32(s), End: int32(e), Cluster: c})
				i = skipWS(b, i+1)
				if i < len(b) && b[i] == ',' {
					i = skipWS(b, i+1)
					continue
				}
				if i < len(b) && b[i] == ']' {
					i++
					break
				}
				return nil, 0, 0, false
			}
		}
		i = skipWS(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return ments, int(c) + 1, i + 1, true
		}
		return nil, 0, 0, false
	}
}

// fastMentions reads raw clusters with parseMentions: the mentions of a
// document on line num of nTokens tokens (-1: unknown); ok is false when
// parseMentions cannot read them or a span ends past the document.
func fastMentions(raw []byte, num int32, nTokens int) (ments []Mention, nClusters int, ok bool) {
	ments, nClusters, next, ok := parseMentions(raw, skipWS(raw, 0))
	if !ok || skipWS(raw, next) != len(raw) {
		return nil, 0, false
	}
	return ments, nClusters, placeMentions(ments, num, nTokens)
}

// placeMentions sets the line of mentions read by parseMentions and
// reports whether they all end inside a document of nTokens tokens (-1:
// unknown).
func placeMentions(ments []Mention, num int32, nTokens int) bool {
	limit := int32(math.MaxInt32)
	if nTokens >= 0 {
		limit = int32(min(nTokens-1, math.MaxInt32))
	}
	for k := range ments {
		if ments[k].End > limit {
			return false
		}
		ments[k].Line = num
	}
	return true
}

// spanNumber reads a plain non-negative decimal of at most 10 digits at
// b[i] ("0" or digits without a leading zero) followed by something other
// than a digit, ".", "e" or "E", and returns it and the index after it.
func spanNumber(b []byte, i int) (v int64, next int, ok bool) {
	j := i
	for j < len(b) && j-i <= 10 && isDigit(b[j]) {
		v = v*10 + int64(b[j]-'0')
		j++
	}
	if j == i || j-i > 10 || (b[i] == '0' && j-i > 1) {
		return 0, 0, false
	}
	if j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E') {
		return 0, 0, false
	}
	return v, j, true
}
