package conll

import "github.com/corefscore/corefscore/gocore"

// tokenClass is what the mention-type rule needs to know about a token's
// part-of-speech tag, as a bit set. The zero value means "no tag".
type tokenClass uint8

const (
	classKnown   tokenClass = 1 << iota // the token has a tag
	classProper                         // proper noun: PTB NNP, NNPS (UPOS PROPN)
	classPronoun                        // personal, possessive or wh- pronoun: PTB PRP, PRP$, WP, WP$
	classStop                           // ends the head region: IN, TO, CC, WDT, WP, WP$, WRB, ",", ":", -LRB-
	classSkip                           // never a head: POS, punctuation
)

// classifyPTB returns the class of a Penn Treebank tag ("_" and "-" and ""
// mean no tag).
func classifyPTB(tag []byte) tokenClass {
	switch string(tag) {
	case "", "_", "-":
		return 0
	case "NNP", "NNPS":
		return classKnown | classProper
	case "PRP", "PRP$":
		return classKnown | classPronoun
	case "WP", "WP$":
		return classKnown | classPronoun | classStop
	case "IN", "TO", "CC", "WDT", "WRB", ",", ":", "-LRB-":
		return classKnown | classStop
	case "POS", ".", "``", "''", "-RRB-", "HYPH", "NFP", "$", "#":
		return classKnown | classSkip
	}
	return classKnown
}

// classifyUD returns the class of a CoNLL-U word: its XPOS when it has one
// (read as a Penn Treebank tag), otherwise its UPOS (PROPN proper; PRON
// pronoun; ADP, SCONJ, CCONJ stop; PUNCT, PART skip).
func classifyUD(upos, xpos []byte) tokenClass {
	if c := classifyPTB(xpos); c != 0 {
		return c
	}
	switch string(upos) {
	case "", "_":
		return 0
	case "PROPN":
		return classKnown | classProper
	case "PRON":
		return classKnown | classPronoun
	case "ADP", "SCONJ", "CCONJ":
		return classKnown | classStop
	case "PUNCT", "PART":
		return classKnown | classSkip
	}
	return classKnown
}

// MentionTypeOf returns the type of a mention from the classes of its tokens
// (in order) and whether its span is exactly a named-entity span of the file.
// It is the one rule used by every reader:
//
//	unknown  if some token has no part-of-speech tag
//	pronoun  if the mention is one token tagged PRP, PRP$, WP or WP$
//	         (for CoNLL-U: that XPOS, or UPOS PRON when XPOS is absent)
//	name     if the span is a named-entity span, or its head is a proper noun
//	         (NNP, NNPS; UPOS PROPN when XPOS is absent)
//	nominal  otherwise
//
// For CoNLL-2012, namedEntity means that the span is exactly a bracketed span
// of the named-entity column; for CoNLL-U, which has no such column, that the
// mention's dependency head (its first word whose HEAD lies outside the
// mention) has UPOS PROPN, the rule by which the shared gum-pos NE column was
// made from the same GUM trees.
//
// The head is found without a parse: the head region is the mention up to,
// not including, its first token after the first that is tagged IN, TO, CC,
// WDT, WP, WP$, WRB, "," ":" or -LRB- (so "the president of France" has head
// "president", "Bank of America" has head "Bank", "the man who saw Paris"
// has head "man"); the head is the last token of that region that is not a
// possessive ending or punctuation ("John 's" has head "John"). Time is
// linear in the mention's length.
func mentionTypeOf(classes []tokenClass, namedEntity bool) gocore.MentionType {
	if len(classes) == 0 {
		return gocore.TypeUnknown
	}
	for _, c := range classes {
		if c&classKnown == 0 {
			return gocore.TypeUnknown
		}
	}
	if len(classes) == 1 && classes[0]&classPronoun != 0 {
		return gocore.TypePronoun
	}
	if namedEntity {
		return gocore.TypeName
	}
	end := len(classes)
	for i := 1; i < len(classes); i++ {
		if classes[i]&classStop != 0 {
			end = i
			break
		}
	}
	h := end - 1
	for h > 0 && classes[h]&classSkip != 0 {
		h--
	}
	if classes[h]&classProper != 0 {
		return gocore.TypeName
	}
	return gocore.TypeNominal
}

// spanType returns the type of mention m given the document's token classes
// (nil when the file has no tags) and whether the mention is a named entity
// (an NE span of a CoNLL-2012 file, a PROPN-headed mention of a CoNLL-U
// file). scratch is reused for discontinuous mentions and returned.
func spanType(m *Mention, classes []tokenClass, isNE bool, scratch []tokenClass) (gocore.MentionType, []tokenClass) {
	if classes == nil {
		return gocore.TypeUnknown, scratch
	}
	var cs []tokenClass
	if m.Words == nil {
		if int(m.End) >= len(classes) || m.Start < 0 {
			return gocore.TypeUnknown, scratch
		}
		cs = classes[m.Start : m.End+1]
	} else {
		scratch = scratch[:0]
		for _, w := range m.Words {
			if int(w) >= len(classes) || w < 0 {
				return gocore.TypeUnknown, scratch
			}
			scratch = append(scratch, classes[w])
		}
		cs = scratch
	}
	return mentionTypeOf(cs, isNE), scratch
}

// packSpan packs a contiguous span into a mention id: start<<32 | end.
func packSpan(start, end int32) int64 { return int64(start)<<32 | int64(end) }
