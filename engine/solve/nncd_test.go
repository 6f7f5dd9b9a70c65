package solve

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Sweeps from v = 0 never increase ½vᵀGv − bᵀv, keep gv = Gv, and reach the
// NNLS solution found by enumerating the passive sets.
func TestNonNegSweep(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		_, _, g, p := nnlsProblem(12, 5, 3, seed)
		gd := g.RawMatrix()
		for i := 0; i < 3; i++ {
			b := p.RawRowView(i)
			v, gv := make([]float64, 5), make([]float64, 5)
			f := func() float64 {
				s := 0.0
				for a := range v {
					s += v[a] * (0.5*gv[a] - b[a])
				}
				return s
			}
			prev := f()
			for range 2000 {
				NonNegSweep(v, gv, b, gd.Data, gd.Stride)
				if cur := f(); cur > prev+1e-12*math.Abs(prev) {
					t.Fatalf("seed %d row %d: objective rose from %v to %v", seed, i, prev, cur)
				} else {
					prev = cur
				}
			}
			var want mat.VecDense
			want.MulVec(g, mat.NewVecDense(5, append([]float64(nil), v...)))
			for a := range gv {
				if math.Abs(gv[a]-want.AtVec(a)) > 1e-9*(1+math.Abs(want.AtVec(a))) {
					t.Fatalf("seed %d row %d: gv[%d] = %v, Gv = %v", seed, i, a, gv[a], want.AtVec(a))
				}
			}
			for a, w := range bruteForce(g, b) {
				if v[a] < 0 || math.Abs(v[a]-w) > 1e-7*(1+math.Abs(w)) {
					t.Fatalf("seed %d row %d: v = %v, enumeration gives %v", seed, i, v, bruteForce(g, b))
				}
			}
		}
	}
}
