package conll

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/corefscore/corefscore/gocore"
)

// Text is the words of one document, for showing it: Words in token order
// (the readers' token numbering), SentenceEnds, the index after each
// sentence's last word, and NumWords, the document's number of words. A read
// with a words limit (PairExtras.WordBytes) keeps only the file's first
// words: Words then holds the first len(Words) <= NumWords of them (none for
// a document past the limit) while SentenceEnds covers the whole document.
type Text struct {
	Words        []string
	SentenceEnds []int32
	NumWords     int
}

// Documents reads one side of a pair of files for display: the documents as
// the scoring read gives them (names, mentions with their clusters; side 1
// reads a response, whose jsonlines clusters may sit in another field) and
// each document's words. A document whose words cannot be aligned with the
// reader's tokens (a jsonlines document without "sentences") gets an empty
// Text. wordBytes > 0 keeps only the first words, as PairExtras.WordBytes
// does. Errors are those of Score for that side.
func Documents(path string, side int, opt gocore.Options, wordBytes int) ([]Doc, []Text, error) {
	var texts []Text
	docs, err := readWith(path, readOpts{format: opt.Format, types: true, response: side == 1,
		clustersField: clustersFieldOf(opt, side == 1), stop: opt.Stop, text: &texts, wordBytes: wordBytes})
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
// for Read; a file whose format cannot be told has none). wordBytes > 0
// keeps only the first words, at most wordBytes bytes of them in file order
// (their bytes copied, so that the file's bytes are not kept alive); 0 keeps
// every word (substrings of one copy of the file). stop is polled every
// textPollLines lines; a stopped scan returns gocore.ErrCancelled.
func textsOf(data []byte, path, format string, wordBytes int, stop func() bool) ([]Text, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	f, err := resolveFormat(data, path, format)
	if err != nil {
		return nil, nil
	}
	s := &wordScan{data: data, limit: wordBytes, stop: stop}
	if wordBytes > 0 {
		s.kept.Grow(min(wordBytes, len(data)))
	} else {
		s.text = string(data) // one copy: the words are substrings of it
	}
	switch f {
	case FormatCoNLL2012:
		s.conll2012()
	case FormatCoNLLU:
		s.conllu()
	default:
		s.jsonlines()
	}
	if s.stopped {
		return nil, gocore.ErrCancelled
	}
	return s.out, nil
}

// textPollLines is how many lines a scan for words reads between two polls
// of the stop function (a few milliseconds of scanning).
const textPollLines = 1 << 14

// wordScan is one scan of a file's bytes for its documents' words.
type wordScan struct {
	data    []byte
	text    string // every word kept: data as a string, whose substrings the words are
	limit   int    // > 0: the most bytes of words kept (kept's capacity, so it never moves)
	kept    strings.Builder
	full    bool // a word did not fit under limit: no later word is kept
	stop    func() bool
	stopped bool
	out     []Text
}

// add counts word data[i:j] in t and keeps it if it fits.
func (s *wordScan) add(t *Text, i, j int) {
	t.NumWords++
	if s.limit <= 0 {
		t.Words = append(t.Words, s.text[i:j])
		return
	}
	if s.full || s.kept.Len()+j-i > s.limit {
		s.full = true
		return
	}
	at := s.kept.Len()
	s.kept.Write(s.data[i:j])
	// The builder's buffer was sized for limit bytes: it is never moved or
	// rewritten, so earlier words stay valid substrings of it.
	t.Words = append(t.Words, s.kept.String()[at:])
}

// addString is add for a word that is not a slice of the file (a decoded
// JSON string).
func (s *wordScan) addString(t *Text, w string) {
	t.NumWords++
	if s.limit <= 0 {
		t.Words = append(t.Words, w)
		return
	}
	if s.full || s.kept.Len()+len(w) > s.limit {
		s.full = true
		return
	}
	at := s.kept.Len()
	s.kept.WriteString(w)
	t.Words = append(t.Words, s.kept.String()[at:])
}

// alignTexts returns one Text per document: the scanned texts when they are
// as many as the documents, each kept only where its number of words is the
// document's number of tokens (otherwise the words cannot be aligned with the
// reader's tokens, and the document gets an empty Text).
func alignTexts(docs []Doc, texts []Text) []Text {
	out := make([]Text, len(docs))
	if len(texts) == len(docs) {
		for i := range docs {
			if texts[i].NumWords == docs[i].NumTokens {
				out[i] = texts[i]
			}
		}
	}
	return out
}

// eachLine calls f on every line of data without its line ending, with the
// line's offset in data, polling s.stop every textPollLines lines; it ends
// early, with s.stopped set, once stop says so.
func (s *wordScan) eachLine(f func(line []byte, at int)) {
	data := s.data
	at, lines := 0, 0
	for at < len(data) {
		if lines++; lines%textPollLines == 0 && s.stop != nil && s.stop() {
			s.stopped = true
			return
		}
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
	n := int32(t.NumWords)
	if n > 0 && (len(t.SentenceEnds) == 0 || t.SentenceEnds[len(t.SentenceEnds)-1] < n) {
		t.SentenceEnds = append(t.SentenceEnds, n)
	}
}

// conll2012 reads the word column (the fourth) of each document.
func (s *wordScan) conll2012() {
	var cur *Text
	s.eachLine(func(line []byte, at int) {
		switch {
		case isBeginLine(line):
			s.out = append(s.out, Text{})
			cur = &s.out[len(s.out)-1]
		case cur == nil:
		case isEndLine(line):
			cur.endSentence()
			cur = nil
		case isBlank(line):
			cur.endSentence()
		case line[0] == '#':
		default:
			if i, j := field(line, 3); i >= 0 {
				s.add(cur, at+i, at+j)
			} else {
				s.add(cur, at, at)
			}
		}
	})
}

// conllu reads the FORM column of each word line (not multiword tokens or
// empty nodes); "# newdoc" starts a document, as in the reader.
func (s *wordScan) conllu() {
	s.eachLine(func(line []byte, at int) {
		switch {
		case isBlank(line):
			if len(s.out) > 0 {
				s.out[len(s.out)-1].endSentence()
			}
		case line[0] == '#':
			rest := bytes.TrimLeft(line[1:], " \t")
			if bytes.HasPrefix(rest, []byte("newdoc")) {
				if len(s.out) > 0 {
					s.out[len(s.out)-1].endSentence()
				}
				s.out = append(s.out, Text{})
			}
		default:
			cols := bytes.SplitN(line, []byte{'\t'}, 3)
			if len(cols) < 2 || bytes.IndexAny(cols[0], "-.") >= 0 {
				return
			}
			if len(s.out) == 0 {
				s.out = append(s.out, Text{})
			}
			i := at + len(cols[0]) + 1
			s.add(&s.out[len(s.out)-1], i, i+len(cols[1]))
		}
	})
	if len(s.out) > 0 {
		s.out[len(s.out)-1].endSentence()
	}
}

// jsonlines reads the "sentences" of each document line.
func (s *wordScan) jsonlines() {
	s.eachLine(func(line []byte, _ int) {
		if isBlank(line) {
			return
		}
		var jd struct {
			Sentences [][]json.RawMessage `json:"sentences"`
		}
		_ = json.Unmarshal(line, &jd)
		var t Text
		for _, sent := range jd.Sentences {
			for _, w := range sent {
				var word string
				if json.Unmarshal(w, &word) != nil {
					word = string(w)
				}
				s.addString(&t, word)
			}
			t.endSentence()
		}
		s.out = append(s.out, t)
	})
}
