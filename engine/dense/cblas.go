//go:build cblas

package dense

import _ "github.com/topicmf/topicmf/engine/dense/internal/openblas"

// With the cblas build tag, dense BLAS runs in single-threaded OpenBLAS
// (engine/dense/internal/openblas): every gonum mat product, and the row
// blocks of Gram and MulSmall (gramBlockBLAS, mulBlockBLAS). Each block is
// one BLAS call on the goroutine that runs it, so results stay bit-identical
// for any number of workers within this build; they differ from the pure-Go
// build's in the last bits (OpenBLAS sums in its own order, with FMA).
const useBLAS = true
