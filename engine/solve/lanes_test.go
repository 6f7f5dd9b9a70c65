package solve

import (
	"fmt"
	"math"
	"testing"
)

// TestSolveRowsBits checks SolveRows against Solve called row after row:
// every row's x bit for bit and the total work, over K (below, at and above
// the four-wide unrolling), row counts around the four lanes, tolerances,
// sweep limits, cold, warm, −0 and NaN starts (in place, from zero, and
// from a separate start that must stay as it was), rows of r with non-finite,
// denormal and huge entries, and an S with a zero column (s_jj = 0).
func TestSolveRowsBits(t *testing.T) {
	if !useLanes {
		t.Log("no AVX2: SolveRows is Solve row by row")
	}
	cases := 0
	for _, k := range []int{1, 2, 3, 4, 5, 7, 8, 13, 32, 100} {
		for _, n := range []int{1, 2, 3, 4, 5, 9, 64} {
			for _, tol := range []float64{-1, 0, 1e-5, 1e-2} {
				for _, sweeps := range []int{0, 1, 3, 50} {
					for variant := range 4 {
						seed := uint64(k*1_000_003 + n*1009 + sweeps*31 + variant)
						if tol > 0 {
							seed += uint64(tol * 1e6)
						}
						checkSolveRows(t, fmt.Sprintf("k=%d n=%d tol=%g sweeps=%d variant=%d", k, n, tol, sweeps, variant), seed, k, n, tol, sweeps, variant)
						cases++
					}
				}
			}
		}
	}
	t.Logf("%d cases", cases)
}

func checkSolveRows(t *testing.T, name string, seed uint64, k, n int, tol float64, sweeps, variant int) {
	t.Helper()
	rnd := newRand(seed)
	s, _ := randomGramProblem(seed, k+3, k)
	if variant == 3 && k > 2 {
		z := int(seed % uint64(k)) // a zero column and row: s_zz = 0
		for i := range k {
			s[z*k+i], s[i*k+z] = 0, 0
		}
	}
	const rStride, xStride = 3, 2 // rows further apart than K
	r := make([]float64, (n-1)*(k+rStride)+k)
	x := make([]float64, (n-1)*(k+xStride)+k)
	for i := range n {
		_, ri := randomGramProblem(seed+uint64(i)+1, k+3, k)
		copy(r[i*(k+rStride):], ri)
		xi := x[i*(k+xStride) : i*(k+xStride)+k]
		for j := range xi {
			switch {
			case variant == 0:
			case rnd.IntN(3) == 0:
				xi[j] = math.Copysign(0, -1)
			case rnd.IntN(2) == 0:
				xi[j] = rnd.NormFloat64()
			}
		}
	}
	if variant == 2 && n > 2 {
		special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 5e-324, -5e-324, math.Copysign(0, -1)}
		for i, v := range special {
			r[(i%n)*(k+rStride)+i%k] = v
		}
		x[(n-1)*(k+xStride)+k-1] = math.NaN() // d = NaN: a move that leaves maxDelta as it was
	}
	lambda := 0.05 + rnd.Float64()*2
	want := append([]float64(nil), x...)
	ref := NewLasso(k)
	var wantWork Work
	for i := range n {
		wi := want[i*(k+xStride) : i*(k+xStride)+k]
		if variant == 1 { // the cold start below
			clear(wi)
		}
		wantWork.Add(ref.Solve(s, r[i*(k+rStride):i*(k+rStride)+k], lambda, wi, sweeps, tol))
	}
	// variant 0: in place; 1: from zero; 2 and 3: from a separate start,
	// which must be left as it was.
	rows := Rows{N: n, R: r, RStride: k + rStride, X: append([]float64(nil), x...), XStride: k + xStride}
	switch variant {
	case 0:
		rows.Start, rows.StartStride = rows.X, rows.XStride
	case 2, 3:
		rows.Start, rows.StartStride = append([]float64(nil), x...), k+xStride
		rows.X = make([]float64, len(x))
	}
	gotWork := NewLasso(k).SolveRows(s, lambda, rows, sweeps, tol)
	got := rows.X
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s: x[%d] = %v (%#x), Solve gives %v (%#x)", name, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
	if variant >= 2 {
		for i, v := range rows.Start {
			if math.Float64bits(v) != math.Float64bits(x[i]) {
				t.Fatalf("%s: the start changed at %d", name, i)
			}
		}
	}
	if gotWork != wantWork {
		t.Fatalf("%s: work %+v, Solve's %+v", name, gotWork, wantWork)
	}
}

// BenchmarkLassoRows solves 256 rows of a K = 100 problem (S = AᵀA of a
// random 400×100 design, λ giving about a third of x non-zero) from a
// warm start, row by row (Solve) and four at a time (SolveRows).
func BenchmarkLassoRows(b *testing.B) {
	const k, n = 100, 256
	s, _ := randomGramProblem(1, 400, k)
	r := make([]float64, n*k)
	for i := range n {
		_, ri := randomGramProblem(uint64(i)+2, 400, k)
		copy(r[i*k:], ri)
	}
	const lambda = 40.0
	start := make([]float64, n*k)
	NewLasso(k).SolveRows(s, lambda, Rows{N: n, R: r, RStride: k, Start: start, StartStride: k, X: start, XStride: k}, 3, -1)
	x := make([]float64, n*k)
	for _, mode := range []string{"Solve", "SolveRows"} {
		b.Run(mode, func(b *testing.B) {
			l := NewLasso(k)
			var w Work
			for b.Loop() {
				copy(x, start)
				w = Work{}
				if mode == "Solve" {
					for i := range n {
						w.Add(l.Solve(s, r[i*k:i*k+k], lambda, x[i*k:i*k+k], 50, 1e-5))
					}
				} else {
					w = l.SolveRows(s, lambda, Rows{N: n, R: r, RStride: k, Start: x, StartStride: k, X: x, XStride: k}, 50, 1e-5)
				}
			}
			nz := 0
			for _, v := range x {
				if v != 0 {
					nz++
				}
			}
			b.ReportMetric(float64(nz)/n, "nonzeros/row")
			b.ReportMetric(float64(w.Sweeps)/n, "sweeps/row")
			b.ReportMetric(float64(w.Axpys)/n, "axpys/row")
		})
	}
}
