package conll

import (
	"bytes"
	"encoding/json"

	"github.com/corefscore/corefscore/gocore"
)

// Text is the words of one document, for showing it: Words in token order
// (the readers' token numbering) and SentenceEnds, the index after each
// sentence's last word.
type Text struct {
	Words        []string
	SentenceEnds []int32
}

// Documents reads one side of a pair of files for display: the documents as
// the scoring read gives them (names, mentions with their clusters; side 1
// reads a response, whose jsonlines clusters may sit in another field) and
// each document's words. A document whose words cannot be aligned with the
// reader's tokens (a jsonlines document without "sentences") gets an empty
// Text. Errors are those of Score for that side.
func Documents(path string, side int, opt gocore.Options) ([]Doc, []Text, error) {
	var texts []Text
	docs, err := readWith(path, readOpts{format: opt.Format, types: true, response: side == 1,
		clustersField: clustersFieldOf(opt, side == 1), stop: opt.Stop, text: &texts})
	if err != nil {
		return nil, nil, sideError(err, side, path)
	}
	return docs, texts, nil
}

// clustersFieldOf is opt.ClustersField for a response, "" for a key.
func clustersFieldOf(opt gocore.Options, response bool) string {
	if response {
		return opt.ClustersField
	}
	return ""
}

// textsOf scans a file's bytes for the words of its documents (format as
// for Read; a file whose format cannot be told has none).
func textsOf(data []byte, path, format string) []Text {
	data = bytes.TrimPrefix(data, utf8BOM)
	f, err := resolveFormat(data, path, format)
	if err != nil {
		return nil
	}
	switch f {
	case FormatCoNLL2012:
		return conll2012Text(data)
	case FormatCoNLLU:
		return conlluText(data)
	default:
		return jsonlinesText(data)
	}
}

// alignTexts returns one Text per document: the scanned texts when they are
// as many as the documents, each kept only where its number of words is the
// document's number of tokens (otherwise the words cannot be aligned with the
// reader's tokens, and the document gets an empty Text).
func alignTexts(docs []Doc, texts []Text) []Text {
	out := make([]Text, len(docs))
	if len(texts) == len(docs) {
		for i := range docs {
			if len(texts[i].Words) == docs[i].NumTokens {
				out[i] = texts[i]
			}
		}
	}
	return out
}

// eachLine calls f on every line of data without its line ending, with the
// line's offset in data.
func eachLine(data []byte, f func(line []byte, at int)) {
	at := 0
	for at < len(data) {
		i := bytes.IndexByte(data[at:], '\n')
		var line []byte
		next := len(data)
		if i < 0 {
			line = data[at:]
		} else {
			line, next = data[at:at+i], at+i+1
		}
		f(trimCR(line), at)
		at = next
	}
}

// field returns the start and end of the k-th (0-based) whitespace-separated
// field of line, or -1, -1.
func field(line []byte, k int) (int, int) {
	i, n := 0, len(line)
	for {
		for i < n && isSpace(line[i]) {
			i++
		}
		if i == n {
			return -1, -1
		}
		j := i
		for j < n && !isSpace(line[j]) {
			j++
		}
		if k == 0 {
			return i, j
		}
		k--
		i = j
	}
}

// endSentence closes the open sentence of t, if it has words.
func (t *Text) endSentence() {
	n := int32(len(t.Words))
	if n > 0 && (len(t.SentenceEnds) == 0 || t.SentenceEnds[len(t.SentenceEnds)-1] < n) {
		t.SentenceEnds = append(t.SentenceEnds, n)
	}
}

// conll2012Text reads the word column (the fourth) of each document.
func conll2012Text(data []byte) []Text {
	var out []Text
	var cur *Text
	text := string(data) // one copy: the words are substrings of it
	eachLine(data, func(line []byte, at int) {
		switch {
		case isBeginLine(line):
			out = append(out, Text{})
			cur = &out[len(out)-1]
		case cur == nil:
		case isEndLine(line):
			cur.endSentence()
			cur = nil
		case isBlank(line):
			cur.endSentence()
		case line[0] == '#':
		default:
			w := ""
			if i, j := field(line, 3); i >= 0 {
				w = text[at+i : at+j]
			}
			cur.Words = append(cur.Words, w)
		}
	})
	return out
}

// conlluText reads the FORM column of each word line (not multiword tokens
// or empty nodes); "# newdoc" starts a document, as in the reader.
func conlluText(data []byte) []Text {
	var out []Text
	text := string(data)
	eachLine(data, func(line []byte, at int) {
		switch {
		case isBlank(line):
			if len(out) > 0 {
				out[len(out)-1].endSentence()
			}
		case line[0] == '#':
			rest := bytes.TrimLeft(line[1:], " \t")
			if bytes.HasPrefix(rest, []byte("newdoc")) {
				if len(out) > 0 {
					out[len(out)-1].endSentence()
				}
				out = append(out, Text{})
			}
		default:
			cols := bytes.SplitN(line, []byte{'\t'}, 3)
			if len(cols) < 2 || bytes.IndexAny(cols[0], "-.") >= 0 {
				return
			}
			if len(out) == 0 {
				out = append(out, Text{})
			}
			t := &out[len(out)-1]
			t.Words = append(t.Words, text[at+len(cols[0])+1:at+len(cols[0])+1+len(cols[1])])
		}
	})
	if len(out) > 0 {
		out[len(out)-1].endSentence()
	}
	return out
}

// jsonlinesText reads the "sentences" of each document line.
func jsonlinesText(data []byte) []Text {
	var out []Text
	eachLine(data, func(line []byte, _ int) {
		if isBlank(line) {
			return
		}
		var jd struct {
			Sentences [][]json.RawMessage `json:"sentences"`
		}
		_ = json.Unmarshal(line, &jd)
		var t Text
		for _, s := range jd.Sentences {
			for _, w := range s {
				var word string
				if json.Unmarshal(w, &word) != nil {
					word = string(w)
				}
				t.Words = append(t.Words, word)
			}
			t.endSentence()
		}
		out = append(out, t)
	})
	return out
}
