package sparse

import (
	"fmt"

	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// RowBlock is the number of rows per block in row-parallel kernels. It is a
// constant so that block boundaries never depend on the number of workers.
const RowBlock = 256

// MulDense sets dst = A·B for A (r×c, sparse) and B (c×k, dense), in
// parallel over fixed blocks of rows of A. Each output row depends on one
// row of A only, so the result is the same for any number of workers.
// dst must be r×k and must not alias B.
func MulDense(p *parallel.Pool, dst *mat.Dense, a *CSR, b *mat.Dense) {
	br, k := b.Dims()
	dr, dc := dst.Dims()
	if br != a.Cols || dr != a.Rows || dc != k {
		panic(fmt.Sprintf("sparse.MulDense: shapes %d×%d · %d×%d → %d×%d", a.Rows, a.Cols, br, k, dr, dc))
	}
	braw, draw := b.RawMatrix(), dst.RawMatrix()
	p.For(a.Rows, RowBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out := draw.Data[i*draw.Stride : i*draw.Stride+k]
			clear(out)
			for q := a.RowPtr[i]; q < a.RowPtr[i+1]; q++ {
				v := a.Val[q]
				row := braw.Data[int(a.ColIdx[q])*braw.Stride : int(a.ColIdx[q])*braw.Stride+k]
				for j, x := range row {
					out[j] += v * x
				}
			}
		}
	})
}
