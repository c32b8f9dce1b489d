package conll

// haveLineMasks says that lineMasks is the processor's (see feedLines).
const haveLineMasks = true

// lineMasks returns the positions of the newlines and of the tabs among the
// 64 bytes of b as bits (bit j for b[j]): one call where a short line took
// three (bytes.IndexByte for its end, bytes.Count and bytes.LastIndexByte
// for its tabs).
//
//go:noescape
func lineMasks(b *[64]byte) (newlines, tabs uint64)
