package rsvd

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// randomSparse returns an m×n matrix with the given density, values in
// (0, 1] scaled by a row factor that decays so the spectrum decays too.
func randomSparse(m, n int, density float64, seed uint64) *sparse.CSR {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ts []sparse.Triplet
	for i := 0; i < m; i++ {
		scale := 1 / (1 + float64(i%37))
		for j := 0; j < n; j++ {
			if rng.Float64() < density {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: scale * (1 - rng.Float64())})
			}
		}
	}
	a, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		panic(err)
	}
	return a
}

func denseSingularValues(a *mat.Dense) []float64 {
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDNone) {
		panic("svd failed")
	}
	return svd.Values(nil)
}

// orthonormalityError is max |QᵀQ − I|.
func orthonormalityError(q *mat.Dense) float64 {
	_, k := q.Dims()
	var g mat.Dense
	g.Mul(q.T(), q)
	e := 0.0
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			e = math.Max(e, math.Abs(g.At(i, j)-want))
		}
	}
	return e
}

// TestLowRankExact: a sparse matrix of rank 5 is recovered exactly (to
// roundoff) when the sketch has at least 5 columns.
func TestLowRankExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	x := mat.NewDense(120, 5, nil)
	y := mat.NewDense(90, 5, nil)
	for _, f := range []*mat.Dense{x, y} {
		raw := f.RawMatrix().Data
		for i := range raw {
			if rng.Float64() < 0.4 {
				raw[i] = rng.Float64()
			}
		}
	}
	var prod mat.Dense
	prod.Mul(x, y.T())
	a := testcorpus.CSROf(&prod)
	forEachOrth(t, func(t *testing.T, orth Orth) {
		lowRankExact(t, a, &prod, orth)
	})
}

// lowRankExact: with 15 sketch columns for rank 5, the Gram matrix of a
// sketch is singular, so CholeskyQR2 falls back to Householder.
func lowRankExact(t *testing.T, a *sparse.CSR, prod *mat.Dense, orth Orth) {
	res, err := SVD(context.Background(), a, nil, Options{K: 5, Seed: 1, Orth: orth})
	if err != nil {
		t.Fatal(err)
	}
	want := denseSingularValues(prod)
	for i := 0; i < 5; i++ {
		if math.Abs(res.S[i]-want[i]) > 1e-12*want[0] {
			t.Errorf("σ%d = %v, dense SVD %v", i, res.S[i], want[i])
		}
	}
	// U Σ Vᵀ reproduces A.
	var us, rec mat.Dense
	us.Mul(res.U, mat.NewDiagDense(5, res.S))
	rec.Mul(&us, res.V.T())
	var diff mat.Dense
	diff.Sub(&rec, prod)
	if e := mat.Norm(&diff, 2); e > 1e-12*want[0] {
		t.Errorf("‖UΣVᵀ − A‖₂ = %g", e)
	}
}

// TestAgainstDenseSVD: on a full-rank sparse matrix with a decaying
// spectrum, the leading singular values agree with gonum's dense SVD and the
// vectors are orthonormal.
func TestAgainstDenseSVD(t *testing.T) { forEachOrth(t, againstDenseSVD) }

func againstDenseSVD(t *testing.T, orth Orth) {
	a := randomSparse(400, 300, 0.05, 7)
	want := denseSingularValues(testcorpus.DenseOf(a))
	res, err := SVD(context.Background(), a, a.T(), Options{K: 8, Seed: 42, PowerIters: 6, Orth: orth})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 8; i++ {
		if rel := math.Abs(res.S[i]-want[i]) / want[i]; rel > 1e-6 {
			t.Errorf("σ%d = %v, dense SVD %v (relative error %g)", i, res.S[i], want[i], rel)
		}
		if i > 0 && res.S[i] > res.S[i-1] {
			t.Errorf("singular values not sorted at %d", i)
		}
	}
	if e := orthonormalityError(res.U); e > 1e-12 {
		t.Errorf("U not orthonormal: %g", e)
	}
	if e := orthonormalityError(res.V); e > 1e-12 {
		t.Errorf("V not orthonormal: %g", e)
	}
	// Sign convention: the largest-magnitude entry of each U column > 0.
	for j := 0; j < 8; j++ {
		col := mat.Col(nil, j, res.U)
		best := 0.0
		for _, v := range col {
			if math.Abs(v) > math.Abs(best) {
				best = v
			}
		}
		if best <= 0 {
			t.Errorf("column %d of U: largest entry %v is not positive", j, best)
		}
	}
	// Without power iterations the plain range finder is less accurate;
	// its values are still those of the projection QᵀA, so they can only
	// underestimate (σ_i(QᵀA) ≤ σ_i(A)), and power iterations close the gap.
	res0, err := SVD(context.Background(), a, nil, Options{K: 8, Seed: 42, PowerIters: -1, Orth: orth})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 8; i++ {
		if res0.S[i] > want[i]*(1+1e-12) {
			t.Errorf("q=0: σ%d = %v exceeds the true %v", i, res0.S[i], want[i])
		}
		if want[i]-res0.S[i] < want[i]-res.S[i] {
			t.Errorf("q=0 is closer than q=6 at σ%d", i)
		}
	}
}

// TestDeterministic: the same seed gives the same bits on pools of 1 and 2
// workers; another seed gives other vectors.
func TestDeterministic(t *testing.T) { forEachOrth(t, deterministic) }

func deterministic(t *testing.T, orth Orth) {
	a := randomSparse(1300, 600, 0.02, 9)
	at := a.T()
	run := func(w int, seed uint64) *Result {
		var res *Result
		p := parallel.NewPool(w)
		err := p.Do(context.Background(), func() {
			var err error
			res, err = SVD(context.Background(), a, at, Options{K: 6, Seed: seed, Pool: p, Orth: orth})
			if err != nil {
				t.Fatal(err)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r1, r2 := run(1, 5), run(2, 5)
	if !matcmp.BitsEqual(r1.U, r2.U) || !matcmp.BitsEqual(r1.V, r2.V) {
		t.Error("factors differ between 1 and 2 workers")
	}
	for i := range r1.S {
		if math.Float64bits(r1.S[i]) != math.Float64bits(r2.S[i]) {
			t.Error("singular values differ between 1 and 2 workers")
		}
	}
	r3 := run(2, 6)
	if matcmp.BitsEqual(r1.U, r3.U) {
		t.Error("different seeds gave identical bits")
	}
}

// forEachOrth runs test once per orthonormalization.
func forEachOrth(t *testing.T, test func(*testing.T, Orth)) {
	for _, c := range []struct {
		name string
		orth Orth
	}{{"Householder", Householder}, {"CholeskyQR2", CholeskyQR2}} {
		t.Run(c.name, func(t *testing.T) { test(t, c.orth) })
	}
}

// TestCholeskyQR2 checks one factorization against its definition: QR = Y
// to roundoff, QᵀQ = I, R upper triangular; that the Cholesky path is taken
// on a well-conditioned block; and that a rank-deficient block (a repeated
// column) falls back to Householder with the same guarantees.
func TestCholeskyQR2(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, repeat := range []bool{false, true} {
		y := mat.NewDense(3000, 12, nil)
		for i, raw := 0, y.RawMatrix().Data; i < len(raw); i++ {
			raw[i] = rng.NormFloat64() * math.Pow(10, -float64(i%12)/3) // cond(Y) ≈ 10^3.7
		}
		if repeat {
			y.SetCol(11, mat.Col(nil, 3, y))
		}
		orig := mat.DenseCopyOf(y)
		// The Cholesky path must be the one taken on the well-conditioned
		// block (else every test passes on the fallback and LSI loses its
		// speed), and refused on the repeated column.
		if _, ok := cholQR(nil, mat.DenseCopyOf(y), mat.NewDense(3000, 12, nil)); ok == repeat {
			t.Errorf("repeat %v: cholQR ok = %v, want %v", repeat, ok, !repeat)
		}
		f := factorizer{method: CholeskyQR2, tmp: mat.NewDense(3000, 12, nil)}
		r, err := f.factor(y, true)
		if err != nil {
			t.Fatal(err)
		}
		if e := orthonormalityError(y); e > 1e-14 {
			t.Errorf("repeat %v: ‖QᵀQ − I‖max = %g", repeat, e)
		}
		var qr mat.Dense
		qr.Mul(y, r)
		qr.Sub(&qr, orig)
		if e := mat.Norm(&qr, 2) / mat.Norm(orig, 2); e > 1e-14 {
			t.Errorf("repeat %v: ‖QR − Y‖₂/‖Y‖₂ = %g", repeat, e)
		}
		for i := range 12 {
			for j := range i {
				if r.At(i, j) != 0 {
					t.Errorf("repeat %v: R[%d,%d] = %v below the diagonal", repeat, i, j, r.At(i, j))
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	a := randomSparse(10, 6, 0.5, 1)
	empty, _ := sparse.New(0, 4, []int{0}, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, f := range map[string]func() error{
		"K=0":           func() error { _, err := SVD(context.Background(), a, nil, Options{}); return err },
		"K>min":         func() error { _, err := SVD(context.Background(), a, nil, Options{K: 7}); return err },
		"negative p":    func() error { _, err := SVD(context.Background(), a, nil, Options{K: 2, Oversample: -1}); return err },
		"empty":         func() error { _, err := SVD(context.Background(), empty, nil, Options{K: 1}); return err },
		"bad transpose": func() error { _, err := SVD(context.Background(), a, a, Options{K: 1}); return err },
		"cancelled":     func() error { _, err := SVD(ctx, a, nil, Options{K: 2}); return err },
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// K = min(M, N) works (the sketch is square).
	res, err := SVD(context.Background(), a, nil, Options{K: 6})
	if err != nil {
		t.Fatal(err)
	}
	want := denseSingularValues(testcorpus.DenseOf(a))
	for i := range want {
		if math.Abs(res.S[i]-want[i]) > 1e-12*want[0] {
			t.Errorf("K=min: σ%d = %v, dense %v", i, res.S[i], want[i])
		}
	}
	// A 1×1 matrix.
	one, _ := sparse.FromTriplets(1, 1, []sparse.Triplet{{Row: 0, Col: 0, Val: -3}})
	res, err = SVD(context.Background(), one, nil, Options{K: 1})
	if err != nil || math.Abs(res.S[0]-3) > 1e-15 || res.U.At(0, 0)*res.V.At(0, 0)*res.S[0] != -3 {
		t.Errorf("1×1: %+v %v", res, err)
	}
}
