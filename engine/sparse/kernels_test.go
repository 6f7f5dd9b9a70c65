package sparse

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// randomSparse returns an r×c matrix whose row i has i mod 19 stored
// entries (so every unrolling tail of mulRow occurs), values in (0, 1].
func randomSparse(r, c int, seed uint64) *CSR {
	rng := rand.New(rand.NewPCG(seed, 5))
	var ts []Triplet
	for i := 0; i < r; i++ {
		for q := 0; q < min(i%19, c); q++ {
			ts = append(ts, Triplet{Row: i, Col: rng.IntN(c), Val: 1 - rng.Float64()})
		}
	}
	m, err := FromTriplets(r, c, ts)
	if err != nil {
		panic(err)
	}
	return m
}

// toDense expands a CSR matrix (at least 1×1 for gonum).
func toDense(a *CSR) *mat.Dense {
	d := mat.NewDense(max(a.Rows, 1), max(a.Cols, 1), nil)
	for i := 0; i < a.Rows; i++ {
		idx, val := a.Row(i)
		for q, c := range idx {
			d.Set(i, int(c), val[q])
		}
	}
	return d
}

func TestMulDense(t *testing.T) {
	for _, tc := range []struct{ r, c, k int }{
		{1, 1, 1}, {1, 5, 3}, {20, 7, 1}, {40, 30, 9}, {300, 200, 13}, {600, 50, 100},
	} {
		a := randomSparse(tc.r, tc.c, uint64(tc.r+tc.c))
		b := matcmp.RandomDense(tc.c, tc.k, 4)
		var want mat.Dense
		want.Mul(toDense(a), b)
		got := mat.NewDense(tc.r, tc.k, nil)
		got.Set(0, 0, 42) // overwritten, not accumulated
		MulDense(parallel.NewPool(2), got, a, b)
		if d := matcmp.MaxAbsDiff(got, &want); d > 1e-13 {
			t.Errorf("MulDense %d×%d·%d×%d: max difference %g from dense product", tc.r, tc.c, tc.c, tc.k, d)
		}
		// (BᵀA)ᵀ = AᵀB through the stored transpose: MulTDense(Aᵀ stored… ) —
		// here with S = A and the dense factor of A's row count.
		x := matcmp.RandomDense(tc.r, tc.k, 6)
		var wantT mat.Dense
		wantT.Mul(x.T(), toDense(a)) // k×c = XᵀA
		gotT := mat.NewDense(tc.c, tc.k, nil)
		MulTDense(parallel.NewPool(2), gotT, a.T(), x)
		if d := matcmp.MaxAbsDiff(gotT, mat.DenseCopyOf(wantT.T())); d > 1e-13 {
			t.Errorf("MulTDense %d×%d: max difference %g from (XᵀA)ᵀ", tc.r, tc.c, d)
		}
	}
	// A matrix with no stored entries (and a zero row count) leaves dst zero.
	empty, _ := New(3, 4, []int{0, 0, 0, 0}, nil, nil)
	dst := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	MulDense(parallel.NewPool(1), dst, empty, mat.NewDense(4, 2, nil))
	if mat.Sum(dst) != 0 {
		t.Error("MulDense with an empty matrix left non-zeros in dst")
	}
	none, _ := New(0, 4, []int{0}, nil, nil)
	MulDense(parallel.NewPool(1), &mat.Dense{}, none, mat.NewDense(4, 2, nil))
}

func TestMulDenseShapePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MulDense with mismatched shapes did not panic")
		}
	}()
	a := randomSparse(5, 4, 1)
	MulDense(parallel.NewPool(1), mat.NewDense(5, 2, nil), a, mat.NewDense(3, 2, nil))
}

func TestFrobenius(t *testing.T) {
	// Hand example: entries 3, 4 and 12: ‖A‖² = 9 + 16 + 144 = 169, ‖A‖ = 13.
	a, err := FromTriplets(2, 3, []Triplet{{0, 0, 3}, {1, 1, 4}, {1, 2, 12}})
	if err != nil {
		t.Fatal(err)
	}
	p := parallel.NewPool(2)
	if got := FrobeniusSq(p, a); got != 169 {
		t.Errorf("FrobeniusSq = %v, want 169", got)
	}
	if got := Frobenius(p, a); got != 13 {
		t.Errorf("Frobenius = %v, want 13", got)
	}
	empty, _ := New(0, 0, []int{0}, nil, nil)
	if got := FrobeniusSq(p, empty); got != 0 {
		t.Errorf("FrobeniusSq(0×0) = %v", got)
	}
	big := randomSparse(2000, 300, 2)
	want := 0.0
	for _, v := range big.Val {
		want += v * v
	}
	if got := FrobeniusSq(p, big); math.Abs(got-want) > 1e-12*want {
		t.Errorf("FrobeniusSq = %v, want %v", got, want)
	}
}

// directResidual computes ‖A − UVᵀ‖²_F by forming UVᵀ.
func directResidual(a *CSR, u, v *mat.Dense) float64 {
	return matcmp.ResidualSq(toDense(a), u, v)
}

func TestResidualSq(t *testing.T) {
	p := parallel.NewPool(2)

	// Hand example: A = [[1, 0], [0, 2]], U = [[1], [1]], V = [[1], [1]]:
	// UVᵀ = all ones, A − UVᵀ = [[0, −1], [−1, 1]], squared norm 3.
	a, _ := FromTriplets(2, 2, []Triplet{{0, 0, 1}, {1, 1, 2}})
	one := mat.NewDense(2, 1, []float64{1, 1})
	if got := ResidualSq(p, a, one, one); got != 3 {
		t.Errorf("hand example: ResidualSq = %v, want 3", got)
	}

	// General case against the direct computation.
	a = randomSparse(300, 120, 9)
	u := matcmp.RandomDense(300, 7, 10)
	v := matcmp.RandomDense(120, 7, 11)
	want := directResidual(a, u, v)
	if got := ResidualSq(p, a, u, v); math.Abs(got-want) > 1e-12*want {
		t.Errorf("ResidualSq = %v, direct %v", got, want)
	}

	// An exact fit with small-integer factors: every product and sum is
	// exact in float64, so the formula gives exactly 0 despite cancelling
	// terms of size ‖A‖².
	rng := rand.New(rand.NewPCG(12, 0))
	ui := mat.NewDense(40, 3, nil)
	vi := mat.NewDense(30, 3, nil)
	for _, m := range []*mat.Dense{ui, vi} {
		raw := m.RawMatrix().Data
		for i := range raw {
			raw[i] = float64(rng.IntN(4))
		}
	}
	var prod mat.Dense
	prod.Mul(ui, vi.T())
	var ts []Triplet
	for i := 0; i < 40; i++ {
		for j := 0; j < 30; j++ {
			if x := prod.At(i, j); x != 0 {
				ts = append(ts, Triplet{i, j, x})
			}
		}
	}
	exact, _ := FromTriplets(40, 30, ts)
	if got := ResidualSq(p, exact, ui, vi); got != 0 {
		t.Errorf("exact integer fit: ResidualSq = %v, want 0", got)
	}

	// A near fit (relative residual ~1e-6): the formula must still agree
	// with the direct sum to the documented accuracy, ~1e-15·‖A‖².
	noisy := exact.Clone()
	for q := range noisy.Val {
		noisy.Val[q] *= 1 + 1e-3*(rng.Float64()-0.5)
	}
	want = directResidual(noisy, ui, vi)
	norm := FrobeniusSq(p, noisy)
	if got := ResidualSq(p, noisy, ui, vi); math.Abs(got-want) > 1e-14*norm {
		t.Errorf("near fit: ResidualSq = %v, direct %v (‖A‖² = %v)", got, want, norm)
	}

	// k = 0: the residual is ‖A‖².
	if got := ResidualSq(p, a, &mat.Dense{}, &mat.Dense{}); math.Abs(got-FrobeniusSq(p, a)) != 0 {
		t.Errorf("k=0: ResidualSq = %v, want ‖A‖² = %v", got, FrobeniusSq(p, a))
	}
}

func TestKernelBitsIndependentOfWorkers(t *testing.T) {
	a := randomSparse(3000, 700, 13)
	at := a.T()
	b := matcmp.RandomDense(700, 23, 14)
	u := matcmp.RandomDense(3000, 23, 15)
	type out struct {
		ab, atu *mat.Dense
		fro, r  float64
	}
	run := func(w int) out {
		var o out
		matcmp.InPool(w, func(p *parallel.Pool) {
			o.ab = mat.NewDense(3000, 23, nil)
			MulDense(p, o.ab, a, b)
			o.atu = mat.NewDense(700, 23, nil)
			MulTDense(p, o.atu, at, u)
			o.fro = FrobeniusSq(p, a)
			o.r = ResidualSq(p, a, u, b)
		})
		return o
	}
	o1, o2 := run(1), run(2)
	if !matcmp.BitsEqual(o1.ab, o2.ab) || !matcmp.BitsEqual(o1.atu, o2.atu) {
		t.Error("MulDense differs between 1 and 2 workers")
	}
	if math.Float64bits(o1.fro) != math.Float64bits(o2.fro) {
		t.Error("FrobeniusSq differs between 1 and 2 workers")
	}
	if math.Float64bits(o1.r) != math.Float64bits(o2.r) {
		t.Error("ResidualSq differs between 1 and 2 workers")
	}
}

func TestRowColAccess(t *testing.T) {
	// [[0 5 0]
	//  [1 0 2]]
	a, _ := FromTriplets(2, 3, []Triplet{{0, 1, 5}, {1, 0, 1}, {1, 2, 2}})
	if got := a.RowDense(1, nil); got[0] != 1 || got[1] != 0 || got[2] != 2 {
		t.Errorf("RowDense(1) = %v", got)
	}
	buf := []float64{9, 9, 9}
	if got := a.RowDense(0, buf); got[0] != 0 || got[1] != 5 || got[2] != 0 {
		t.Errorf("RowDense(0) into a dirty buffer = %v", got)
	}
	rows, vals := a.Col(2)
	if len(rows) != 1 || rows[0] != 1 || vals[0] != 2 {
		t.Errorf("Col(2) = %v %v", rows, vals)
	}
	if rows, _ := a.Col(1); len(rows) != 1 || rows[0] != 0 {
		t.Errorf("Col(1) rows = %v", rows)
	}
	if got := a.ColDense(0, nil); got[0] != 0 || got[1] != 1 {
		t.Errorf("ColDense(0) = %v", got)
	}
	// Column j of A is row j of Aᵀ.
	big := randomSparse(200, 50, 3)
	bt := big.T()
	for j := 0; j < 50; j++ {
		r1, v1 := big.Col(j)
		r2, v2 := bt.Row(j)
		if len(r1) != len(r2) {
			t.Fatalf("column %d: %d entries, transpose row has %d", j, len(r1), len(r2))
		}
		for q := range r1 {
			if r1[q] != r2[q] || v1[q] != v2[q] {
				t.Fatalf("column %d differs from transpose row at %d", j, q)
			}
		}
	}
}

func TestFromRows(t *testing.T) {
	// Zero rows, an empty row and a row of one entry, and a 2-entry row.
	if m := FromRows(3, nil, nil); m.Rows != 0 || m.Cols != 3 || m.NNZ() != 0 {
		t.Errorf("no rows: %+v", m)
	}
	m := FromRows(4, [][]int32{{}, {2}, {0, 3}}, [][]float64{{}, {5}, {1, 2}})
	want := [][]float64{{0, 0, 0, 0}, {0, 0, 5, 0}, {1, 0, 0, 2}}
	for i, row := range want {
		for j, x := range row {
			if m.At(i, j) != x {
				t.Errorf("At(%d, %d) = %v, want %v", i, j, m.At(i, j), x)
			}
		}
	}
	if m.Rows != 3 || m.Cols != 4 || m.NNZ() != 3 {
		t.Errorf("shape %d×%d with %d non-zeros, want 3×4 with 3", m.Rows, m.Cols, m.NNZ())
	}
}

// TestTransposeAndFromRowsLarge checks T and FromRows above
// transposeParallelNNZ, where the default pool's workers share the work,
// against a transposition by triplets (FromTriplets sorts each row) and
// against the rows given, entry for entry; T(T(m)) must be m.
func TestTransposeAndFromRowsLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 26))
	rows, cols := 6000, 3000
	idx := make([][]int32, rows)
	val := make([][]float64, rows)
	var ts []Triplet // of the transpose
	for i := range rows {
		// rows of 0 to about 400 entries, some empty
		for c := range cols {
			if rng.IntN(cols) < i%400 {
				v := 1 - rng.Float64()
				idx[i] = append(idx[i], int32(c))
				val[i] = append(val[i], v)
				ts = append(ts, Triplet{Row: c, Col: i, Val: v})
			}
		}
	}
	m := FromRows(cols, idx, val)
	if m.NNZ() < transposeParallelNNZ {
		t.Fatalf("%d entries: the test needs at least %d", m.NNZ(), transposeParallelNNZ)
	}
	for i := range rows {
		gi, gv := m.Row(i)
		if !slices.Equal(gi, idx[i]) || !slices.Equal(gv, val[i]) {
			t.Fatalf("FromRows: row %d differs", i)
		}
	}
	want, err := FromTriplets(cols, rows, ts)
	if err != nil {
		t.Fatal(err)
	}
	got := m.T()
	if got.Rows != want.Rows || got.Cols != want.Cols || !slices.Equal(got.RowPtr, want.RowPtr) ||
		!slices.Equal(got.ColIdx, want.ColIdx) || !slices.Equal(got.Val, want.Val) {
		t.Fatal("T differs from the transposition by triplets")
	}
	back := got.T()
	if !slices.Equal(back.RowPtr, m.RowPtr) || !slices.Equal(back.ColIdx, m.ColIdx) || !slices.Equal(back.Val, m.Val) {
		t.Fatal("T(T(m)) differs from m")
	}
}
