package dense

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// mulSmallRef is the definition of MulSmall's bits: the row loop of the
// MulSmall before its register tiles, row by row. Row i of dst is cleared,
// then for x = 0, 4, 8, … while x+4 ≤ k it adds ((a0·b0 + a1·b1) + a2·b2) +
// a3·b3 by Axpy4 unless the four a_q = A[i,x+q] are zero, then for each
// remaining x it adds A[i,x]·B[x,:] by Axpy unless A[i,x] is zero.
func mulSmallRef(dst, a, b *mat.Dense) {
	n, k := a.Dims()
	_, j := b.Dims()
	araw, braw, draw := a.RawMatrix(), b.RawMatrix(), dst.RawMatrix()
	bd, bs := braw.Data, braw.Stride
	for i := 0; i < n; i++ {
		out := draw.Data[i*draw.Stride : i*draw.Stride+j]
		clear(out)
		ai := araw.Data[i*araw.Stride : i*araw.Stride+k]
		x := 0
		for ; x+4 <= k; x += 4 {
			a0, a1, a2, a3 := ai[x], ai[x+1], ai[x+2], ai[x+3]
			if a0 == 0 && a1 == 0 && a2 == 0 && a3 == 0 {
				continue
			}
			Axpy4(out, a0, a1, a2, a3, bd[x*bs:], bd[(x+1)*bs:], bd[(x+2)*bs:], bd[(x+3)*bs:])
		}
		for ; x < k; x++ {
			if ai[x] == 0 {
				continue
			}
			Axpy(ai[x], bd[x*bs:], out)
		}
	}
}

// newDense returns an r×c matrix of row stride c+pad filled by f, also for
// the empty shapes mat.NewDense refuses (r or c zero).
func newDense(r, c, pad int, f func() float64) *mat.Dense {
	s := max(c+pad, 1)
	data := make([]float64, r*s)
	for i := range data {
		data[i] = f()
	}
	var m mat.Dense
	m.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: s, Data: data})
	return &m
}

// mulSmallEntries draws the entries of the bit-identity test: magnitudes
// over many binades (so a reordered sum or a fused multiply-add would
// change bits), ±0, denormals, whole and partial groups of four zeros (runs
// of zeros), overflow to ±∞ in the sums, and, where asked, ±∞ and NaNs of
// several payloads (so the NaN chosen when two meet is checked too).
type mulSmallEntries struct {
	rng       *rand.Rand
	zeroRun   int
	nonFinite float64 // probability of ±∞ or NaN
	zero      float64 // probability of a zero besides the runs
}

func (e *mulSmallEntries) next() float64 {
	r := e.rng
	if e.zeroRun > 0 {
		e.zeroRun--
		return []float64{0, math.Copysign(0, -1)}[r.IntN(2)]
	}
	if r.Float64() < e.zero {
		return 0
	}
	u := r.Float64()
	switch {
	case u < e.nonFinite:
		return []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7ff8_0000_dead_beef), math.Float64frombits(0xfff0_0000_0000_0001)}[r.IntN(5)]
	case u < 0.12:
		e.zeroRun = r.IntN(9) // up to two whole groups of four
		return 0
	case u < 0.16:
		return math.Copysign(0, -1)
	case u < 0.19:
		return float64(r.IntN(7)-3) * math.SmallestNonzeroFloat64 * float64(1+r.IntN(1<<20))
	case u < 0.2:
		return (r.Float64() - 0.5) * math.Ldexp(1, 1000+r.IntN(23))
	}
	return (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(80)-40)
}

// TestMulSmallBitsMatchDefinition compares MulSmall (register tiles where
// the CPU has AVX2) with mulSmallRef bit for bit over many shapes: every n
// up to 37 (all remainders of the four-row tiles) and larger n crossing a
// row block, every k up to 20 (all group remainders) and k large enough
// that the tiles walk B in several ranges, every j up to 27 (all
// remainders of the 8- and 4-column tiles) and j of 60 and 100; strided
// matrices; A and B with ±0, denormals and zero groups, A with ±∞ and NaN
// (the tiles still run) and B with them (MulSmall then falls back to the
// row loop), A mostly zero (the row loop again).
func TestMulSmallBitsMatchDefinition(t *testing.T) {
	if useBLAS {
		t.Skip("the cblas build computes MulSmall by dgemm, whose bits are OpenBLAS's")
	}
	p := parallel.NewPool(2)
	rng := rand.New(rand.NewPCG(17, 29))
	ks := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 100}
	js := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 60, 100}
	type shape struct{ n, k, j int }
	var shapes []shape
	for n := 0; n <= 37; n++ {
		for _, k := range ks {
			for _, j := range js {
				shapes = append(shapes, shape{n, k, j})
			}
		}
	}
	for _, k := range []int{3, 20, 100} {
		for _, j := range []int{5, 12, 60} {
			shapes = append(shapes, shape{203, k, j}, shape{1030, k, j})
		}
	}
	shapes = append(shapes, shape{9, 1003, 60}, shape{13, 601, 100}, shape{6, 999, 27}, shape{31, 2050, 13})
	for c, s := range shapes {
		aFinite := c%5 != 0
		bFinite := c%7 != 0
		ea := &mulSmallEntries{rng: rng}
		eb := &mulSmallEntries{rng: rng}
		if !aFinite {
			ea.nonFinite = 0.01
		}
		if !bFinite {
			eb.nonFinite = 0.02
		}
		if c%4 == 1 {
			ea.zero = 0.9 // mostly zero groups: MulSmall takes the row loop
		}
		pad := 0
		if c%3 == 0 {
			pad = 1 + c%5
		}
		a := newDense(s.n, s.k, pad, ea.next)
		b := newDense(s.k, s.j, pad, eb.next)
		want := newDense(s.n, s.j, pad, func() float64 { return 99 })
		got := newDense(s.n, s.j, pad, func() float64 { return math.NaN() })
		mulSmallRef(want, a, b)
		MulSmall(p, got, a, b)
		for i := 0; i < s.n; i++ {
			for x := 0; x < s.j; x++ {
				g, w := got.At(i, x), want.At(i, x)
				if math.IsNaN(g) != math.IsNaN(w) || math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("%d×%d · %d×%d (A finite %v, B finite %v, pad %d): dst[%d,%d] = %v (%#x), want %v (%#x)",
						s.n, s.k, s.k, s.j, aFinite, bFinite, pad, i, x, g, math.Float64bits(g), w, math.Float64bits(w))
				}
			}
		}
	}
}
