// Package exactsum adds float64 terms exactly, so that a sum does not depend
// on the order of its terms.
//
// A coreference document is a pair of partitions, sets of sets: the same
// document may list its clusters and their mentions in any order, and a
// metric must give the same counts, to the last bit, whichever order it
// reads. Ordinary floating-point addition is not associative, so a count
// that adds fractional terms (B-cubed's n_ij² / |K_i|, CEAF_e's φ4 of the
// aligned pairs, ...) in input order changes in its last bits when the
// order changes. Sum keeps the running total as a non-overlapping expansion
// (Shewchuk 1997, "Adaptive precision floating-point arithmetic and fast
// robust geometric predicates", the algorithm of Python's math.fsum): the
// exact real sum of the terms added so far, as a few float64 partials whose
// sum is exact and none of which overlaps another. Value rounds that exact
// sum once, to nearest with ties to even, so
//
//	Value() = RN(Σ x_i)   (the real sum of the float64 terms, rounded once)
//
// is a function of the multiset of terms alone.
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
// infinite or NaN, as plain addition would). Cost: O(p) per term for p
// partials. Adding terms of mixed magnitudes leaves partials of a few bits
// each; when they fill the inline array of inlinePartials they are
// compressed (Shewchuk's COMPRESS) to about one per 53 bits of the span of
// the sum, so the terms of a coreference document (magnitudes within a few
// dozen binary orders, quotient remainders included) keep p at 2 to 8 and
// never allocate; terms spread over the whole float64 range need up to
// about 40 partials, which move to the heap.
package exactsum

import "math"

// inlinePartials is the number of partials a Sum holds without allocating.
// Terms whose magnitudes lie within 2^(53·inlinePartials) of each other never
// need more; a coreference document's terms need two or three.
const inlinePartials = 8

// Sum is an exact accumulator of float64 terms. The zero value is an empty
// sum, ready to use. A Sum must not be copied after its first Add (its
// partials may live in its own inline array).
type Sum struct {
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

// Add adds x to the sum exactly. Cost: O(partials).
func (s *Sum) Add(x float64) {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		s.special += x
		s.hasSpec = true
		return
	}
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
// exact. A quotient that is exact adds one term. Cost: two divisions, one
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
	p := s.partials()
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
