package gocore_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gumDir is the shared data folder, from this package's directory.
const gumDir = "../../shared/data"

// gumPerturb returns a seeded system response derived from a typed key: it
// drops about 8% of the mentions, moves about 10% to another chain (an
// existing one or a new singleton), and adds about 5% mentions with no key
// twin, typed, half of them joining the chain of the mention they follow.
func gumPerturb(rng *rand.Rand, key gocore.Side) gocore.Side {
	var out gocore.Side
	n := len(key.Mentions)
	fresh := int64(1 << 40)
	for i, m := range key.Mentions {
		if rng.Float64() < 0.08 {
			continue
		}
		c := key.Clusters[i]
		if rng.Float64() < 0.10 {
			if rng.IntN(2) == 0 {
				c = key.Clusters[rng.IntN(n)]
			} else {
				c = fresh
				fresh++
			}
		}
		out.Mentions = append(out.Mentions, m)
		out.Clusters = append(out.Clusters, c)
		out.Types = append(out.Types, key.Types[i])
		if rng.Float64() < 0.05 {
			// A span the key does not have: ids of contiguous spans pack
			// start<<32 | end; the high bit keeps it clear of every key id.
			out.Mentions = append(out.Mentions, 1<<61|m)
			if rng.IntN(2) == 0 {
				out.Clusters = append(out.Clusters, c)
			} else {
				out.Clusters = append(out.Clusters, fresh)
				fresh++
			}
			out.Types = append(out.Types, gocore.MentionType(1+rng.IntN(3)))
		}
	}
	return out
}

// TestLMetricsGUM scores every GUM document, with mention types derived from
// the CoNLL-2012 POS/NE columns (gum-pos) and from CoNLL-U (gum-conllu),
// against a seeded perturbation of itself with the L-metrics and DA: no
// error, every score in [0, 1], the DA identities, and a perfect score for
// the key against itself.
func TestLMetricsGUM(t *testing.T) {
	metrics := []string{"lmuc", "lbcub", "lceafm", "lceafe", "da"}
	set, err := gocore.ParseMetrics(metrics)
	require.NoError(t, err)
	for _, corpus := range []struct{ dir, glob, format string }{
		{"gum-pos", "*.conll", conll.FormatCoNLL2012},
		{"gum-conllu", "*.conllu", conll.FormatCoNLLU},
	} {
		t.Run(corpus.dir, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join(gumDir, corpus.dir, corpus.glob))
			require.NoError(t, err)
			if len(files) == 0 {
				if _, err := os.Stat(gumDir); err != nil {
					t.Skipf("shared data folder %s is absent: nothing to test against", gumDir)
				}
				t.Fatalf("no %s files under %s", corpus.glob, filepath.Join(gumDir, corpus.dir))
			}
			var docs []gocore.Document
			for _, f := range files {
				read, err := conll.Read(f, corpus.format)
				require.NoError(t, err, f)
				paired, _, err := conll.Pair(read, read)
				require.NoError(t, err, f)
				docs = append(docs, paired...)
			}
			require.Len(t, docs, 177)
			rng := rand.New(rand.NewPCG(2013, 2000))
			perfect := make([]gocore.Document, len(docs))
			for i := range docs {
				require.NotNil(t, docs[i].Key.Types, docs[i].Name)
				perfect[i] = docs[i]
				docs[i].Response = gumPerturb(rng, docs[i].Key)
			}
			cols := gocore.Columns()
			col := func(name string) int {
				i := gocore.ColumnIndex(name)
				require.GreaterOrEqual(t, i, 0, name)
				return i
			}
			for _, greedy := range []bool{false, true} {
				counts := make([]float64, len(docs)*len(cols))
				_, err := gocore.ScoreBatch(docs, gocore.Options{Metrics: set, DAGreedy: greedy}, counts)
				require.NoError(t, err)
				sums := make([]float64, len(cols))
				for d := range docs {
					row := counts[d*len(cols) : (d+1)*len(cols)]
					for c := range sums {
						sums[c] += row[c]
					}
					for _, m := range metrics {
						rn, rd := row[col(m+".recall_num")], row[col(m+".recall_den")]
						pn, pd := row[col(m+".precision_num")], row[col(m+".precision_den")]
						assert.True(t, rn >= 0 && rn <= rd*(1+1e-12), "%s %s recall %v / %v", docs[d].Name, m, rn, rd)
						assert.True(t, pn >= 0 && pn <= pd*(1+1e-12), "%s %s precision %v / %v", docs[d].Name, m, pn, pd)
					}
					inc, spu, mis := row[col("da.incorrect")], row[col("da.spurious")], row[col("da.missing")]
					assert.Equal(t, row[col("da.recall_den")], row[col("da.recall_num")]+inc+mis, docs[d].Name)
					assert.Equal(t, row[col("da.precision_den")], row[col("da.precision_num")]+inc+spu, docs[d].Name)
				}
				// The perturbation hurts every metric but leaves it well above 0.
				for _, m := range metrics {
					r := sums[col(m+".recall_num")] / sums[col(m+".recall_den")]
					p := sums[col(m+".precision_num")] / sums[col(m+".precision_den")]
					assert.True(t, r > 0.3 && r < 1, "%s recall %v", m, r)
					assert.True(t, p > 0.3 && p < 1, "%s precision %v", m, p)
					t.Logf("greedy=%v %s: recall %.4f precision %.4f", greedy, m, r, p)
				}
			}
			counts := make([]float64, len(perfect)*len(cols))
			_, err = gocore.ScoreBatch(perfect, gocore.Options{Metrics: set}, counts)
			require.NoError(t, err)
			for d := range perfect {
				row := counts[d*len(cols) : (d+1)*len(cols)]
				for _, m := range metrics {
					assert.InDelta(t, row[col(m+".recall_den")], row[col(m+".recall_num")], 1e-9, "%s %s", perfect[d].Name, m)
					assert.InDelta(t, row[col(m+".precision_den")], row[col(m+".precision_num")], 1e-9, "%s %s", perfect[d].Name, m)
				}
			}
		})
	}
}
