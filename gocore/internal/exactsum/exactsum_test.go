package exactsum

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ratSum is the oracle: the exact rational sum of the terms, rounded to the
// nearest float64 (ties to even) by math/big.
func ratSum(xs []float64) float64 {
	total := new(big.Rat)
	for _, x := range xs {
		total.Add(total, new(big.Rat).SetFloat64(x))
	}
	f, _ := total.Float64()
	return f
}

// ratQuotients is the oracle for AddQuotient: Σ a_i / b_i over the rationals,
// rounded once.
func ratQuotients(a, b []int64) float64 {
	total := new(big.Rat)
	for i := range a {
		total.Add(total, big.NewRat(a[i], b[i]))
	}
	f, _ := total.Float64()
	return f
}

// sameBits asserts bit-identical floats (0 and -0 differ, as they would in a
// counts matrix compared bit for bit).
func sameBits(t *testing.T, want, got float64, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, math.Float64bits(want), math.Float64bits(got), append([]any{"want %v got %v", want, got}, msgAndArgs...)...)
}

// randomTerms returns terms of random sign and magnitudes spread over
// 2^-spread .. 2^spread, with exact cancellations mixed in.
func randomTerms(rng *rand.Rand, n, spread int) []float64 {
	xs := make([]float64, 0, n)
	for len(xs) < n {
		x := math.Ldexp(rng.Float64()+0.5, rng.IntN(2*spread+1)-spread)
		if rng.IntN(2) == 0 {
			x = -x
		}
		xs = append(xs, x)
		if rng.IntN(5) == 0 && len(xs) < n {
			xs = append(xs, -x) // a term that cancels exactly
		}
	}
	return xs
}

// TestTable checks named cases against the rational oracle and against the
// value they are known to have.
func TestTable(t *testing.T) {
	tests := []struct {
		name  string
		terms []float64
		want  float64
	}{
		{"empty", nil, 0},
		{"one", []float64{0.1}, 0.1},
		{"tenths", []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 1},
		{"cancellation", []float64{1e100, 1, -1e100}, 1},
		{"tiny beside large", []float64{1, 1e-100, -1}, 1e-100},
		// 1 + 2^-53 is halfway between 1 and 1 + 2^-52: ties to even gives 1,
		// but a further 2^-106 pushes it up.
		{"half ulp tie", []float64{1, math.Ldexp(1, -53)}, 1},
		{"half ulp and more", []float64{1, math.Ldexp(1, -53), math.Ldexp(1, -106)}, 1 + math.Ldexp(1, -52)},
		{"half ulp and less", []float64{1, math.Ldexp(1, -53), -math.Ldexp(1, -106)}, 1},
		{"subnormals", []float64{math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64}, math.SmallestNonzeroFloat64},
		{"near max", []float64{math.MaxFloat64, -math.MaxFloat64, 1}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sameBits(t, tc.want, Of(tc.terms))
			sameBits(t, ratSum(tc.terms), Of(tc.terms))
		})
	}
}

// TestAgainstRationals: Value is the rational sum rounded once, on random
// term lists of every spread, and any permutation gives the same bits.
func TestAgainstRationals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		n := 1 + rng.IntN(60)
		spread := []int{0, 4, 30, 60, 200, 1000}[trial%6]
		xs := randomTerms(rng, n, spread)
		want := ratSum(xs)
		sameBits(t, want, Of(xs), "trial %d terms %v", trial, xs)
		rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		sameBits(t, want, Of(xs), "trial %d shuffled", trial)
	}
}

// TestMidpoints: sums that land on or next to a midpoint between two
// float64 values, of both signs, round as the rational oracle does.
func TestMidpoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 5000; trial++ {
		base := math.Ldexp(1, rng.IntN(40)-20)
		var xs []float64
		for k := 1 + rng.IntN(6); k > 0; k-- {
			// Multiples of a quarter ulp of base, and base itself.
			x := math.Ldexp(float64(rng.IntN(9)-4), -54) * base
			if rng.IntN(3) == 0 {
				x = base * float64(rng.IntN(3)-1)
			}
			xs = append(xs, x)
		}
		xs = append(xs, base)
		sameBits(t, ratSum(xs), Of(xs), "trial %d terms %v", trial, xs)
	}
}

// TestWindowFlush: a window about to reach its term limit moves to the
// expansion and the sum stays exact.
func TestWindowFlush(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	xs := randomTerms(rng, 50, 30)
	var s Sum
	s.inWin = windowFlush - 20
	for _, x := range xs {
		s.Add(x)
	}
	require.Positive(t, s.n, "the window must have been flushed")
	sameBits(t, ratSum(xs), s.Value())
}

// TestOrderMatters shows what the package is for: terms whose plain sum
// changes with their order have one exact sum.
func TestOrderMatters(t *testing.T) {
	xs := []float64{0.1, 0.2, 0.3}
	ys := []float64{0.3, 0.2, 0.1}
	plain := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s
	}
	require.NotEqual(t, plain(xs), plain(ys), "the example must show a plain-order difference")
	sameBits(t, Of(xs), Of(ys))
	sameBits(t, ratSum(xs), Of(xs))
}

// TestQuotients: Σ a/b added with AddQuotient is the rational sum rounded
// once, so that different groupings of one rational total agree.
func TestQuotients(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 3000; trial++ {
		n := 1 + rng.IntN(40)
		a, b := make([]int64, n), make([]int64, n)
		var s Sum
		for i := range a {
			b[i] = 1 + rng.Int64N(2000)
			a[i] = rng.Int64N(2 * b[i]) // like 2n / (|K| + |R|) and n² / |K|
			s.AddQuotient(float64(a[i]), float64(b[i]))
		}
		sameBits(t, ratQuotients(a, b), s.Value(), "trial %d: %v / %v", trial, a, b)
	}
	// Two groupings of the total 1: the plain sums of the rounded quotients
	// differ, the exact ones do not.
	var thirds, halves, sixths Sum
	thirds.AddQuotient(1, 3)
	thirds.AddQuotient(2, 3)
	halves.AddQuotient(1, 2)
	halves.AddQuotient(1, 2)
	sixths.AddQuotient(1, 6)
	sixths.AddQuotient(1, 3)
	sixths.AddQuotient(1, 2)
	sameBits(t, 1, thirds.Value())
	sameBits(t, 1, halves.Value())
	sameBits(t, 1, sixths.Value())
}

// TestSpillAndReset: more partials than fit inline (terms 2^60 apart) are
// still exact, and Reset empties the sum.
func TestSpillAndReset(t *testing.T) {
	var s Sum
	var xs []float64
	for e := -900; e <= 900; e += 60 {
		x := math.Ldexp(1.2345678901234567, e)
		xs = append(xs, x)
		s.Add(x)
	}
	require.Greater(t, s.n, inlinePartials, "the test must spill")
	sameBits(t, ratSum(xs), s.Value())
	s.Reset()
	sameBits(t, 0, s.Value())
	s.Add(0.5)
	sameBits(t, 0.5, s.Value())
}

// TestNonFinite: an infinite or NaN term propagates as in plain addition.
func TestNonFinite(t *testing.T) {
	assert.True(t, math.IsInf(Of([]float64{1, math.Inf(1), 2}), 1))
	assert.True(t, math.IsNaN(Of([]float64{math.Inf(1), math.Inf(-1)})))
	assert.True(t, math.IsNaN(Of([]float64{1, math.NaN()})))
}

// TestNoAllocation: a sum whose partials fit inline allocates nothing.
func TestNoAllocation(t *testing.T) {
	terms := randomTerms(rand.New(rand.NewPCG(5, 6)), 200, 30)
	allocs := testing.AllocsPerRun(100, func() {
		var s Sum
		for i, x := range terms {
			s.Add(x)
			s.AddQuotient(x, float64(i+3))
		}
		_ = s.Value()
	})
	assert.Zero(t, allocs)
}

// FuzzSum checks Value against the rational oracle, and its independence of
// order, on arbitrary finite terms.
func FuzzSum(f *testing.F) {
	f.Add([]byte{})
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(0.1)))
	seed := []byte{}
	for _, x := range []float64{1e308, 1, -1e308, 1e-300, 3.5} {
		seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(x))
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		var xs []float64
		for len(data) >= 8 {
			x := math.Float64frombits(binary.LittleEndian.Uint64(data))
			data = data[8:]
			// Finite terms whose sums cannot overflow.
			if math.IsInf(x, 0) || math.IsNaN(x) || math.Abs(x) > 1e300 {
				continue
			}
			xs = append(xs, x)
		}
		want := ratSum(xs)
		sameBits(t, want, Of(xs))
		rev := make([]float64, len(xs))
		for i, x := range xs {
			rev[len(xs)-1-i] = x
		}
		sameBits(t, want, Of(rev))
	})
}

// BenchmarkSum adds n terms of a coreference-like spread (B-cubed's
// n²/|K| over a document), plainly and as quotients.
func BenchmarkSum(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{16, 64, 1024} {
		num, den := make([]float64, n), make([]float64, n)
		for i := range num {
			den[i] = float64(1 + rng.IntN(50))
			num[i] = float64(rng.IntN(int(den[i])) + 1)
			num[i] *= num[i]
		}
		b.Run(fmt.Sprintf("plain/%d", n), func(b *testing.B) {
			for range b.N {
				total := 0.0
				for i := range num {
					total += num[i] / den[i]
				}
				_ = total
			}
		})
		b.Run(fmt.Sprintf("add/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				var s Sum
				for i := range num {
					s.Add(num[i] / den[i])
				}
				_ = s.Value()
			}
		})
		b.Run(fmt.Sprintf("quotient/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				var s Sum
				for i := range num {
					s.AddQuotient(num[i], den[i])
				}
				_ = s.Value()
			}
		})
	}
}

// ExampleSum: the same terms in two orders have two plain sums and one
// exact sum.
func ExampleSum() {
	terms := []float64{0.1, 0.2, 0.3}
	var forward, backward Sum
	plainForward, plainBackward := 0.0, 0.0
	for i := range terms {
		forward.Add(terms[i])
		backward.Add(terms[len(terms)-1-i])
		plainForward += terms[i]
		plainBackward += terms[len(terms)-1-i]
	}
	fmt.Println(plainForward, plainBackward)
	fmt.Println(forward.Value(), backward.Value())
	// Output:
	// 0.6000000000000001 0.6
	// 0.6 0.6
}
