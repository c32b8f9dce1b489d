package conll

import (
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// litbankWithErrors pairs the LitBank key with a response that makes every
// kind of error: each mention in turn is kept, dropped, given a wider span,
// moved to another entity of the document, or kept with an extra mention
// added beside it.
func litbankWithErrors(t testing.TB) []gocore.Document {
	_, data, size := loadFiles(t, "litbank", "*.conll")
	all := make([]byte, 0, size)
	for _, d := range data {
		all = append(all, d...)
	}
	key, err := Parse(all, "litbank.conll", FormatCoNLL2012)
	require.NoError(t, err)
	docs, _, err := Pair(key, key)
	require.NoError(t, err)
	for i := range docs {
		k := docs[i].Key
		var r gocore.Side
		for j, m := range k.Mentions {
			c := k.Clusters[j]
			switch j % 7 {
			case 1: // missing
				continue
			case 2: // span error
				m++
			case 3, 5: // wrong entity
				c = k.Clusters[(j*31)%len(k.Clusters)]
			case 4: // extra mention next to it
				r.Mentions = append(r.Mentions, m+1<<40)
				r.Clusters = append(r.Clusters, c)
			case 6: // and now and then an extra entity of two mentions
				if j%5 == 0 {
					r.Mentions = append(r.Mentions, m+2<<40, m+3<<40)
					r.Clusters = append(r.Clusters, 1<<40+int64(j), 1<<40+int64(j))
				}
			}
			r.Mentions = append(r.Mentions, m)
			r.Clusters = append(r.Clusters, c)
		}
		docs[i].Response = r
	}
	return docs
}

// TestAnalyzeLitBank: on LitBank with errors every category occurs, the
// records are the counts, and the MS errors are the MUC losses.
func TestAnalyzeLitBank(t *testing.T) {
	docs := litbankWithErrors(t)
	set, err := gocore.ParseMetrics([]string{"muc", "kk", "ms"})
	require.NoError(t, err)
	opt := gocore.Options{Metrics: set, SpanMentions: true}
	counts := make([]float64, len(docs)*gocore.NumColumns())
	_, err = gocore.ScoreBatch(docs, opt, counts)
	require.NoError(t, err)
	sum := map[string]float64{}
	for i, c := range gocore.Columns() {
		for d := range docs {
			sum[c] += counts[d*gocore.NumColumns()+i]
		}
	}
	recs, err := gocore.AnalyzeBatch(docs, opt)
	require.NoError(t, err)
	byCat := map[string]float64{}
	for _, r := range recs {
		byCat[r.Category.String()]++
	}
	for _, c := range gocore.ErrorCategories()[:7] {
		assert.Positive(t, byCat[c.String()], "category %s", c)
		assert.Equal(t, sum["kk."+c.String()], byCat[c.String()], "category %s", c)
	}
	assert.Equal(t, sum["ms.recall_errors"], byCat["recall_error"])
	assert.Equal(t, sum["ms.precision_errors"], byCat["precision_error"])
	assert.Equal(t, sum["muc.recall_den"]-sum["muc.recall_num"], sum["ms.recall_errors"])
	assert.Equal(t, sum["muc.precision_den"]-sum["muc.precision_num"], sum["ms.precision_errors"])
}

// BenchmarkAnalyzeLitBank times the error analysis of LitBank (100
// documents, 29,103 key mentions) against a response with errors, documents
// already read: the "kk" and "ms" counts columns, then every record.
func BenchmarkAnalyzeLitBank(b *testing.B) {
	docs := litbankWithErrors(b)
	set, err := gocore.ParseMetrics([]string{"kk", "ms"})
	require.NoError(b, err)
	opt := gocore.Options{Metrics: set, SpanMentions: true}
	counts := make([]float64, len(docs)*gocore.NumColumns())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := gocore.ScoreBatch(docs, opt, counts); err != nil {
			b.Fatal(err)
		}
		if _, err := gocore.AnalyzeBatch(docs, opt); err != nil {
			b.Fatal(err)
		}
	}
}
