// Package pages allocates large arrays whose memory is first written, not
// read.
//
// On Linux a fresh page of anonymous memory that is first read is mapped to
// the shared zero page; the first write then faults a second time, and
// replacing that mapping flushes the TLB of every CPU the process runs on
// (an inter-processor interrupt per page while the engine's two threads
// run). A counting array (counts[x]++) or a solver's marks (read before
// set) meet this on every page of a large fresh array: on the 1M-mention
// document such faults in B-cubed, LEA and the sparse solver took about a
// tenth of the process's CPU (perf). Writing each page once, in order, when
// the array is made costs one ordinary fault a page, which its first use
// would have cost anyway.
package pages

import "unsafe"

// pageSize is the smallest page size of the platforms the engine runs on;
// a larger page is only written more than once.
const pageSize = 4096

// minBytes is the size from which Make writes the pages: smaller arrays
// come from memory the heap has already used, or cost a few faults.
const minBytes = 64 << 10

// Make returns make([]T, n), each page of a large array written once.
func Make[T any](n int) []T {
	s := make([]T, n)
	size := unsafe.Sizeof(*new(T))
	if size == 0 || n == 0 || uintptr(n)*size < minBytes {
		return s
	}
	var zero T
	step := max(1, int(pageSize/size)) // consecutive writes at most a page apart
	for i := 0; i < n; i += step {
		s[i] = zero
	}
	s[n-1] = zero // the tail past the last step
	return s
}
