// Package randconll generates random key and response files in the
// CoNLL-2012 format, for comparing corefscore with the CoNLL reference
// scorer: several documents per pair, sentence breaks that mentions cross,
// nested and crossing mentions, key mentions missing from the response,
// response mentions with no key twin, empty response documents and key
// documents missing from the response. No span occurs twice on one side,
// and no two mentions of one entity cross (the bracket notation could not
// tell them apart), so every file reads back as generated.
package randconll

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Pair is one generated key and response file.
type Pair struct {
	Key, Response []byte
}

// mention is a span of tokens (inclusive) and its entity label.
type mention struct {
	start, end int
	entity     int
}

// Generate returns the pair of files for seed: the same seed gives the same
// bytes.
func Generate(seed uint64) Pair {
	rng := rand.New(rand.NewPCG(seed, 0xc0)) //nolint:gosec // test data
	var key, resp bytes.Buffer
	nDocs := 1 + rng.IntN(4)
	for d := 0; d < nDocs; d++ {
		name := fmt.Sprintf("(gen/%d/doc%d); part 000", seed, d)
		nTokens := 1 + rng.IntN(40)
		breaks := map[int]bool{} // a blank line before these tokens
		for i := 1; i < nTokens; i++ {
			if rng.IntN(6) == 0 {
				breaks[i] = true
			}
		}
		keyMs := randomMentions(rng, nTokens, nil, 1+rng.IntN(8))
		var respMs []mention
		switch u := rng.IntN(10); {
		case u == 0: // missing response document
			respMs = nil
		case u == 1: // empty response document
			respMs = []mention{}
		default:
			respMs = perturb(rng, nTokens, keyMs)
		}
		if respMs == nil && d == nDocs-1 && resp.Len() == 0 {
			respMs = []mention{} // a response file holds at least one document
		}
		writeDoc(&key, name, nTokens, breaks, keyMs)
		if respMs != nil {
			writeDoc(&resp, name, nTokens, breaks, respMs)
		}
	}
	return Pair{Key: key.Bytes(), Response: resp.Bytes()}
}

// randomMentions returns about n·nTokens/8 mentions in up to nEntities
// entities, avoiding the spans of taken.
func randomMentions(rng *rand.Rand, nTokens int, taken map[[2]int]bool, nEntities int) []mention {
	seen := map[[2]int]bool{}
	var out []mention
	tries := rng.IntN(nTokens + 2)
	for i := 0; i < tries; i++ {
		start := rng.IntN(nTokens)
		end := start + rng.IntN(min(4, nTokens-start))
		sp := [2]int{start, end}
		if seen[sp] || taken[sp] {
			continue
		}
		m := mention{start, end, rng.IntN(nEntities)}
		if crosses(out, m) {
			continue
		}
		seen[sp] = true
		out = append(out, m)
	}
	return out
}

// crosses reports whether m crosses a mention of its entity in ms.
func crosses(ms []mention, m mention) bool {
	for _, o := range ms {
		if o.entity != m.entity {
			continue
		}
		if (o.start < m.start && m.start <= o.end && o.end < m.end) ||
			(m.start < o.start && o.start <= m.end && m.end < o.end) {
			return true
		}
	}
	return false
}

// perturb derives a response from key mentions: some left out, some moved to
// another or a new entity, and some new spans added.
func perturb(rng *rand.Rand, nTokens int, keyMs []mention) []mention {
	var out []mention
	taken := map[[2]int]bool{}
	nEntities := 1
	for _, m := range keyMs {
		nEntities = max(nEntities, m.entity+1)
		taken[[2]int{m.start, m.end}] = true
	}
	place := func(m mention) {
		if crosses(out, m) {
			m.entity = 100 + len(out) // a new entity of its own
		}
		out = append(out, m)
	}
	for _, m := range keyMs {
		switch u := rng.IntN(10); {
		case u == 0:
			continue // missing from the response
		case u <= 2:
			m.entity = rng.IntN(nEntities + 2)
		}
		place(m)
	}
	for _, m := range randomMentions(rng, nTokens, taken, nEntities+2) {
		if rng.IntN(2) == 0 {
			place(m) // no key twin
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// writeDoc writes one document: a line per token with the coreference
// column last, "-" where empty; items of a cell in a random but fixed
// order of kind (one-token mentions, openings, closings), as the reference
// reads them.
func writeDoc(w *bytes.Buffer, name string, nTokens int, breaks map[int]bool, ms []mention) {
	cells := make([][]string, nTokens)
	// Entity labels in the file: ids shuffled so that they do not follow
	// the order of first appearance.
	label := func(e int) string { return fmt.Sprint((e*7 + 3) % 1000) }
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].end-ms[i].start > ms[j].end-ms[j].start })
	for _, m := range ms {
		if m.start == m.end {
			cells[m.start] = append(cells[m.start], "("+label(m.entity)+")")
		}
	}
	for _, m := range ms {
		if m.start != m.end {
			cells[m.start] = append(cells[m.start], "("+label(m.entity))
		}
	}
	for _, m := range ms {
		if m.start != m.end {
			cells[m.end] = append(cells[m.end], label(m.entity)+")")
		}
	}
	fmt.Fprintf(w, "#begin document %s\n", name)
	for i := 0; i < nTokens; i++ {
		if breaks[i] {
			w.WriteString("\n")
		}
		cell := "-"
		if len(cells[i]) > 0 {
			cell = strings.Join(cells[i], "|")
		}
		fmt.Fprintf(w, "gen\t0\t%d\tw%d\t%s\n", i, i, cell)
	}
	w.WriteString("\n#end document\n")
}
