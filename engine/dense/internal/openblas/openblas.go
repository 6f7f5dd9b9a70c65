//go:build cblas

// Package openblas links Debian's OpenBLAS (libopenblas-dev) for the cblas
// build of topicmf: importing it sets OpenBLAS to one thread and makes it
// gonum's BLAS (blas64.Use with gonum.org/v1/netlib's cgo binding). One
// thread keeps the worker pool the one level of parallelism
// (docs/design.md, "Parallelism and determinism"):
// each BLAS call then runs on the goroutine that made it, and its result
// does not depend on the number of workers. It is a package of its own
// because a package using cgo cannot hold Go assembly (engine/dense's
// kernels).
package openblas

/*
#cgo LDFLAGS: -lopenblas
#include <cblas.h>
*/
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() {
	C.openblas_set_num_threads(1)
	blas64.Use(netlib.Implementation{})
}

// Threads is the number of threads OpenBLAS uses (1 after init).
func Threads() int { return int(C.openblas_get_num_threads()) }
