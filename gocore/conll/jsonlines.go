package conll

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
)

// jsonDoc is one line of a jsonlines file.
type jsonDoc struct {
	DocKey    *string             `json:"doc_key"`
	Clusters  [][][]int64         `json:"clusters"`
	Sentences [][]json.RawMessage `json:"sentences"`
}

// ReadJSONLines reads a jsonlines file as neural coreference systems write
// it: one JSON object per line,
//
//	{"doc_key": NAME, "clusters": [[[start, end], ...], ...], "sentences": [[tok, ...], ...]}
//
// where each cluster is a list of inclusive token spans, tokens numbered from
// 0 across the document. "sentences" is optional; when present its total
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
	if err := checkEmpty(data, path); err != nil {
		return nil, err
	}
	var docs []Doc
	seen := make(map[string]int)
	l := newLines(data)
	for {
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
		dec := json.NewDecoder(bytes.NewReader(line))
		if err := dec.Decode(&jd); err != nil {
			return nil, parseErr(path, l.num, "", "invalid JSON document: %v", err)
		}
		if dec.More() {
			return nil, parseErr(path, l.num, "", "more than one JSON value on the line")
		}
		if jd.DocKey == nil {
			return nil, parseErr(path, l.num, "", "no \"doc_key\"")
		}
		name := *jd.DocKey
		if first, dup := seen[name]; dup {
			return nil, parseErr(path, l.num, name, "document name repeated (first at line %d)", first)
		}
		seen[name] = l.num
		doc := Doc{Name: name, NumTokens: -1, Path: path, Line: l.num}
		if jd.Sentences != nil {
			n := 0
			for _, s := range jd.Sentences {
				n += len(s)
			}
			doc.NumTokens = n
		}
		for c, cluster := range jd.Clusters {
			for k, sp := range cluster {
				if len(sp) != 2 {
					return nil, parseErr(path, l.num, name, "cluster %d mention %d has %d numbers, want [start, end]", c, k, len(sp))
				}
				s, e := sp[0], sp[1]
				if s < 0 || e < s || e > math.MaxInt32 || (doc.NumTokens >= 0 && e >= int64(doc.NumTokens)) {
					return nil, parseErr(path, l.num, name, "cluster %d mention %d: span [%d, %d] is not inside the document's %d tokens", c, k, s, e, doc.NumTokens)
				}
				doc.Mentions = append(doc.Mentions, Mention{Start: int32(s), End: int32(e), Cluster: int64(c), Line: int32(l.num)})
			}
			doc.Entities = append(doc.Entities, strconv.Itoa(c))
		}
		docs = append(docs, doc)
	}
	if len(docs) == 0 {
		return nil, parseErr(path, 1, "", "no document")
	}
	return docs, nil
}
