// Package exactsum adds float64 terms exactly, so that a sum does not depend
// on the order of its terms.
//
// A coreference document is a pair of partitions, sets of sets: the same
// document may list its clusters and their mentions in any order, and a
// metric must give the same counts, to the last bit, whichever order it
// reads. Ordinary floating-point addition is not associative, so a count
// that adds fractional terms (B-cubed's n_ij² / |K_i|, CEAF_e's φ4 of the
// aligned pairs, ...) in input order changes in its last bits when the
// order changes. Sum keeps the exact real sum of the terms added so far, and
// Value rounds it once, to nearest with ties to even, so
//
//	Value() = RN(Σ x_i)   (the real sum of the float64 terms, rounded once)
//
// is a function of the multiset of terms alone (as Python's math.fsum).
//
// Two exact stores hold the sum. A term whose bits lie between 2^-192 and
// 2^32 (every term of a coreference document, quotient remainders
// included) is added to a fixed-point integer of windowWords 64-bit words,
// an integer addition with carries: exact and associative, a few
// nanoseconds. Any other term (huge, tiny or subnormal) is added to a
// non-overlapping expansion of float64 partials (Shewchuk 1997, "Adaptive
// precision floating-point arithmetic and fast robust geometric
// predicates", the algorithm of math.fsum), compressed (Shewchuk's
// COMPRESS) when its inline array fills. Value rounds the window directly
// when the expansion is empty, else adds the window's exact content to the
// expansion and rounds that.
//
// Quotients. AddQuotient(a, b) adds the real quotient a / b rather than its
// rounded value: the rounded quotient q = RN(a/b) and the remainder
// a - q·b, which is exactly representable and computed exactly with a fused
// multiply-add, whose quotient by b is added as a second term. The error left
// is that of rounding the remainder's quotient, below 2^-105 of |a/b|. So a
// sum of ratios of integers (such as Σ 2n/(k + r) over an alignment) is the
// rational sum rounded once, except when that rational lies within about
// n·2^-105 (relative) of a midpoint between two float64 values, and two
// groupings of the same rational total (two tied optimal alignments with
// different pairs, 1/3 + 2/3 and 1/2 + 1/2) give the same bits.
//
// Preconditions: terms are finite and the partial sums stay below
// math.MaxFloat64 in magnitude (an infinite or NaN term makes the value
// infinite or NaN, as plain addition would). Cost: O(1) per term in the
// window, O(p) for p partials otherwise (p is at most about 40, for terms
// spread over the whole float64 range; beyond inlinePartials they move to
// the heap). No allocation otherwise.
package exactsum

import (
	"math"
	"math/bits"
)

// inlinePartials is the number of expansion partials a Sum holds without
// allocating. Terms whose magnitudes lie within 2^(53·inlinePartials) of
// each other never need more.
const inlinePartials = 8

// The window: two unsigned integers of windowWords words, the sums of the
// magnitudes of the positive and of the negative terms, whose least
// significant bit weighs 2^-windowFrac. A term is added there when its
// lowest mantissa bit weighs at least 2^-windowFrac and its magnitude is
// below 2^windowTop; the 2^(64·windowWords - windowFrac) the words reach
// leaves 2^32 of headroom, and the window is moved to the expansion every
// windowFlush terms, so it never overflows.
const (
	windowWords = 4
	windowFrac  = 192
	windowTop   = 32
	windowFlush = 1 << 30
)

// Sum is an exact accumulator of float64 terms. The zero value is an empty
// sum, ready to use. A Sum must not be copied after its first Add (its
// partials may live in its own inline array).
type Sum struct {
	window  [2][windowWords]uint64 // fixed-point magnitudes of the positive [0] and negative [1] terms, little-endian words
	inWin   int                    // terms added to the window since it was last emptied
	inline  [inlinePartials]float64
	n       int       // number of partials
	spilled []float64 // the partials once they outgrow inline; nil before
	special float64   // plain sum of the non-finite terms
	hasSpec bool      // a non-finite term was added
}

// partials returns the current partials, smallest magnitude first.
func (s *Sum) partials() []float64 {
	if s.spilled != nil {
		return s.spilled[:s.n]
	}
	return s.inline[:s.n]
}

// Add adds x to the sum exactly. Cost: O(1) for a term in the window,
// O(partials) otherwise.
func (s *Sum) Add(x float64) {
	b := math.Float64bits(x)
	// A normal x is m · 2^(e-1075) for its biased exponent e and the 53-bit
	// integer m; its lowest bit goes to window bit pos, and the term fits
	// when 0 ≤ pos and pos + 53 ≤ windowFrac + windowTop. Zeros, subnormals
	// (e = 0), infinities and NaNs (e = 2047) never fit.
	pos := int(b>>52&0x7ff) - 1075 + windowFrac
	if uint(pos) <= windowFrac+windowTop-53 {
		s.addWindow(b&(1<<52-1)|1<<52, pos, b>>63)
		return
	}
	s.addOutside(x)
}

// addOutside adds a term that does not fit the window.
func (s *Sum) addOutside(x float64) {
	switch {
	case math.IsInf(x, 0) || math.IsNaN(x):
		s.special += x
		s.hasSpec = true
	case x != 0:
		s.addExpansion(x)
	}
}

// addWindow adds m · 2^pos to the window of sign (0 for a positive term, 1
// for a negative one). Each window only grows, so a carry rarely goes past
// the term's second word, and the sign picks a window by index rather than
// by a branch: the sign of a quotient's remainder is random, and a branch on
// it would be mispredicted half the time.
func (s *Sum) addWindow(m uint64, pos int, sign uint64) {
	if s.inWin == windowFlush {
		s.flushWindow()
	}
	s.inWin++
	word, shift := pos>>6, uint(pos&63)
	w := &s.window[sign]
	var c uint64
	w[word], c = bits.Add64(w[word], m<<shift, 0)
	// m >> (64 - shift), 0 when shift is 0; the term ends below the top
	// word, so word+1 is in range.
	w[word+1], c = bits.Add64(w[word+1], m>>1>>(63-shift), c)
	for i := word + 2; c != 0 && i < windowWords; i++ {
		w[i], c = bits.Add64(w[i], 0, c)
	}
}

// windowNet returns the magnitude and the sign of the window's value, the
// positive terms' magnitude less the negative ones'.
func (s *Sum) windowNet() (mag [windowWords]uint64, neg bool) {
	var borrow uint64
	for i := range mag {
		mag[i], borrow = bits.Sub64(s.window[0][i], s.window[1][i], borrow)
	}
	if borrow != 0 {
		negate(&mag)
		return mag, true
	}
	return mag, false
}

// windowChunks calls f with the window's exact value as at most
// 64·windowWords/52 + 1 float64 terms (52-bit chunks of its magnitude, each
// exactly representable), smallest first.
func (s *Sum) windowChunks(f func(float64)) {
	mag, neg := s.windowNet()
	for bit := 0; bit < 64*windowWords; bit += 52 {
		chunk := bitsAt(&mag, bit) & (1<<52 - 1)
		if chunk == 0 {
			continue
		}
		x := math.Ldexp(float64(chunk), bit-windowFrac)
		if neg {
			x = -x
		}
		f(x)
	}
}

// flushWindow moves the window's value to the expansion and empties it.
func (s *Sum) flushWindow() {
	s.windowChunks(s.addExpansion)
	s.window = [2][windowWords]uint64{}
	s.inWin = 0
}

// negate replaces w by its two's complement.
func negate(w *[windowWords]uint64) {
	c := uint64(1)
	for i := range w {
		w[i], c = bits.Add64(^w[i], 0, c)
	}
}

// bitsAt returns the 64 bits of w from bit pos up (pos may be negative or
// reach past the top: missing bits are 0).
func bitsAt(w *[windowWords]uint64, pos int) uint64 {
	word := func(i int) uint64 {
		if i < 0 || i >= windowWords {
			return 0
		}
		return w[i]
	}
	i := pos >> 6 // floor, also for negative pos
	shift := uint(pos & 63)
	if shift == 0 {
		return word(i)
	}
	return word(i)>>shift | word(i+1)<<(64-shift)
}

// windowValue returns the window's value rounded to nearest, ties to even.
func (s *Sum) windowValue() float64 {
	mag, neg := s.windowNet()
	top := windowWords - 1
	for top >= 0 && mag[top] == 0 {
		top--
	}
	if top < 0 {
		return 0
	}
	h := 64*top + 63 - bits.LeadingZeros64(mag[top]) // highest set bit
	// The 53 bits from h down, the rounding bit below them and whether any
	// bit further down is set.
	head := bitsAt(&mag, h-63) // bit 63 is bit h
	m := head >> 11
	roundBit := head>>10&1 != 0
	sticky := head&(1<<10-1) != 0
	for i := 0; i < windowWords && !sticky && 64*(i+1) <= h-63; i++ {
		sticky = mag[i] != 0
	}
	if !sticky && h-63 > 0 && (h-63)&63 != 0 {
		// The bits of the word that straddles h-63, below it.
		i := (h - 63) >> 6
		sticky = mag[i]&(1<<uint((h-63)&63)-1) != 0
	}
	if roundBit && (sticky || m&1 != 0) {
		m++ // m may reach 2^53: still exact in a float64
	}
	x := math.Ldexp(float64(m), h-52-windowFrac)
	if neg {
		x = -x
	}
	return x
}

// addExpansion adds x to the expansion exactly. Cost: O(partials).
func (s *Sum) addExpansion(x float64) {
	p := s.partials()
	// Grow the expansion by x (Shewchuk's GROW-EXPANSION with zero
	// elimination): each partial y absorbs x into hi + lo = x + y exactly,
	// lo (when not zero) stays as a partial and hi moves on.
	i := 0
	for _, y := range p {
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		lo := y - (hi - x)
		if lo != 0 {
			p[i] = lo
			i++
		}
		x = hi
	}
	s.n = i
	s.push(x)
}

// push appends a partial. When the inline array is full the partials are
// first compressed, and moved to the heap only if they still do not fit.
func (s *Sum) push(x float64) {
	if s.spilled == nil && s.n == inlinePartials {
		s.n = compress(s.inline[:s.n])
	}
	if s.spilled == nil && s.n < inlinePartials {
		s.inline[s.n] = x
		s.n++
		return
	}
	if s.spilled == nil {
		s.spilled = make([]float64, s.n, 2*inlinePartials)
		copy(s.spilled, s.inline[:s.n])
	}
	s.spilled = append(s.spilled[:s.n], x)
	s.n++
}

// compress rewrites the non-overlapping expansion p (smallest magnitude
// first) in place as an equal expansion in which no two partials are
// adjacent (Shewchuk's COMPRESS), and returns its length. Adding terms of
// mixed magnitudes leaves many partials of a few bits each; compressed, they
// take about one partial per 53 bits of the sum's span. Cost: O(len(p)).
func compress(p []float64) int {
	// Top down: fold the partials into Q from the largest, keeping each
	// settled high part at the top of p.
	bottom := len(p) - 1
	q := p[bottom]
	for i := len(p) - 2; i >= 0; i-- {
		hi, lo := fastTwoSum(q, p[i])
		if lo != 0 {
			p[bottom] = hi
			bottom--
			q = lo
		} else {
			q = hi
		}
	}
	// Bottom up: fold them back from the smallest, keeping the non-zero
	// low parts at the bottom of p.
	top := 0
	for i := bottom + 1; i < len(p); i++ {
		hi, lo := fastTwoSum(p[i], q)
		if lo != 0 {
			p[top] = lo
			top++
		}
		q = hi
	}
	p[top] = q
	return top + 1
}

// fastTwoSum returns hi = RN(a + b) and lo = a + b - hi exactly, for |a| ≥ |b|
// (or a = 0).
func fastTwoSum(a, b float64) (hi, lo float64) {
	hi = a + b
	return hi, b - (hi - a)
}

// AddQuotient adds the real quotient a / b (b ≠ 0, a and b finite) as two
// terms: q = RN(a/b) and RN((a - q·b) / b), the remainder a - q·b being
// exact (when q is normal: a quotient that underflows is added as rounded).
// A quotient that is exact adds one term. Cost: two divisions, one
// fused multiply-add and two Adds.
func (s *Sum) AddQuotient(a, b float64) {
	q := a / b
	s.Add(q)
	if math.IsInf(q, 0) || math.IsNaN(q) {
		return
	}
	if r := math.FMA(-q, b, a); r != 0 {
		s.Add(r / b)
	}
}

// Value returns the exact sum rounded to the nearest float64, ties to even:
// the same bits whatever the order in which the terms were added. An empty
// sum is 0. Value does not change the sum: more terms may follow.
func (s *Sum) Value() float64 {
	if s.hasSpec {
		return s.special
	}
	if s.n == 0 {
		return s.windowValue()
	}
	if s.inWin == 0 {
		return expansionValue(s.partials())
	}
	// Both stores hold a part: add the window's exact value to a copy of the
	// expansion (rare: a term outside the window was added).
	var both Sum
	for _, x := range s.partials() {
		both.addExpansion(x)
	}
	s.windowChunks(both.addExpansion)
	return expansionValue(both.partials())
}

// expansionValue returns the sum of the non-overlapping expansion p
// (smallest magnitude first) rounded to nearest, ties to even.
func expansionValue(p []float64) float64 {
	n := len(p)
	if n == 0 {
		return 0
	}
	// Add the partials from the largest down until a rounding error shows
	// (the partials do not overlap, so the first non-zero error decides).
	hi := p[n-1]
	lo := 0.0
	n--
	for n > 0 {
		x := hi
		y := p[n-1]
		n--
		hi = x + y
		lo = y - (hi - x)
		if lo != 0 {
			break
		}
	}
	// hi + lo is exact; hi is RN(hi + lo) with ties to even. When lo is
	// exactly half an ulp of hi and the partials below it push the same
	// way, the true sum lies beyond the midpoint: round away instead.
	if n > 0 && ((lo < 0 && p[n-1] < 0) || (lo > 0 && p[n-1] > 0)) {
		y := lo * 2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}

// Reset empties the sum, keeping any heap partials for reuse.
func (s *Sum) Reset() {
	s.window = [2][windowWords]uint64{}
	s.inWin = 0
	s.n = 0
	s.special = 0
	s.hasSpec = false
}

// Of returns the exact sum of xs rounded once (Value of a Sum of xs).
func Of(xs []float64) float64 {
	var s Sum
	for _, x := range xs {
		s.Add(x)
	}
	return s.Value()
}
