package solve

import (
	"math"
	"unsafe"
)

// lanes is the number of rows SolveRows sweeps side by side: two AVX-512
// registers of float64 hold coordinate j of every lane.
const lanes = 16

// laneState is the work space of SolveRows: the lanes' x and r,
// interleaved so that coordinate j of the sixteen rows is two registers
// (x[j*lanes+l] is coordinate j of lane l); S copied with rows of ld
// entries (K rounded up to eight, zero padded); each lane's g = S x, lane
// after lane with the same stride (g[l*ld+j]), and one element more, read
// by the gather of g_{j+1} at j + 1 = K; and the sweep's results. x, r, S
// and g start on 64-byte boundaries, and S has 64 entries of slack for
// sxAVX512's last chunk.
type laneState struct {
	ld    int
	x, r  []float64
	s, g  []float64
	sx    []float64 // S x of a row entering a lane, in chunks of 64
	nzIdx []int32   // the row's non-zero coordinates
	nzVal []float64 // and their values
	acc   sweepAcc
}

// sweepAcc holds a sweep's largest |Δx_j| and largest |x_j| per lane, the
// number of coordinates that moved per lane, and the kernel's scratch.
type sweepAcc struct {
	maxDelta [lanes]float64
	maxAbs   [lanes]float64
	moves    [lanes]int64
	d        [lanes]float64 // the visit's Δx_j per lane
	base     [lanes]int64   // l·ld: where lane l's g starts
}

// Rows describes n lasso problems that share S, for SolveRows: row i's r
// is R[i*RStride : i*RStride+K], its starting point
// Start[i*StartStride : …+K] (zero when Start is nil) and its result goes
// to X[i*XStride : …+K]. X may be Start (same stride), solving in place.
type Rows struct {
	N           int
	R           []float64
	RStride     int
	Start       []float64
	StartStride int
	X           []float64
	XStride     int
}

// SolveRows runs Solve on every row of rows, with S, λ, maxSweeps and tol
// shared. Every row's result, and the total work, equal those of Solve
// called row after row (after copying the start into X), bit for bit.
//
// Where the machine has AVX-512, sixteen rows are swept side by side, in
// two halves of eight lanes: each visit of coordinate j computes w_j, the
// soft-threshold step and Δx_j for eight rows in one register, so the
// division and the soft threshold, whose latency bounds the one-row loop,
// are paid once per eight rows, and the two halves are independent chains
// that the processor overlaps; g_{j+1} is carried in a register so that
// the next visit does not wait for this visit's updates g += Δx_j·S_j of
// the rows that moved. A row whose sweeps stop leaves its lane at the end
// of that sweep, and the next row takes the lane. A matrix S with a
// non-finite entry is solved row by row (the register copy of g_{j+1}
// relies on 0·s_ij = ±0, which leaves a sum's bits unchanged: g starts at
// +0, and a sum of finite values is −0 only when both terms are).
func (l *Lasso) SolveRows(s []float64, lambda float64, rows Rows, maxSweeps int, tol float64) (work Work) {
	k, n := l.k, rows.N
	s = s[:k*k]
	rowOf := func(a []float64, stride, i int) []float64 { return a[i*stride : i*stride+k] }
	if !useLanes || maxSweeps <= 0 || n < 2 || !finite(s) {
		for i := range n {
			x := rowOf(rows.X, rows.XStride, i)
			if rows.Start == nil {
				clear(x)
			} else {
				copy(x, rowOf(rows.Start, rows.StartStride, i))
			}
			work.Add(l.Solve(s, rowOf(rows.R, rows.RStride, i), lambda, x, maxSweeps, tol))
		}
		return work
	}
	ld := (k + 7) &^ 7
	if l.lanes.ld != ld {
		l.lanes = laneState{
			ld:    ld,
			x:     aligned64(k * lanes),
			r:     aligned64(k * lanes),
			s:     aligned64(k*ld + 64), // the last row's last chunk reads past its end
			g:     aligned64(lanes*ld + 1),
			sx:    aligned64((ld + 63) &^ 63),
			nzIdx: make([]int32, k),
			nzVal: make([]float64, k),
		}
	}
	ls := &l.lanes
	for j := range k {
		copy(ls.s[j*ld:j*ld+k], s[j*k:j*k+k])
	}
	diag := l.diag[:k]
	for j := range diag {
		diag[j] = s[j*k+j]
	}
	var (
		row    [lanes]int // the row in each lane, −1 when empty
		sweeps [lanes]int
		next   int
		active int
	)
	// fill puts the next row in lane ln, or empties it.
	fill := func(ln int) {
		g := ls.g[ln*ld : ln*ld+ld]
		clear(g)
		if next == n {
			row[ln] = -1
			for j := range k {
				ls.x[j*lanes+ln], ls.r[j*lanes+ln] = 0, 0
			}
			return
		}
		i := next
		next++
		active++
		row[ln], sweeps[ln] = i, 0
		var xi []float64 // nil: start from zero
		ri := rowOf(rows.R, rows.RStride, i)
		if rows.Start != nil {
			xi = rowOf(rows.Start, rows.StartStride, i)
		}
		nnz := 0
		for j, xj := range xi {
			if xj != 0 {
				ls.nzIdx[nnz], ls.nzVal[nnz] = int32(j), xj
				nnz++
			}
		}
		if nnz > 0 { // Solve's g = S x: one axpy per non-zero, in order
			sxAVX512(len(ls.sx)/64, nnz, &ls.nzIdx[0], &ls.nzVal[0], &ls.s[0], ld, &ls.sx[0])
			copy(g[:k], ls.sx[:k])
			work.Axpys += int64(nnz)
		}
		for j := range k {
			ls.r[j*lanes+ln] = ri[j]
			ls.x[j*lanes+ln] = 0
		}
		for j, xj := range xi {
			ls.x[j*lanes+ln] = xj
		}
	}
	for ln := range lanes {
		fill(ln)
	}
	half := lambda / 2
	for active > 0 {
		ls.acc = sweepAcc{}
		for ln := range lanes {
			ls.acc.base[ln] = int64(ln * ld)
		}
		sweepLanes(k, ld, ls.s, diag, ls.x, ls.r, ls.g, half, &ls.acc)
		for ln := range lanes {
			i := row[ln]
			if i < 0 {
				continue
			}
			sweeps[ln]++
			work.Visits += int64(k)
			work.Axpys += ls.acc.moves[ln]
			if converged := tol >= 0 && ls.acc.maxDelta[ln] <= tol*ls.acc.maxAbs[ln]; !converged && sweeps[ln] < maxSweeps {
				continue
			}
			xi := rowOf(rows.X, rows.XStride, i)
			for j := range k {
				xi[j] = ls.x[j*lanes+ln]
			}
			work.Sweeps += int64(sweeps[ln])
			active--
			fill(ln)
		}
	}
	work.AxpyLen = work.Axpys * int64(k)
	return work
}

// aligned64 returns n zeros starting on a 64-byte boundary (a cache line,
// and one AVX-512 register). Go's heap does not move objects.
func aligned64(n int) []float64 {
	b := make([]float64, n+7)
	off := int(uintptr(unsafe.Pointer(&b[0]))%64) / 8
	if off != 0 {
		off = 8 - off
	}
	return b[off : off+n : off+n]
}

// finite reports whether every entry of s is finite.
func finite(s []float64) bool {
	for _, v := range s {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	return true
}
