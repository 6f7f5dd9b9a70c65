// Package symmetric holds the symmetric non-negative similarity matrices
// that the symmetric factorizations S ≈ UUᵀ work on, and their kernels:
//
//   - Matrix: an n×n symmetric matrix held sparse (CSR) or dense by its
//     density (Storage, DenseThreshold), with S·U and ‖S‖²_F;
//   - Cosine: the cosine similarities of the rows of a sparse matrix,
//     scale-safe (NormalizeRows normalizes as LAPACK's dnrm2, without
//     overflow or underflow);
//   - Product: the sparse product A·B (Gustavson), used for A·Aᵀ;
//   - Objective: ‖S − UUᵀ‖²_F from its parts.
//
// Its users are TNMF (engine/tnmf: the term correlation matrix, Liu, Cheng,
// Wang, SDM 2013, §3.1, factorized by Eq. 3.1) and SymNMF (engine/symnmf:
// the document cosine matrix, Kuang, Ding, Park, SDM 2012). Every kernel
// works in fixed row blocks and adds in a fixed order, so results are the
// same, bit for bit, for any number of workers.
package symmetric
