// Package dense holds the dense kernels the models need on row-major factor
// matrices (one row per term or document): the Gram matrix AᵀA, the product
// of a tall matrix with a small one, the Frobenius inner product ⟨A, B⟩, a
// compensated accumulator, and factor statistics (fraction of zeros, first
// non-finite entry).
//
// Every kernel is parallel over fixed blocks of RowBlock rows through
// engine/parallel, and partial results are reduced in block order, so
// results are bit-identical for any number of workers. Inner loops are
// unrolled over four rows (Gram) or four columns (MulSmall) with slices of
// exactly the loop length, so the compiler removes their bounds checks.
//
// Row and column access to a factor use gonum directly: A.RawRowView(i) is
// row i without a copy (rows are contiguous), mat.Col(nil, j, A) copies
// column j.
//
// Multi-threaded BLAS is never called from here: the one pool of
// engine/parallel is the only source of parallelism.
package dense
