package snmf

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Each accepted iterate satisfies the KKT conditions of both NNLS blocks:
// V is optimal for U_prev and U is optimal for V.
func TestStepsAreExactBlockMinimizers(t *testing.T) {
	c := factortest.Corpus(t, 120, 200, 4, 3)
	a := Sparse{A: c.D, AT: c.DT}
	p := parallel.NewPool(2)
	u, err := RandomStart(a, 4, 1, p)
	if err != nil {
		t.Fatal(err)
	}
	const eta, beta = 0.05, 0.2
	s := NewSolver(p, a, u, mat.NewDense(200, 4, nil), eta, beta)
	for it := 1; it <= 5; it++ {
		uPrev := mat.DenseCopyOf(s.U)
		if err := s.Step(context.Background(), it); err != nil {
			t.Fatal(err)
		}
		s.Accept()
		// V block: Gram UprevᵀUprev + β11ᵀ, right-hand sides AᵀUprev.
		g := mat.NewDense(4, 4, nil)
		dense.Gram(p, g, uPrev)
		addConstant(g, beta)
		rhs := mat.NewDense(200, 4, nil)
		a.MulTU(p, rhs, uPrev)
		if v := solve.KKTViolation(s.V, g, rhs); v > 1e-9 {
			t.Errorf("iteration %d: V violates its KKT conditions by %g", it, v)
		}
		// U block: Gram VᵀV + ηI, right-hand sides AV.
		dense.Gram(p, g, s.V)
		addDiagonal(g, eta)
		rhs = mat.NewDense(120, 4, nil)
		a.MulV(p, rhs, s.V)
		if v := solve.KKTViolation(s.U, g, rhs); v > 1e-9 {
			t.Errorf("iteration %d: U violates its KKT conditions by %g", it, v)
		}
	}
}

// On an exactly factorizable non-negative matrix ANLS drives the loss to
// (near) zero, which MU does only slowly: the hand-checkable fixed point.
func TestRecoversExactFactorization(t *testing.T) {
	u0 := mat.NewDense(6, 2, []float64{1, 0, 2, 0, 0, 1, 0, 3, 1, 1, 0.5, 2})
	v0 := mat.NewDense(5, 2, []float64{1, 0, 0, 1, 1, 1, 2, 0.5, 0, 2})
	var prod mat.Dense
	prod.Mul(u0, v0.T())
	a := Dense{A: &prod, AT: mat.DenseCopyOf(prod.T())}
	p := parallel.NewPool(1)
	u, err := RandomStart(a, 2, 7, p)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSolver(p, a, u, mat.NewDense(5, 2, nil), 0, 0)
	st := engine.Iterate(context.Background(), engine.Stopping{MaxIter: 200, RelTol: -1}, nil, s.Steps())
	if st.Objective > 1e-12*a.FrobeniusSq(p) {
		t.Fatalf("status %v: ½‖A − UVᵀ‖² = %g, want ≈ 0 for an exact rank-2 non-negative factorization", st, st.Objective)
	}
}

func TestRowL1Sq(t *testing.T) {
	// (1 + 2)² + (|−3| + 0)² = 9 + 9.
	if got := RowL1Sq(mat.NewDense(2, 2, []float64{1, 2, -3, 0})); got != 18 {
		t.Errorf("RowL1Sq = %v, want 18", got)
	}
}

func TestAllZeroMatrix(t *testing.T) {
	a := Dense{A: mat.NewDense(3, 3, nil), AT: mat.NewDense(3, 3, nil)}
	if _, err := RandomStart(a, 2, 1, nil); err == nil {
		t.Fatal("an all-zero matrix gave no error")
	}
}

// ANLS (catalog "nmf-anls") is SNMF/R with η = β = 0, to the bit.
func TestANLSIsSNMFWithoutPenalties(t *testing.T) {
	c := factortest.Corpus(t, 60, 90, 3, 2)
	stop := engine.Stopping{MaxIter: 6}
	a, _, err := ANLS{K: 3, Seed: 4, Stopping: stop}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Options{K: 3, Seed: 4, Stopping: stop}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range a.TermTopics().RawMatrix().Data {
		if math.Float64bits(v) != math.Float64bits(b.TermTopics().RawMatrix().Data[i]) {
			t.Fatalf("U entry %d: %v against %v", i, v, b.TermTopics().RawMatrix().Data[i])
		}
	}
	if d := DefaultsANLS(); d.Name() != "nmf-anls" || d.K != DefaultK || Defaults().Eta != 0.01 || Defaults().Beta != 0.01 {
		t.Errorf("defaults: %+v, %+v", d, Defaults())
	}
}

// The fit accepts signed data (RandomStart handles a negative A), so the
// fold-in accepts negative entries too; a NaN is refused, naming the model
// and the entry.
func TestFoldInSignedInput(t *testing.T) {
	c := factortest.Corpus(t, 20, 30, 3, 2)
	m, _, err := ANLS{K: 3, Seed: 4, Stopping: engine.Stopping{MaxIter: 3}}.Fit(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := sparse.FromTriplets(1, 20, []sparse.Triplet{{Row: 0, Col: 2, Val: -1.5}, {Row: 0, Col: 5, Val: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.FoldIn(context.Background(), x); err != nil {
		t.Errorf("negative entry: %v", err)
	}
	x.Val[0] = math.NaN()
	if _, err := m.FoldIn(context.Background(), x); err == nil || !strings.HasPrefix(err.Error(), "nmf-anls: FoldIn: X[0,2] = NaN") {
		t.Errorf("NaN entry: %v", err)
	}
}
