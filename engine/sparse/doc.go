// Package sparse holds compressed sparse row matrices with int32 indices,
// the kernels the models need (sparse × dense products, Gram matrices) and
// Matrix Market input/output.
//
// A term-document matrix D (M×N) is kept both as CSR (row m = term m) and as
// its transpose (row n = document n), so that every product the models need
// is a row-parallel CSR × dense product with no reduction across blocks.
package sparse
