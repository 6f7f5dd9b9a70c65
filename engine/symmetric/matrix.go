package symmetric

import (
	"fmt"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Storage selects how a similarity matrix is held.
type Storage int

const (
	// StorageAuto stores the matrix dense when its density (stored entries
	// over n²) is at least DenseThreshold, sparse otherwise. The default.
	StorageAuto Storage = iota
	// StorageSparse always stores CSR (12 bytes per stored entry).
	StorageSparse
	// StorageDense always stores a dense n×n matrix (8·n² bytes).
	StorageDense
)

// DenseThreshold is the density from which StorageAuto stores a matrix
// dense. A CSR entry costs 12 bytes (value and int32 column) against 8 for
// a dense one, so dense storage is smaller above density 2/3; the dense
// product S·U streams rows without indirection and is faster than the CSR
// product from about half density on. 0.5 takes the speed.
const DenseThreshold = 0.5

var storages = param.Enum[Storage]{Pkg: "symmetric", Type: "Storage", Noun: "storage",
	Names: []string{StorageAuto: "auto", StorageSparse: "sparse", StorageDense: "dense"}}

func (s Storage) String() string { return storages.String(s) }

// ParseStorage reads "auto" (or ""), "sparse" or "dense".
func ParseStorage(s string) (Storage, error) { return storages.Parse(s) }

// MarshalText is the name; it fails for a value that is not a Storage.
func (s Storage) MarshalText() ([]byte, error) { return storages.MarshalText(s) }

// UnmarshalText reads a name as ParseStorage does.
func (s *Storage) UnmarshalText(b []byte) error { return param.UnmarshalText(s, b, ParseStorage) }

// Matrix is a symmetric n×n non-negative matrix (a term or document
// similarity matrix) held sparse or dense, with the operations the
// symmetric factorizations need: S·U, ‖S‖²_F and the objective
// ‖S − UUᵀ‖²_F (Objective).
type Matrix struct {
	n   int
	nnz int
	sp  *sparse.CSR
	de  *mat.Dense
}

// NewSparseMatrix wraps a square CSR matrix (not copied). It panics if the
// matrix is not square (a programmer error); symmetry is the caller's
// promise.
func NewSparseMatrix(s *sparse.CSR) *Matrix {
	if s.Rows != s.Cols {
		panic(fmt.Sprintf("symmetric.NewSparseMatrix: %d×%d is not square", s.Rows, s.Cols))
	}
	return &Matrix{n: s.Rows, nnz: s.NNZ(), sp: s}
}

// NewDenseMatrix wraps a square dense matrix (not copied). nnz counts its
// non-zero entries.
func NewDenseMatrix(s *mat.Dense) *Matrix {
	r, c := s.Dims()
	if r != c {
		panic(fmt.Sprintf("symmetric.NewDenseMatrix: %d×%d is not square", r, c))
	}
	nnz := 0
	for i := 0; i < r; i++ {
		for _, v := range s.RawRowView(i) {
			if v != 0 {
				nnz++
			}
		}
	}
	return &Matrix{n: r, nnz: nnz, de: s}
}

// Size is n.
func (s *Matrix) Size() int { return s.n }

// IsDense reports whether the matrix is held dense.
func (s *Matrix) IsDense() bool { return s.de != nil }

// Sparse returns the CSR storage, or nil when the matrix is held dense.
func (s *Matrix) Sparse() *sparse.CSR { return s.sp }

// Dense returns the dense storage, or nil when the matrix is held sparse.
func (s *Matrix) Dense() *mat.Dense { return s.de }

// NNZ is the number of non-zero entries (stored entries when sparse).
func (s *Matrix) NNZ() int { return s.nnz }

// Density is NNZ / n² (0 for n = 0).
func (s *Matrix) Density() float64 {
	if s.n == 0 {
		return 0
	}
	return float64(s.nnz) / (float64(s.n) * float64(s.n))
}

// At returns entry (i, j).
func (s *Matrix) At(i, j int) float64 {
	if s.de != nil {
		return s.de.At(i, j)
	}
	return s.sp.At(i, j)
}

// MulDense sets dst = S·U for U n×k, in fixed row blocks (the same bits for
// any number of workers): sparse.MulDense or dense.MulSmall.
func (s *Matrix) MulDense(p *parallel.Pool, dst, u *mat.Dense) {
	if s.de != nil {
		dense.MulSmall(p, dst, s.de, u)
		return
	}
	sparse.MulDense(p, dst, s.sp, u)
}

// FrobeniusSq is ‖S‖²_F, a compensated sum in fixed blocks.
func (s *Matrix) FrobeniusSq(p *parallel.Pool) float64 {
	if s.de != nil {
		return dense.Dot(p, s.de, s.de)
	}
	return sparse.FrobeniusSq(p, s.sp)
}

// Sum is Σ_ij S_ij, compensated within fixed blocks of block rows and the
// block sums added in block order, so it is the same bits for any pool; the
// block size fixes the rounding, and a caller keeps the one its results
// were pinned with.
func (s *Matrix) Sum(p *parallel.Pool, block int) float64 {
	part := make([]dense.Sum, parallel.Blocks(s.n, block))
	p.For(s.n, block, func(b, lo, hi int) {
		var t dense.Sum
		for i := lo; i < hi; i++ {
			var row []float64
			if s.de != nil {
				row = s.de.RawRowView(i)
			} else {
				_, row = s.sp.Row(i)
			}
			t.AddAll(row)
		}
		part[b] = t
	})
	var tot dense.Sum
	for _, t := range part {
		tot.AddSum(t)
	}
	return tot.Value()
}

// Bytes is the memory held by the storage.
func (s *Matrix) Bytes() int64 {
	if s.de != nil {
		return 8 * int64(s.n) * int64(s.n)
	}
	return 12*int64(s.nnz) + 8*int64(s.n+1)
}

// Objective returns ‖S − UUᵀ‖²_F from its parts, without forming UUᵀ:
//
//	‖S − UUᵀ‖²_F = ‖S‖²_F − 2·⟨U, SU⟩ + ⟨UᵀU, UᵀU⟩,
//
// given normS2 = ‖S‖²_F, SU = S·U and G = UᵀU (sparse.ResidualSqParts with
// V = U; compensated sums in fixed blocks). It is the objective of the
// symmetric factorizations: TNMF's L(U) (Liu, Cheng, Wang, SDM 2013,
// Eq. 3.1) and SymNMF's f(H) (Kuang, Ding, Park, SDM 2012, Eq. 1.2).
func Objective(p *parallel.Pool, normS2 float64, u, su, g *mat.Dense) float64 {
	return sparse.ResidualSqParts(p, normS2, u, su, g, g)
}
