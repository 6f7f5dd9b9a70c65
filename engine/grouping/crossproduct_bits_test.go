package grouping

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/cputime"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// axpyCrossProduct is CrossProduct as it was before dense.CrossRows: within
// each block of dense.RowBlock rows, row by row, g[x, :] += A[i, x]·B[i, :]
// by dense.Axpy for every x with A[i, x] ≠ 0; the reference of
// TestCrossProductBits.
func axpyCrossProduct(p *parallel.Pool, dst, a, b *mat.Dense) {
	r, ka := a.Dims()
	_, kb := b.Dims()
	araw, braw := a.RawMatrix(), b.RawMatrix()
	part := make([][]float64, parallel.Blocks(r, dense.RowBlock))
	p.For(r, dense.RowBlock, func(blk, lo, hi int) {
		g := make([]float64, ka*kb)
		for i := lo; i < hi; i++ {
			ar := araw.Data[i*araw.Stride : i*araw.Stride+ka]
			br := braw.Data[i*braw.Stride : i*braw.Stride+kb]
			for x, ax := range ar {
				if ax == 0 {
					continue
				}
				dense.Axpy(ax, br, g[x*kb:x*kb+kb])
			}
		}
		part[blk] = g
	})
	dense.AddBlocks(dst, part)
}

// crossInput is an r×c view (column offset 1 of an r × (c+3) matrix, so
// that the stride is not the width) of normal entries with a fraction of
// zeros (a quarter, or 70 % when sparse), negative zeros and denormals,
// and, with special, a few ±∞ and NaNs of distinct payloads (so that a
// change in operand order shows).
func crossInput(r, c int, seed uint64, special, sparse bool) *mat.Dense {
	zeros := 0.25
	if sparse {
		zeros = 0.7
	}
	rnd := engine.NewRand(seed)
	m := mat.NewDense(r+1, c+3, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			var v float64
			switch u := rnd.Float64(); {
			case u < zeros:
			case u < zeros+0.05:
				v = math.Copysign(0, -1)
			case u < zeros+0.1:
				v = float64(rnd.IntN(7)-3) * 5e-324
			case u < zeros+0.13:
				v = rnd.NormFloat64() * 1e-160 // products underflow
			default:
				v = rnd.NormFloat64()
			}
			if special && rnd.Float64() < 0.002 {
				switch rnd.IntN(3) {
				case 0:
					v = math.Inf(1 - 2*rnd.IntN(2))
				default:
					v = math.Float64frombits(0x7ff8000000000000 | uint64(1+rnd.IntN(1<<20)) | uint64(rnd.IntN(2))<<63)
				}
			}
			m.Set(i, j+1, v)
		}
	}
	if r == 0 { // gonum slices no empty views; its raw matrices may be empty
		var e mat.Dense
		e.SetRawMatrix(blas64.General{Rows: 0, Cols: c, Stride: c + 3, Data: m.RawMatrix().Data[1:]})
		return &e
	}
	return m.Slice(0, r, 1, c+1).(*mat.Dense)
}

// TestCrossProductBits: CrossProduct gives axpyCrossProduct's bits, NaN
// payloads included, over row counts within one block and across blocks,
// widths below, at and above the tiles' 4 and 8 with every remainder, the
// GNMFNC widths (32, 832), B with and without ±∞ and NaN, A with them, and
// A mostly zero (the row loop) in one case of five.
func TestCrossProductBits(t *testing.T) {
	p := parallel.NewPool(2)
	kas := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 32}
	var kbs []int
	for kb := 1; kb <= 27; kb++ {
		kbs = append(kbs, kb)
	}
	check := func(r, ka, kb int, seed uint64, specialA, specialB bool) {
		a := crossInput(r, ka, seed, specialA, seed%10 == 3)
		b := crossInput(r, kb, seed+1, specialB, false)
		got, want := mat.NewDense(ka, kb, nil), mat.NewDense(ka, kb, nil)
		CrossProduct(p, got, a, b)
		axpyCrossProduct(p, want, a, b)
		if !matcmp.BitsEqual(got, want) {
			t.Errorf("r = %d, ka = %d, kb = %d, seed %d, special A %v B %v: bits differ", r, ka, kb, seed, specialA, specialB)
		}
	}
	seed := uint64(1)
	for r := 0; r <= 40; r++ {
		for _, ka := range kas {
			for _, kb := range kbs {
				seed += 2
				check(r, ka, kb, seed, false, seed%6 == 1)
			}
		}
	}
	for _, r := range []int{1030, 2100} {
		for _, ka := range kas {
			for _, kb := range kbs {
				seed += 2
				check(r, ka, kb, seed, false, false)
				check(r, ka, kb, seed, false, true)
			}
		}
	}
	for _, r := range []int{1, 3, 17, 40, 1030, 2100} {
		for _, ka := range []int{1, 5, 13, 32} {
			seed += 2
			check(r, ka, 832, seed, false, false)
			check(r, ka, 832, seed, false, true)
			check(r, ka, 832, seed, true, false)
			check(r, 832, ka, seed, false, false)
		}
	}
	// ±∞ and NaN in A alone (all of B finite) are not skipped either way.
	for _, kb := range []int{4, 8, 13} {
		seed += 2
		check(100, 7, kb, seed, true, false)
	}
}

// BenchmarkCrossProduct is U_qᵀ[U_1 … U_P] of the GNMFNC regularizer at
// K = 32 topics per category and P = 26 categories: A 20,000×32 and B
// 20,000×832 (non-negative, dense), one worker.
func BenchmarkCrossProduct(b *testing.B) {
	const r, ka, kb = 20000, 32, 26 * 32
	a, bb := matcmp.RandomDense(r, ka, 1), matcmp.RandomDense(r, kb, 2)
	dst := mat.NewDense(ka, kb, nil)
	matcmp.InPool(1, func(p *parallel.Pool) {
		b.ResetTimer()
		cpu0 := cputime.Seconds()
		for i := 0; i < b.N; i++ {
			CrossProduct(p, dst, a, bb)
		}
		b.ReportMetric(2*float64(r)*ka*kb*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		cputime.ReportPerOp(b, cpu0)
	})
}
