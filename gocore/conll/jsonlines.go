package conll

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/corefscore/corefscore/gocore"
)

// jsonDoc is one line of a jsonlines file.
type jsonDoc struct {
	DocKey    *string             `json:"doc_key"`
	Clusters  json.RawMessage     `json:"clusters"`
	Predicted json.RawMessage     `json:"predicted_clusters"`
	Sentences [][]json.RawMessage `json:"sentences"`
	// fast holds the mentions of "clusters" and "predicted_clusters" when
	// the fast path read them (scanJSONDoc).
	fast [2]fastClusters
}

// ReadJSONLines reads a jsonlines file as neural coreference systems write
// it: one JSON object per line,
//
//	{"doc_key": NAME, "clusters": [[[start, end], ...], ...], "sentences": [[tok, ...], ...]}
//
// where each cluster is a list of inclusive token spans, tokens numbered from
// 0 across the document. A document with no "clusters" field is an error
// (read as a response, see Score, it may have "predicted_clusters" instead,
// but not both, or the field the caller names). "sentences" is optional; when present its total
// length is the document's NumTokens (otherwise NumTokens is -1) and every
// span must lie inside it. Clusters keep their order; mentions keep their
// order within a cluster. Types are gocore.TypeUnknown. Blank lines are
// skipped. Errors (*ParseError): invalid JSON, a missing doc_key, a span
// that is not two integers 0 <= start <= end (< NumTokens when known), a
// repeated doc_key, an empty file.
func ReadJSONLines(r io.Reader, path string) ([]Doc, error) {
	data, err := readAll(r, path)
	if err != nil {
		return nil, err
	}
	return parseJSONLines(data, path)
}

func parseJSONLines(data []byte, path string) ([]Doc, error) {
	return parseJSONLinesWith(data, path, readOpts{})
}

// parseJSONLinesWith is parseJSONLines reading the clusters of a document
// from the field o asks for (see clustersOf).
func parseJSONLinesWith(data []byte, path string, o readOpts) ([]Doc, error) {
	if err := checkEmpty(data, path); err != nil {
		return nil, err
	}
	var docs []Doc
	seen := make(map[string]int)
	l := newLines(data)
	for {
		if o.stop != nil && o.stop() {
			return nil, gocore.ErrCancelled
		}
		line, problem, ok := l.next()
		if !ok {
			break
		}
		if problem != "" {
			return nil, parseErr(path, l.num, "", "%s", problem)
		}
		if isBlank(line) {
			continue
		}
		var jd jsonDoc
		nTokens, fast := -1, false
		if jsonFast {
			jd, nTokens, fast = scanJSONDoc(line)
		}
		if !fast {
			jd, nTokens = jsonDoc{}, -1 // what a partial fast scan left is dropped
			dec := json.NewDecoder(bytes.NewReader(line))
			if err := dec.Decode(&jd); err != nil {
				return nil, parseErr(path, l.num, "", "invalid JSON document: %v", err)
			}
			if dec.More() {
				return nil, parseErr(path, l.num, "", "more than one JSON value on the line")
			}
			if jd.Sentences != nil {
				nTokens = 0
				for _, s := range jd.Sentences {
					nTokens += len(s)
				}
			}
		}
		if jd.DocKey == nil {
			return nil, parseErr(path, l.num, "", "no \"doc_key\"")
		}
		name := *jd.DocKey
		if first, dup := seen[name]; dup {
			return nil, parseErr(path, l.num, name, "document name repeated (first at line %d)", first)
		}
		seen[name] = l.num
		raw, field, err := clustersField(&jd, line, o)
		if err != nil {
			return nil, parseErr(path, l.num, name, "%v", err)
		}
		doc := Doc{Name: name, NumTokens: nTokens, Path: path, Line: l.num}
		fastOK := false
		if jsonFast {
			var nClusters int
			switch field {
			case "clusters", "predicted_clusters":
				fc := jd.fast[0]
				if field == "predicted_clusters" {
					fc = jd.fast[1]
				}
				doc.Mentions, nClusters = fc.ments, fc.nClusters
				fastOK = fc.ok && placeMentions(fc.ments, int32(l.num), nTokens)
			default:
				doc.Mentions, nClusters, fastOK = fastMentions(raw, int32(l.num), nTokens)
			}
			if fastOK {
				doc.Entities = clusterLabels(nClusters)
			}
		}
		if !fastOK {
			if doc.Mentions, doc.Entities, err = mentionsOf(raw, field, int32(l.num), nTokens); err != nil {
				return nil, parseErr(path, l.num, name, "%v", err)
			}
		}
		docs = append(docs, doc)
	}
	if len(docs) == 0 {
		return nil, parseErr(path, 1, "", "no document")
	}
	return docs, nil
}

// clustersField returns the raw clusters of one jsonlines document and the
// name of their field: the field o.clustersField when set; otherwise
// "clusters", or for a response "predicted_clusters" when it has no
// "clusters" (one with both is ambiguous and refused). A document without
// the field is refused.
func clustersField(jd *jsonDoc, line []byte, o readOpts) (raw json.RawMessage, field string, err error) {
	raw, field = jd.Clusters, "clusters"
	switch {
	case o.clustersField != "" && o.clustersField != "clusters":
		field = o.clustersField
		raw = nil
		if field == "predicted_clusters" {
			raw = jd.Predicted
		} else {
			var all map[string]json.RawMessage
			if err := json.Unmarshal(line, &all); err != nil {
				return nil, "", fmt.Errorf("invalid JSON document: %v", err)
			}
			raw = all[field]
		}
		if raw == nil {
			return nil, "", fmt.Errorf("no %q field (the clusters field asked for)", field)
		}
	case o.response && o.clustersField == "" && jd.Clusters != nil && jd.Predicted != nil:
		return nil, "", errors.New(`both "clusters" and "predicted_clusters": ambiguous; name the field to read with clusters_field= (Python) or --clusters-field (command line)`)
	case o.response && o.clustersField == "" && jd.Clusters == nil && jd.Predicted != nil:
		raw, field = jd.Predicted, "predicted_clusters"
	case raw == nil && o.response:
		return nil, "", errors.New(`no "clusters" or "predicted_clusters" field`)
	case raw == nil:
		return nil, "", errors.New(`no "clusters" field`)
	}
	return raw, field, nil
}

// mentionsOf returns the mentions of raw clusters (the field named field)
// on line num of a document of nTokens tokens (-1: unknown) and their
// clusters' labels, or an error that says what is wrong: the general road,
// which fastMentions leaves every unusual or invalid value to.
func mentionsOf(raw []byte, field string, num int32, nTokens int) ([]Mention, []string, error) {
	clusters, err := decodeClusters(raw, field)
	if err != nil {
		return nil, nil, err
	}
	n := 0
	for _, cluster := range clusters {
		n += len(cluster)
	}
	var ments []Mention
	if n > 0 {
		ments = make([]Mention, 0, n) // sized once: no copies as it grows
	}
	for c, cluster := range clusters {
		for k, sp := range cluster {
			if len(sp) != 2 {
				return nil, nil, fmt.Errorf("cluster %d mention %d has %d numbers, want [start, end]", c, k, len(sp))
			}
			s, e := sp[0], sp[1]
			switch {
			case s < 0 || e < s:
				return nil, nil, fmt.Errorf("cluster %d mention %d: [%d, %d] is not a span [start, end] with 0 <= start <= end", c, k, s, e)
			case e > math.MaxInt32:
				return nil, nil, fmt.Errorf("cluster %d mention %d: span [%d, %d] ends past token 2147483647", c, k, s, e)
			case nTokens >= 0 && e >= int64(nTokens):
				return nil, nil, fmt.Errorf("cluster %d mention %d: span [%d, %d] is not inside the document's %d tokens (its \"sentences\")", c, k, s, e, nTokens)
			}
			ments = append(ments, Mention{Start: int32(s), End: int32(e), Cluster: int64(c), Line: num})
		}
	}
	return ments, clusterLabels(len(clusters)), nil
}

// decodeClusters decodes raw clusters (the field named field) into lists of
// numbers.
func decodeClusters(raw []byte, field string) ([][][]int64, error) {
	if jsonFast {
		if clusters, ok := parseClusters(raw); ok {
			return clusters, nil
		}
	}
	var clusters [][][]int64
	if err := json.Unmarshal(raw, &clusters); err != nil {
		return nil, fmt.Errorf("%q must be a list of clusters, each a list of [start, end] spans: %v", field, err)
	}
	return clusters, nil
}

// clusterLabels returns "0", "1", ... "n-1", which share the storage of one
// string (one allocation, not one per cluster); nil for n = 0.
func clusterLabels(n int) []string {
	if n == 0 {
		return nil
	}
	var digits []byte
	ends := make([]int, n)
	for c := range n {
		digits = strconv.AppendInt(digits, int64(c), 10)
		ends[c] = len(digits)
	}
	all := string(digits)
	labels := make([]string, n)
	start := 0
	for c, end := range ends {
		labels[c] = all[start:end]
		start = end
	}
	return labels
}
