package solve

import (
	"math"

	"github.com/topicmf/topicmf/engine/dense"
)

// SoftThreshold is S_t(w) = (|w| − t)₊ · sign(w), for t ≥ 0: the
// minimizer of (x − w)² + 2t|x| (RLSI §4.3.1).
func SoftThreshold(w, t float64) float64 {
	switch {
	case w > t:
		return w - t
	case w < -t:
		return w + t
	}
	return 0
}

// Lasso is the coordinate-descent lasso solver for K×K problems with its
// work space, kept between calls. It is not safe for concurrent use: a
// parallel row loop takes one per block from a LassoPool.
type Lasso struct {
	k    int
	g    []float64 // g = S x
	diag []float64 // s_kk, copied contiguous: the strided diagonal of a K×K S misses L1 at every visit
	all  []int32   // 0, 1, …, K−1: the coordinates of a sweep

	lanes laneState // SolveRows's work space, allocated on first use
}

// NewLasso returns a Lasso for K×K problems.
func NewLasso(k int) *Lasso {
	l := &Lasso{k: k, g: make([]float64, k), diag: make([]float64, k), all: make([]int32, k)}
	for j := range l.all {
		l.all[j] = int32(j)
	}
	return l
}

// Solve minimizes, by cyclic coordinate descent with soft-thresholding,
//
//	f(x) = xᵀ S x − 2 rᵀ x + λ Σ_k |x_k|,
//
// which is ‖y − A x‖²₂ + λ‖x‖₁ up to a constant when S = AᵀA and r = Aᵀy
// (RLSI Eq. 3 with A = Vᵀ, y = d̄_m; and the ℓ1 V update with A = U,
// y = d_n; GMF Eq. 6–7 per class). S is K×K symmetric positive
// semidefinite, row-major with stride K. For k = 1…K each step sets (RLSI
// §4.3.1, Algorithm 2 lines 7–8)
//
//	w_k = r_k − Σ_{l≠k} s_kl x_l,   x_k ← S_{λ/2}(w_k) / s_kk,
//
// the exact minimizer of f in x_k (x_k ← 0 when s_kk = 0). The threshold
// is λ/2 since f carries no ½ factor. Every step is an exact minimization
// in one variable, so f never increases, from any starting point.
//
// x holds the starting point and receives the result. The gradient-like
// vector g = S x is maintained incrementally: w_k = r_k − g_k + s_kk x_k
// costs O(1), a coordinate at zero that stays at zero costs a compare, and
// only a coordinate that moves costs K more (g += Δ·S_k, S symmetric),
// instead of the K per step of the textbook rule.
//
// (An active-set schedule was tried and is slower: docs/measurements.md,
// "Lasso: sweep schedule".)
//
// Sweeps stop when the largest |Δx_k| of a sweep is ≤ tol·max_k |x_k| (with
// tol ≥ 0), or after maxSweeps sweeps; with tol < 0 exactly maxSweeps run.
// It returns the work done.
func (l *Lasso) Solve(s, r []float64, lambda float64, x []float64, maxSweeps int, tol float64) (work Work) {
	k := l.k
	s = s[:k*k]
	r = r[:k]
	x = x[:k]
	g := l.g[:k]
	clear(g)
	diag := l.diag[:k]
	for j := range diag {
		diag[j] = s[j*k+j]
	}
	for j, xj := range x {
		if xj == 0 {
			continue
		}
		axpy(xj, s[j*k:j*k+k], g)
		work.Axpys++
	}
	half := lambda / 2
	for work.Sweeps < int64(maxSweeps) {
		work.Sweeps++
		maxDelta, maxAbs, moves := cdPass(s, diag, r, half, x, g, l.all[:k])
		work.Visits += int64(k)
		work.Axpys += int64(moves)
		if tol >= 0 && maxDelta <= tol*maxAbs {
			break
		}
	}
	work.AxpyLen = work.Axpys * int64(k)
	return work
}

// Work counts coordinate-descent work: sweeps, coordinates visited,
// updates of g = Sx and their total length. The arithmetic is about 4 flops
// per visit plus 2 per element updated.
type Work struct{ Sweeps, Visits, Axpys, AxpyLen int64 }

// Add adds o to w.
func (w *Work) Add(o Work) {
	w.Sweeps += o.Sweeps
	w.Visits += o.Visits
	w.Axpys += o.Axpys
	w.AxpyLen += o.AxpyLen
}

// Flops is the approximate arithmetic of the work.
func (w Work) Flops() float64 {
	return 4*float64(w.Visits) + 2*float64(w.AxpyLen)
}

// cdPass runs one coordinate-descent step for each coordinate in idx, in
// order, updating x and g = S x (S is K×K with K = len(diag), diag its
// diagonal); it returns the largest |Δx_j|, the largest |x_j| over idx
// after its step, and the number of coordinates that moved.
func cdPass(s, diag []float64, r []float64, half float64, x, g []float64, idx []int32) (maxDelta, maxAbs float64, moves int) {
	k := len(diag)
	r, x, g = r[:k], x[:k], g[:k]
	for _, jj := range idx {
		j := int(jj)
		xj := x[j]
		sjj := diag[j]
		w := r[j] - g[j] + sjj*xj
		if xj == 0 && w <= half && w >= -half {
			continue // stays at zero: the common case for sparse solutions
		}
		var nx float64
		if sjj > 0 {
			nx = SoftThreshold(w, half) / sjj
		}
		if a := math.Abs(nx); a > maxAbs {
			maxAbs = a
		}
		d := nx - xj
		if d == 0 {
			continue
		}
		x[j] = nx
		if a := math.Abs(d); a > maxDelta {
			maxDelta = a
		}
		axpy(d, s[j*k:j*k+k], g)
		moves++
	}
	return maxDelta, maxAbs, moves
}

// axpy sets y += a·x for len(x) = len(y), by dense.Axpy (AVX2 on amd64
// machines that have it, bit-identical to the plain Go loop and to gonum's
// floats.AddScaled; its speed: docs/measurements.md). Each row's
// arithmetic is the same whatever the worker count, so determinism is
// unaffected.
func axpy(a float64, x, y []float64) { dense.Axpy(a, x, y) }

// LassoPool hands out Lasso values for one K, so that parallel row loops
// allocate one per concurrent block rather than one per block. A Lasso's
// work space never influences results (every entry is overwritten before it
// is read), so which one a block gets does not matter.
type LassoPool struct {
	k    int
	free chan *Lasso
}

// NewLassoPool returns a pool for K×K problems keeping up to workers+1 idle
// solvers.
func NewLassoPool(k, workers int) *LassoPool {
	return &LassoPool{k: k, free: make(chan *Lasso, workers+1)}
}

// Get returns an idle Lasso, or a new one.
func (p *LassoPool) Get() *Lasso {
	select {
	case l := <-p.free:
		return l
	default:
		return NewLasso(p.k)
	}
}

// Put returns l to the pool (dropped when the pool is full).
func (p *LassoPool) Put(l *Lasso) {
	select {
	case p.free <- l:
	default:
	}
}
