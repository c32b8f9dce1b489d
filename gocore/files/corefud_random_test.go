package files

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore/conll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rdNode is a node of a generated document: sentence s (0-based), word w
// (1-based), and k > 0 for the k-th empty node after word w.
type rdNode struct{ s, w, k int }

func (a rdNode) less(b rdNode) bool {
	if a.s != b.s {
		return a.s < b.s
	}
	if a.w != b.w {
		return a.w < b.w
	}
	return a.k < b.k
}

// rdMention is a generated mention: its parts (each a run of consecutive
// nodes, given by its first and last node), its head and its entity.
type rdMention struct {
	parts [][2]rdNode
	head  rdNode
	eid   int
}

// rdSide is one side of a generated document: the DEPS of its empty nodes
// (keyed by node) and its mentions.
type rdSide struct {
	zeros map[rdNode]string
	ments []rdMention
}

// rdDoc is a generated document: the number of words of each sentence and
// its two sides.
type rdDoc struct {
	name      string
	words     []int
	key, resp rdSide
}

// nodesOf lists the nodes of a side's sentence s in order.
func (d *rdDoc) nodesOf(side *rdSide, s int) []rdNode {
	var out []rdNode
	for w := 1; w <= d.words[s]; w++ {
		out = append(out, rdNode{s, w, 0})
		for k := 1; ; k++ {
			if _, ok := side.zeros[rdNode{s, w, k}]; !ok {
				break
			}
			out = append(out, rdNode{s, w, k})
		}
	}
	return out
}

// members lists the nodes of m on side (every node of each part's run).
func (d *rdDoc) members(side *rdSide, m rdMention) []rdNode {
	var out []rdNode
	for _, p := range m.parts {
		in := false
		for _, n := range d.nodesOf(side, p[0].s) {
			if n == p[0] {
				in = true
			}
			if in {
				out = append(out, n)
			}
			if n == p[1] {
				break
			}
		}
	}
	return out
}

// write renders one side of the document in CorefUD CoNLL-U: the head
// attribute is the head's 1-based position among the mention's nodes, and
// a mention of two parts is written "(eN[1/2]-..." ... "eN[1/2])" and
// likewise for part 2.
func (d *rdDoc) write(b *strings.Builder, side *rdSide) {
	type bracket struct {
		label   string // eN or eN[k/n]
		head    int
		first   rdNode
		last    rdNode
		mention int
	}
	opens, closes := map[rdNode][]bracket{}, map[rdNode][]bracket{}
	for i, m := range side.ments {
		nodes := d.members(side, m)
		head := slices.Index(nodes, m.head) + 1
		for k, p := range m.parts {
			label := fmt.Sprintf("e%d", m.eid)
			if len(m.parts) > 1 {
				label = fmt.Sprintf("e%d[%d/%d]", m.eid, k+1, len(m.parts))
			}
			br := bracket{label, head, p[0], p[1], i}
			opens[p[0]] = append(opens[p[0]], br)
			closes[p[1]] = append(closes[p[1]], br)
		}
	}
	fmt.Fprintf(b, "# newdoc id = %s\n# global.Entity = eid-etype-head-other\n", d.name)
	for s := range d.words {
		fmt.Fprintf(b, "# sent_id = %s-%d\n", d.name, s+1)
		for _, n := range d.nodesOf(side, s) {
			var v strings.Builder
			cl := closes[n]
			// Innermost first: those opened last close first.
			slices.SortStableFunc(cl, func(a, c bracket) int {
				if a.first == c.first {
					return 0
				}
				if c.first.less(a.first) {
					return -1
				}
				return 1
			})
			for _, br := range cl {
				if br.first != br.last {
					fmt.Fprintf(&v, "%s)", br.label)
				}
			}
			op := opens[n]
			// Outermost first: those closing last open first; one-node
			// brackets last.
			slices.SortStableFunc(op, func(a, c bracket) int {
				if a.last == c.last {
					return 0
				}
				if c.last.less(a.last) {
					return 1
				}
				return -1
			})
			slices.Reverse(op)
			var singles []bracket
			for _, br := range op {
				if br.first == br.last {
					singles = append(singles, br)
					continue
				}
				fmt.Fprintf(&v, "(%s-x-%d-", br.label, br.head)
			}
			for _, br := range singles {
				fmt.Fprintf(&v, "(%s-x-%d-)", br.label, br.head)
			}
			misc := "_"
			if v.Len() > 0 {
				misc = "Entity=" + v.String()
			}
			if n.k == 0 {
				head, rel := 1, "dep"
				if n.w == 1 {
					head, rel = 0, "root"
				}
				fmt.Fprintf(b, "%d\tw%d\tw\tX\t_\t_\t%d\t%s\t_\t%s\n", n.w, n.w, head, rel, misc)
			} else {
				fmt.Fprintf(b, "%d.%d\t_\t_\t_\t_\t_\t_\t_\t%s\t%s\n", n.w, n.k, side.zeros[n], misc)
			}
		}
		b.WriteString("\n")
	}
}

// rdGen generates random CorefUD documents for the comparison with the
// CorefUD scorer.
type rdGen struct{ rng *rand.Rand }

var rdDeps = []string{"2:nsubj", "2:obj", "3:nsubj", "4:obl", "2:nsubj|3:obj"}

// zeros draws the empty nodes of a side: up to three per sentence, after
// words 1 to 4, numbered 1, 2, ... after each word.
func (g *rdGen) zeros(words []int) map[rdNode]string {
	out := map[rdNode]string{}
	for s, n := range words {
		count := map[int]int{}
		for range g.rng.Intn(4) {
			w := 1 + g.rng.Intn(min(4, n))
			count[w]++
			out[rdNode{s, w, count[w]}] = rdDeps[g.rng.Intn(len(rdDeps))]
		}
	}
	return out
}

// ok reports whether m can join ments: no mention with the same nodes and
// no mention of the same entity whose bounds meet m's (the brackets could
// not tell them apart).
func (d *rdDoc) ok(side *rdSide, m rdMention) bool {
	prev := -1
	for _, p := range m.parts {
		nodes := d.nodesOf(side, p[0].s)
		i, j := slices.Index(nodes, p[0]), slices.Index(nodes, p[1])
		if i < 0 || j < i || p[1].s != p[0].s || (prev >= 0 && i <= prev+1) {
			return false
		}
		prev = j
	}
	nodes := d.members(side, m)
	if len(nodes) == 0 || !slices.Contains(nodes, m.head) {
		return false
	}
	first, last := nodes[0], nodes[len(nodes)-1]
	for _, o := range side.ments {
		on := d.members(side, o)
		if slices.Equal(on, nodes) {
			return false
		}
		if o.eid == m.eid && !(last.less(on[0]) || on[len(on)-1].less(first)) {
			return false
		}
	}
	return true
}

// mention draws a mention on side: a zero (one empty node), a run of one
// to four words (with the empty nodes among them), or two such runs with a
// gap; the head is one of its nodes, usually a word.
func (g *rdGen) mention(d *rdDoc, side *rdSide, eid int) rdMention {
	s := g.rng.Intn(len(d.words))
	nodes := d.nodesOf(side, s)
	var zs []rdNode
	for _, n := range nodes {
		if n.k > 0 {
			zs = append(zs, n)
		}
	}
	if len(zs) > 0 && g.rng.Float64() < 0.3 {
		z := zs[g.rng.Intn(len(zs))]
		return rdMention{parts: [][2]rdNode{{z, z}}, head: z, eid: eid}
	}
	run := func(from int) [2]rdNode {
		a := from + g.rng.Intn(len(nodes)-from)
		for nodes[a].k > 0 && a > from {
			a--
		}
		b := min(len(nodes)-1, a+g.rng.Intn(4))
		for nodes[b].k > 0 && b > a {
			b--
		}
		return [2]rdNode{nodes[a], nodes[b]}
	}
	m := rdMention{eid: eid}
	p := run(0)
	m.parts = [][2]rdNode{p}
	if g.rng.Float64() < 0.25 {
		end := slices.Index(nodes, p[1])
		if end+2 < len(nodes) {
			m.parts = append(m.parts, run(end+2))
		}
	}
	ms := d.members(side, m)
	m.head = ms[g.rng.Intn(len(ms))]
	if m.head.k > 0 && g.rng.Float64() < 0.7 {
		m.head = ms[0]
	}
	return m
}

// perturb derives a response mention from key mention m: the same
// mention, another head, a boundary moved, a part dropped, or the mention
// moved to a neighbouring zero.
func (g *rdGen) perturb(d *rdDoc, m rdMention, eid int) rdMention {
	r := rdMention{parts: slices.Clone(m.parts), head: m.head, eid: eid}
	nodes := d.nodesOf(&d.resp, m.head.s)
	at := func(n rdNode) int { return slices.Index(nodes, n) }
	switch x := g.rng.Float64(); {
	case x < 0.4:
	case x < 0.55: // another head
		ms := d.members(&d.resp, r)
		if len(ms) > 0 {
			r.head = ms[g.rng.Intn(len(ms))]
		}
	case x < 0.75: // a boundary moved by one node
		p := &r.parts[g.rng.Intn(len(r.parts))]
		i, j := at(p[0]), at(p[1])
		if i < 0 || j < 0 {
			break
		}
		switch g.rng.Intn(4) {
		case 0:
			i--
		case 1:
			i++
		case 2:
			j--
		default:
			j++
		}
		if i >= 0 && j < len(nodes) && i <= j {
			p[0], p[1] = nodes[i], nodes[j]
		}
	case x < 0.85: // a part dropped
		if len(r.parts) > 1 {
			r.parts = r.parts[:1]
			if r.head.less(r.parts[0][0]) || r.parts[0][1].less(r.head) {
				r.head = r.parts[0][0]
			}
		}
	default: // a zero moved to another empty node of the sentence
		if m.head.k > 0 {
			var zs []rdNode
			for _, n := range nodes {
				if n.k > 0 {
					zs = append(zs, n)
				}
			}
			if len(zs) > 0 {
				z := zs[g.rng.Intn(len(zs))]
				r.parts, r.head = [][2]rdNode{{z, z}}, z
			}
		}
	}
	return r
}

// doc generates one document pair.
func (g *rdGen) doc(name string) *rdDoc {
	d := &rdDoc{name: name}
	for range 1 + g.rng.Intn(2) {
		d.words = append(d.words, 5+g.rng.Intn(4))
	}
	d.key.zeros = g.zeros(d.words)
	// The response keeps most of the key's empty nodes (same DEPS, or
	// another), drops some and adds others.
	d.resp.zeros = map[rdNode]string{}
	for s, n := range d.words {
		count := map[int]int{}
		for w := 1; w <= n; w++ {
			for k := 1; ; k++ {
				deps, ok := d.key.zeros[rdNode{s, w, k}]
				if !ok {
					break
				}
				switch x := g.rng.Float64(); {
				case x < 0.6:
				case x < 0.8:
					deps = rdDeps[g.rng.Intn(len(rdDeps))]
				default:
					continue
				}
				count[w]++
				d.resp.zeros[rdNode{s, w, count[w]}] = deps
			}
			if w <= 4 && g.rng.Float64() < 0.1 {
				count[w]++
				d.resp.zeros[rdNode{s, w, count[w]}] = rdDeps[g.rng.Intn(len(rdDeps))]
			}
		}
	}
	entities := 1 + g.rng.Intn(4)
	for range 3 + g.rng.Intn(6) {
		m := g.mention(d, &d.key, g.rng.Intn(entities))
		if d.ok(&d.key, m) {
			d.key.ments = append(d.key.ments, m)
		}
	}
	for _, m := range d.key.ments {
		if g.rng.Float64() < 0.15 {
			continue
		}
		eid := m.eid
		if g.rng.Float64() < 0.25 {
			eid = g.rng.Intn(entities + 1)
		}
		r := g.perturb(d, m, eid)
		if d.ok(&d.resp, r) {
			d.resp.ments = append(d.resp.ments, r)
		}
	}
	for range g.rng.Intn(3) {
		r := g.mention(d, &d.resp, g.rng.Intn(entities+1))
		if d.ok(&d.resp, r) {
			d.resp.ments = append(d.resp.ments, r)
		}
	}
	return d
}

// randomCorefUDFiles writes n generated document pairs into a key and a
// response file.
func randomCorefUDFiles(t *testing.T, dir string, seed int64, n int) (keyPath, respPath string, docs []*rdDoc) {
	g := &rdGen{rng: rand.New(rand.NewSource(seed))} //nolint:gosec // test data
	var kb, rb strings.Builder
	for i := range n {
		d := g.doc(fmt.Sprintf("r%d-%d", seed, i))
		d.write(&kb, &d.key)
		d.write(&rb, &d.resp)
		docs = append(docs, d)
	}
	keyPath, respPath = filepath.Join(dir, fmt.Sprintf("random%d.key.conllu", seed)), filepath.Join(dir, fmt.Sprintf("random%d.resp.conllu", seed))
	require.NoError(t, os.WriteFile(keyPath, []byte(kb.String()), 0o600))
	require.NoError(t, os.WriteFile(respPath, []byte(rb.String()), 0o600))
	return keyPath, respPath, docs
}

// scorerDocDriver is scorerDriver per document: for one key and response
// file and each configuration it prints {conf: {doc: {metric: [pn, pd,
// rn, rd]}}}, or {conf: {"error": MESSAGE}}.
const scorerDocDriver = `
import sys, json, os, logging
logging.disable(logging.WARNING)
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
from scorer.corefud.reader import CorefUDReader
from scorer.eval import evaluator as ev
key, resp, confs = sys.argv[2], sys.argv[3], sys.argv[4].split(";")
_docs = {}
_load = CorefUDReader.load_conllu
def _cached(self, path):
    if path not in _docs:
        _docs[path] = _load(self, path)
    return _docs[path]
CorefUDReader.load_conllu = _cached
out = {}
for conf in confs:
    match, zm, singletons = conf.split(",")
    ua = {"exact": "exact", "partial": "partial-corefud", "head": "head"}[match]
    try:
        r = CorefUDReader(format="corefud", keep_singletons=(singletons == "keep"), keep_zeros=True,
                          match=ua, zero_match_method=zm)
        r.get_coref_infos(key, resp)
        res = {}
        for doc, info in r.doc_coref_infos.items():
            d = {}
            for name, m in [("muc", ev.muc), ("bcub", ev.b_cubed), ("ceafe", ev.ceafe), ("ceafm", ev.ceafm),
                            ("lea", ev.lea), ("blanc.coref", ev.blancc), ("blanc.noncoref", ev.blancn),
                            ("mor", ev.mention_overlap), ("zero", ev.als_zeros)]:
                e = ev.Evaluator(m)
                e.update(info)
                d[name] = list(map(float, e.get_counts()))
            d["aligned"] = float(len(r.doc_mention_aligns[doc]))
            kc, s2c, dct = info[0], info[2], info[4]
            found = [dct.get(m, m) for c in kc for m in c]
            found = [m for m in found if m in s2c]
            d["looked_up"] = [float(len(found)), len(found) == len(set(found))]
            res[str(doc)] = d
    except Exception as err:
        res = {"error": type(err).__name__ + ": " + str(err)}
    out[conf] = res
print(json.dumps(out))
`

// runScorerDocs runs scorerDocDriver on one file pair.
func runScorerDocs(t *testing.T, scorer, key, resp string, confs []string) map[string]map[string]map[string]any {
	t.Helper()
	python := os.Getenv("COREFSCORE_COREFUD_PYTHON")
	if python == "" {
		python = "python3"
	}
	driver := filepath.Join(t.TempDir(), "docdriver.py")
	require.NoError(t, os.WriteFile(driver, []byte(scorerDocDriver), 0o600))
	cmd := exec.Command(python, driver, scorer, key, resp, strings.Join(confs, ";"))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.Output()
	require.NoError(t, err, "running the CorefUD scorer with %s (COREFSCORE_COREFUD_PYTHON)", python)
	var out map[string]map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(stdout, &out))
	res := map[string]map[string]map[string]any{}
	for conf, docs := range out {
		res[conf] = map[string]map[string]any{}
		if e, failed := docs["error"]; failed {
			t.Fatalf("the CorefUD scorer failed with %s: %s", conf, e)
		}
		for doc, raw := range docs {
			var m map[string]any
			require.NoError(t, json.Unmarshal(raw, &m))
			res[conf][doc] = m
		}
	}
	return res
}

// allConfs are every match mode with both zero alignments and both
// singleton policies.
func allConfs() []string {
	var confs []string
	for _, m := range []string{"exact", "partial", "head"} {
		for _, z := range []string{"linear", "dependent"} {
			for _, s := range []string{"keep", "exclude"} {
				confs = append(confs, m+","+z+","+s)
			}
		}
	}
	return confs
}

// differs reports the metrics whose counts differ from want.
func differs(sum map[string]float64, want map[string]any) []string {
	var out []string
	for name, v := range want {
		if name == "aligned" {
			if v.(float64) != sum["mentions.recall_num"] {
				out = append(out, name)
			}
			continue
		}
		c := v.([]any)
		got := []float64{sum[name+".precision_num"], sum[name+".precision_den"], sum[name+".recall_num"], sum[name+".recall_den"]}
		for i, x := range c {
			if d := x.(float64) - got[i]; d > 1e-6*max(1, x.(float64)) || d < -1e-6*max(1, x.(float64)) {
				out = append(out, name)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestCorefUDRandomAgainstScorer: on seeded random documents (zeros,
// discontinuous mentions, moved heads and boundaries) every count of every
// document equals the CorefUD scorer's in every configuration. Needs
// COREFSCORE_COREFUD_SCORER.
func TestCorefUDRandomAgainstScorer(t *testing.T) {
	scorer := corefudScorer(t)
	dir := t.TempDir()
	if keep := os.Getenv("COREFSCORE_KEEP_DIR"); keep != "" {
		dir = keep
	}
	n := 600
	keyPath, respPath, docs := randomCorefUDFiles(t, dir, 23, n)
	confs := allConfs()
	want := runScorerDocs(t, scorer, keyPath, respPath, confs)
	bad := 0
	for _, conf := range confs {
		names, counts, _, _, err := ScoreFiles(keyPath, respPath, conll.FormatCoNLLU, confOptions(t, conf))
		require.NoError(t, err, conf)
		require.Len(t, names, len(docs))
		cols := len(counts) / len(names)
		for i, name := range names {
			w, ok := want[conf][name]
			require.True(t, ok, "%s: the scorer has no document %s", conf, name)
			// Our mention count is that of the pairs the metrics score: with
			// the dependent zero alignment, those of the scorer's key
			// lookups where they are one-to-one (its alignment otherwise).
			if lu := w["looked_up"].([]any); strings.Contains(conf, "dependent") && lu[1].(bool) {
				w["aligned"] = lu[0]
			}
			delete(w, "looked_up")
			if d := differs(sumRows(counts[i*cols:(i+1)*cols]), w); len(d) > 0 {
				bad++
				t.Errorf("%s %s: %v differ", conf, name, d)
			}
		}
	}
	assert.Zero(t, bad)
}
