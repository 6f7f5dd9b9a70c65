package groupnmf

import (
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
)

// testSolver returns the solver of a fit of c with options o, initialized
// as Fit initializes it.
func testSolver(t *testing.T, o Options, c *engine.Corpus) *solver {
	t.Helper()
	set, err := o.resolve()
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(set, enginetest.Layout(t, c))
	s.init(c.D)
	return s
}

// notRaised reports a per-class loss or the total loss that an update
// (named what, "V" or "U") raised by more than a relative 1e-12, from
// (f0, per-class pc0) to (f1, pc1): GMF Proposition 1.
func notRaised(t *testing.T, what string, f0 float64, pc0 []float64, f1 float64, pc1 []float64) {
	t.Helper()
	const slack = 1e-12
	for p := range pc1 {
		if pc1[p] > pc0[p]*(1+slack) {
			t.Errorf("%s_%d update raised %.15g → %.15g", what, p, pc0[p], pc1[p])
		}
	}
	if f1 > f0*(1+slack) {
		t.Errorf("%s update raised the loss %.15g → %.15g", what, f0, f1)
	}
}
