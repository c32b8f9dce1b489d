package gocore_test

import (
	"fmt"

	"github.com/corefscore/corefscore/gocore"
)

// ExampleScoreUA scores the UA scorer's plural test case TC-PA-5: key
// {ab} {cd} {e} {{ac}fg}, response {ab} {cd} {e} {{ace}fg}; the plural
// {fg} has the split antecedent {a, c} in the key and {a, c, e} in the
// response. One token per markable, a..g = tokens 0..6.
func ExampleScoreUA() {
	side := func(antecedents ...int32) gocore.UASide {
		s := gocore.UASide{Entities: []gocore.UAEntity{{Name: "1"}, {Name: "2"}, {Name: "3"}, {Name: "4"}}}
		for tok, e := range []int32{0, 0, 1, 1, 2, 3, 3} {
			s.Markables = append(s.Markables, gocore.UAMarkable{Start: int32(tok), End: int32(tok), MinStart: -1, MinEnd: -1, Entity: e})
		}
		for _, a := range antecedents { // the first markable of each antecedent entity: ElementOf the plural
			s.Markables[2*a].ElementOf = []int32{3}
		}
		return s
	}
	doc := gocore.UADocument{Name: "TC-PA-5", Key: side(0, 1), Response: side(0, 1, 2)}
	for _, mode := range []gocore.UASplitMode{gocore.UASplitKeep, gocore.UASplitOnly} {
		counts := make([]float64, gocore.NumColumns())
		if _, err := gocore.ScoreUA([]gocore.UADocument{doc}, gocore.Options{UA: gocore.UAOptions{Split: mode}}, counts); err != nil {
			panic(err)
		}
		for _, m := range []string{"muc", "lea"} {
			get := func(c string) float64 { return counts[gocore.ColumnIndex(m+"."+c)] }
			fmt.Printf("split mode %d %-4s R %.4g/%g  P %.4g/%g\n", mode, m,
				get("recall_num"), get("recall_den"), get("precision_num"), get("precision_den"))
		}
	}
	// Output:
	// split mode 0 muc  R 4/4  P 3.667/4
	// split mode 0 lea  R 8/8  P 7.6/8
	// split mode 2 muc  R 2/2  P 2/3
	// split mode 2 lea  R 4/4  P 4/5
}
