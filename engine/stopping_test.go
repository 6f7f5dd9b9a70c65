package engine

import (
	"context"
	"math"
	"testing"
)

// Stopping's zero rule (engine/param): 0 iterations and 0 eval-every
// select their defaults, a 0 tolerance is no tolerance test.
func TestStoppingZeroAndDefaults(t *testing.T) {
	var zero Stopping
	if zero.Iterations() != DefaultMaxIter || zero.Every() != 1 || zero.Tol() != 0 {
		t.Errorf("zero Stopping: %d iterations, every %d, tol %v", zero.Iterations(), zero.Every(), zero.Tol())
	}
	d := DefaultStopping()
	if d != (Stopping{MaxIter: 100, RelTol: 1e-4, EvalEvery: 1}) {
		t.Errorf("DefaultStopping() = %+v", d)
	}
	for _, c := range []struct {
		s         Stopping
		prev, cur float64
		want      bool
	}{
		{d, math.NaN(), 1, false}, // no previous evaluation
		{d, 100, 99.995, true},    // |Δ| = 0.005 ≤ 1e-4·100
		{d, 100, 100.02, false},   // |Δ| = 0.02 > 1e-4·100
		{zero, 100, 100, false},   // 0: no test, even at a fixed point
		{Stopping{RelTol: -1}, 1, 1, false},
		{Stopping{RelTol: 0.5}, 0, 0, true}, // |Δ| = 0 ≤ 0.5·max(0, 1e-300)
	} {
		if got := c.s.Converged(c.prev, c.cur); got != c.want {
			t.Errorf("%+v.Converged(%v, %v) = %v, want %v", c.s, c.prev, c.cur, got, c.want)
		}
	}
	if (Stopping{MaxIter: 10, EvalEvery: 3}).Evaluate(9) != true || (Stopping{MaxIter: 10, EvalEvery: 3}).Evaluate(10) != true ||
		(Stopping{MaxIter: 10, EvalEvery: 3}).Evaluate(8) {
		t.Error("Evaluate: want iterations 3, 6, 9 and the last")
	}
	for _, bad := range []Stopping{{MaxIter: -1}, {RelTol: math.NaN()}, {RelTol: math.Inf(1)}, {EvalEvery: -2}} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
}

// TestLoopStopsAtCancellation: Loop runs its updates up to the limit, and
// none after ctx is cancelled, so that a fold-in with a huge iteration
// limit can be stopped inside its document.
func TestLoopStopsAtCancellation(t *testing.T) {
	s := Stopping{MaxIter: 1e9, RelTol: -1}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	s.Loop(ctx, func(t int) {
		n++
		if t == 5 {
			cancel()
		}
	}, func() float64 { return 1 })
	if n != 5 {
		t.Errorf("%d updates, want 5 (cancelled during the fifth)", n)
	}
	n = 0
	Stopping{MaxIter: 7, RelTol: -1}.Loop(context.Background(), func(int) { n++ }, func() float64 { return 1 })
	if n != 7 {
		t.Errorf("%d updates, want the limit 7", n)
	}
}
