package grouprlsi

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"gonum.org/v1/gonum/mat"
)

// testSolver returns the solver of a fit of c with options o, before its
// V⁽⁰⁾ is drawn (initV).
func testSolver(t *testing.T, o Options, c *engine.Corpus) *solver {
	t.Helper()
	set, err := o.resolve()
	if err != nil {
		t.Fatal(err)
	}
	return newSolver(set, enginetest.Layout(t, c))
}

// directObjective evaluates Eq. 3 from dense matrices, entry by entry:
// d is M×N (corpus order), u = [U0 | U_1 … U_P] (M×K), v the N×K
// DocTopics (zeros outside each document's topics).
func directObjective(d, u, v *mat.Dense, ks int, l1, l2 float64) (loss, r0, rc, rv float64) {
	loss = matcmp.ResidualSq(d, u, v)
	m, n := d.Dims()
	_, k := u.Dims()
	for i := 0; i < m; i++ {
		for j := 0; j < k; j++ {
			if j < ks {
				r0 += math.Abs(u.At(i, j))
			} else {
				rc += math.Abs(u.At(i, j))
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			rv += v.At(i, j) * v.At(i, j)
		}
	}
	return loss, l1 * r0, l1 * rc, l2 * rv
}
