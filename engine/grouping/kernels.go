package grouping

import (
	"fmt"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// The rank-one and row updates of these kernels, y += a·x, go through
// dense.Axpy: AVX2 on machines that have it, each element's multiply and add
// rounded once in the plain loop's order, so the results are the same bits
// as the scalar loop's on every machine.

// ClassGrams returns, for every class p, the k×k Gram matrix A_pᵀA_p of the
// rows of A (N×k, class-major order) at the positions of class p: with A
// the stored-transposed V = [Hᵀ Wᵀ] this is V_pV_pᵀ of GMF, whose blocks are
// H_pH_pᵀ, H_pW_pᵀ and W_pW_pᵀ (GMF Algorithms 2–3, lines 1–2).
//
// The rows of each class are cut into units of dense.RowBlock rows from the
// class's offset (Layout.Units); each unit's Gram is dense.Gram of its rows,
// and a class's units are added in unit order. For a class that starts at
// position 0 this is exactly dense.Gram of the class's rows (same blocks,
// same order of additions), which is what lets a one-class group model
// reproduce RLSI/NMF bit for bit. An empty class gets a zero matrix.
func (l *Layout) ClassGrams(p *parallel.Pool, a *mat.Dense) []*mat.Dense {
	n, k := a.Dims()
	if n != l.N {
		panic(fmt.Sprintf("grouping.ClassGrams: A has %d rows, want N = %d", n, l.N))
	}
	units := l.Units(dense.RowBlock)
	part := make([]*mat.Dense, len(units))
	p.For(len(units), 1, func(b, _, _ int) {
		u := units[b]
		g := mat.NewDense(k, k, nil)
		dense.Gram(p, g, a.Slice(u.Lo, u.Hi, 0, k).(*mat.Dense))
		part[b] = g
	})
	out := make([]*mat.Dense, l.P)
	for c := range out {
		out[c] = mat.NewDense(k, k, nil)
	}
	for b, u := range units {
		dst := out[u.Class].RawMatrix()
		src := part[b].RawMatrix()
		for x := 0; x < k; x++ {
			d := dst.Data[x*dst.Stride : x*dst.Stride+k]
			s := src.Data[x*src.Stride : x*src.Stride+k]
			for y := range d {
				d[y] += s[y]
			}
		}
	}
	return out
}

// MulBlockDiag sets dst = [D_1W_1ᵀ, …, D_PW_Pᵀ] (M × P·k): for term row m
// and class c, dst[m, c·k:(c+1)·k] = Σ_{n ∈ class c} d_mn · w_n, where d is
// the M×N term-document matrix in class-major order (Layout.D) and w is
// N×k (row n = w_n, class-major). This is the sparse part of R_p (GMF
// Algorithm 3 line 2) and of the numerator of the U_p update (Algorithm 5
// line 9) for every class in one pass over D: rows are processed in fixed
// blocks of sparse.RowBlock and each output row depends on its row of D
// alone, so the work is balanced whatever the class sizes and the result is
// the same for any number of workers. Within a row, entries are added in
// storage order. 2·NNZ(D)·k flops.
func (l *Layout) MulBlockDiag(p *parallel.Pool, dst *mat.Dense, w *mat.Dense) {
	d := l.D
	wn, k := w.Dims()
	if r, c := dst.Dims(); r != d.Rows || c != l.P*k || wn != d.Cols {
		panic(fmt.Sprintf("grouping.MulBlockDiag: D %d×%d, W %d×%d, dst %d×%d (want %d×%d)", d.Rows, d.Cols, wn, k, r, c, d.Rows, l.P*k))
	}
	wraw, draw := w.RawMatrix(), dst.RawMatrix()
	cls := l.ClassOf
	p.For(d.Rows, sparse.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := draw.Data[i*draw.Stride : i*draw.Stride+l.P*k]
			clear(out)
			s, e := d.RowPtr[i], d.RowPtr[i+1]
			idx, val := d.ColIdx[s:e], d.Val[s:e]
			for q, j := range idx {
				v := val[q]
				c := int(cls[j])
				dense.Axpy(v, wraw.Data[int(j)*wraw.Stride:], out[c*k:c*k+k])
			}
		}
	})
}

// CrossProduct sets dst = AᵀB (ka×kb) for A (r×ka) and B (r×kb), e.g.
// U_0ᵀ[U_1, …, U_P], the off-diagonal blocks of Ũ_pᵀŨ_p (GMF Algorithm 4
// line 1). Rows are summed in fixed blocks of dense.RowBlock
// (dense.CrossRows: in increasing row order, skipping zero entries of A, in
// AVX2 register tiles where available with the same bits), and block
// partials are added in block order: the same result for any number of
// workers.
func CrossProduct(p *parallel.Pool, dst, a, b *mat.Dense) {
	r, ka := a.Dims()
	rb, kb := b.Dims()
	if dr, dc := dst.Dims(); rb != r || dr != ka || dc != kb {
		panic(fmt.Sprintf("grouping.CrossProduct: A %d×%d, B %d×%d, dst %d×%d", r, ka, rb, kb, dr, dc))
	}
	araw, braw := a.RawMatrix(), b.RawMatrix()
	part := make([][]float64, parallel.Blocks(r, dense.RowBlock))
	p.For(r, dense.RowBlock, func(blk, lo, hi int) {
		g := make([]float64, ka*kb)
		dense.CrossRows(g, araw, braw, lo, hi)
		part[blk] = g
	})
	dense.AddBlocks(dst, part)
}

// BlockGrams sets dst[c] = A_cᵀA_c (k×k) for the column blocks
// A_c = A[:, c·k:(c+1)·k] of A (r × P·k), e.g. U_pᵀU_p for every class from
// [U_1, …, U_P]. Rows are summed in fixed blocks of dense.RowBlock (zero
// entries skipped) and block partials added in block order; each result is
// exactly symmetric (upper triangle computed, then mirrored).
func BlockGrams(p *parallel.Pool, dst []*mat.Dense, a *mat.Dense, k int) {
	r, cols := a.Dims()
	np := len(dst)
	if cols != np*k {
		panic(fmt.Sprintf("grouping.BlockGrams: A is %d×%d, want %d blocks of %d columns", r, cols, np, k))
	}
	araw := a.RawMatrix()
	part := make([][]float64, parallel.Blocks(r, dense.RowBlock))
	p.For(r, dense.RowBlock, func(blk, lo, hi int) {
		g := make([]float64, np*k*k)
		for i := lo; i < hi; i++ {
			row := araw.Data[i*araw.Stride : i*araw.Stride+cols]
			for c := 0; c < np; c++ {
				s := row[c*k : c*k+k]
				gc := g[c*k*k : (c+1)*k*k]
				for x, sx := range s {
					if sx == 0 {
						continue
					}
					dense.Axpy(sx, s[x:], gc[x*k+x:x*k+k])
				}
			}
		}
		part[blk] = g
	})
	for c, d := range dst {
		if dr, dc := d.Dims(); dr != k || dc != k {
			panic(fmt.Sprintf("grouping.BlockGrams: dst[%d] is %d×%d, want %d×%d", c, dr, dc, k, k))
		}
		class := make([][]float64, len(part))
		for b, g := range part {
			class[b] = g[c*k*k : (c+1)*k*k]
		}
		dense.AddBlocks(d, class)
		dense.MirrorUpper(d)
	}
}

// MulBlockDiagDense sets dst[i, c·k:(c+1)·k] = A[i, c·k:(c+1)·k]·B_c for A
// and dst r × P·k and B_c k×k: the product of A with the block-diagonal
// matrix diag(B_1, …, B_P), e.g. [U_1S_1, …, U_PS_P] (the first part of the
// denominator of GMF Algorithm 5 line 9). Row-parallel over fixed blocks;
// in each segment the terms are added in increasing column of A.
func MulBlockDiagDense(p *parallel.Pool, dst, a *mat.Dense, b []*mat.Dense) {
	r, cols := a.Dims()
	np := len(b)
	if np == 0 {
		return
	}
	k, _ := b[0].Dims()
	if dr, dc := dst.Dims(); cols != np*k || dr != r || dc != cols {
		panic(fmt.Sprintf("grouping.MulBlockDiagDense: A %d×%d, %d blocks of %d, dst %d×%d", r, cols, np, k, dr, dc))
	}
	araw, draw := a.RawMatrix(), dst.RawMatrix()
	braws := make([]blas64.General, np)
	for c, bc := range b {
		braws[c] = bc.RawMatrix()
	}
	p.For(r, dense.RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			row := araw.Data[i*araw.Stride : i*araw.Stride+cols]
			out := draw.Data[i*draw.Stride : i*draw.Stride+cols]
			for c := 0; c < np; c++ {
				s := row[c*k : c*k+k]
				o := out[c*k : c*k+k]
				clear(o)
				bd, bs := braws[c].Data, braws[c].Stride
				for x, sx := range s {
					if sx == 0 {
						continue
					}
					dense.Axpy(sx, bd[x*bs:], o)
				}
			}
		}
	})
}

// ClassResidualSq is the loss of GMF Eq. 3 and Eq. 9,
//
//	Σ_p ‖D_p − Ũ_pV_p‖²_F = (‖D‖²_F − 2·cross) + Σ_p ⟨V_pV_pᵀ, Ũ_pᵀŨ_p⟩,
//
// from dnorm2 = ‖D‖²_F, cross = Σ_p ⟨Ũ_pV_p, D_p⟩, the class Grams g
// (ClassGrams) and the topic Grams utu (TopicGrams), their inner products
// (dense.Dot) added in class order. Rounding can take it below 0; it is
// then 0 (see sparse.ResidualSqParts).
func ClassResidualSq(p *parallel.Pool, dnorm2, cross float64, g, utu []*mat.Dense) float64 {
	s := 0.0
	for q, gq := range g {
		s += dense.Dot(p, gq, utu[q])
	}
	f := (dnorm2 - 2*cross) + s
	if f < 0 {
		return 0
	}
	return f
}

// TopicGrams sets utu[p] = Ũ_pᵀŨ_p = [[U0ᵀU0, U0ᵀU_p], [U_pᵀU0, U_pᵀU_p]]
// ((Ks+Kc)×(Ks+Kc)) for every class p, where U = [U0 | U_1 … U_P] is
// M × (Ks + P·Kc) (GMF Algorithm 4 line 1, Algorithm 5 line 10), from one
// dense.Gram of U0, one CrossProduct U0ᵀ[U_1 … U_P] and the BlockGrams
// U_pᵀU_p. With Kc = 0 every utu[p] is dense.Gram(U0), bit for bit.
func TopicGrams(p *parallel.Pool, u *mat.Dense, ks, kc int, utu []*mat.Dense) {
	m, _ := u.Dims()
	np := len(utu)
	kt := ks + kc
	var g0, x *mat.Dense
	var bg []*mat.Dense
	if ks > 0 {
		g0 = mat.NewDense(ks, ks, nil)
		dense.Gram(p, g0, u.Slice(0, m, 0, ks).(*mat.Dense))
	}
	if kc > 0 && np > 0 {
		uc := u.Slice(0, m, ks, ks+np*kc).(*mat.Dense)
		bg = make([]*mat.Dense, np)
		for q := range bg {
			bg[q] = mat.NewDense(kc, kc, nil)
		}
		BlockGrams(p, bg, uc, kc)
		if ks > 0 {
			x = mat.NewDense(ks, np*kc, nil)
			CrossProduct(p, x, u.Slice(0, m, 0, ks).(*mat.Dense), uc)
		}
	}
	for q, t := range utu {
		if ks > 0 {
			t.Slice(0, ks, 0, ks).(*mat.Dense).Copy(g0)
		}
		if kc > 0 {
			t.Slice(ks, kt, ks, kt).(*mat.Dense).Copy(bg[q])
		}
		if ks > 0 && kc > 0 {
			xq := x.Slice(0, ks, q*kc, (q+1)*kc)
			t.Slice(0, ks, ks, kt).(*mat.Dense).Copy(xq)
			t.Slice(ks, kt, 0, ks).(*mat.Dense).Copy(xq.T())
		}
	}
}
