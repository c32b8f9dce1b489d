package conll

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/require"
)

// TestMentionSize pins the size of a Mention: the readers hold one per
// mention of both files while they are scored, so each byte here is 2 MB on
// the 1M-mention document.
func TestMentionSize(t *testing.T) {
	require.LessOrEqual(t, unsafe.Sizeof(Mention{}), uintptr(40))
}

// TestMentionHasNoPointer pins that a Mention holds no pointer (its rare
// part is an index into its document's table): an array of them is then
// never scanned by the collector, whose scan of a fresh array read its
// pages before the reader wrote them (a second fault and a TLB flush on
// every CPU per page on the 1M-mention document).
func TestMentionHasNoPointer(t *testing.T) {
	typ := reflect.TypeFor[Mention]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		switch f.Type.Kind() {
		case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			t.Errorf("Mention.%s is a %s: a Mention must hold only numbers", f.Name, f.Type.Kind())
		}
	}
}

// nestedCoNLLU returns a CoNLL-U document of n+1 words whose n mentions
// nest: mention i covers words i+1..n+1 (1-based), head = its first word.
func nestedCoNLLU(n int) string {
	var b strings.Builder
	b.WriteString("# global.Entity = eid-etype-head-other\n# newdoc id = nested\n")
	for w := 0; w <= n; w++ {
		misc := "_"
		switch {
		case w < n:
			misc = fmt.Sprintf("Entity=(e%d-x-1", w/4)
		default:
			var items strings.Builder
			for i := n - 1; i >= 0; i-- {
				fmt.Fprintf(&items, "e%d)", i/4)
			}
			misc = "Entity=" + items.String()
		}
		fmt.Fprintf(&b, "%d\tw\tw\tNOUN\tNN\t_\t%d\tdep\t_\t%s\n", w+1, min(w, 1), misc)
	}
	return b.String() + "\n"
}

// TestNestedMentionsMemoryIsLinear scores the nested case (its mentions'
// total length is quadratic in the file) in every match mode and checks
// that the bytes allocated grow linearly: 4x the mentions may cost at most
// 6x the bytes (word lists per mention cost 16x, as before mentions were
// held as bounds).
func TestNestedMentionsMemoryIsLinear(t *testing.T) {
	for _, match := range []gocore.MatchMode{gocore.MatchExact, gocore.MatchPartial, gocore.MatchHead} {
		alloc := func(n int) uint64 {
			text := nestedCoNLLU(n)
			key, err := ReadCoNLLU(strings.NewReader(text), "key.conllu")
			require.NoError(t, err)
			resp, err := ReadCoNLLU(strings.NewReader(text), "resp.conllu")
			require.NoError(t, err)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			docs, _, err := Pair(key, resp)
			require.NoError(t, err)
			opt := gocore.Options{Match: match, ZeroMatch: gocore.ZeroDependent}
			opt.Metrics, err = gocore.ParseMetrics([]string{"muc", "bcub", "ceafe", "mor"})
			require.NoError(t, err)
			counts := make([]float64, gocore.NumColumns())
			_, err = gocore.Score(docs, opt, counts)
			require.NoError(t, err)
			runtime.ReadMemStats(&after)
			return after.TotalAlloc - before.TotalAlloc
		}
		small, large := alloc(2000), alloc(8000)
		require.Less(t, large, 6*small, "%s matching: %d bytes for 2,000 nested mentions, %d for 8,000", match, small, large)
	}
}
