package rlsi

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// softThreshold is S_t(w) = (|w| − t)₊ · sign(w), for t ≥ 0.
func softThreshold(w, t float64) float64 {
	switch {
	case w > t:
		return w - t
	case w < -t:
		return w + t
	}
	return 0
}

// lassoScratch is the work space of lassoCD for one K.
type lassoScratch struct {
	g   []float64 // g = S x
	all []int32   // 0, 1, …, K−1
	act []int32   // the active set: coordinates non-zero after a full sweep
	// The active phase works on compact copies over the active set A:
	// S_AA (|A|×|A| row-major), x_A, its value at the start of the phase,
	// g_A and r_A.
	sa             []float64
	xa, x0, ga, ra []float64
}

func newLassoScratch(k int) *lassoScratch {
	w := &lassoScratch{g: make([]float64, k), all: make([]int32, k), act: make([]int32, 0, k),
		xa: make([]float64, k), x0: make([]float64, k), ga: make([]float64, k), ra: make([]float64, k)}
	for j := range w.all {
		w.all[j] = int32(j)
	}
	return w
}

// scratchPool hands out lassoScratch values for one K, so that parallel
// row loops allocate one per concurrent block rather than one per block.
// Scratch contents never influence results (every field is overwritten
// before it is read).
type scratchPool struct {
	k    int
	free chan *lassoScratch
}

func newScratchPool(k, workers int) *scratchPool {
	return &scratchPool{k: k, free: make(chan *lassoScratch, workers+1)}
}

func (p *scratchPool) get() *lassoScratch {
	select {
	case w := <-p.free:
		return w
	default:
		return newLassoScratch(p.k)
	}
}

func (p *scratchPool) put(w *lassoScratch) {
	select {
	case p.free <- w:
	default:
	}
}

// lassoCD minimizes, by cyclic coordinate descent with soft-thresholding,
//
//	f(x) = xᵀ S x − 2 rᵀ x + λ Σ_k |x_k|,
//
// which is ‖y − A x‖²₂ + λ‖x‖₁ up to a constant when S = AᵀA and r = Aᵀy
// (RLSI Eq. 3 with A = Vᵀ, y = d̄_m; and the ℓ1 V update with A = U,
// y = d_n). S is K×K symmetric positive semidefinite, row-major with
// stride K. Each coordinate step sets (RLSI Section 4.3.1, Algorithm 2
// lines 7–8)
//
//	w_k = r_k − Σ_{l≠k} s_kl x_l,   x_k ← S_{λ/2}(w_k) / s_kk,
//
// the exact minimizer of f in x_k (x_k ← 0 when s_kk = 0). The threshold
// is λ/2 since f carries no ½ factor. Every step is an exact minimization
// in one variable, so f never increases, from any starting point.
//
// x holds the starting point and receives the result. Standard speed-ups
// keep the iteration a coordinate descent with the same steps:
//
//   - Incremental gradient: g = S x is maintained, so w_k = r_k − g_k +
//     s_kk x_k costs O(1), and only a coordinate that moves costs K more
//     (g += Δ·S_k, S symmetric), instead of the K per step of the textbook
//     rule. A coordinate at zero that stays at zero costs a compare.
//   - Active set (Friedman, Hastie, Tibshirani 2010, "pathwise coordinate
//     optimization", the kind of method the paper cites as [13, 14]): after
//     a full sweep over k = 1…K, sweeps visit only the set A of non-zero
//     coordinates until they settle, then a full sweep checks all K; the
//     iteration ends only on a full sweep. During that active phase only
//     g_A is needed, so the phase runs on compact copies (S_AA, x_A, g_A)
//     and a move costs |A| instead of K; at its end g is brought up to date
//     with one length-K update per coordinate that changed.
//
// A sweep (full or active) counts toward maxSweeps. The iteration stops
// when a full sweep's largest |Δx_k| is ≤ tol·max_k |x_k| (tol ≥ 0), or
// after maxSweeps sweeps; with tol < 0 it runs exactly maxSweeps sweeps.
// It returns the work done (see cdWork).
func lassoCD(s []float64, k int, r []float64, lambda float64, x []float64, w *lassoScratch, maxSweeps int, tol float64) (work cdWork) {
	s = s[:k*k]
	r = r[:k]
	x = x[:k]
	g := w.g[:k]
	clear(g)
	for l, xl := range x {
		if xl == 0 {
			continue
		}
		axpy(xl, s[l*k:l*k+k], g)
		work.axpys++
		work.axpyLen += int64(k)
	}
	half := lambda / 2
	for work.sweeps < int64(maxSweeps) {
		// Full sweep.
		work.sweeps++
		maxDelta, maxAbs, moves := cdPass(s, k, r, half, x, g, w.all[:k])
		work.visits += int64(k)
		work.axpys += int64(moves)
		work.axpyLen += int64(moves) * int64(k)
		if tol >= 0 && maxDelta <= tol*maxAbs {
			break
		}
		// Active phase on A = {j : x_j ≠ 0}.
		w.act = w.act[:0]
		for j, xj := range x {
			if xj != 0 {
				w.act = append(w.act, int32(j))
			}
		}
		work.add(w.activePhase(s, k, r, half, x, g, maxSweeps-int(work.sweeps), tol))
	}
	return work
}

// activePhase runs up to maxSweeps sweeps over the active set w.act until
// one settles (tol ≥ 0), on compact copies, then writes x_A back and
// updates g for the coordinates that changed.
func (w *lassoScratch) activePhase(s []float64, k int, r []float64, half float64, x, g []float64, maxSweeps int, tol float64) (work cdWork) {
	if maxSweeps <= 0 {
		return work
	}
	a := len(w.act)
	if cap(w.sa) < a*a {
		w.sa = make([]float64, a*a, min(2*a*a, k*k)) // grows with the largest A seen
	}
	sa := w.sa[:a*a]
	xa, x0, ga, ra := w.xa[:a], w.x0[:a], w.ga[:a], w.ra[:a]
	for p, jp := range w.act {
		row := s[int(jp)*k : int(jp)*k+k]
		out := sa[p*a : p*a+a]
		for q, jq := range w.act {
			out[q] = row[jq]
		}
		xa[p] = x[jp]
		x0[p] = x[jp]
		ga[p] = g[jp]
		ra[p] = r[jp]
	}
	for work.sweeps < int64(maxSweeps) {
		work.sweeps++
		maxDelta, maxAbs, moves := cdPass(sa, a, ra, half, xa, ga, w.all[:a])
		work.visits += int64(a)
		work.axpys += int64(moves)
		work.axpyLen += int64(moves) * int64(a)
		if tol >= 0 && maxDelta <= tol*maxAbs {
			break
		}
	}
	for p, jp := range w.act {
		if d := xa[p] - x0[p]; d != 0 {
			x[jp] = xa[p]
			axpy(d, s[int(jp)*k:int(jp)*k+k], g)
			work.axpys++
			work.axpyLen += int64(k)
		}
	}
	return work
}

// cdWork counts coordinate-descent work: sweeps (full or active-set),
// coordinates visited, updates of g and their total length. The
// arithmetic is about 4 flops per visit plus 2 per element updated.
type cdWork struct{ sweeps, visits, axpys, axpyLen int64 }

func (w *cdWork) add(o cdWork) {
	w.sweeps += o.sweeps
	w.visits += o.visits
	w.axpys += o.axpys
	w.axpyLen += o.axpyLen
}

// flops is the approximate arithmetic of the work.
func (w cdWork) flops() float64 {
	return 4*float64(w.visits) + 2*float64(w.axpyLen)
}

// cdPass runs one coordinate-descent step for each coordinate in idx, in
// order, updating x and g = S x; it returns the largest |Δx_j|, the largest
// |x_j| over idx after its step, and the number of coordinates that moved.
func cdPass(s []float64, k int, r []float64, half float64, x, g []float64, idx []int32) (maxDelta, maxAbs float64, moves int) {
	for _, jj := range idx {
		j := int(jj)
		xj := x[j]
		sjj := s[j*k+j]
		w := r[j] - g[j] + sjj*xj
		if xj == 0 && w <= half && w >= -half {
			continue // stays at zero: the common case for sparse solutions
		}
		var nx float64
		if sjj > 0 {
			if w > half {
				nx = (w - half) / sjj
			} else if w < -half {
				nx = (w + half) / sjj
			}
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

// axpy sets y += a·x for len(x) = len(y), by gonum's floats.AddScaled
// (assembly f64.AxpyUnitary on amd64: about 1.7× the plain Go loop at
// K = 50–200). Each row's arithmetic is the same whatever the worker count,
// so determinism is unaffected.
func axpy(a float64, x, y []float64) { floats.AddScaled(y, a, x) }
