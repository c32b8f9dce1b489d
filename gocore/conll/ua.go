package conll

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/corefscore/corefscore/gocore"
)

// FormatUA is the CoNLL-UA format of the Universal Anaphora initiative.
const FormatUA = "ua"

// The CoNLL-UA format: CoNLL-U-like token lines whose columns a
// "# global.columns = ..." header names; documents start at
// "# newdoc id = NAME". Three columns carry the annotation:
//
//	IDENTITY          (EntityID=e|MarkableID=m|Min=a,b|ElementOf=p,q ... and ")" closing
//	BRIDGING          (MarkableID=m|MentionAnchor=n ...)
//	DISCOURSE_DEIXIS  as IDENTITY
//
// An opening bracket starts a markable and ")" at its end makes it one
// token long; a cell's leading ")" close the markables open last. An
// EntityID ending in "-Pseudo" marks a non-referring markable; ElementOf
// lists the plural entities the markable's entity is an element of; Min is
// the minimum span as token numbers of the document counted from 1 ("a,b",
// "a" or "a-b"). Fields are separated by any run of white space. Without a
// header the columns are the UA scorer's fixed ones (11th, 12th, 13th).
// Everything the UA scorer reads is read the same way; what it would
// misread or skip is an error naming file and line.

// UADoc is one document of a CoNLL-UA file.
type UADoc struct {
	Name     string
	Path     string
	Line     int           // the line of its "# newdoc"
	Identity gocore.UASide // the IDENTITY column, with the BRIDGING pairs
	Deixis   gocore.UASide // the DISCOURSE_DEIXIS column
	Tokens   int
}

// uaHeader is the header that marks a CoNLL-UA file.
var uaHeader = []byte("# global.columns")

// IsUA reports whether data starts (after blank lines) with a
// "# global.columns" header naming an IDENTITY column (UA documents as JSON
// lines are read as format ua when it is given).
func IsUA(data []byte) bool {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		return bytes.HasPrefix(line, uaHeader) && bytes.Contains(line, []byte("IDENTITY"))
	}
	return false
}

// isUAFile reads the start of a file and tells whether it is CoNLL-UA.
// IsUAFile reports whether the file at path looks like a CoNLL-UA file
// (see isUAFile); package files routes such files to the UA scorer.
func IsUAFile(path string) bool { return isUAFile(path) }

func isUAFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := f.Read(buf)
	return IsUA(buf[:n])
}

// ReadUA reads a CoNLL-UA file.
func ReadUA(path string) ([]UADoc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseUA(data, path)
}

// uaColumns are the positions of the annotation columns.
type uaColumns struct{ identity, bridging, deixis int }

// uaMarkableRaw is a markable as read, before its references are resolved.
type uaMarkableRaw struct {
	id, entity string
	elementOf  []string
	start, end int32
	min        [2]int32
	line       int
}

type uaBridgeRaw struct {
	anaphor, anchor string
	line            int
}

// uaColumnReader reads one markable column of a document.
type uaColumnReader struct {
	markables []uaMarkableRaw
	byID      map[string]int
	stack     []int
}

// ParseUA parses CoNLL-UA data read from path, or UA documents as JSON
// lines when its first character is "{" (see uaJSONDoc).
func ParseUA(data []byte, path string) ([]UADoc, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return parseUAJSON(data, path)
	}
	cols := uaColumns{10, 11, 12}
	var docs []UADoc
	names := map[string]int{}
	var cur *UADoc
	var ident, deixis *uaColumnReader
	var bridges []uaBridgeRaw
	finish := func() error {
		if cur == nil {
			return nil
		}
		var err error
		if cur.Identity, err = ident.side(path, cur.Name); err != nil {
			return err
		}
		if cur.Deixis, err = deixis.side(path, cur.Name); err != nil {
			return err
		}
		for _, b := range bridges {
			a, ok := ident.byID[b.anaphor]
			if !ok {
				return parseErr(path, b.line, cur.Name, "bridging anaphor %q is no markable of the IDENTITY column", b.anaphor)
			}
			n, ok := ident.byID[b.anchor]
			if !ok {
				return parseErr(path, b.line, cur.Name, "bridging anchor %q is no markable of the IDENTITY column", b.anchor)
			}
			cur.Identity.Bridging = append(cur.Identity.Bridging, gocore.UABridge{Anaphor: int32(a), Antecedent: int32(n)})
		}
		docs = append(docs, *cur)
		return nil
	}
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		var raw []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			raw, data = data, nil
		}
		if bytes.IndexByte(raw, 0) >= 0 {
			return nil, nulError(path, lineNo)
		}
		line := strings.TrimSpace(string(raw))
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "# global.columns"):
			c, err := uaHeaderColumns(line, path, lineNo)
			if err != nil {
				return nil, err
			}
			cols = c
			continue
		case strings.HasPrefix(line, "# newdoc"):
			if err := finish(); err != nil {
				return nil, err
			}
			name := strings.TrimSpace(strings.TrimPrefix(line, "# newdoc"))
			name = strings.TrimSpace(strings.TrimPrefix(name, "id"))
			name = strings.TrimSpace(strings.TrimPrefix(name, "="))
			if name == "" {
				return nil, parseErr(path, lineNo, "", "a document without a name: want \"# newdoc id = NAME\"")
			}
			if first, ok := names[name]; ok {
				return nil, parseErr(path, lineNo, name, "a second document of this name (the first starts at line %d)", first)
			}
			names[name] = lineNo
			cur = &UADoc{Name: name, Path: path, Line: lineNo}
			ident, deixis = newUAColumnReader(), newUAColumnReader()
			bridges = nil
			continue
		case line[0] == '#':
			continue
		}
		if cur == nil {
			return nil, parseErr(path, lineNo, "", "a token line before the first \"# newdoc id = NAME\"")
		}
		fields := strings.Fields(line)
		need := max(cols.identity, cols.bridging, cols.deixis)
		if len(fields) <= need {
			return nil, parseErr(path, lineNo, cur.Name, "%d fields; the annotation columns need %d", len(fields), need+1)
		}
		tok := int32(cur.Tokens)
		cur.Tokens++
		if err := ident.cell(fields[cols.identity], tok, lineNo, path, cur.Name); err != nil {
			return nil, err
		}
		if cols.deixis >= 0 {
			if err := deixis.cell(fields[cols.deixis], tok, lineNo, path, cur.Name); err != nil {
				return nil, err
			}
		}
		if cols.bridging >= 0 && fields[cols.bridging] != "_" {
			bs, err := uaBridgeCell(fields[cols.bridging], lineNo, path, cur.Name)
			if err != nil {
				return nil, err
			}
			bridges = append(bridges, bs...)
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return docs, nil
}

func newUAColumnReader() *uaColumnReader { return &uaColumnReader{byID: map[string]int{}} }

// uaHeaderColumns reads the column positions from a "# global.columns" line.
func uaHeaderColumns(line, path string, lineNo int) (uaColumns, error) {
	rest := strings.TrimSpace(strings.TrimPrefix(line, "# global.columns"))
	rest = strings.TrimSpace(strings.TrimPrefix(rest, "="))
	c := uaColumns{-1, -1, -1}
	for i, name := range strings.Fields(rest) {
		switch strings.ToUpper(name) {
		case "IDENTITY":
			c.identity = i
		case "BRIDGING":
			c.bridging = i
		case "DISCOURSE_DEIXIS":
			c.deixis = i
		}
	}
	if c.identity < 0 {
		return c, parseErr(path, lineNo, "", "the global.columns header names no IDENTITY column")
	}
	return c, nil
}

// uaAttrs splits "K=V|K=V" into a map; a part without "=" is an error.
func uaAttrs(s, path string, lineNo int, doc string) (map[string]string, error) {
	out := map[string]string{}
	for _, p := range strings.Split(s, "|") {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return nil, parseErr(path, lineNo, doc, "attribute %q is not KEY=VALUE", p)
		}
		out[k] = v
	}
	return out, nil
}

// cell reads one markable cell at token tok.
func (r *uaColumnReader) cell(cell string, tok int32, lineNo int, path, doc string) error {
	if cell == "_" {
		return nil
	}
	parts := strings.Split(cell, "(")
	closeRun := func(s string) error {
		for _, ch := range s {
			if ch != ')' {
				return parseErr(path, lineNo, doc, "unexpected %q in %q: a cell is closing brackets, then openings", ch, cell)
			}
			if len(r.stack) == 0 {
				return parseErr(path, lineNo, doc, "a closing bracket with no markable open in %q", cell)
			}
			m := r.stack[len(r.stack)-1]
			r.stack = r.stack[:len(r.stack)-1]
			r.markables[m].end = tok
		}
		return nil
	}
	if err := closeRun(parts[0]); err != nil {
		return err
	}
	for _, ann := range parts[1:] {
		body := strings.TrimRight(ann, ")")
		closers := len(ann) - len(body)
		attrs, err := uaAttrs(body, path, lineNo, doc)
		if err != nil {
			return err
		}
		id, ok := attrs["MarkableID"]
		if !ok {
			return parseErr(path, lineNo, doc, "a markable without MarkableID in %q", cell)
		}
		entity, ok := attrs["EntityID"]
		if !ok {
			return parseErr(path, lineNo, doc, "markable %q has no EntityID", id)
		}
		if _, dup := r.byID[id]; dup {
			return parseErr(path, lineNo, doc, "a second markable with MarkableID %q", id)
		}
		m := uaMarkableRaw{id: id, entity: entity, start: tok, end: -1, min: [2]int32{-1, -1}, line: lineNo}
		if v, ok := attrs["ElementOf"]; ok {
			for _, p := range strings.Split(v, ",") {
				if p == "" {
					return parseErr(path, lineNo, doc, "markable %q: empty entity in ElementOf=%s", id, v)
				}
				m.elementOf = append(m.elementOf, p)
			}
		}
		if v, ok := attrs["Min"]; ok {
			if m.min, err = uaMin(v); err != nil {
				return parseErr(path, lineNo, doc, "markable %q: Min=%s: %v", id, v, err)
			}
		}
		r.byID[id] = len(r.markables)
		r.markables = append(r.markables, m)
		r.stack = append(r.stack, len(r.markables)-1)
		if closers > 0 {
			// The first ")" closes this markable, more close those open before.
			if err := closeRun(strings.Repeat(")", closers)); err != nil {
				return err
			}
		}
	}
	return nil
}

// uaMin reads a minimum span: "a,b", "a" or "a-b", token numbers from 1.
func uaMin(v string) ([2]int32, error) {
	sep := ","
	if !strings.Contains(v, ",") && strings.Contains(v, "-") {
		sep = "-"
	}
	parts := strings.Split(v, sep)
	if len(parts) > 2 {
		return [2]int32{}, errString("want a,b, a or a-b")
	}
	var out [2]int32
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return out, errString("want token numbers from 1")
		}
		out[i] = int32(n - 1)
	}
	if len(parts) == 1 {
		out[1] = out[0]
	}
	if out[1] < out[0] {
		return out, errString("the end comes before the start")
	}
	return out, nil
}

type errString string

func (e errString) Error() string { return string(e) }

// uaBridgeCell reads the bridging annotations of a cell.
func uaBridgeCell(cell string, lineNo int, path, doc string) ([]uaBridgeRaw, error) {
	parts := strings.Split(cell, "(")
	if parts[0] != "" {
		return nil, parseErr(path, lineNo, doc, "a bridging cell is \"(MarkableID=..|MentionAnchor=..)\"; got %q", cell)
	}
	var out []uaBridgeRaw
	for _, ann := range parts[1:] {
		attrs, err := uaAttrs(strings.TrimSuffix(ann, ")"), path, lineNo, doc)
		if err != nil {
			return nil, err
		}
		a, ok1 := attrs["MarkableID"]
		n, ok2 := attrs["MentionAnchor"]
		if !ok1 || !ok2 {
			return nil, parseErr(path, lineNo, doc, "a bridging annotation needs MarkableID and MentionAnchor; got %q", ann)
		}
		out = append(out, uaBridgeRaw{anaphor: a, anchor: n, line: lineNo})
	}
	return out, nil
}

// side resolves the markables of a column into a gocore.UASide. Entities
// come in the order of their first markable; ElementOf naming an entity
// with no markable is dropped (it has nothing to score), as in the UA
// scorer. Without Min, a markable's Min is -1.
func (r *uaColumnReader) side(path, doc string) (gocore.UASide, error) {
	var s gocore.UASide
	if len(r.stack) > 0 {
		m := r.markables[r.stack[len(r.stack)-1]]
		return s, parseErr(path, m.line, doc, "markable %q is never closed", m.id)
	}
	entityOf := map[string]int32{}
	for _, m := range r.markables {
		if _, ok := entityOf[m.entity]; !ok {
			entityOf[m.entity] = int32(len(s.Entities))
			s.Entities = append(s.Entities, gocore.UAEntity{Name: m.entity, Pseudo: strings.HasSuffix(m.entity, "-Pseudo")})
		}
	}
	for _, m := range r.markables {
		um := gocore.UAMarkable{Start: m.start, End: m.end, MinStart: m.min[0], MinEnd: m.min[1], Entity: entityOf[m.entity]}
		if m.min[0] >= 0 && (m.min[0] < m.start || m.min[1] > m.end) {
			return s, parseErr(path, m.line, doc, "markable %q: Min %d-%d lies outside its tokens %d-%d",
				m.id, m.min[0]+1, m.min[1]+1, m.start+1, m.end+1)
		}
		for _, p := range m.elementOf {
			if e, ok := entityOf[p]; ok {
				um.ElementOf = append(um.ElementOf, e)
			}
		}
		s.Markables = append(s.Markables, um)
	}
	return s, nil
}

// UA documents as JSON lines: one object per document, the form in which
// the Python package passes UA documents held in memory, and a file format
// of its own (read as format ua when a file's first character is "{"):
//
//	{"doc_key": "d1",
//	 "clusters": [[[0, 1], [5, 5]], [[2, 2]], [[7, 8]]],
//	 "split_antecedents": [{"plural": 2, "antecedents": [0, 1]}],
//	 "non_referring": [[10, 10]],
//	 "bridging": [[[12, 13], [0, 1]]],
//	 "min_spans": [[[0, 1], [1, 1]]],
//	 "discourse_deixis": [[[3, 4], [9, 9]]]}
//
// Spans are [first, last] tokens, 0-based and inclusive. A plural cluster's
// split antecedent lists the clusters (by index) it is made of; each
// non-referring span is an entity of its own; bridging pairs are (anaphor,
// antecedent) spans of markables; min_spans gives a markable's minimum span
// (read on the key). Markables are taken in text order (by first token,
// longer first), as a CoNLL-UA file lists them, so that a document scores
// the same in either form.
type uaJSONDoc struct {
	DocKey           string       `json:"doc_key"`
	Clusters         [][][2]int32 `json:"clusters"`
	SplitAntecedents []struct {
		Plural      int   `json:"plural"`
		Antecedents []int `json:"antecedents"`
	} `json:"split_antecedents"`
	NonReferring    [][2]int32    `json:"non_referring"`
	Bridging        [][2][2]int32 `json:"bridging"`
	MinSpans        [][2][2]int32 `json:"min_spans"`
	DiscourseDeixis [][][2]int32  `json:"discourse_deixis"`
}

// parseUAJSON reads UA documents as JSON lines.
func parseUAJSON(data []byte, path string) ([]UADoc, error) {
	var docs []UADoc
	names := map[string]int{}
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		var raw []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			raw, data = data, nil
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var j uaJSONDoc
		if err := dec.Decode(&j); err != nil {
			return nil, parseErr(path, lineNo, "", "not a UA document: %v", err)
		}
		if j.DocKey == "" {
			return nil, parseErr(path, lineNo, "", "a UA document needs a doc_key")
		}
		if first, ok := names[j.DocKey]; ok {
			return nil, parseErr(path, lineNo, j.DocKey, "a second document of this name (the first is on line %d)", first)
		}
		names[j.DocKey] = lineNo
		d, err := j.doc(path, lineNo)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// doc turns one JSON document into a UADoc.
func (j *uaJSONDoc) doc(path string, lineNo int) (UADoc, error) {
	bad := func(format string, args ...any) (UADoc, error) {
		return UADoc{}, parseErr(path, lineNo, j.DocKey, format, args...)
	}
	type mk struct {
		span   [2]int32
		entity string
	}
	var ms []mk
	for ci, c := range j.Clusters {
		if len(c) == 0 {
			return bad("cluster %d is empty", ci)
		}
		for _, s := range c {
			ms = append(ms, mk{s, strconv.Itoa(ci)})
		}
	}
	for i, s := range j.NonReferring {
		ms = append(ms, mk{s, "nr" + strconv.Itoa(i) + "-Pseudo"})
	}
	for _, m := range ms {
		if m.span[0] < 0 || m.span[1] < m.span[0] {
			return bad("span [%d, %d] is not [first, last] tokens from 0", m.span[0], m.span[1])
		}
	}
	sort.SliceStable(ms, func(a, b int) bool {
		return ms[a].span[0] < ms[b].span[0] || (ms[a].span[0] == ms[b].span[0] && ms[a].span[1] > ms[b].span[1])
	})
	r := newUAColumnReader()
	at := map[[2]int32]int{}
	for i, m := range ms {
		id := "m" + strconv.Itoa(i)
		r.byID[id] = i
		r.markables = append(r.markables, uaMarkableRaw{id: id, entity: m.entity, start: m.span[0], end: m.span[1],
			min: [2]int32{-1, -1}, line: lineNo})
		if _, ok := at[m.span]; !ok {
			at[m.span] = i
		}
	}
	for _, sa := range j.SplitAntecedents {
		if sa.Plural < 0 || sa.Plural >= len(j.Clusters) {
			return bad("split antecedent of cluster %d: no such cluster", sa.Plural)
		}
		for _, a := range sa.Antecedents {
			if a < 0 || a >= len(j.Clusters) {
				return bad("split antecedent of cluster %d names cluster %d: no such cluster", sa.Plural, a)
			}
			// The antecedent entity is an element of the plural through its first markable.
			first := at[j.Clusters[a][0]]
			r.markables[first].elementOf = append(r.markables[first].elementOf, strconv.Itoa(sa.Plural))
		}
	}
	for _, mm := range j.MinSpans {
		i, ok := at[mm[0]]
		if !ok {
			return bad("min span of [%d, %d]: no such markable", mm[0][0], mm[0][1])
		}
		r.markables[i].min = mm[1]
	}
	d := UADoc{Name: j.DocKey, Path: path, Line: lineNo}
	var err error
	if d.Identity, err = r.side(path, j.DocKey); err != nil {
		return UADoc{}, err
	}
	for _, b := range j.Bridging {
		a, ok1 := at[b[0]]
		n, ok2 := at[b[1]]
		if !ok1 || !ok2 {
			return bad("bridging pair ([%d, %d], [%d, %d]) names a span that is no markable", b[0][0], b[0][1], b[1][0], b[1][1])
		}
		d.Identity.Bridging = append(d.Identity.Bridging, gocore.UABridge{Anaphor: int32(a), Antecedent: int32(n)})
	}
	dd := newUAColumnReader()
	var dms []mk
	for ci, c := range j.DiscourseDeixis {
		for _, s := range c {
			dms = append(dms, mk{s, strconv.Itoa(ci)})
		}
	}
	sort.SliceStable(dms, func(a, b int) bool {
		return dms[a].span[0] < dms[b].span[0] || (dms[a].span[0] == dms[b].span[0] && dms[a].span[1] > dms[b].span[1])
	})
	for i, m := range dms {
		dd.markables = append(dd.markables, uaMarkableRaw{id: "d" + strconv.Itoa(i), entity: m.entity,
			start: m.span[0], end: m.span[1], min: [2]int32{-1, -1}, line: lineNo})
	}
	if d.Deixis, err = dd.side(path, j.DocKey); err != nil {
		return UADoc{}, err
	}
	return d, nil
}
