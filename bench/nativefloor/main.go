// Command nativefloor reads, pairs and scores two files as the drop-in form
// (`corefscore all KEY RESPONSE none`) has the library do, in a plain Go
// process, and prints only the number of documents: the least a native
// entry point (a Go `main` instead of the Python command) would cost, before
// printing anything. bench/startup_bench.py builds it and times it beside the
// command and its floor (bench/startup.md).
//
// With "score" first, it does what `corefscore score KEY RESPONSE` has the
// library do instead (every default metric; bench/one_doc.py).
//
// Usage:
//
//	nativefloor [score] KEY RESPONSE
package main

import (
	"fmt"
	"os"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/files"
)

// dropInOptions are the engine options of the drop-in form `all ... none`
// (cli.py's _dropin): the reference scorer's metrics and mention
// identification, repeated mentions kept at their first occurrence, the
// reference's summation order for the totals (all that "none" prints).
var dropInOptions = [][2]string{
	{"metrics", "mentions,muc,bcub,ceafm,ceafe,blanc"},
	{"duplicates", "warn"},
	{"sums", "reference-totals"},
}

// scoreOptions are the engine options of `corefscore score KEY RESPONSE`
// (cli.py's _score_kwargs as _engine.Options passes them): every default
// metric, the key's BLANC rule.
var scoreOptions = [][2]string{
	{"duplicates", "warn"},
	{"blanc_rule", "key"},
	{"da_greedy", "false"},
}

func main() {
	args, options := os.Args[1:], dropInOptions
	if len(args) == 3 && args[0] == "score" {
		args, options = args[1:], scoreOptions
	}
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: nativefloor [score] KEY RESPONSE")
		os.Exit(2)
	}
	keys, values := make([]string, len(options)), make([]string, len(options))
	for i, kv := range options {
		keys[i], values[i] = kv[0], kv[1]
	}
	opt, err := gocore.ParseOptions(keys, values)
	if err != nil {
		fmt.Fprintln(os.Stderr, "nativefloor:", err)
		os.Exit(2)
	}
	res, err := files.Score(args[0], args[1], opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "nativefloor:", err)
		os.Exit(2)
	}
	fmt.Println(len(res.Names), "documents")
}
