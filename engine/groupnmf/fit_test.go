package groupnmf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/nmf"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

func TestOneClassKc0EqualsNMF(t *testing.T) {
	// Group NMF with P = 1, Kc = 0 and VFirst is NMF (engine/nmf, random
	// init): same seed and stopping must give the same bits in U, V, every
	// recorded loss, the status and the fold-in. More than 1024 documents,
	// so that the Grams have several blocks.
	c := testcorpus.Grouped(t, 5, 1, 1100, 3, 2, 4)
	x := c.DT.SelectRows([]int{0, 7, 1099})
	for _, stop := range []engine.Stopping{{MaxIter: 6, RelTol: -1}, {MaxIter: 500, RelTol: 1e-4}, {MaxIter: 7, RelTol: -1, EvalEvery: 3}} {
		for _, workers := range []int{1, 2} {
			pool := parallel.NewPool(workers)
			g := Options{Ks: 5, Kc: None, VFirst: true, Stopping: stop, Seed: 11, Pool: pool}
			r := nmf.Options{K: 5, Stopping: stop, Seed: 11, Pool: pool}
			enginetest.SameAsFlat(t, fmt.Sprintf("stop %+v workers %d", stop, workers), c, stop, g, r, x)
		}
	}
}

// lossAt is Eq. 9 for a solver state (U M×K, compact class-major V), and
// its per-class parts.
func lossAt(s *solver, d, u, vc *mat.Dense) (float64, []float64) {
	per := enginetest.ClassLosses(s.lay, s.Blocks, d, u, vc)
	total := 0.0
	for _, f := range per {
		total += f
	}
	return total, per
}

func TestProposition1BlockUpdatesNonIncreasing(t *testing.T) {
	// GMF Proposition 1: each multiplicative update of Algorithm 5 (U0 on
	// line 7, every U_p on line 9, every V_p on line 10) does not increase
	// the objective of Eq. 9 with the other blocks fixed; per class for
	// U_p and V_p. Checked from dense matrices over 25 iterations, in both
	// orders, with Ks and Kc each zero or not; the factors stay
	// non-negative.
	c := testcorpus.Grouped(t, 8, 3, 14, 2, 2, 4)
	d := testcorpus.DenseOf(c.D)
	for _, kk := range [][2]int{{2, 2}, {2, None}, {None, 3}} {
		for _, vFirst := range []bool{false, true} {
			s := testSolver(t, Options{Ks: kk[0], Kc: kk[1], Seed: 4, VFirst: vFirst, Stopping: engine.DefaultStopping()}, c)
			ctx := context.Background()
			for it := 0; it < 25; it++ {
				f0, pc0 := lossAt(s, d, s.u, s.v)
				if vFirst {
					if f := s.updateV(ctx, s.u, s.utu); f != nil {
						t.Fatal(f)
					}
					f1, pc1 := lossAt(s, d, s.u, s.vNext)
					enginetest.NotRaised(t, fmt.Sprintf("%v vfirst it %d: V", kk, it), f0, pc0, f1, pc1)
					s.gNext = s.lay.ClassGrams(s.set.pool, s.vNext)
					s.checkU(t, d, s.vNext, s.gNext, f1, kk, it)
					grouping.TopicGrams(s.set.pool, s.uNext, s.Ks, s.Kc, s.utuNext)
				} else {
					mix := s.checkU(t, d, s.v, s.g, f0, kk, it)
					f1, pc1 := lossAt(s, d, mix, s.v)
					grouping.TopicGrams(s.set.pool, s.uNext, s.Ks, s.Kc, s.utuNext)
					if f := s.updateV(ctx, s.uNext, s.utuNext); f != nil {
						t.Fatal(f)
					}
					f2, pc2 := lossAt(s, d, s.uNext, s.vNext)
					enginetest.NotRaised(t, fmt.Sprintf("%v it %d: V", kk, it), f1, pc1, f2, pc2)
					s.gNext = s.lay.ClassGrams(s.set.pool, s.vNext)
				}
				s.Accept()
				enginetest.NonNegative(t, fmt.Sprintf("%v it %d", kk, it), s.u, s.v)
			}
		}
	}
}

// checkU runs the U updates from (u, vc) and checks that U0 and then every
// U_p lower the loss (per class for U_p); it returns U with both updated.
func (s *solver) checkU(t *testing.T, d, vc *mat.Dense, g []*mat.Dense, f0 float64, kk [2]int, it int) *mat.Dense {
	t.Helper()
	if f := s.updateU(context.Background(), vc, g); f != nil {
		t.Fatal(f)
	}
	mix := mat.DenseCopyOf(s.u)
	if s.Ks > 0 {
		s.U0(mix).Copy(s.U0(s.uNext))
	}
	f1, pc1 := lossAt(s, d, mix, vc)
	enginetest.NotRaised(t, fmt.Sprintf("%v it %d: U0", kk, it), f0, nil, f1, nil)
	if s.Kc > 0 {
		s.Uc(mix).Copy(s.Uc(s.uNext))
	}
	f2, pc2 := lossAt(s, d, mix, vc)
	enginetest.NotRaised(t, fmt.Sprintf("%v it %d: U", kk, it), f1, pc1, f2, pc2)
	return mix
}

func TestRecordedLossAndShapes(t *testing.T) {
	c := testcorpus.Grouped(t, 3, 3, 20, 2, 2, 5)
	d := testcorpus.DenseOf(c.D)
	for _, vFirst := range []bool{false, true} {
		rec := engine.NewRecorder()
		m, st, err := Options{Ks: 2, Kc: 2, VFirst: vFirst, Stopping: engine.Stopping{MaxIter: 5, RelTol: -1}, Seed: 2}.Fit(context.Background(), c, rec)
		if err != nil || st.Reason != engine.IterationLimit || st.Iterations != 5 {
			t.Fatalf("%v %v", st, err)
		}
		enginetest.Shapes(t, m, c, 2+3*2)
		u, v := m.TermTopics(), m.DocTopics()
		want := matcmp.ResidualSq(d, u, v) // Eq. 9
		last := rec.Iterations()[4]
		if math.Abs(last.Objective-want) > 1e-9*want || last.Terms[0].Name != TermLoss || st.Objective != last.Objective {
			t.Errorf("vFirst %v: recorded loss %.15g, direct %.15g", vFirst, last.Objective, want)
		}
		factortest.NonIncreasing(t, fmt.Sprintf("vFirst %v", vFirst), rec.Iterations(), factortest.MonotoneSlack)
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	// Uneven classes (sizes 1200, 300, 40, 3 and an empty class) so that
	// units differ in number per class; pools of 1, 2 and 3 workers give
	// the same bits.
	c := testcorpus.UnevenGroups(t)
	m, _ := enginetest.SameAcrossPools(t, c, func(pool *parallel.Pool, rec *engine.Recorder) (engine.Model, error) {
		m, _, err := Options{Ks: 3, Kc: 2, Stopping: engine.Stopping{MaxIter: 4, RelTol: -1}, Seed: 1, Pool: pool}.Fit(context.Background(), c, rec)
		return m, err
	})
	if mat.Sum(m.(*Model).ClassTopics(4)) != 0 {
		t.Error("the empty class has non-zero topics")
	}
}

func TestCancelAndErrors(t *testing.T) {
	c := testcorpus.Grouped(t, 1, 2, 10, 1, 1, 4)
	_, m, ctx := enginetest.Cancellation(t, 2, 10, func(ctx context.Context, iters int, rec *engine.Recorder) (engine.Model, engine.Status, error) {
		return Options{Ks: 1, Kc: 1, Stopping: engine.Stopping{MaxIter: iters, RelTol: -1}}.Fit(ctx, c, rec)
	})
	if _, err := m.FoldIn(ctx, c.DT); !errors.Is(err, context.Canceled) {
		t.Errorf("fold-in with a cancelled context: %v", err)
	}
	enginetest.LabelErrors(t, Options{Ks: DefaultKs, Kc: DefaultKc, Stopping: engine.DefaultStopping()})
	for _, tc := range []struct {
		o    Options
		c    *engine.Corpus
		want string
	}{
		{Options{Ks: -3, Kc: DefaultKc, Stopping: engine.DefaultStopping()}, c, "Ks = -3"},
		{Options{Ks: None, Kc: None, Stopping: engine.DefaultStopping()}, c, "no topics"},
		{Options{Stopping: engine.Stopping{RelTol: math.NaN()}, Ks: DefaultKs, Kc: DefaultKc}, c, "RelTol"},
	} {
		if _, _, err := tc.o.Fit(context.Background(), tc.c, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	neg := &sparse.CSR{Rows: 1, Cols: c.Terms(), RowPtr: []int{0, 1}, ColIdx: []int32{0}, Val: []float64{-1}}
	if _, err := m.FoldIn(context.Background(), neg); err == nil || !strings.Contains(err.Error(), "non-negative") {
		t.Errorf("negative fold-in: %v", err)
	}
}

func TestNumericalFailure(t *testing.T) {
	// Weights near the float64 limit: ‖D‖²_F overflows, so no objective
	// can be evaluated and Fit refuses the data, naming the initialization
	// (it used to report "numerical failure after 0 iterations", and on
	// 1e308 returned a NaN initialization as the model: issue 11).
	o := Options{Ks: 1, Kc: 1, Stopping: engine.Stopping{MaxIter: 5}}
	c := enginetest.InitOverflowLabelled(t, func(c *engine.Corpus) (engine.Model, engine.Status, error) {
		return o.Fit(context.Background(), c, nil)
	})

	// Factors of 1e300 overflow the class Grams V_pV_pᵀ, so the first U0
	// update is not finite: the fit stops with NumericalFailure naming it
	// at iteration 1 and returns the last accepted iterate, the (finite)
	// initial factors.
	s := testSolver(t, o, c)
	for _, f := range []*mat.Dense{s.u, s.v} {
		r, k := f.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < k; j++ {
				f.Set(i, j, 1e300)
			}
		}
	}
	s.g = s.lay.ClassGrams(s.set.pool, s.v)
	grouping.TopicGrams(s.set.pool, s.u, s.Ks, s.Kc, s.utu)
	u0, v0 := mat.DenseCopyOf(s.u), mat.DenseCopyOf(s.v)
	st := grouping.Run(context.Background(), s, s.set.stop, nil)
	if st.Reason != engine.NumericalFailure || st.Iterations != 0 || !strings.Contains(st.Detail, "iteration 1: U0 update") {
		t.Errorf("status %v, want a numerical failure in the U0 update at iteration 1", st)
	}
	if !matcmp.BitsEqual(s.u, u0) || !matcmp.BitsEqual(s.v, v0) {
		t.Error("the fit did not return the initial factors")
	}
}

func TestHugeEntries(t *testing.T) {
	// Issue 11's inputs (a 3×3 matrix of 1e308, a 4×4 one around 1e200)
	// overflow ‖D‖²_F: Group NMF refuses them with an error naming the
	// initialization (it used to return the NaN initialization of the 1e308
	// input as its model); CNMF (engine/nmf per class) gives an error or a
	// NumericalFailure. Around 1e150 the fits run. Whatever a fit ends in,
	// its model is finite.
	enginetest.HugeLabelled(t, func(stop engine.Stopping) []engine.Method {
		return []engine.Method{Options{Ks: 1, Kc: 1, Stopping: stop}, PerClassOptions{Kc: 1, Stopping: stop}}
	}, func(m engine.Method) bool { _, perClass := m.(PerClassOptions); return perClass })
}

func TestEvalEveryLeavesIteratesUnchanged(t *testing.T) {
	// The driver evaluates the objective only every EvalEvery iterations;
	// the Grams and ⟨U, DVᵀ⟩, which the next iteration and the loss need,
	// are computed by the step, so the iterates are the same bits whatever
	// the cadence, and the evaluated objectives agree.
	c := testcorpus.Grouped(t, 3, 3, 20, 2, 2, 5)
	enginetest.EvalEveryUnchanged(t, "groupnmf", func(stop engine.Stopping, rec *engine.Recorder) (engine.Model, engine.Status, error) {
		return Options{Ks: 2, Kc: 2, Seed: 5, Stopping: stop}.Fit(context.Background(), c, rec)
	})
}
