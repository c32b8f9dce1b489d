//go:build !amd64

package conll

// haveLineMasks is false where lineMasks has no assembly: feedLines then
// finds lines and tabs with package bytes.
const haveLineMasks = false

// lineMasks is lineMasks of linemask_amd64.go, byte by byte (for its test).
func lineMasks(b *[64]byte) (newlines, tabs uint64) {
	for j, c := range b {
		switch c {
		case '\n':
			newlines |= 1 << j
		case '\t':
			tabs |= 1 << j
		}
	}
	return newlines, tabs
}
