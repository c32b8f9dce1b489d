package conll

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/corefscore/corefscore/gocore"
)

// bigCoNLL2012 and bigCoNLLU are files of more than two feedChunk runs,
// with mentions that cross the runs' boundaries.
func bigCoNLL2012() []byte {
	var b strings.Builder
	for d := 0; b.Len() < 3*feedChunk; d++ {
		fmt.Fprintf(&b, "#begin document (d%d); part 000\n", d)
		for i := 0; i < 4000; i++ {
			cell := "-"
			switch i % 7 {
			case 0:
				cell = fmt.Sprintf("(%d", i%13)
			case 2:
				cell = fmt.Sprintf("%d)", (i-2)%13)
			case 5:
				cell = fmt.Sprintf("(%d)", i%11)
			}
			fmt.Fprintf(&b, "d%d\t0\t%d\tw%d\tNN\t%s\n", d, i%20, i, cell)
			if i%20 == 19 {
				b.WriteString("\n")
			}
		}
		b.WriteString("#end document\n")
	}
	return []byte(b.String())
}

func bigCoNLLU() []byte {
	var b strings.Builder
	for d := 0; b.Len() < 3*feedChunk; d++ {
		fmt.Fprintf(&b, "# newdoc id = d%d\n", d)
		for s := 0; s < 200; s++ {
			fmt.Fprintf(&b, "# sent_id = d%d-%d\n", d, s)
			for i := 1; i <= 20; i++ {
				misc := "_"
				switch i % 7 {
				case 1:
					misc = fmt.Sprintf("Entity=(e%d", (s+i)%9)
				case 3:
					misc = fmt.Sprintf("Entity=e%d)", (s+i-2)%9)
				case 5:
					misc = fmt.Sprintf("Entity=(e%d)", s%5)
				}
				fmt.Fprintf(&b, "%d\tw%d\tw\tNOUN\t_\t_\t0\troot\t_\t%s\n", i, i, misc)
			}
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

// A file parsed from memory (format guessed from its content) is fed to
// its parser in runs, polling the cancel flag between them: the documents
// are those of one feed of the whole, and a cancel ends the parse.
func TestParseFromMemoryPollsAndEqualsOneFeed(t *testing.T) {
	for _, c := range []struct {
		name  string
		data  []byte
		whole func([]byte) ([]Doc, error)
	}{
		{"conll2012", bigCoNLL2012(), func(data []byte) ([]Doc, error) {
			p := newConllParser("big.txt", true, len(data))
			if err := p.feed(data); err != nil {
				return nil, err
			}
			return p.end()
		}},
		{"conllu", bigCoNLLU(), func(data []byte) ([]Doc, error) {
			p := newUDParser("big.txt")
			if err := p.feed(data); err != nil {
				return nil, err
			}
			return p.end()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, err := c.whole(c.data)
			if err != nil {
				t.Fatal(err)
			}
			mentions := 0
			for _, d := range want {
				mentions += len(d.Mentions)
			}
			if len(want) < 2 || mentions < 1000 {
				t.Fatalf("the fixture reads as %d documents with %d mentions", len(want), mentions)
			}
			polls := 0
			got, err := parseWith(c.data, "big.txt", readOpts{types: true, stop: func() bool { polls++; return false }})
			if err != nil {
				t.Fatal(err)
			}
			if polls < 3 {
				t.Errorf("%d polls of the cancel flag for %d bytes", polls, len(c.data))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("fed in runs: %d documents, not those of one feed (%d)", len(got), len(want))
			}
			calls := 0
			_, err = parseWith(c.data, "big.txt", readOpts{types: true, stop: func() bool { calls++; return calls > 1 }})
			if !errors.Is(err, gocore.ErrCancelled) {
				t.Errorf("cancelled after the first run: got %v, want ErrCancelled", err)
			}
		})
	}
}
