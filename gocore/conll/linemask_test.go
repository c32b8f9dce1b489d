package conll

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLineMasks checks lineMasks against a byte loop on blocks of random
// bytes, newlines and tabs at every position included.
func TestLineMasks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("\n\tab\x00\xff(1) \r\x09\x0a\x0b\x08")
	for n := range 5000 {
		var b [64]byte
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if n < 64 { // one newline and one tab at each position
			b = [64]byte{}
			b[n], b[63-n] = '\n', '\t'
			if n == 63-n {
				b[n] = '\n'
			}
		}
		var wantNL, wantTab uint64
		for i, c := range b {
			if c == '\n' {
				wantNL |= 1 << i
			}
			if c == '\t' {
				wantTab |= 1 << i
			}
		}
		nl, tabs := lineMasks(&b)
		require.Equal(t, wantNL, nl, "%q", b[:])
		require.Equal(t, wantTab, tabs, "%q", b[:])
	}
}
