package tnmf

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// maxCond is the condition number of UᵀU above which its inverse is
// replaced by the pseudo-inverse (see gramInverse).
const maxCond = 1e12

// gramInverse returns the inverse of a K×K symmetric positive semidefinite
// Gram matrix G = UᵀU, exactly symmetric. It uses the Cholesky
// factorization (gonum mat.Cholesky); when G is singular or its condition
// number exceeds maxCond — a column of U became zero or two columns
// parallel, which the max(·, 0) of Eq. 4.5 can cause — it returns the
// Moore–Penrose pseudo-inverse from the symmetric eigendecomposition,
// dropping eigenvalues ≤ K·ε·λ_max, and pseudo = true. S·U·G⁺ is then the
// minimum-norm solution of the least-squares problem of Eq. 4.4, whose
// unconstrained solution Eq. 4.5 projects.
func gramInverse(g *mat.Dense) (inv *mat.Dense, pseudo bool, err error) {
	k, _ := g.Dims()
	sym := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			v := 0.5 * (g.At(i, j) + g.At(j, i))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, false, fmt.Errorf("UᵀU[%d,%d] = %v", i, j, v)
			}
			sym.SetSym(i, j, v)
		}
	}
	out := mat.NewDense(k, k, nil)
	var ch mat.Cholesky
	if ch.Factorize(sym) && ch.Cond() <= maxCond {
		var s mat.SymDense
		if err := ch.InverseTo(&s); err == nil {
			for i := 0; i < k; i++ {
				for j := i; j < k; j++ {
					v := s.At(i, j)
					out.Set(i, j, v)
					out.Set(j, i, v)
				}
			}
			return out, false, nil
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, true, fmt.Errorf("eigendecomposition of the %d×%d UᵀU failed", k, k)
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := 0.0
	for _, l := range vals {
		top = math.Max(top, l)
	}
	cut := float64(k) * 2.220446049250313e-16 * top
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			s := 0.0
			for x, l := range vals {
				if l > cut {
					s += vecs.At(i, x) * vecs.At(j, x) / l
				}
			}
			out.Set(i, j, s)
			out.Set(j, i, s)
		}
	}
	return out, true, nil
}

// Step applies the update of Eq. 4.5 once:
//
//	U_{t+1} = max(S·U_t·(U_tᵀU_t)⁻¹, 0),
//
// given SU = S·U_t (M×K) and G = U_tᵀU_t (K×K); it writes U_{t+1} into dst
// (M×K, not aliasing SU) and reports whether the pseudo-inverse replaced
// (UᵀU)⁻¹ (see gramInverse). S·U·G⁻¹ is dense.MulSmall over fixed row
// blocks: the same bits for any number of workers.
//
// If S = U*U*ᵀ with U* ≥ 0 of full column rank, U* is a fixed point:
// S·U*·(U*ᵀU*)⁻¹ = U*, whose entries are already non-negative.
func Step(p *parallel.Pool, dst, su, g *mat.Dense) (pseudo bool, err error) {
	inv, pseudo, err := gramInverse(g)
	if err != nil {
		return pseudo, err
	}
	dense.MulSmall(p, dst, su, inv)
	clampNonNegative(p, dst)
	return pseudo, nil
}

// clampNonNegative sets every negative entry of a to 0 (and -0 to +0).
func clampNonNegative(p *parallel.Pool, a *mat.Dense) {
	r, c := a.Dims()
	raw := a.RawMatrix()
	p.For(r, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+c]
			for j, v := range row {
				if v <= 0 {
					row[j] = 0
				}
			}
		}
	})
}

// rescaleColumns replaces U by U·diag(√e) with e ≥ 0 minimizing
// L(U·diag(√e)) = ‖S − Σ_k e_k u_k u_kᵀ‖²_F, a quadratic in e:
//
//	L = ‖S‖² − 2·Σ_k e_k·u_kᵀSu_k + eᵀ(G∘G)e,   G = UᵀU,
//
// so e solves the K-variable NNLS min_{e≥0} ½eᵀ(G∘G)e − bᵀe, b_k = ⟨u_k, (SU)_k⟩
// (solved by coordinate descent from e = 1 to a relative decrease of 1e-15 or
// 1000 sweeps). SU and G are updated in place to match; L does not increase.
// This is not in the paper (see Options.Rescale).
func rescaleColumns(p *parallel.Pool, u, su, g *mat.Dense) {
	n, k := u.Dims()
	h := mat.NewDense(k, k, nil)
	for a := 0; a < k; a++ {
		for c := 0; c < k; c++ {
			x := g.At(a, c)
			h.Set(a, c, x*x)
		}
	}
	b := make([]float64, k)
	uraw, sraw := u.RawMatrix(), su.RawMatrix()
	for a := 0; a < k; a++ {
		var s dense.Sum
		for i := 0; i < n; i++ {
			s.Add(uraw.Data[i*uraw.Stride+a] * sraw.Data[i*sraw.Stride+a])
		}
		b[a] = s.Value()
	}
	e := make([]float64, k)
	for a := range e {
		e[a] = 1
	}
	hraw := h.RawMatrix()
	nnlsCD(e, make([]float64, k), b, hraw.Data, hraw.Stride, 0, 1000, 1e-15)
	sc := make([]float64, k)
	for a, x := range e {
		sc[a] = math.Sqrt(x)
	}
	p.For(n, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			ur := uraw.Data[i*uraw.Stride : i*uraw.Stride+k]
			sr := sraw.Data[i*sraw.Stride : i*sraw.Stride+k]
			for a, c := range sc {
				ur[a] *= c
				sr[a] *= c
			}
		}
	})
	for a := 0; a < k; a++ {
		for c := 0; c < k; c++ {
			g.Set(a, c, g.At(a, c)*sc[a]*sc[c])
		}
	}
}
