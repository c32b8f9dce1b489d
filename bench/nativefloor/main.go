// Command nativefloor reads, pairs and scores two files as the drop-in form
// (`corefscore all KEY RESPONSE none`) has the library do, in a plain Go
// process, and prints only the number of documents: the least a native
// entry point (a Go `main` instead of the Python command) would cost, before
// printing anything. bench/startup_bench.py builds it and times it beside the
// command and its floor (bench/startup.md).
//
// Usage:
//
//	nativefloor KEY RESPONSE
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

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: nativefloor KEY RESPONSE")
		os.Exit(2)
	}
	keys, values := make([]string, len(dropInOptions)), make([]string, len(dropInOptions))
	for i, kv := range dropInOptions {
		keys[i], values[i] = kv[0], kv[1]
	}
	opt, err := gocore.ParseOptions(keys, values)
	if err != nil {
		fmt.Fprintln(os.Stderr, "nativefloor:", err)
		os.Exit(2)
	}
	res, err := files.Score(os.Args[1], os.Args[2], opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "nativefloor:", err)
		os.Exit(2)
	}
	fmt.Println(len(res.Names), "documents")
}
