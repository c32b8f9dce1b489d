package gocore

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/corefscore/corefscore/gocore/assign"
)

// assignShape is one document of the alignment benchmark
// (bench/assign_bench.py): random partitions of n mentions into k clusters
// per side, and the realistic synthetic document of the engine benchmarks.
type assignShape struct {
	name string
	doc  func() Document
}

var assignShapes = []assignShape{
	{"random-100k", func() Document { return randomPartitionDoc(1, 100_000, 10_000) }},
	{"random-200k", func() Document { return randomPartitionDoc(1, 200_000, 20_000) }},
	{"random-1M", func() Document { return randomPartitionDoc(1, 1_000_000, 100_000) }},
	{"synthetic-1M", func() Document { return withTypes(benchDoc(1_000_000)) }},
}

// ceafeEdges returns the CEAF_e alignment problem of d: its key and response
// cluster counts and the φ4 edges, as ceafeCounts builds them.
func ceafeEdges(tb testing.TB, d *Document) (int, int, []assign.Edge) {
	tb.Helper()
	opt := withDefaults(Options{})
	var dups []Duplicate
	t, err := NewTable(d, 0, &opt, &dups)
	if err != nil {
		tb.Fatal(err)
	}
	edges := make([]assign.Edge, 0, len(t.Cells))
	for _, c := range t.Cells {
		edges = append(edges, assign.Edge{Left: c.K, Right: c.R, Weight: 2 * float64(c.N) / float64(t.KeySize[c.K]+t.RespSize[c.R])})
	}
	return len(t.KeySize), len(t.RespSize), edges
}

// dumpAssignGraph writes the graph to dir/name.bin (little-endian int32
// nLeft, nRight, nEdges, then the int32 left and right vertices and the
// float64 weights of the edges) and the solver's optimal total to
// dir/name.json, for the SciPy side of bench/assign_bench.py.
func dumpAssignGraph(tb testing.TB, dir, name string, nLeft, nRight int, edges []assign.Edge, total float64) {
	tb.Helper()
	f, err := os.Create(filepath.Join(dir, name+".bin"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	head := []int32{int32(nLeft), int32(nRight), int32(len(edges))}
	left := make([]int32, len(edges))
	right := make([]int32, len(edges))
	weight := make([]float64, len(edges))
	for i, e := range edges {
		left[i], right[i], weight[i] = e.Left, e.Right, e.Weight
	}
	for _, part := range []any{head, left, right, weight} {
		if err := binary.Write(f, binary.LittleEndian, part); err != nil {
			tb.Fatal(err)
		}
	}
	meta, err := json.Marshal(map[string]any{"nLeft": nLeft, "nRight": nRight, "edges": len(edges), "total": total})
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), meta, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkAssign times, on each shape, the CEAF_e alignment alone
// (assign.MaxWeight on the φ4 edges: what SciPy is compared with) and whole
// scorings of the document: ceafe, lceafe, the classic metrics and every
// metric (typed), with the default workers. With COREFSCORE_ASSIGN_DUMP set
// to a directory it also writes each shape's graph there (see
// dumpAssignGraph). Select shapes with -bench 'BenchmarkAssign/random-100k/'.
func BenchmarkAssign(b *testing.B) {
	dumpDir := os.Getenv("COREFSCORE_ASSIGN_DUMP")
	classic, err := ParseMetrics(classicMetrics)
	if err != nil {
		b.Fatal(err)
	}
	for _, shape := range assignShapes {
		var d Document
		var nLeft, nRight int
		var edges []assign.Edge
		setup := func(b *testing.B) {
			if edges == nil {
				d = shape.doc()
				nLeft, nRight, edges = ceafeEdges(b, &d)
			}
		}
		b.Run(shape.name+"/solver", func(b *testing.B) {
			setup(b)
			var total float64
			b.ReportAllocs()
			for b.Loop() {
				if total, _, err = assign.MaxWeight(nLeft, nRight, edges); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(edges)), "edges")
			if dumpDir != "" {
				dumpAssignGraph(b, dumpDir, shape.name, nLeft, nRight, edges, total)
			}
		})
		for _, m := range []struct {
			name string
			set  MetricSet
		}{{"ceafe", 1 << metricIndex("ceafe")}, {"lceafe", 1 << metricIndex("lceafe")}, {"all", classic}, {"typed-all", 0}} {
			b.Run(fmt.Sprintf("%s/%s", shape.name, m.name), func(b *testing.B) {
				setup(b)
				runScore(b, d, Options{Metrics: m.set})
			})
		}
	}
}

// TestCeafeEdgesMatchMetric checks that the benchmark's graph is the one
// ceafeCounts solves: the optimal total over it is the CEAF_e numerator, up
// to the rounding of the solver's in-order sum (the metric adds the exact
// quotients of the aligned pairs and rounds once).
func TestCeafeEdgesMatchMetric(t *testing.T) {
	d := randomPartitionDoc(2, 3_000, 300)
	nLeft, nRight, edges := ceafeEdges(t, &d)
	total, _, err := assign.MaxWeight(nLeft, nRight, edges)
	if err != nil {
		t.Fatal(err)
	}
	row := make([]float64, NumColumns())
	if _, err := ScoreBatch([]Document{d}, Options{}, row); err != nil {
		t.Fatal(err)
	}
	if got := row[ColumnIndex("ceafe.recall_num")]; math.Abs(got-total) > 1e-12*total {
		t.Fatalf("ceafe.recall_num %v, benchmark graph total %v", got, total)
	}
}
