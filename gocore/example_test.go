package gocore_test

import (
	"fmt"
	"strings"

	"github.com/corefscore/corefscore/gocore"
)

// ExampleScoreBatch scores the example of Pradhan et al. (2014, §4): key
// {a b c}{d e f g}, response {a b}{c d}{f g h i}, and prints each classic
// metric's recall and precision fractions from the counts row.
func ExampleScoreBatch() {
	// Mentions a..i are ids 1..9; cluster ids are arbitrary labels.
	doc := gocore.Document{
		Name: "example",
		Key: gocore.Side{
			Mentions: []int64{1, 2, 3, 4, 5, 6, 7},
			Clusters: []int64{0, 0, 0, 1, 1, 1, 1},
		},
		Response: gocore.Side{
			Mentions: []int64{1, 2, 3, 4, 6, 7, 8, 9},
			Clusters: []int64{10, 10, 11, 11, 12, 12, 12, 12},
		},
	}
	metrics, err := gocore.ParseMetrics([]string{"muc", "bcub", "ceafm", "ceafe", "blanc", "lea"})
	if err != nil {
		panic(err)
	}
	counts := make([]float64, gocore.NumColumns())
	if _, err := gocore.ScoreBatch([]gocore.Document{doc}, gocore.Options{Metrics: metrics}, counts); err != nil {
		panic(err)
	}
	for _, m := range []string{"muc", "bcub", "ceafm", "ceafe", "blanc.coref", "blanc.noncoref", "lea"} {
		get := func(c string) float64 { return counts[gocore.ColumnIndex(m+"."+c)] }
		fmt.Printf("%-15s R %.4g/%g  P %.4g/%g\n", m,
			get("recall_num"), get("recall_den"), get("precision_num"), get("precision_den"))
	}
	// Output:
	// muc             R 2/5  P 2/5
	// bcub            R 2.917/7  P 4/8
	// ceafm           R 4/7  P 4/8
	// ceafe           R 1.3/2  P 1.3/3
	// blanc.coref     R 2/9  P 2/8
	// blanc.noncoref  R 8/12  P 8/20
	// lea             R 1.667/7  P 2.667/8
}

// ExampleColumns lists the counts columns of one metric: every metric writes
// additive counts, so corpus scores are sums of rows.
func ExampleColumns() {
	for _, c := range gocore.Columns() {
		if strings.HasPrefix(c, "muc.") || strings.HasPrefix(c, "blanc.") {
			fmt.Println(c)
		}
	}
	// Output:
	// muc.recall_num
	// muc.recall_den
	// muc.precision_num
	// muc.precision_den
	// blanc.coref.recall_num
	// blanc.coref.recall_den
	// blanc.coref.precision_num
	// blanc.coref.precision_den
	// blanc.noncoref.recall_num
	// blanc.noncoref.recall_den
	// blanc.noncoref.precision_num
	// blanc.noncoref.precision_den
}
