package conll

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenFIFOWithoutWriterCancelled: opening a FIFO that no process ever
// opens for writing blocks in the kernel; a set stop flag still ends every
// kind of read (streamed by name, read whole when the name says nothing,
// read with the words for the report).
func TestOpenFIFOWithoutWriterCancelled(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"nobody.conll", "nobody.conllu", "nobody"} {
		for _, withText := range []bool{false, true} {
			fifo := filepath.Join(dir, name)
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("no FIFO: %v", err)
			}
			var stop atomic.Bool
			time.AfterFunc(100*time.Millisecond, func() { stop.Store(true) })
			done := make(chan error, 1)
			go func() {
				o := readOpts{stop: stop.Load}
				if withText {
					o.text = new([]Text)
				}
				_, err := readWith(fifo, o)
				done <- err
			}()
			select {
			case err := <-done:
				assert.True(t, errors.Is(err, gocore.ErrCancelled), "%s (words %v): %v", name, withText, err)
			case <-time.After(5 * time.Second): // a bound on the test, not a timing
				t.Fatalf("%s (words %v): opening a FIFO without a writer ignored the stop flag", name, withText)
			}
			require.NoError(t, syscall.Unlink(fifo))
		}
	}
}

// TestJSONLinesParseCancelled: the jsonlines parser polls the stop flag
// between documents.
func TestJSONLinesParseCancelled(t *testing.T) {
	var b strings.Builder
	for i := range 3 {
		fmt.Fprintf(&b, "{\"doc_key\": \"d%d\", \"clusters\": [[[0, 1]]]}\n", i)
	}
	data := []byte(b.String())
	_, err := parseJSONLinesWith(data, "x.jsonl", readOpts{stop: func() bool { return true }})
	assert.True(t, errors.Is(err, gocore.ErrCancelled), "%v", err)
	var calls int
	_, err = parseJSONLinesWith(data, "x.jsonl", readOpts{stop: func() bool { calls++; return calls > 2 }})
	assert.True(t, errors.Is(err, gocore.ErrCancelled), "a stop set after the first document: %v", err)
}
