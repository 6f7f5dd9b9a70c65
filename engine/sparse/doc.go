// Package sparse holds compressed sparse row matrices with int32 indices,
// the kernels the models need, and Matrix Market input/output.
//
// A term-document matrix D (M×N) is kept both as CSR (row m = term m) and as
// its transpose (row n = document n), so that every product the models need
// is a row-parallel CSR × dense product with no reduction across blocks:
// D·V = MulDense(D, V) and (UᵀD)ᵀ = Dᵀ·U = MulDense(DT, U) (MulTDense
// names the second identity). Column j of D is row j of DT.
//
// Kernels (all parallel over fixed blocks of RowBlock rows through
// engine/parallel, reductions in block order, so results are bit-identical
// for any number of workers):
//   - MulDense / MulTDense: sparse × dense, 2·NNZ·K flops;
//   - FrobeniusSq / Frobenius: ‖A‖²_F with compensated summation;
//   - ResidualSq / ResidualSqParts: ‖A − UVᵀ‖²_F without forming UVᵀ,
//     = ‖A‖² − 2 tr(UᵀAV) + tr(UᵀU VᵀV), with its accuracy documented;
//   - row and column access: Row, RowDense, Col, ColDense, At.
//
// The dense kernels (Gram AᵀA, tall × small products, ⟨A, B⟩) live in
// engine/dense.
//
// Matrix Market (mm.go): ReadMM/WriteMM for sparse "coordinate" matrices
// (real, integer, pattern; general or symmetric, expanded) and
// ReadDenseMM/WriteDenseMM for dense "array" factors, written column-major
// with full-precision floats, so equal bits give byte-identical files.
// MMOptions bounds what the readers accept (rows, columns, values; by
// default DefaultMaxDim and DefaultMaxEntries) and checks every declared
// size against the input's byte size before anything is allocated.
package sparse
