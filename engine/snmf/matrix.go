package snmf

import (
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Matrix is the data A (M×N) an ANLS factorization approximates: the two
// products the updates need and its squared Frobenius norm. Sparse serves a
// corpus's term-document matrix, Dense a dense matrix (the joint
// topic-document model's X⁽³⁾, which has negative entries).
type Matrix interface {
	Dims() (m, n int)
	// MulV sets dst (M×K) = A V for V (N×K).
	MulV(p *parallel.Pool, dst, v *mat.Dense)
	// MulTU sets dst (N×K) = Aᵀ U for U (M×K).
	MulTU(p *parallel.Pool, dst, u *mat.Dense)
	// FrobeniusSq is ‖A‖²_F.
	FrobeniusSq(p *parallel.Pool) float64
}

// Sparse is a CSR matrix A with its transpose.
type Sparse struct{ A, AT *sparse.CSR }

func (s Sparse) Dims() (int, int)                          { return s.A.Rows, s.A.Cols }
func (s Sparse) MulV(p *parallel.Pool, dst, v *mat.Dense)  { sparse.MulDense(p, dst, s.A, v) }
func (s Sparse) MulTU(p *parallel.Pool, dst, u *mat.Dense) { sparse.MulDense(p, dst, s.AT, u) }
func (s Sparse) FrobeniusSq(p *parallel.Pool) float64      { return sparse.FrobeniusSq(p, s.A) }

// Dense is a dense matrix A with its transpose AT (both row-major; the
// caller keeps them consistent).
type Dense struct{ A, AT *mat.Dense }

func (d Dense) Dims() (int, int)                          { return d.A.Dims() }
func (d Dense) MulV(p *parallel.Pool, dst, v *mat.Dense)  { dense.MulSmall(p, dst, d.A, v) }
func (d Dense) MulTU(p *parallel.Pool, dst, u *mat.Dense) { dense.MulSmall(p, dst, d.AT, u) }
func (d Dense) FrobeniusSq(p *parallel.Pool) float64      { return dense.Dot(p, d.A, d.A) }
