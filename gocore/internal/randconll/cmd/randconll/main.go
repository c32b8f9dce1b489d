// Command randconll writes the random CoNLL-2012 key and response files of
// package randconll for a range of seeds:
//
//	go run ./gocore/internal/randconll/cmd/randconll -dir DIR -from 1 -n 300
//
// writes DIR/SEED.key and DIR/SEED.response for SEED = from .. from+n-1 and
// prints each pair's two paths, tab-separated, one pair a line.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/corefscore/corefscore/gocore/internal/randconll"
)

func main() {
	dir := flag.String("dir", ".", "directory to write the files to")
	from := flag.Uint64("from", 1, "first seed")
	n := flag.Uint64("n", 300, "number of pairs")
	flag.Parse()
	for seed := *from; seed < *from+*n; seed++ {
		p := randconll.Generate(seed)
		key := filepath.Join(*dir, fmt.Sprintf("%d.key", seed))
		resp := filepath.Join(*dir, fmt.Sprintf("%d.response", seed))
		if err := os.WriteFile(key, p.Key, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "randconll:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(resp, p.Response, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "randconll:", err)
			os.Exit(1)
		}
		fmt.Printf("%s\t%s\n", key, resp)
	}
}
