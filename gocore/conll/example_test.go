package conll_test

import (
	"fmt"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
)

// ExamplePair reads a key and a response in CoNLL-2012 format, pairs their
// documents and scores them. The key has the entities {John Smith, he} and
// {Mary}; the response puts all three mentions in one entity. MUC recall is
// perfect (the key's one link is found) but precision is 1/2 (the response
// has two links, one of them wrong).
func ExamplePair() {
	key := "#begin document (ex); part 000\n" +
		"John\t(1\nSmith\t1)\nsaw\t-\nhim\t(1)\n.\t-\nMary\t(2)\n#end document\n"
	response := "#begin document (ex); part 000\n" +
		"John\t(7\nSmith\t7)\nsaw\t-\nhim\t(7)\n.\t-\nMary\t(7)\n#end document\n"
	k, err := conll.Parse([]byte(key), "key.conll", "")
	if err != nil {
		panic(err)
	}
	r, err := conll.Parse([]byte(response), "response.conll", "")
	if err != nil {
		panic(err)
	}
	docs, warnings, err := conll.Pair(k, r)
	if err != nil {
		panic(err)
	}
	counts := make([]float64, len(docs)*gocore.NumColumns())
	if _, err := gocore.ScoreBatch(docs, gocore.Options{}, counts); err != nil {
		panic(err)
	}
	at := func(col string) float64 { return counts[gocore.ColumnIndex(col)] }
	fmt.Println(docs[0].Name, len(warnings), "warnings")
	fmt.Printf("muc recall %v/%v precision %v/%v\n",
		at("muc.recall_num"), at("muc.recall_den"), at("muc.precision_num"), at("muc.precision_den"))
	// Output:
	// (ex); part 000 0 warnings
	// muc recall 1/1 precision 1/2
}
