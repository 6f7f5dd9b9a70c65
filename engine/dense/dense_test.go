package dense

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// sparseRandom returns an r×c matrix with a fraction zero of exact zeros and
// other entries uniform in [-1, 1) (or [0, 1) when nonneg).
func sparseRandom(r, c int, zero float64, nonneg bool, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 3))
	m := mat.NewDense(max(r, 1), max(c, 1), nil)
	if r == 0 || c == 0 {
		return &mat.Dense{}
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if rng.Float64() < zero {
				continue
			}
			v := rng.Float64()
			if !nonneg {
				v = 2*v - 1
			}
			m.Set(i, j, v)
		}
	}
	return m
}

func TestGram(t *testing.T) {
	for _, tc := range []struct {
		n, k int
		zero float64
	}{
		{1, 1, 0}, {1, 5, 0}, {3, 4, 0.3}, {7, 9, 0.5}, {1025, 6, 0.2}, {2500, 13, 0.7}, {3000, 1, 0},
	} {
		a := sparseRandom(tc.n, tc.k, tc.zero, false, uint64(tc.n*31+tc.k))
		var want mat.Dense
		want.Mul(a.T(), a)
		got := mat.NewDense(tc.k, tc.k, nil)
		got.Set(0, 0, 123) // dst is overwritten, not accumulated
		Gram(parallel.NewPool(2), got, a)
		if d := matcmp.MaxAbsDiff(got, &want); d > 1e-12*float64(tc.n) {
			t.Errorf("Gram %d×%d: max difference %g from gonum", tc.n, tc.k, d)
		}
		for x := 0; x < tc.k; x++ {
			for y := 0; y < x; y++ {
				if got.At(x, y) != got.At(y, x) {
					t.Errorf("Gram %d×%d not exactly symmetric at (%d,%d)", tc.n, tc.k, x, y)
				}
			}
		}
	}
	// n = 0: AᵀA is the zero k×k matrix. gonum cannot hold a 0×k matrix, so
	// call the block kernel directly.
	g := make([]float64, 9)
	gramBlock(g, nil, 3, 3, 0, 0, 0)
	for _, v := range g {
		if v != 0 {
			t.Fatal("empty Gram block is not zero")
		}
	}
}

func TestMulSmall(t *testing.T) {
	for _, tc := range []struct {
		n, k, j int
		zero    float64
	}{
		{1, 1, 1, 0}, {1, 3, 2, 0}, {5, 4, 4, 0.3}, {6, 7, 3, 0.5}, {1030, 9, 5, 0.6}, {2100, 12, 12, 0.2},
	} {
		a := sparseRandom(tc.n, tc.k, tc.zero, false, uint64(tc.n+tc.k))
		b := sparseRandom(tc.k, tc.j, 0, false, uint64(tc.j+1))
		var want mat.Dense
		want.Mul(a, b)
		got := mat.NewDense(tc.n, tc.j, nil)
		got.Set(0, 0, 99)
		MulSmall(parallel.NewPool(2), got, a, b)
		if d := matcmp.MaxAbsDiff(got, &want); d > 1e-13*float64(tc.k) {
			t.Errorf("MulSmall %d×%d·%d×%d: max difference %g from gonum", tc.n, tc.k, tc.k, tc.j, d)
		}
	}
}

func TestDotAndSum(t *testing.T) {
	a := sparseRandom(2100, 7, 0.1, false, 5)
	b := sparseRandom(2100, 7, 0.1, false, 6)
	want := 0.0
	for i := 0; i < 2100; i++ {
		for j := 0; j < 7; j++ {
			want += a.At(i, j) * b.At(i, j)
		}
	}
	if got := Dot(parallel.NewPool(2), a, b); math.Abs(got-want) > 1e-12*math.Abs(want)+1e-12 {
		t.Errorf("Dot = %v, want %v", got, want)
	}
	// Hand example: plain left-to-right summation of 1e16, 1, 1, −1e16 gives
	// 0 (each 1 is absorbed); the compensated sum gives the exact 2.
	var s Sum
	for _, x := range []float64{1e16, 1, 1, -1e16} {
		s.Add(x)
	}
	if s.Value() != 2 {
		t.Errorf("compensated sum = %v, want 2", s.Value())
	}
	var s2 Sum
	s2.AddSum(s)
	s2.Add(0.5)
	if s2.Value() != 2.5 {
		t.Errorf("AddSum then Add = %v, want 2.5", s2.Value())
	}
	var empty Sum
	if empty.Value() != 0 {
		t.Error("empty Sum is not 0")
	}
}

// TestSumBulkAdds checks AddProducts, AddAll and AddAbs against Add of each
// term, bit for bit in both halves of the pair, on terms over many binades
// with both signs, zeros, and cancellations (so both branches of Neumaier's
// step occur), starting from empty and non-empty sums.
func TestSumBulkAdds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1974, 3))
	val := func() float64 { return spreadValue(rng) }
	for trial := range 200 {
		n := rng.IntN(300)
		a, b := make([]float64, n), make([]float64, n+rng.IntN(3))
		for i := range a {
			a[i] = val()
		}
		for i := range b {
			b[i] = val()
		}
		var start Sum
		if trial%2 == 1 {
			start.Add(val())
			start.Add(val())
		}
		want, got := start, start
		for i, v := range a {
			want.Add(v * b[i])
		}
		got.AddProducts(a, b)
		if !sameSum(got, want) {
			t.Fatalf("trial %d: AddProducts = %+v, Add of each = %+v", trial, got, want)
		}
		want, got = start, start
		for _, v := range a {
			want.Add(v)
		}
		got.AddAll(a)
		if !sameSum(got, want) {
			t.Fatalf("trial %d: AddAll = %+v, Add of each = %+v", trial, got, want)
		}
		want, got = start, start
		for _, v := range a {
			want.Add(math.Abs(v))
		}
		got.AddAbs(a)
		if !sameSum(got, want) {
			t.Fatalf("trial %d: AddAbs = %+v, Add of each = %+v", trial, got, want)
		}
	}
	var s Sum
	s.AddProducts([]float64{1e16, 1, 1, -1e16}, []float64{1, 1, 1, 1})
	if s.Value() != 2 {
		t.Errorf("AddProducts of 1e16, 1, 1, −1e16 = %v, want 2", s.Value())
	}
}

// sameSum reports whether two sums hold the same bits (signed zeros told
// apart).
func sameSum(a, b Sum) bool {
	return math.Float64bits(a.s) == math.Float64bits(b.s) && math.Float64bits(a.c) == math.Float64bits(b.c)
}

func TestZeroFractionAndFirstNonFinite(t *testing.T) {
	p := parallel.NewPool(2)
	a := mat.NewDense(3, 4, []float64{
		0, 1, 0, 2,
		3, 0, 0, 0,
		1, 1, 1, 1,
	})
	if got := ZeroFraction(p, a); got != 5.0/12 { // 2 + 3 + 0 zeros
		t.Errorf("ZeroFraction = %v, want 5/12", got)
	}
	if got := ZeroFraction(p, &mat.Dense{}); got != 0 {
		t.Errorf("ZeroFraction(empty) = %v, want 0", got)
	}
	if _, _, bad := FirstNonFinite(p, a); bad {
		t.Error("FirstNonFinite found a bad entry in a finite matrix")
	}
	big := mat.NewDense(3000, 3, nil)
	big.Set(2500, 1, math.Inf(-1))
	big.Set(1500, 2, math.NaN())
	if r, c, bad := FirstNonFinite(p, big); !bad || r != 1500 || c != 2 {
		t.Errorf("FirstNonFinite = (%d,%d,%v), want (1500,2,true)", r, c, bad)
	}
}

// TestBitsIndependentOfWorkers runs every kernel on pools of 1 and 2 workers
// (each caller holding a slot, so 1 worker is really serial) on matrices of
// several blocks and compares the bits.
func TestBitsIndependentOfWorkers(t *testing.T) {
	a := sparseRandom(5000, 17, 0.3, false, 8)
	b := sparseRandom(17, 11, 0, false, 9)
	c := sparseRandom(5000, 17, 0.1, false, 10)
	type out struct {
		g, m *mat.Dense
		dot  float64
	}
	run := func(w int) out {
		var o out
		matcmp.InPool(w, func(p *parallel.Pool) {
			o.g = mat.NewDense(17, 17, nil)
			Gram(p, o.g, a)
			o.m = mat.NewDense(5000, 11, nil)
			MulSmall(p, o.m, a, b)
			o.dot = Dot(p, a, c)
		})
		return o
	}
	o1, o2 := run(1), run(2)
	if !matcmp.BitsEqual(o1.g, o2.g) {
		t.Error("Gram differs between 1 and 2 workers")
	}
	if !matcmp.BitsEqual(o1.m, o2.m) {
		t.Error("MulSmall differs between 1 and 2 workers")
	}
	if math.Float64bits(o1.dot) != math.Float64bits(o2.dot) {
		t.Errorf("Dot differs between 1 and 2 workers: %v vs %v", o1.dot, o2.dot)
	}
}

func TestShapePanics(t *testing.T) {
	p := parallel.NewPool(1)
	for name, f := range map[string]func(){
		"Gram":     func() { Gram(p, mat.NewDense(2, 3, nil), mat.NewDense(4, 3, nil)) },
		"MulSmall": func() { MulSmall(p, mat.NewDense(4, 2, nil), mat.NewDense(4, 3, nil), mat.NewDense(2, 2, nil)) },
		"Dot":      func() { Dot(p, mat.NewDense(4, 3, nil), mat.NewDense(3, 4, nil)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with mismatched shapes did not panic", name)
				}
			}()
			f()
		}()
	}
}

// TestGramTilesBits checks gramTilesAVX2 against gramBlock bit for bit on
// and above the diagonal: every k from 4 to 21 and 100, block lengths that
// leave every remainder of the groups of four and span several ranges of
// rows (with single rows after a full last range), A dense or mostly zero (−0 included, groups of four zeros that
// gramBlock skips), values spread over many binades, rows further apart
// than k.
func TestGramTilesBits(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2: Gram runs gramBlock only")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	ks := []int{100}
	for k := 4; k <= 21; k++ {
		ks = append(ks, k)
	}
	for _, k := range ks {
		chunk := gramChunk(k)
		for _, n := range []int{0, 1, 3, 4, 5, 8, 13, 64, 257, 700, chunk + 1, chunk + 3, 2*chunk + 2} {
			for _, zero := range []float64{0, 0.5, 0.9} {
				as := k + 3
				lo := 2
				ad := make([]float64, (lo+n+1)*as)
				for i := range ad {
					if rng.Float64() >= zero {
						ad[i] = spreadValue(rng)
					} else if rng.IntN(2) == 0 {
						ad[i] = math.Copysign(0, -1)
					}
				}
				want := make([]float64, k*k)
				gramBlock(want, ad, as, k, lo, lo+n, 0)
				got := make([]float64, k*k)
				if !gramTilesAVX2(got, ad, as, k, lo, lo+n) {
					t.Fatalf("k=%d n=%d zero=%g: a finite A reported non-finite", k, n, zero)
				}
				for x := range k {
					for y := x; y < k; y++ {
						if math.Float64bits(got[x*k+y]) != math.Float64bits(want[x*k+y]) {
							t.Fatalf("k=%d n=%d zero=%g: g[%d,%d] = %v, gramBlock %v", k, n, zero, x, y, got[x*k+y], want[x*k+y])
						}
					}
				}
				if n > 0 { // a non-finite entry: the tiles decline
					for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
						bad := slices.Clone(ad)
						bad[(lo+n-1)*as+k-1] = v
						if gramTilesAVX2(make([]float64, k*k), bad, as, k, lo, lo+n) {
							t.Fatalf("k=%d n=%d: A holding %v reported finite", k, n, v)
						}
					}
				}
			}
		}
	}
}
