package conll

import (
	"bytes"
	"strings"

	"github.com/corefscore/corefscore/gocore"
)

// conll2012Syntax reads the words, part-of-speech tags and parse cells (the
// fourth, fifth and sixth columns) of each document of a CoNLL-2012 file,
// in a pass of its own so that reading for scoring never pays for it. A
// document gets nil when one of its token lines has fewer than seven
// columns (so no parse column before the coreference one) or a parse cell
// without "*" (a file without parses has "-" there): the Kummerfeld-Klein
// analysis then reads it without a parse. It polls stop as the word scan
// does and returns nil once stop says so.
func conll2012Syntax(data []byte, stop func() bool) []*gocore.Syntax {
	data = bytes.TrimPrefix(data, utf8BOM)
	var out []*gocore.Syntax
	var cur *gocore.Syntax
	text := string(data) // one copy: the cells are substrings of it
	endSentence := func() {
		n := int32(len(cur.Words))
		if ends := cur.SentenceEnds; n > 0 && (len(ends) == 0 || ends[len(ends)-1] < n) {
			cur.SentenceEnds = append(cur.SentenceEnds, n)
		}
	}
	scan := &wordScan{data: data, stop: stop}
	scan.eachLine(func(line []byte, at int) {
		switch {
		case isBeginLine(line):
			cur = &gocore.Syntax{}
			out = append(out, cur)
		case cur == nil:
		case isEndLine(line):
			endSentence()
			cur = nil
		case isBlank(line):
			endSentence()
		case line[0] == '#':
		default:
			var cells [3]string
			for k := range cells {
				i, j := field(line, 3+k)
				if i < 0 {
					out[len(out)-1], cur = nil, nil // too few columns: no parse
					return
				}
				cells[k] = text[at+i : at+j]
			}
			if i, _ := field(line, 6); i < 0 || strings.IndexByte(cells[2], '*') < 0 {
				out[len(out)-1], cur = nil, nil
				return
			}
			cur.Words = append(cur.Words, cells[0])
			cur.Tags = append(cur.Tags, cells[1])
			cur.Parse = append(cur.Parse, cells[2])
		}
	})
	if scan.stopped {
		return nil
	}
	return out
}

// alignSyntax returns one Syntax per document (see conll2012Syntax): the
// scanned ones when they are as many as the documents, each kept only
// where its number of words is the document's number of tokens.
func alignSyntax(docs []Doc, syn []*gocore.Syntax) []*gocore.Syntax {
	out := make([]*gocore.Syntax, len(docs))
	if len(syn) == len(docs) {
		for i := range docs {
			if syn[i] != nil && len(syn[i].Words) == docs[i].NumTokens {
				out[i] = syn[i]
			}
		}
	}
	return out
}
