package engine

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// toy is a family whose iterate is one number x, halved by every step
// toward the objective f(x) = x; poison makes step i produce a bad value.
type toy struct {
	x, cand      float64
	accepted     int
	badStep      int    // the step returning a NonFiniteError, 0 for none
	stuckStep    int    // the step returning a StationaryError, 0 for none
	badObjective int    // the step whose objective is NaN, 0 for none
	cancelAt     int    // the step that calls cancel and returns ctx.Err()
	cancel       func() // cancels the fit's context
	objectives   []float64
}

func (t *toy) steps() Steps {
	step := 0
	return Steps{
		Step: func(ctx context.Context, it int) error {
			step = it
			if it == t.badStep {
				return NonFinite("x update", "x is %v", math.Inf(1))
			}
			if it == t.stuckStep {
				return Stationary("no step down to α = %g", 1e-20)
			}
			if it == t.cancelAt {
				t.cancel()
				return ctx.Err()
			}
			t.cand = t.x / 2
			return nil
		},
		Objective: func() (float64, []Term) {
			f := t.cand
			if step == t.badObjective {
				f = math.NaN()
			}
			t.objectives = append(t.objectives, f)
			return f, []Term{{Name: "loss", Value: f}}
		},
		Accept:   func() { t.x = t.cand; t.accepted++ },
		Sparsity: func() []Term { return []Term{{Name: "x", Value: 0}} },
	}
}

func TestIterateStops(t *testing.T) {
	for _, tc := range []struct {
		name       string
		stop       Stopping
		toy        toy
		wantReason StopReason
		wantIters  int
		wantObj    float64
		wantDetail string
		wantEvals  int
	}{
		// x halves from 1: f = 1/2, 1/4, ...; the relative change is 1/2
		// every time, so a tolerance of 0.5 stops at the second evaluation.
		{name: "converged", stop: Stopping{MaxIter: 10, RelTol: 0.5}, toy: toy{x: 1},
			wantReason: Converged, wantIters: 2, wantObj: 0.25, wantEvals: 2},
		{name: "limit", stop: Stopping{MaxIter: 3, RelTol: -1}, toy: toy{x: 1},
			wantReason: IterationLimit, wantIters: 3, wantObj: 0.125, wantEvals: 3},
		// Evaluated after iterations 2 and 4 and after the last (5).
		{name: "eval every 2", stop: Stopping{MaxIter: 5, RelTol: -1, EvalEvery: 2}, toy: toy{x: 1},
			wantReason: IterationLimit, wantIters: 5, wantObj: 1.0 / 32, wantEvals: 3},
		{name: "bad step", stop: Stopping{MaxIter: 5, RelTol: -1}, toy: toy{x: 1, badStep: 3},
			wantReason: NumericalFailure, wantIters: 2, wantObj: 0.25, wantDetail: "iteration 3: x update: x is +Inf", wantEvals: 2},
		{name: "bad objective", stop: Stopping{MaxIter: 5, RelTol: -1}, toy: toy{x: 1, badObjective: 2},
			wantReason: NumericalFailure, wantIters: 1, wantObj: 0.5, wantDetail: "iteration 2: objective is NaN (loss NaN)", wantEvals: 2},
		{name: "stationary", stop: Stopping{MaxIter: 5, RelTol: -1}, toy: toy{x: 1, stuckStep: 3},
			wantReason: Converged, wantIters: 2, wantObj: 0.25, wantDetail: "iteration 3: no step down to α = 1e-20", wantEvals: 2},
		{name: "bad first step", stop: Stopping{MaxIter: 5, RelTol: -1}, toy: toy{x: 1, badStep: 1},
			wantReason: NumericalFailure, wantIters: 0, wantObj: math.NaN(), wantDetail: "iteration 1: x update: x is +Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := NewRecorder()
			toy := tc.toy
			st := Iterate(context.Background(), tc.stop, rec, toy.steps())
			if st.Reason != tc.wantReason || st.Iterations != tc.wantIters || st.Detail != tc.wantDetail ||
				!(st.Objective == tc.wantObj || math.IsNaN(st.Objective) && math.IsNaN(tc.wantObj)) {
				t.Fatalf("status = %+v, want %v after %d, objective %v, detail %q", st, tc.wantReason, tc.wantIters, tc.wantObj, tc.wantDetail)
			}
			// The iterate is the last accepted one: x = 2^-iterations.
			if toy.accepted != tc.wantIters || toy.x != math.Ldexp(1, -tc.wantIters) {
				t.Errorf("accepted %d steps, x = %v; want %d, %v", toy.accepted, toy.x, tc.wantIters, math.Ldexp(1, -tc.wantIters))
			}
			if got := len(toy.objectives); got != tc.wantEvals {
				t.Errorf("objective evaluated %d times, want %d", got, tc.wantEvals)
			}
			its := rec.Iterations()
			if len(its) != tc.wantIters {
				t.Fatalf("recorded %d iterations, want %d", len(its), tc.wantIters)
			}
			for i, it := range its {
				if it.Iter != i+1 || len(it.Sparsity) != 1 {
					t.Errorf("record %d = %+v", i, it)
				}
				evaluated := (i+1)%tc.stop.Every() == 0 || i+1 == tc.stop.Iterations()
				if evaluated != !math.IsNaN(it.Objective) {
					t.Errorf("record %d: objective %v, evaluated = %v", i, it.Objective, evaluated)
				}
			}
		})
	}
}

func TestIterateCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	toy := toy{x: 1}
	if st := Iterate(ctx, Stopping{MaxIter: 3}, nil, toy.steps()); st.Reason != Cancelled || st.Iterations != 0 || toy.accepted != 0 {
		t.Fatalf("cancelled before the first iteration: %+v, accepted %d", st, toy.accepted)
	}

	ctx, cancel = context.WithCancel(context.Background())
	toy = toy2(cancel)
	st := Iterate(ctx, Stopping{MaxIter: 5, RelTol: -1}, nil, toy.steps())
	if st.Reason != Cancelled || st.Iterations != 1 || toy.accepted != 1 || toy.x != 0.5 {
		t.Fatalf("cancelled in step 2: %+v, accepted %d, x %v; want 1 accepted iteration, x 0.5", st, toy.accepted, toy.x)
	}
}

func toy2(cancel func()) toy { return toy{x: 1, cancelAt: 2, cancel: cancel} }

func TestIteratePanicsOnOtherErrors(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "boom") {
			t.Fatalf("recover() = %v, want a panic naming the error", r)
		}
	}()
	Iterate(context.Background(), Stopping{MaxIter: 1}, nil, Steps{Step: func(context.Context, int) error { return errors.New("boom") }})
}

func TestIterateNoObjective(t *testing.T) {
	n := 0
	st := Iterate(context.Background(), Stopping{MaxIter: 4}, nil, Steps{Step: func(context.Context, int) error { n++; return nil }})
	if st.Reason != IterationLimit || st.Iterations != 4 || n != 4 || !math.IsNaN(st.Objective) {
		t.Fatalf("status %+v after %d steps; want the iteration limit after 4, objective NaN", st, n)
	}
}

func TestBoundedRecorder(t *testing.T) {
	rec := NewBoundedRecorder(3)
	seen := 0
	rec.OnIteration = func(Iteration) { seen++ }
	for i := 1; i <= 10; i++ {
		rec.Record(Iteration{Iter: i, Objective: float64(i), Terms: []Term{{Name: "loss", Value: float64(i)}}})
	}
	its := rec.Iterations()
	if len(its) != 3 || its[0].Iter != 8 || its[2].Iter != 10 || rec.Total() != 10 || seen != 10 {
		t.Fatalf("held %+v, total %d, seen %d; want iterations 8–10 held, 10 recorded and seen", its, rec.Total(), seen)
	}
	head, cols := rec.Columns()
	if strings.Join(head, ",") != "iter,seconds,objective,loss" || cols[0][0] != 8 || cols[3][2] != 10 {
		t.Fatalf("columns %v %v", head, cols)
	}
}

func TestRecorderColumnGroups(t *testing.T) {
	rec := NewRecorder()
	rec.Record(Iteration{Iter: 1, Objective: 3, Terms: []Term{{Name: "loss", Value: 3}},
		Sparsity: []Term{{Name: "E", Value: 0.9}}, Diagnostics: []Term{{Name: "residual", Value: 0.1}, {Name: "mu", Value: 2}}})
	rec.Record(Iteration{Iter: 2, Objective: math.NaN(), Sparsity: []Term{{Name: "E", Value: 0.8}, {Name: "S", Value: 0.5}},
		Diagnostics: []Term{{Name: "mu", Value: 4}}})
	head, cols := rec.Columns()
	if got := strings.Join(head, ","); got != "iter,seconds,objective,loss,sparsity_E,sparsity_S,residual,mu" {
		t.Fatalf("header %s", got)
	}
	if cols[3][1] == cols[3][1] || cols[5][0] == cols[5][0] || cols[6][1] == cols[6][1] {
		t.Errorf("values absent from an iteration must be NaN: %v", cols)
	}
	if cols[7][0] != 2 || cols[7][1] != 4 || cols[4][1] != 0.8 {
		t.Errorf("columns %v", cols)
	}
}

func TestCheckFinite(t *testing.T) {
	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, math.Inf(-1), math.NaN()})
	err := CheckFinite(nil, a, "V update", "V")
	var nf *NonFiniteError
	if !errors.As(err, &nf) || nf.Step != "V update" || nf.What != "V[1,1] = -Inf" {
		t.Errorf("CheckFinite: %v, want a NonFiniteError of step V update naming V[1,1] = -Inf", err)
	}
	if err := CheckFinite(nil, mat.NewDense(1, 2, []float64{0, -1}), "s", "U"); err != nil {
		t.Errorf("finite matrix: %v", err)
	}
}
