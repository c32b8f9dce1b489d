package gocore_test

import (
	"fmt"

	"github.com/corefscore/corefscore/gocore"
)

// sumsOf scores docs with the named metrics and returns a lookup of the
// summed columns.
func sumsOf(docs []gocore.Document, opt gocore.Options, metrics ...string) func(string) float64 {
	set, err := gocore.ParseMetrics(metrics)
	if err != nil {
		panic(err)
	}
	opt.Metrics = set
	counts := make([]float64, len(docs)*gocore.NumColumns())
	if _, err := gocore.ScoreBatch(docs, opt, counts); err != nil {
		panic(err)
	}
	return func(col string) float64 {
		i := gocore.ColumnIndex(col)
		s := 0.0
		for d := range docs {
			s += counts[d*gocore.NumColumns()+i]
		}
		return s
	}
}

// The example of Chen & Ng's introduction: "Hillary Clinton", "she", "she".
// R1 links the name and the first pronoun, R2 the two pronouns. MUC cannot
// tell them apart; LMUC (default weights W4) rewards R1 for finding the
// pronoun's informative antecedent.
func ExampleScoreBatch_lmuc() {
	types := []gocore.MentionType{gocore.TypeName, gocore.TypePronoun, gocore.TypePronoun}
	key := gocore.Side{Mentions: []int64{1, 2, 3}, Clusters: []int64{0, 0, 0}, Types: types}
	r1 := gocore.Side{Mentions: []int64{1, 2, 3}, Clusters: []int64{0, 0, 1}, Types: types}
	r2 := gocore.Side{Mentions: []int64{1, 2, 3}, Clusters: []int64{0, 1, 1}, Types: types}
	for _, resp := range []struct {
		name string
		side gocore.Side
	}{{"R1", r1}, {"R2", r2}} {
		sum := sumsOf([]gocore.Document{{Name: resp.name, Key: key, Response: resp.side}}, gocore.Options{}, "muc", "lmuc")
		for _, m := range []string{"muc", "lmuc"} {
			fmt.Printf("%s %-4s recall %.3f precision %.3f\n", resp.name, m,
				sum(m+".recall_num")/sum(m+".recall_den"), sum(m+".precision_num")/sum(m+".precision_den"))
		}
	}
	// Output:
	// R1 muc  recall 0.500 precision 1.000
	// R1 lmuc recall 0.500 precision 0.500
	// R2 muc  recall 0.500 precision 1.000
	// R2 lmuc recall 0.250 precision 0.333
}

// The worked example of Trouilleux et al. (2000): the response links "his"
// and "he" to Mandela instead of Clinton, and "Africans" to "African
// Americans". No denotation assignment is correct; the four errors split
// into two substitutions, one overgeneration and one undergeneration.
func ExampleScoreBatch_da() {
	const (
		name    = gocore.TypeName
		nominal = gocore.TypeNominal
		pronoun = gocore.TypePronoun
	)
	// Mandela, Clinton, his, African Americans, slavery, he, Africans, it.
	types := []gocore.MentionType{name, name, pronoun, nominal, nominal, pronoun, nominal, pronoun}
	ids := []int64{0, 1, 2, 3, 4, 5, 6, 7}
	doc := gocore.Document{
		Name:     "figure1",
		Key:      gocore.Side{Mentions: ids, Clusters: []int64{10, 1, 1, 11, 2, 1, 12, 2}, Types: types},
		Response: gocore.Side{Mentions: ids, Clusters: []int64{1, 20, 1, 2, 21, 1, 2, 22}, Types: types},
	}
	sum := sumsOf([]gocore.Document{doc}, gocore.Options{}, "da")
	fmt.Printf("recall %v/%v precision %v/%v\n",
		sum("da.recall_num"), sum("da.recall_den"), sum("da.precision_num"), sum("da.precision_den"))
	fmt.Printf("substitution %.2f overgeneration %.2f undergeneration %.2f\n",
		sum("da.incorrect")/sum("da.errors"), sum("da.spurious")/sum("da.errors"), sum("da.missing")/sum("da.errors"))
	// Output:
	// recall 0/3 precision 0/3
	// substitution 0.50 overgeneration 0.25 undergeneration 0.25
}
