package files

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// udSkeleton is a CoNLL-U document without its coreference: its lines, and
// for each word or empty node line its node.
type udSkeleton struct {
	lines    []udSkelLine
	words    int32   // number of words
	sentOf   []int32 // per word, document index of its sentence's first word
	sentLast []int32 // per word, document index of its sentence's last word
}

type udSkelLine struct {
	text  string      // the line as read (word and empty node lines: their first nine columns)
	node  gocore.Node // 0 for comments, blank and multiword lines
	word  int32       // word index, -1 for others
	sent  int32       // for word and empty lines: the sentence's first word
	wid   int         // for word lines: the 1-based id in the sentence
	extra string      // MISC items kept besides Entity= ("_" when none)
}

// readSkeleton reads one CoNLL-U document (a file holding one) into a
// skeleton, dropping its Entity=, Bridge= and SplitAnte= annotations.
func readSkeleton(t testing.TB, path string) *udSkeleton {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	s := &udSkeleton{}
	var first int32
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) != 10 {
			if strings.HasPrefix(line, "# global.Entity") {
				line = "# global.Entity = eid-etype-head-other"
			}
			s.lines = append(s.lines, udSkelLine{text: line, word: -1})
			continue
		}
		l := udSkelLine{text: strings.Join(cols[:9], "\t"), word: -1, extra: "_"}
		switch {
		case strings.Contains(cols[0], "-"):
			l.text = strings.Join(cols[:9], "\t") + "\t_" // a multiword token: MISC dropped
		case strings.Contains(cols[0], "."):
			n, _ := strconv.Atoi(cols[0][:strings.IndexByte(cols[0], '.')])
			k, _ := strconv.Atoi(cols[0][strings.IndexByte(cols[0], '.')+1:])
			if n == 0 {
				first = s.words
			}
			l.node, l.sent = gocore.NodeOf(first, n, k), first
		default:
			n, _ := strconv.Atoi(cols[0])
			if n == 1 {
				first = s.words
			}
			l.word, l.node, l.sent, l.wid = s.words, gocore.WordNode(s.words), first, n
			s.sentOf = append(s.sentOf, first)
			s.words++
		}
		s.lines = append(s.lines, l)
	}
	s.sentLast = make([]int32, s.words)
	for w := s.words - 1; w >= 0; w-- {
		if w == s.words-1 || s.sentOf[w+1] != s.sentOf[w] {
			s.sentLast[w] = w
		} else {
			s.sentLast[w] = s.sentLast[w+1]
		}
	}
	return s
}

// udZero is an empty node added after word `after` (with DEPS deps).
type udZero struct {
	after int32
	deps  string
}

// udMention is a mention to write: its first and last node (every node
// between them belongs to it), its head node and its entity.
type udMention struct {
	first, last, head gocore.Node
	eid               int
}

// write renders the skeleton with empty nodes zeros added and the mentions,
// in the CorefUD eid-etype-head-other layout.
func (s *udSkeleton) write(b *strings.Builder, zeros []udZero, ms []udMention) {
	// The final node order, with the added empty nodes.
	type outLine struct {
		text string
		node gocore.Node
	}
	added := map[int32][]udZero{}
	for _, z := range zeros {
		added[z.after] = append(added[z.after], z)
	}
	var out []outLine
	for i := 0; i < len(s.lines); i++ {
		l := s.lines[i]
		if l.node == 0 {
			out = append(out, outLine{text: l.text})
			continue
		}
		out = append(out, outLine{text: l.text + "\t", node: l.node})
		if l.word < 0 || len(added[l.word]) == 0 {
			continue
		}
		// Added empty nodes go after the word and its own empty nodes.
		k := 1
		for i+1 < len(s.lines) && s.lines[i+1].node != 0 && s.lines[i+1].word < 0 {
			i++
			out = append(out, outLine{text: s.lines[i].text + "\t", node: s.lines[i].node})
			k++
		}
		for _, z := range added[l.word] {
			node := gocore.NodeOf(l.sent, l.wid, k)
			out = append(out, outLine{text: fmt.Sprintf("%d.%d\t_\t_\t_\t_\t_\t_\t_\t%s\t", l.wid, k, z.deps), node: node})
			k++
		}
	}
	var nodes []gocore.Node
	pos := map[gocore.Node]int{}
	for _, o := range out {
		if o.node != 0 {
			pos[o.node] = len(nodes)
			nodes = append(nodes, o.node)
		}
	}
	opens := map[gocore.Node][]udMention{}
	closes := map[gocore.Node][]udMention{}
	singles := map[gocore.Node][]udMention{}
	for _, m := range ms {
		if m.first == m.last {
			singles[m.first] = append(singles[m.first], m)
			continue
		}
		opens[m.first] = append(opens[m.first], m)
		closes[m.last] = append(closes[m.last], m)
	}
	for _, o := range out {
		if o.node == 0 {
			b.WriteString(o.text + "\n")
			continue
		}
		var v strings.Builder
		cl := closes[o.node]
		slices.SortStableFunc(cl, func(a, c udMention) int { return -int(a.first - c.first) }) // innermost first
		for _, m := range cl {
			fmt.Fprintf(&v, "e%d)", m.eid)
		}
		op := opens[o.node]
		slices.SortStableFunc(op, func(a, c udMention) int { return -int(a.last - c.last) }) // outermost first
		for _, m := range op {
			fmt.Fprintf(&v, "(e%d-x-%d-", m.eid, pos[m.head]-pos[m.first]+1)
		}
		for _, m := range singles[o.node] {
			fmt.Fprintf(&v, "(e%d-x-1-)", m.eid)
		}
		misc := "_"
		if v.Len() > 0 {
			misc = "Entity=" + v.String()
		}
		b.WriteString(o.text + misc + "\n")
	}
	b.WriteString("\n")
}

// perturbGUM builds, for one GUM document, a key (its mentions with their
// syntactic heads, plus zero mentions on added empty nodes) and a seeded
// response: mentions dropped, boundaries shifted, heads moved, clusters
// split and merged, spurious mentions, and zeros kept, moved to another
// word (same DEPS: only the dependent alignment finds them), given another
// relation, dropped or invented.
func perturbGUM(t testing.TB, path string, rng *rand.Rand) (key, resp string) {
	s := readSkeleton(t, path)
	docs, err := conll.Read(path, conll.FormatCoNLLU)
	require.NoError(t, err)
	d := docs[0]
	hasEmpty := map[int32]bool{}
	for _, l := range s.lines {
		if l.node != 0 && l.word < 0 && l.node&0x8000 == 0 {
			hasEmpty[int32(l.node>>16)-1] = true
		}
	}
	var km []udMention
	clusterOf := map[int]int{}
	for _, m := range d.Mentions {
		require.True(t, m.HasHead)
		km = append(km, udMention{first: gocore.WordNode(m.Start), last: gocore.WordNode(m.End), head: m.Head, eid: int(m.Cluster)})
	}
	nClusters := len(d.Entities)
	// Key zeros: after about 1% of the words, in a random entity.
	var kz, rz []udZero
	var kzm, rzm []udMention
	for w := int32(0); w+1 < s.words; w++ {
		if hasEmpty[w] || hasEmpty[w+1] || rng.Float64() > 0.01 {
			continue
		}
		wid := w - s.sentOf[w] + 1
		deps := fmt.Sprintf("%d:nsubj", wid)
		kz = append(kz, udZero{after: w, deps: deps})
		eid := rng.Intn(nClusters)
		node := gocore.NodeOf(s.sentOf[w], int(wid), 1)
		kzm = append(kzm, udMention{first: node, last: node, head: node, eid: eid})
		switch x := rng.Float64(); {
		case x < 0.5: // the same empty node
			rz = append(rz, udZero{after: w, deps: deps})
			rzm = append(rzm, udMention{first: node, last: node, head: node, eid: eid})
		case x < 0.7 && w+1 <= s.sentLast[w]: // moved one word on, same DEPS
			rz = append(rz, udZero{after: w + 1, deps: deps})
			n2 := gocore.NodeOf(s.sentOf[w], int(wid)+1, 1)
			rzm = append(rzm, udMention{first: n2, last: n2, head: n2, eid: eid})
		case x < 0.8: // the same parent, another relation, another entity
			rz = append(rz, udZero{after: w, deps: fmt.Sprintf("%d:obj", wid)})
			rzm = append(rzm, udMention{first: node, last: node, head: node, eid: rng.Intn(nClusters)})
		case x < 0.9: // dropped
		default: // a spurious zero one word on instead
			if w+1 <= s.sentLast[w] {
				rz = append(rz, udZero{after: w + 1, deps: fmt.Sprintf("%d:obl", wid+1)})
				n2 := gocore.NodeOf(s.sentOf[w], int(wid)+1, 1)
				rzm = append(rzm, udMention{first: n2, last: n2, head: n2, eid: rng.Intn(nClusters)})
			}
		}
		w++ // never two added zeros on neighbouring words
	}
	// Response clusters: some split (every other mention to a new entity),
	// some merged into the next.
	next := nClusters
	for c := 0; c < nClusters; c++ {
		switch x := rng.Float64(); {
		case x < 0.06 && c+1 < nClusters:
			clusterOf[c] = c + 1
		default:
			clusterOf[c] = c
		}
	}
	split := map[int]int{}
	for c := 0; c < nClusters; c++ {
		if rng.Float64() < 0.08 {
			split[c] = next
			next++
		}
	}
	type span struct{ a, b gocore.Node }
	used := map[span]bool{}
	var rm []udMention
	byEid := map[int][]udMention{}
	crosses := func(m udMention) bool {
		for _, o := range byEid[m.eid] {
			if (o.first < m.first && m.first <= o.last && o.last < m.last) || (m.first < o.first && o.first <= m.last && m.last < o.last) {
				return true
			}
		}
		return false
	}
	add := func(m udMention) {
		if used[span{m.first, m.last}] || crosses(m) {
			return
		}
		used[span{m.first, m.last}] = true
		byEid[m.eid] = append(byEid[m.eid], m)
		rm = append(rm, m)
	}
	seen := map[int]int{}
	for _, m := range km {
		x := rng.Float64()
		if x < 0.08 {
			continue // dropped
		}
		r := m
		r.eid = clusterOf[m.eid]
		if c, ok := split[m.eid]; ok {
			seen[m.eid]++
			if seen[m.eid]%2 == 0 {
				r.eid = c
			}
		}
		a, b := int32(r.first>>16)-1, int32(r.last>>16)-1
		switch y := rng.Float64(); {
		case y < 0.04 && a > s.sentOf[a]:
			a--
		case y < 0.08 && a < b:
			a++
		case y < 0.12 && b < s.sentLast[b]:
			b++
		case y < 0.16 && a < b:
			b--
		}
		r.first, r.last = gocore.WordNode(a), gocore.WordNode(b)
		if r.head < r.first || r.head > r.last || r.head.Empty() {
			r.head = r.first
		}
		if rng.Float64() < 0.06 && b > a {
			r.head = gocore.WordNode(a + int32(rng.Intn(int(b-a+1))))
		}
		add(r)
	}
	for i := 0; i < len(km)/30; i++ {
		a := int32(rng.Intn(int(s.words)))
		b := min(a+int32(rng.Intn(3)), s.sentLast[a])
		eid := next
		if rng.Float64() < 0.5 {
			eid = rng.Intn(nClusters)
		} else {
			next++
		}
		add(udMention{first: gocore.WordNode(a), last: gocore.WordNode(b), head: gocore.WordNode(b), eid: eid})
	}
	var kb, rb strings.Builder
	s.write(&kb, kz, append(km, kzm...))
	s.write(&rb, rz, append(rm, rzm...))
	return kb.String(), rb.String()
}

// scorerDriver prints, as JSON, the CorefUD scorer's raw counts (pn, pd,
// rn, rd) for each metric, and the number of aligned mentions, for each
// (key, response, configuration) of the JSON job list it is given:
// [{"key": PATH, "resp": PATH, "confs": ["head,dependent,exclude", ...]}].
// A configuration on which the scorer fails gives {"error": MESSAGE}.
const scorerDriver = `
import sys, json, os, logging
logging.disable(logging.WARNING)
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
from scorer.corefud.reader import CorefUDReader
from scorer.eval import evaluator as ev
_docs = {}
_load = CorefUDReader.load_conllu
def _cached(self, path):  # read each file once for all configurations
    if path not in _docs:
        _docs[path] = _load(self, path)
    return _docs[path]
CorefUDReader.load_conllu = _cached
out = []
for job in json.load(open(sys.argv[2])):
    res_job = {}
    for conf in job["confs"]:
        match, zm, singletons = conf.split(",")
        ua = {"exact": "exact", "partial": "partial-corefud", "head": "head"}[match]
        try:
            r = CorefUDReader(format="corefud", keep_singletons=(singletons == "keep"), keep_zeros=True,
                              match=ua, zero_match_method=zm)
            r.get_coref_infos(job["key"], job["resp"])
            res = {}
            for name, m in [("muc", ev.muc), ("bcub", ev.b_cubed), ("ceafe", ev.ceafe), ("ceafm", ev.ceafm),
                            ("lea", ev.lea), ("blanc.coref", ev.blancc), ("blanc.noncoref", ev.blancn),
                            ("mor", ev.mention_overlap), ("zero", ev.als_zeros)]:
                e = ev.Evaluator(m)
                for d in r.doc_coref_infos.values():
                    e.update(d)
                res[name] = list(map(float, e.get_counts()))
            res["aligned"] = float(sum(len(a) for a in r.doc_mention_aligns.values()))
        except Exception as err:
            res = {"error": type(err).__name__ + ": " + str(err)}
        res_job[conf] = res
    out.append(res_job)
print(json.dumps(out))
`

// scorerJob is one (key, response) pair for scorerDriver.
type scorerJob struct {
	Key   string   `json:"key"`
	Resp  string   `json:"resp"`
	Confs []string `json:"confs"`
}

// runScorer runs scorerDriver on jobs and returns, per job and
// configuration, the scorer's counts by metric ("error" when it failed).
func runScorer(t *testing.T, scorer string, jobs []scorerJob) []map[string]map[string]any {
	t.Helper()
	python := os.Getenv("COREFSCORE_COREFUD_PYTHON")
	if python == "" {
		python = "python3"
	}
	dir := t.TempDir()
	driver, spec := filepath.Join(dir, "driver.py"), filepath.Join(dir, "jobs.json")
	require.NoError(t, os.WriteFile(driver, []byte(scorerDriver), 0o644))
	data, err := json.Marshal(jobs)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(spec, data, 0o644))
	cmd := exec.Command(python, driver, scorer, spec)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.Output()
	require.NoError(t, err, "running the CorefUD scorer with %s (COREFSCORE_COREFUD_PYTHON)", python)
	var out []map[string]map[string]any
	require.NoError(t, json.Unmarshal(stdout, &out))
	require.Len(t, out, len(jobs))
	return out
}

// confOptions turns "match,zeros,singletons" into options.
func confOptions(t *testing.T, conf string) gocore.Options {
	parts := strings.Split(conf, ",")
	opt := suiteOptions(t, parts[0], parts[1])
	if parts[2] == "exclude" {
		opt.Singletons = gocore.SingletonsExclude
	}
	return opt
}

// compareCounts checks our counts for one file pair and configuration
// against the scorer's; skip names metrics not compared.
func compareCounts(t *testing.T, what string, sum map[string]float64, want map[string]any, skip map[string]bool) {
	for name, v := range want {
		if skip[name] {
			continue
		}
		if name == "aligned" {
			assert.Equal(t, v, sum["mentions.recall_num"], "%s: matched mentions", what)
			continue
		}
		c := v.([]any)
		got := []float64{sum[name+".precision_num"], sum[name+".precision_den"], sum[name+".recall_num"], sum[name+".recall_den"]}
		for i, x := range c {
			assert.InDelta(t, x.(float64), got[i], 1e-6*max(1, x.(float64)), "%s: %s count %d (pn, pd, rn, rd)", what, name, i)
		}
	}
}

// TestCorefUDScorerGUM scores GUM documents against seeded perturbed
// responses with every match mode, both zero alignments and both singleton
// policies, and checks that every count equals the CorefUD scorer's
// (COREFSCORE_COREFUD_SCORER; COREFSCORE_COREFUD_PYTHON names a Python with
// udapi and scipy, default python3).
func TestCorefUDScorerGUM(t *testing.T) {
	scorer := corefudScorer(t)
	files, err := filepath.Glob(filepath.Join(dataDir(t, "gum-conllu"), "*.conllu"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	rng := rand.New(rand.NewSource(12))
	dir := t.TempDir()
	if keep := os.Getenv("COREFSCORE_KEEP_DIR"); keep != "" {
		dir = keep // keep the generated files for inspection
	}
	var kb, rb strings.Builder
	for _, i := range []int{0, 60, 120} {
		k, r := perturbGUM(t, files[i%len(files)], rng)
		kb.WriteString(k)
		rb.WriteString(r)
	}
	keyPath, respPath := filepath.Join(dir, "key.conllu"), filepath.Join(dir, "resp.conllu")
	require.NoError(t, os.WriteFile(keyPath, []byte(kb.String()), 0o644))
	require.NoError(t, os.WriteFile(respPath, []byte(rb.String()), 0o644))
	// Every match mode with both zero alignments (singletons kept), and
	// singletons excluded with the CRAC ranking setting and two others.
	var confs []string
	for _, m := range []string{"exact", "partial", "head"} {
		for _, z := range []string{"linear", "dependent"} {
			confs = append(confs, m+","+z+",keep")
		}
	}
	confs = append(confs, "head,dependent,exclude", "exact,linear,exclude", "partial,linear,exclude")
	want := runScorer(t, scorer, []scorerJob{{Key: keyPath, Resp: respPath, Confs: confs}})[0]
	for _, conf := range confs {
		require.NotContains(t, want[conf], "error", conf)
		_, counts, dups, _, err := ScoreFiles(keyPath, respPath, conll.FormatCoNLLU, confOptions(t, conf))
		require.NoError(t, err, "%s: %v", conf, err)
		require.Empty(t, dups, "the perturbed files repeat no mention")
		compareCounts(t, conf, sumRows(counts), want[conf], nil)
	}
}

// TestCorefUDScorerZeros compares every count, every match mode and both
// zero alignments with the CorefUD scorer on the zero test files of its
// suite, where the suite itself checks only MUC and B-cubed. The scorer
// fails on the dependent alignment of files without DEPS (ZA to ZE); we
// align such zeros by position.
func TestCorefUDScorerZeros(t *testing.T) {
	scorer := corefudScorer(t)
	dir := filepath.Join(filepath.Dir(scorer), "tests", "tests-corefud", "zeros")
	resps, err := filepath.Glob(filepath.Join(dir, "TC-Z*-*.response"))
	require.NoError(t, err)
	require.NotEmpty(t, resps)
	confs := []string{"exact,linear,keep", "exact,dependent,keep", "partial,linear,keep", "partial,dependent,keep",
		"head,linear,keep", "head,dependent,keep", "head,dependent,exclude"}
	var jobs []scorerJob
	for _, r := range resps {
		base := strings.TrimSuffix(filepath.Base(r), ".response")
		jobs = append(jobs, scorerJob{Key: filepath.Join(dir, base[:strings.LastIndex(base, "-")]+".key"), Resp: r, Confs: confs})
	}
	want := runScorer(t, scorer, jobs)
	compared := 0
	for i, job := range jobs {
		name := strings.TrimSuffix(filepath.Base(job.Resp), ".response")
		for _, conf := range confs {
			w := want[i][conf]
			if _, failed := w["error"]; failed {
				assert.Contains(t, conf, "dependent", "%s %s: the scorer fails only on the dependent alignment: %v", name, conf, w["error"])
				continue
			}
			_, counts, _, _, err := ScoreFiles(job.Key, job.Resp, conll.FormatCoNLLU, confOptions(t, conf))
			require.NoError(t, err)
			compareCounts(t, name+" "+conf, sumRows(counts), w, nil)
			compared++
		}
	}
	assert.Greater(t, compared, 100)
}
