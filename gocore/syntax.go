package gocore

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Syntax is what a CoNLL-2012 file says about the words of one document
// beyond its coreference: the words, their part-of-speech tags and the
// constituency parse, one cell per token as in the file's parse column
// ("(TOP(S(NP*", "*)", ...). The Kummerfeld-Klein analysis reads it to find
// mention heads and types as the Berkeley Coreference Analyser does (see
// kkSyntax); every other metric ignores it. Words, Tags and Parse are as
// long as the document has tokens; SentenceEnds holds the index after each
// sentence's last token.
type Syntax struct {
	Words        []string
	Tags         []string
	Parse        []string
	SentenceEnds []int32
}

// kkSyntax is a document's parse as the Berkeley Coreference Analyser
// reads it (nlp_util: treebanks.conll_read_tree, then
// head_finder.collins_find_heads): one tree per sentence, built from the
// parse cells verbatim (no label clean-up, function tags kept), each
// constituent's head found by Collins's head table with the analyser's
// noun-phrase rules. Token indices are the document's.
type kkSyntax struct {
	s *Syntax
	// spanHead maps a constituent's span (start<<32 | end, inclusive end)
	// to its head token. Constituents with one span form a unary chain,
	// whose members share their head, so the span says it.
	spanHead map[int64]int32
	// nodes and heads are the constituents of the sentence being built and
	// the head token of each closed one (-1 while open).
	nodes []constituent
	heads []int32
}

// newKKSyntax builds the trees of s; it returns nil when a sentence cannot
// be read as a tree (a cell without "*", brackets that do not balance
// within the sentence), where the analyser would fail.
func newKKSyntax(s *Syntax) *kkSyntax {
	n := len(s.Words)
	if len(s.Tags) != n || len(s.Parse) != n {
		return nil
	}
	k := &kkSyntax{s: s, spanHead: make(map[int64]int32, n)}
	start := int32(0)
	for _, end := range s.SentenceEnds {
		if end <= start || int(end) > n || !k.sentence(start, end) {
			return nil
		}
		start = end
	}
	if int(start) != n {
		return nil
	}
	return k
}

// constituent is a node of a tree being built: its label, first token and
// children (a child < 0 is the token -child-1, a leaf).
type constituent struct {
	label string
	start int32
	kids  []int32 // node indices, or -(token+1) for a leaf
}

// sentence builds the tree of tokens [start, end) and records the head of
// every constituent in k.spanHead. It reports whether the cells form one
// well-bracketed tree.
func (k *kkSyntax) sentence(start, end int32) bool {
	s := k.s
	k.nodes, k.heads = k.nodes[:0], k.heads[:0]
	var stack []int32
	var roots int
	for tok := start; tok < end; tok++ {
		cell := s.Parse[tok]
		star := strings.IndexByte(cell, '*')
		if star < 0 {
			return false
		}
		// Opening brackets: each "(" starts a node labelled by what follows
		// it up to the next "(" (the analyser's tree_from_text).
		for _, label := range strings.Split(cell[:star], "(")[1:] {
			label = strings.TrimSpace(label)
			if label == "" {
				return false
			}
			k.nodes = append(k.nodes, constituent{label: label, start: tok})
			k.heads = append(k.heads, -1)
			idx := int32(len(k.nodes) - 1)
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				k.nodes[p].kids = append(k.nodes[p].kids, idx)
			} else {
				roots++
			}
			stack = append(stack, idx)
		}
		leaf := -(tok + 1)
		if len(stack) == 0 {
			roots++
		} else {
			p := stack[len(stack)-1]
			k.nodes[p].kids = append(k.nodes[p].kids, leaf)
		}
		k.spanHead[packKKSpan(tok, tok)] = tok
		for _, c := range cell[star+1:] {
			if c != ')' {
				continue
			}
			if len(stack) == 0 {
				return false
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			h := k.headOf(top)
			k.heads[top] = h
			k.spanHead[packKKSpan(k.nodes[top].start, tok)] = h
		}
	}
	return len(stack) == 0 && roots == 1
}

func packKKSpan(start, end int32) int64 { return int64(start)<<32 | int64(end) }

// kidLabel and kidHead are a child's label (a leaf's is its tag) and head
// token.
func (k *kkSyntax) kidLabel(kid int32) string {
	if kid < 0 {
		return k.s.Tags[-kid-1]
	}
	return k.nodes[kid].label
}

func (k *kkSyntax) kidHead(kid int32) int32 {
	if kid < 0 {
		return -kid - 1
	}
	return k.heads[kid]
}

// collinsRule is a row of the analyser's head table: the direction in which
// children are searched and the labels (or head tags) searched for, in
// priority order.
type collinsRule struct {
	right  bool
	labels []string
}

// collinsTable is the analyser's head table (nlp_util/head_finder.py's
// collins_mapping_table: Collins's (1999) table with his changes, plus NX, X
// and META rows of its own). NP and NML have their own rules (collinsNP);
// any other label takes its last child's head.
var collinsTable = map[string]collinsRule{
	"ADJP":   {true, []string{"NNS", "QP", "NN", "$", "ADVP", "JJ", "VBN", "VBG", "ADJP", "JJR", "NP", "JJS", "DT", "FW", "RBR", "RBS", "SBAR", "RB"}},
	"ADVP":   {false, []string{"RB", "RBR", "RBS", "FW", "ADVP", "TO", "CD", "JJR", "JJ", "IN", "NP", "JJS", "NN"}},
	"CONJP":  {false, []string{"CC", "RB", "IN"}},
	"FRAG":   {false, nil},
	"INTJ":   {true, nil},
	"LST":    {false, []string{"LS", ":"}},
	"NAC":    {true, []string{"NN", "NNS", "NNP", "NNPS", "NP", "NAC", "EX", "$", "CD", "QP", "PRP", "VBG", "JJ", "JJS", "JJR", "ADJP", "FW"}},
	"PP":     {false, []string{"IN", "TO", "VBG", "VBN", "RP", "FW"}},
	"PRN":    {true, nil},
	"PRT":    {false, []string{"RP"}},
	"QP":     {true, []string{"$", "IN", "NNS", "NN", "JJ", "RB", "DT", "CD", "NCD", "QP", "JJR", "JJS"}},
	"RRC":    {false, []string{"VP", "NP", "ADVP", "ADJP", "PP"}},
	"S":      {true, []string{"TO", "IN", "VP", "S", "SBAR", "ADJP", "UCP", "NP"}},
	"SBAR":   {true, []string{"WHNP", "WHPP", "WHADVP", "WHADJP", "IN", "DT", "S", "SQ", "SINV", "SBAR", "FRAG"}},
	"SBARQ":  {true, []string{"SQ", "S", "SINV", "SBARQ", "FRAG"}},
	"SINV":   {true, []string{"VBZ", "VBD", "VBP", "VB", "MD", "VP", "S", "SINV", "ADJP", "NP"}},
	"SQ":     {true, []string{"VBZ", "VBD", "VBP", "VB", "MD", "VP", "SQ"}},
	"UCP":    {false, nil},
	"VP":     {true, []string{"TO", "VBD", "VBN", "MD", "VBZ", "VB", "VBG", "VBP", "VP", "ADJP", "NN", "NNS", "NP"}},
	"WHADJP": {true, []string{"CC", "WRB", "JJ", "ADJP"}},
	"WHADVP": {false, []string{"CC", "WRB"}},
	"WHNP":   {true, []string{"WDT", "WP", "WP$", "WHADJP", "WHPP", "WHNP"}},
	"WHPP":   {false, []string{"IN", "TO", "FW"}},
	"NX":     {true, []string{"NN", "NNS", "NNP", "NNPS", "NP", "NAC", "EX", "$", "CD", "QP", "PRP", "VBG", "JJ", "JJS", "JJR", "ADJP", "FW"}},
	"X":      {true, []string{"NN", "NNS", "NNP", "NNPS", "NP", "NAC", "EX", "$", "CD", "QP", "PRP", "VBG", "JJ", "JJS", "JJR", "ADJP", "FW"}},
	"META":   {true, nil},
}

// collinsNP are the analyser's noun-phrase searches after its possessive
// test, in order: the direction and the labels or head tags sought.
var collinsNP = []collinsRule{
	{true, []string{"NN", "NNP", "NNPS", "NNS", "NX", "POS", "JJR"}},
	{false, []string{"NP", "NML"}},
	{true, []string{"$", "ADJP", "PRN"}},
	{true, []string{"CD"}},
	{true, []string{"JJ", "JJS", "RB", "QP"}},
}

// headOf returns the head token of node c, whose children's heads are
// known: the analyser's collins_find_heads.
func (k *kkSyntax) headOf(c int32) int32 {
	label, nodes := k.nodes[c].label, k.nodes[c].kids
	last := k.kidHead(nodes[len(nodes)-1])
	matches := func(kid int32, set []string) bool {
		tag, kl := k.s.Tags[k.kidHead(kid)], k.kidLabel(kid)
		for _, l := range set {
			if tag == l || kl == l {
				return true
			}
		}
		return false
	}
	rule, ok := collinsTable[label]
	if !ok {
		if label != "NP" && label != "NML" {
			return last
		}
		if k.s.Tags[last] == "POS" {
			return last
		}
		// Each search takes the first child in its direction that matches
		// any label of the set.
		for _, r := range collinsNP {
			for i := range nodes {
				kid := nodes[i]
				if r.right {
					kid = nodes[len(nodes)-1-i]
				}
				if matches(kid, r.labels) {
					return k.kidHead(kid)
				}
			}
		}
		return last
	}
	// The table's search: for each label in turn, the first child in the
	// rule's direction with that label or head tag.
	for _, l := range rule.labels {
		for i := range nodes {
			kid := nodes[i]
			if rule.right {
				kid = nodes[len(nodes)-1-i]
			}
			if matches(kid, []string{l}) {
				return k.kidHead(kid)
			}
		}
	}
	if rule.right {
		return last
	}
	return k.kidHead(nodes[0])
}

// crossesSentence reports whether [start, end] (inclusive) spans a
// sentence break.
func (k *kkSyntax) crossesSentence(start, end int32) bool {
	ends := k.s.SentenceEnds
	i, _ := slices.BinarySearch(ends, start+1) // the sentence of start ends at ends[i]
	return i < len(ends) && end >= ends[i]
}

// head returns the head token of the mention [start, end] (inclusive) as
// the analyser's coreference.mention_head finds it: the head of the lowest
// constituent with exactly that span, else (the span is no constituent)
// the mention's last token.
func (k *kkSyntax) head(start, end int32) int32 {
	if h, ok := k.spanHead[packKKSpan(start, end)]; ok {
		return h
	}
	return end
}

// analyserPronounTags are the tags that make a one-token mention a pronoun
// in the analyser's coreference.mention_type.
var analyserPronounTags = map[string]bool{"PRP": true, "PRP$": true, "WP": true, "WP$": true,
	"WDT": true, "WRB": true, "DT": true}

// analyserPronouns are the words of the analyser's pronoun table
// (coreference.pronoun_properties): a one-token mention that is one of
// them (in lower case) is a pronoun whatever its tag.
var analyserPronouns = func() map[string]bool {
	words := "her hers herself she he him himself his our ours yours ourselves yourselves they their theirs " +
		"them 'em em themselves us we whoever whomever whose i me mine my myself one thyself ya you your " +
		"yourself it its itself what when where which how everybody everyone anybody anyone somebody " +
		"someone nobody all few several some many most none noone that this these those whatever who " +
		"whom something nothing everything"
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}()

// mentionType is the analyser's coreference.mention_type of [start, end]:
// a pronoun when the mention is one token whose tag is PRP, PRP$, WP, WP$,
// WDT, WRB or DT or whose word is in its pronoun table; a name when its
// head is tagged NNP or NNPS; a nominal otherwise.
func (k *kkSyntax) mentionType(start, end int32) MentionType {
	h := k.head(start, end)
	tag := k.s.Tags[h]
	if start == end && (analyserPronounTags[tag] || analyserPronouns[strings.ToLower(k.s.Words[h])]) {
		return TypePronoun
	}
	if tag == "NNP" || tag == "NNPS" {
		return TypeName
	}
	return TypeNominal
}

// trimmed is the span the analyser's first span repair compares
// (match_boundaries): [start, end] without leading words "the" or
// one-character non-letters, then without trailing words "'s" or
// one-character non-letters, keeping at least one word.
func (k *kkSyntax) trimmed(start, end int32) int64 {
	w := k.s.Words
	for start < end && (w[start] == "the" || oneNonLetter(w[start])) {
		start++
	}
	for start < end && (w[end] == "'s" || oneNonLetter(w[end])) {
		end--
	}
	return packKKSpan(start, end)
}

// oneNonLetter reports whether w is one character that is not an ASCII
// letter (Python's len(w) == 1 and w not in string.ascii_letters).
func oneNonLetter(w string) bool {
	if utf8.RuneCountInString(w) != 1 {
		return false
	}
	c := w[0]
	return !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z')
}
