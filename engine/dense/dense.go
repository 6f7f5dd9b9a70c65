package dense

import (
	"fmt"
	"math"
	"sync"

	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// RowBlock is the number of rows per block; a constant so that block
// boundaries never depend on the number of workers.
const RowBlock = 1024

// Gram sets dst = AᵀA (k×k) for A (n×k). Rows are summed in fixed blocks and
// the block partials are added in block order, so the result is the same
// for any number of workers; dst is exactly symmetric (the upper triangle is
// computed and mirrored). Within a block, four rows at a time are folded
// into the upper triangle of the block's partial sum:
//
//	G[x, y] += a0x·a0y + a1x·a1y + a2x·a2y + a3x·a3y   (y ≥ x),
//
// skipping x where all four a·x are zero (sparse factors), by Axpy4 (AVX2
// where available, with the same bits). n·k·(k+1) flops.
// dst must not alias A.
func Gram(p *parallel.Pool, dst *mat.Dense, a *mat.Dense) {
	n, k := a.Dims()
	if r, c := dst.Dims(); r != k || c != k {
		panic(fmt.Sprintf("dense.Gram: dst is %d×%d, want %d×%d", r, c, k, k))
	}
	nb := parallel.Blocks(n, RowBlock)
	partial := make([][]float64, nb)
	araw := a.RawMatrix()
	p.For(n, RowBlock, func(b, lo, hi int) {
		g := make([]float64, k*k)
		switch {
		case useBLAS:
			gramBlockBLAS(g, araw.Data, araw.Stride, k, lo, hi)
		case useAVX2 && k >= 4 && !sparseRows(araw, lo, hi) && gramTilesAVX2(g, araw.Data, araw.Stride, k, lo, hi):
		default:
			clear(g)
			gramBlock(g, araw.Data, araw.Stride, k, lo, hi, 0)
		}
		partial[b] = g
	})
	AddBlocks(dst, partial)
	MirrorUpper(dst)
}

// AddBlocks sets dst (r×c) to the sum of the block partials parts (each r×c,
// row-major and packed), added entry by entry in block order: the reduction
// of a kernel that sums rows in fixed blocks on the pool, whose result then
// does not depend on the number of workers.
func AddBlocks(dst *mat.Dense, parts [][]float64) {
	r, c := dst.Dims()
	draw := dst.RawMatrix()
	for x := 0; x < r; x++ {
		out := draw.Data[x*draw.Stride : x*draw.Stride+c]
		clear(out)
		for _, g := range parts {
			gx := g[x*c : x*c+c]
			for y := range out {
				out[y] += gx[y]
			}
		}
	}
}

// MirrorUpper copies the upper triangle of the square dst onto its lower
// triangle, making it exactly symmetric.
func MirrorUpper(dst *mat.Dense) {
	k, _ := dst.Dims()
	draw := dst.RawMatrix()
	for x := 0; x < k; x++ {
		for y := 0; y < x; y++ {
			draw.Data[x*draw.Stride+y] = draw.Data[y*draw.Stride+x]
		}
	}
}

// gramBlock adds the upper triangle of Σ_{i∈[lo,hi)} a_iᵀa_i to g (k×k),
// in its rows x ≥ x0: for each group of four rows of A from lo, in order,
// g[x, y] += ((a_0x·a_0y + a_1x·a_1y) + a_2x·a_2y) + a_3x·a_3y (Axpy4,
// skipped when the four a_·x are zero), then each remaining row's a_ix·a_iy
// (Axpy, skipped when a_ix = 0). This order defines Gram's bits.
func gramBlock(g, ad []float64, as, k, lo, hi, x0 int) {
	i := lo
	for ; i+4 <= hi; i += 4 {
		r0 := ad[i*as : i*as+k]
		r1 := ad[(i+1)*as : (i+1)*as+k]
		r2 := ad[(i+2)*as : (i+2)*as+k]
		r3 := ad[(i+3)*as : (i+3)*as+k]
		for x := x0; x < k; x++ {
			a0, a1, a2, a3 := r0[x], r1[x], r2[x], r3[x]
			if a0 == 0 && a1 == 0 && a2 == 0 && a3 == 0 {
				continue
			}
			Axpy4(g[x*k+x:x*k+k], a0, a1, a2, a3, r0[x:k], r1[x:k], r2[x:k], r3[x:k])
		}
	}
	for ; i < hi; i++ {
		r := ad[i*as : i*as+k]
		for x := x0; x < k; x++ {
			if ax := r[x]; ax != 0 {
				Axpy(ax, r[x:k], g[x*k+x:x*k+k])
			}
		}
	}
}

// gramTilesAVX2 sets g (k×k, zero on entry) on and above the diagonal to
// gramBlock's sums, bit for bit, for k ≥ 4, and reports true, unless it
// meets a non-finite entry of A (then g is left partly summed and it
// reports false, for gramBlock to sum from zero): a gram block is
// the product Aᵀ·A of a block's rows, so it runs MulSmall's register tiles
// (mulTile2x8AVX2, mulTile4x4AVX2: groups of four rows of A, then single
// rows, each entry's terms in gramBlock's order) on a transposed copy of
// each range of rows, over the tiles that reach the diagonal or lie above
// it (the few entries below the diagonal they also set are never read:
// Gram mirrors the upper triangle). The zero groups gramBlock skips are
// added here, which leaves the bits unchanged for a finite A (see
// mulTilesAVX2). Rows of g past the last multiple of four are gramBlock's.
func gramTilesAVX2(g, ad []float64, as, k, lo, hi int) bool {
	n := hi - lo
	n4 := n &^ 3
	chunk := gramChunk(k)         // rows of A per range
	need := k*min(chunk+3, n) + 1 // the last range also takes the singles
	buf := transposed.Get().(*[]float64)
	defer transposed.Put(buf)
	if cap(*buf) < need {
		*buf = make([]float64, need)
	}
	at := (*buf)[:need]
	end := k &^ 3
	for i0 := 0; ; i0 += chunk {
		i1 := min(i0+chunk, n4)
		groups, singles := (i1-i0)/4, 0
		if i1 == n4 {
			singles = n - n4
			i1 = n
		}
		m := i1 - i0
		rows := ad[(lo+i0)*as:]
		check := 0.0       // v − v is 0 for a finite v, NaN for ±∞ and NaN
		for x := range k { // at[x·m + t] = A[lo+i0+t, x]
			col := at[x*m : x*m+m]
			for t := range col {
				v := rows[t*as+x]
				col[t] = v
				check += v - v
			}
		}
		if check != 0 {
			return false
		}
		b := ad[(lo+i0)*as:]
		for x := 0; x < end; x += 4 {
			c := x &^ 7
			for ; c+8 <= k; c += 8 {
				mulTile2x8AVX2(groups, singles, &at[x*m], m, &b[c], as, &g[x*k+c], k)
				mulTile2x8AVX2(groups, singles, &at[(x+2)*m], m, &b[c], as, &g[(x+2)*k+c], k)
			}
			for ; c < k; c += 4 {
				mulTile4x4AVX2(groups, singles, &at[x*m], m, &b[c], as, &g[x*k+c], k, &tileMask[min(4, k-c)])
			}
		}
		if i1 == n {
			break
		}
	}
	gramBlock(g, ad, as, k, lo, hi, end)
	return true
}

// gramChunk is the number of rows of A in a range of gramTilesAVX2: about
// 4,096 entries (32 KiB), so that the range and its transposed copy stay in
// the L1 cache and the copies held by the workers stay small beside a
// fit's factors (rlsi2011's memory formula leaves them out).
func gramChunk(k int) int { return max(4, (4<<10)/k&^3) }

// transposed holds gramTilesAVX2's copies of ranges of rows, reused so
// that a fit's Grams do not leave megabytes of garbage per iteration.
var transposed = sync.Pool{New: func() any { return new([]float64) }}

// sparseRows reports whether more than 3/5 of the groups of four rows and
// one column of A in rows [lo, hi) are all zero, judged on every fourth
// group: gramBlock skips those groups and gramTilesAVX2 does not, so
// gramBlock is then the faster. Both give the same bits.
func sparseRows(araw blas64.General, lo, hi int) bool {
	zero, all := 0, 0
	ad, as, k := araw.Data, araw.Stride, araw.Cols
	for i := lo; i+4 <= hi; i += 16 {
		r0, r1, r2, r3 := ad[i*as:i*as+k], ad[(i+1)*as:(i+1)*as+k], ad[(i+2)*as:(i+2)*as+k], ad[(i+3)*as:(i+3)*as+k]
		for x := range k {
			if r0[x] == 0 && r1[x] == 0 && r2[x] == 0 && r3[x] == 0 {
				zero++
			}
		}
		all += k
	}
	return 5*zero > 3*all
}

// gramBlockBLAS sets the upper triangle of g (k×k) to
// Σ_{i∈[lo,hi)} a_iᵀa_i by one BLAS dsyrk (the cblas build).
func gramBlockBLAS(g, ad []float64, as, k, lo, hi int) {
	a := blas64.General{Rows: hi - lo, Cols: k, Stride: as, Data: ad[lo*as:]}
	blas64.Syrk(blas.Trans, 1, a, 0, blas64.Symmetric{Uplo: blas.Upper, N: k, Stride: k, Data: g})
}

// mulBlockBLAS sets rows [lo, hi) of dst to rows [lo, hi) of A times B by
// one BLAS dgemm (the cblas build).
func mulBlockBLAS(dst, a, b blas64.General, lo, hi int) {
	ab := blas64.General{Rows: hi - lo, Cols: a.Cols, Stride: a.Stride, Data: a.Data[lo*a.Stride:]}
	db := blas64.General{Rows: hi - lo, Cols: dst.Cols, Stride: dst.Stride, Data: dst.Data[lo*dst.Stride:]}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, ab, b, 0, db)
}

// MulSmall sets dst = A·B for A (n×k) and a small B (k×j), in parallel over
// fixed row blocks of A. dst must be n×j and must not alias A or B. Row i of
// dst is Σ_x A[i,x]·B[x,:], added four x at a time in increasing x (skipping
// groups of four zeros, by Axpy4 and Axpy), an order fixed by the shapes
// alone (mulRow). With AVX2, j ≥ 4 and B finite, the row blocks are
// computed in register tiles (mulTilesAVX2) with the same bits, unless A's
// block is mostly zero groups (sparseBlock), which mulRow skips. 2·n·k·j
// flops.
func MulSmall(p *parallel.Pool, dst, a, b *mat.Dense) {
	n, k := a.Dims()
	bk, j := b.Dims()
	if dr, dc := dst.Dims(); bk != k || dr != n || dc != j {
		panic(fmt.Sprintf("dense.MulSmall: shapes %d×%d · %d×%d → %d×%d", n, k, bk, j, dr, dc))
	}
	if j == 0 {
		return
	}
	araw, braw, draw := a.RawMatrix(), b.RawMatrix(), dst.RawMatrix()
	bd, bs := braw.Data, braw.Stride
	tiles := useAVX2 && !useBLAS && n >= 4 && j >= 4 && k > 0 && finite(braw)
	p.For(n, RowBlock, func(_, lo, hi int) {
		if useBLAS {
			mulBlockBLAS(draw, araw, braw, lo, hi)
			return
		}
		if tiles && !sparseBlock(araw, lo, hi) {
			lo = mulTilesAVX2(draw, araw, braw, lo, hi)
		}
		for i := lo; i < hi; i++ {
			mulRow(draw.Data[i*draw.Stride:i*draw.Stride+j], araw.Data[i*araw.Stride:i*araw.Stride+k], bd, bs)
		}
	})
}

// mulRow sets out = Σ_x ai[x]·B[x, :] for B of len(ai) rows of len(out)
// entries at stride bs in bd: out is cleared, then for x = 0, 4, 8, …
// while x+4 ≤ k, out += ((a0·b0 + a1·b1) + a2·b2) + a3·b3 (Axpy4, a_q =
// ai[x+q], b_q = B[x+q, :]) unless all four a_q are zero, then for each
// remaining x, out += ai[x]·B[x, :] (Axpy) unless ai[x] is zero. This order
// defines the bits of MulSmall.
func mulRow(out, ai, bd []float64, bs int) {
	clear(out)
	k := len(ai)
	x := 0
	for ; x+4 <= k; x += 4 {
		a0, a1, a2, a3 := ai[x], ai[x+1], ai[x+2], ai[x+3]
		if a0 == 0 && a1 == 0 && a2 == 0 && a3 == 0 {
			continue
		}
		Axpy4(out, a0, a1, a2, a3, bd[x*bs:], bd[(x+1)*bs:], bd[(x+2)*bs:], bd[(x+3)*bs:])
	}
	for ; x < k; x++ {
		ax := ai[x]
		if ax == 0 {
			continue
		}
		Axpy(ax, bd[x*bs:], out)
	}
}

// finite reports whether every entry of m is finite.
func finite(m blas64.General) bool {
	for i := 0; i < m.Rows; i++ {
		if !finiteSlice(m.Data[i*m.Stride : i*m.Stride+m.Cols]) {
			return false
		}
	}
	return true
}

// sparseBlock reports whether more than 3/5 of the groups of four entries
// of A that mulRow would see in rows [lo, hi) are all zero, judged on every
// 16th row. mulRow skips those groups and the tiles do not; mulRow is then
// the faster (on 30,000×100 · 100×100 the two break even near 3/5 with the
// tiles about twice as fast as mulRow on a dense A). Both give the same
// bits, so the choice affects the time only.
func sparseBlock(araw blas64.General, lo, hi int) bool {
	zero, all := 0, 0
	for i := lo; i < hi; i += 16 {
		ai := araw.Data[i*araw.Stride : i*araw.Stride+araw.Cols]
		for x := 0; x+4 <= len(ai); x += 4 {
			if ai[x] == 0 && ai[x+1] == 0 && ai[x+2] == 0 && ai[x+3] == 0 {
				zero++
			}
		}
		all += len(ai) / 4
	}
	return 5*zero > 3*all
}

// tileB is the number of entries of B (128 KiB) in the range of rows that
// mulTilesAVX2 passes every row tile of a block over before moving on, so
// that the range stays in the L2 cache (on the TNMF shape, 2,500×2,500 ·
// 2,500×60, ranges of 256 rows, 123 KiB, beat 64, 128, 512 and all 2,500).
const tileB = 16 << 10

// tileMask[c] selects the first c lanes of a mulTile4x4AVX2 tile.
var tileMask = [5][4]uint64{{}, {^uint64(0)}, {^uint64(0), ^uint64(0)}, {^uint64(0), ^uint64(0), ^uint64(0)}, {^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}}

// mulTilesAVX2 computes the rows lo ≤ i < end of dst = A·B, end = lo +
// 4⌊(hi−lo)/4⌋, and returns end: the remaining rows are left to mulRow. The
// rows are taken four at a time, the columns eight (two mulTile2x8AVX2) or,
// at the right edge, up to four at a time (mulTile4x4AVX2), the tile's
// entries held in registers over a range of rows of B (tileB entries),
// saved in dst between ranges. Each entry sees the operations of mulRow in
// the same order, with one difference: a group of four zeros of A (or a
// single zero after the last group) is added rather than skipped. For a
// finite B its sum is ±0, and adding ±0 leaves the entry's bits unchanged:
// the entry starts at +0 and never becomes −0 (under round-to-nearest, a
// sum is −0 only when both terms are), +0 + ±0 = +0, x + ±0 = x for any
// other x, NaN included. So the caller uses the tiles only for a finite B
// (0·∞ would be NaN), with j ≥ 4 (so that mulRow's Axpy4 and Axpy run the
// AVX2 kernels, whose operand order the tiles keep) and k ≥ 1.
func mulTilesAVX2(draw, araw, braw blas64.General, lo, hi int) int {
	ad, as := araw.Data, araw.Stride
	bd, bs := braw.Data, braw.Stride
	dd, ds := draw.Data, draw.Stride
	k, j := araw.Cols, braw.Cols
	end := lo + (hi-lo)&^3
	for i := lo; i < end; i++ {
		clear(dd[i*ds : i*ds+j])
	}
	k4 := k &^ 3
	kc := max(4, tileB/j&^3)
	for x0 := 0; ; x0 += kc {
		x1 := min(x0+kc, k4)
		groups, singles := (x1-x0)/4, 0
		if x1 == k4 {
			singles = k - k4
		}
		for i := lo; i < end; i += 4 {
			c := 0
			for ; c+8 <= j; c += 8 {
				mulTile2x8AVX2(groups, singles, &ad[i*as+x0], as, &bd[x0*bs+c], bs, &dd[i*ds+c], ds)
				mulTile2x8AVX2(groups, singles, &ad[(i+2)*as+x0], as, &bd[x0*bs+c], bs, &dd[(i+2)*ds+c], ds)
			}
			for ; c < j; c += 4 {
				mulTile4x4AVX2(groups, singles, &ad[i*as+x0], as, &bd[x0*bs+c], bs, &dd[i*ds+c], ds, &tileMask[min(4, j-c)])
			}
		}
		if x1 == k4 {
			return end
		}
	}
}

// Dot returns ⟨A, B⟩ = Σ_ij A_ij·B_ij = tr(AᵀB) for A and B of the same
// shape, summed with compensation (Sum) within fixed row blocks and over the
// blocks in block order: the same result for any number of workers, with a
// relative error of about u·Σ|A_ij B_ij| / |⟨A, B⟩| (u = 2⁻⁵³) from the
// rounding of the products alone.
func Dot(p *parallel.Pool, a, b *mat.Dense) float64 {
	n, k := a.Dims()
	if bn, bk := b.Dims(); bn != n || bk != k {
		panic(fmt.Sprintf("dense.Dot: shapes %d×%d and %d×%d", n, k, bn, bk))
	}
	araw, braw := a.RawMatrix(), b.RawMatrix()
	part := make([]Sum, parallel.Blocks(n, RowBlock))
	p.For(n, RowBlock, func(blk, lo, hi int) {
		var s Sum
		for i := lo; i < hi; i++ {
			s.AddProducts(araw.Data[i*araw.Stride:i*araw.Stride+k], braw.Data[i*braw.Stride:i*braw.Stride+k])
		}
		part[blk] = s
	})
	var total Sum
	for _, s := range part {
		total.AddSum(s)
	}
	return total.Value()
}

// SumAbs returns Σ|a_ij|, summed with compensation (Sum) within fixed row
// blocks, row-major within a block, and over the blocks in block order: the
// same result for any number of workers. It is the ℓ1 term of the RLSI and
// GRLSI objectives (RLSI Eq. 1, GMF Eq. 3).
func SumAbs(p *parallel.Pool, a *mat.Dense) float64 {
	r, c := a.Dims()
	raw := a.RawMatrix()
	part := make([]Sum, parallel.Blocks(r, RowBlock))
	p.For(r, RowBlock, func(b, lo, hi int) {
		var t Sum
		for i := lo; i < hi; i++ {
			t.AddAbs(raw.Data[i*raw.Stride : i*raw.Stride+c])
		}
		part[b] = t
	})
	var total Sum
	for _, t := range part {
		total.AddSum(t)
	}
	return total.Value()
}

// Sum is a compensated (Kahan–Babuška–Neumaier) accumulator: after adding
// x_1..x_n, Value() = Σx_i with an error of about u·|Σx_i| + n·u²·Σ|x_i|
// instead of the (n−1)·u·Σ|x_i| bound of plain summation. The zero value is
// an empty sum.
type Sum struct {
	s, c float64
}

// Add adds x.
func (s *Sum) Add(x float64) { s.s, s.c = neumaier(s.s, s.c, x) }

// AddProducts adds a[x]·b[x] for x = 0, 1, …, len(a)−1, in that order:
// the same result, bit for bit, as Add of each product. A loop of Add keeps
// the sum in memory (the compiler does not hold a struct whose address is
// taken in registers), so each term waits for the previous one's store;
// here the running pair lives in registers, about 2.8 times faster. b has
// at least len(a) entries.
func (s *Sum) AddProducts(a, b []float64) {
	sum, c := s.s, s.c
	b = b[:len(a)]
	for x, v := range a {
		sum, c = neumaier(sum, c, v*b[x])
	}
	s.s, s.c = sum, c
}

// AddAll adds a[x] for x = 0, 1, …, len(a)−1, in that order: Add of each,
// bit for bit, with the running pair in registers (see AddProducts).
func (s *Sum) AddAll(a []float64) {
	sum, c := s.s, s.c
	for _, v := range a {
		sum, c = neumaier(sum, c, v)
	}
	s.s, s.c = sum, c
}

// AddAbs adds |a[x]| for x = 0, 1, …, len(a)−1, in that order: Add of each,
// bit for bit, with the running pair in registers (see AddProducts).
func (s *Sum) AddAbs(a []float64) {
	sum, c := s.s, s.c
	for _, v := range a {
		sum, c = neumaier(sum, c, math.Abs(v))
	}
	s.s, s.c = sum, c
}

// neumaier returns the compensated pair (sum, c) with x added: t = sum + x,
// and the rounding error of that addition, (big − t) + small with big the
// addend of larger magnitude, added to c (Neumaier 1974).
func neumaier(sum, c, x float64) (float64, float64) {
	t := sum + x
	if math.Abs(sum) >= math.Abs(x) {
		c += (sum - t) + x
	} else {
		c += (x - t) + sum
	}
	return t, c
}

// AddSum adds another accumulator's total (its sum and its compensation).
func (s *Sum) AddSum(o Sum) {
	s.Add(o.s)
	s.Add(o.c)
}

// Value is the compensated total.
func (s Sum) Value() float64 { return s.s + s.c }

// ZeroFraction returns the fraction of entries of A that are exactly zero
// (the "sparsity" a Recorder reports), 0 for an empty matrix.
func ZeroFraction(p *parallel.Pool, a *mat.Dense) float64 {
	n, k := a.Dims()
	if n == 0 || k == 0 {
		return 0
	}
	araw := a.RawMatrix()
	part := make([]int, parallel.Blocks(n, RowBlock))
	p.For(n, RowBlock, func(b, lo, hi int) {
		z := 0
		for i := lo; i < hi; i++ {
			for _, v := range araw.Data[i*araw.Stride : i*araw.Stride+k] {
				if v == 0 {
					z++
				}
			}
		}
		part[b] = z
	})
	z := 0
	for _, c := range part {
		z += c
	}
	return float64(z) / (float64(n) * float64(k))
}

// FirstNonFinite returns the first (row-major) entry of A that is NaN or
// ±Inf, and ok = false when every entry is finite.
func FirstNonFinite(p *parallel.Pool, a *mat.Dense) (row, col int, ok bool) {
	n, k := a.Dims()
	araw := a.RawMatrix()
	first := make([]int, parallel.Blocks(n, RowBlock))
	p.For(n, RowBlock, func(b, lo, hi int) {
		first[b] = -1
		for i := lo; i < hi; i++ {
			for x, v := range araw.Data[i*araw.Stride : i*araw.Stride+k] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					first[b] = i*k + x
					return
				}
			}
		}
	})
	for _, f := range first {
		if f >= 0 {
			return f / k, f % k, true
		}
	}
	return 0, 0, false
}
