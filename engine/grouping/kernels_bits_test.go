package grouping

import (
	"testing"

	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// The plain loops the kernels had before they called dense.Axpy: the
// references of TestKernelsPlainLoopBits.

func plainCrossProduct(dst, a, b *mat.Dense) {
	r, ka := a.Dims()
	_, kb := b.Dims()
	var part [][]float64
	for lo := 0; lo < r; lo += dense.RowBlock {
		g := make([]float64, ka*kb)
		for i := lo; i < min(lo+dense.RowBlock, r); i++ {
			for x := 0; x < ka; x++ {
				ax := a.At(i, x)
				if ax == 0 {
					continue
				}
				for y := 0; y < kb; y++ {
					g[x*kb+y] += ax * b.At(i, y)
				}
			}
		}
		part = append(part, g)
	}
	dense.AddBlocks(dst, part)
}

func plainBlockGrams(dst []*mat.Dense, a *mat.Dense, k int) {
	r, _ := a.Dims()
	for c, d := range dst {
		var part [][]float64
		for lo := 0; lo < r; lo += dense.RowBlock {
			g := make([]float64, k*k)
			for i := lo; i < min(lo+dense.RowBlock, r); i++ {
				for x := 0; x < k; x++ {
					sx := a.At(i, c*k+x)
					if sx == 0 {
						continue
					}
					for y := x; y < k; y++ {
						g[x*k+y] += sx * a.At(i, c*k+y)
					}
				}
			}
			part = append(part, g)
		}
		dense.AddBlocks(d, part)
		dense.MirrorUpper(d)
	}
}

func plainMulBlockDiagDense(dst, a *mat.Dense, b []*mat.Dense) {
	r, _ := a.Dims()
	k, _ := b[0].Dims()
	for i := 0; i < r; i++ {
		for c := range b {
			o := make([]float64, k)
			for x := 0; x < k; x++ {
				sx := a.At(i, c*k+x)
				if sx == 0 {
					continue
				}
				for y := range o {
					o[y] += sx * b[c].At(x, y)
				}
			}
			for y, v := range o {
				dst.Set(i, c*k+y, v)
			}
		}
	}
}

func plainMulBlockDiag(l *Layout, dst, w *mat.Dense) {
	_, k := w.Dims()
	for i := 0; i < l.D.Rows; i++ {
		out := make([]float64, l.P*k)
		idx, val := l.D.Row(i)
		for q, j := range idx {
			c := int(l.ClassOf[j])
			for y := 0; y < k; y++ {
				out[c*k+y] += val[q] * w.At(int(j), y)
			}
		}
		for y, v := range out {
			dst.Set(i, y, v)
		}
	}
}

// TestKernelsPlainLoopBits: every kernel gives the plain loops' bits, at
// widths that use dense.Axpy's vector body and its scalar tail (k = 7, 13)
// and below its vector width (k = 3), with zeros and negative zeros in the
// inputs.
func TestKernelsPlainLoopBits(t *testing.T) {
	c := corpus(t, 1100, []int{0, 1, 2, 3, 1, 0, 2, 2, 3, 1, 0, 0, 3, 2, 1}, 4, 9)
	l, err := New(c, "test")
	if err != nil {
		t.Fatal(err)
	}
	p := parallel.NewPool(2)
	for _, k := range []int{3, 7, 13} {
		w := randDense(l.N, k, uint64(k), 0.3)
		a, b := randDense(l.M, 5, uint64(k)+1, 0.5), randDense(l.M, l.P*k, uint64(k)+2, 0.4)
		b.Set(3, 1, negZero())
		a.Set(2, 0, negZero())

		got, want := mat.NewDense(l.M, l.P*k, nil), mat.NewDense(l.M, l.P*k, nil)
		l.MulBlockDiag(p, got, w)
		plainMulBlockDiag(l, want, w)
		checkBits(t, k, "MulBlockDiag", got, want)

		gcp, wcp := mat.NewDense(5, l.P*k, nil), mat.NewDense(5, l.P*k, nil)
		CrossProduct(p, gcp, a, b)
		plainCrossProduct(wcp, a, b)
		checkBits(t, k, "CrossProduct", gcp, wcp)

		gbg, wbg := make([]*mat.Dense, l.P), make([]*mat.Dense, l.P)
		for q := range gbg {
			gbg[q], wbg[q] = mat.NewDense(k, k, nil), mat.NewDense(k, k, nil)
		}
		BlockGrams(p, gbg, b, k)
		plainBlockGrams(wbg, b, k)
		for q := range gbg {
			checkBits(t, k, "BlockGrams", gbg[q], wbg[q])
		}

		gmd, wmd := mat.NewDense(l.M, l.P*k, nil), mat.NewDense(l.M, l.P*k, nil)
		MulBlockDiagDense(p, gmd, b, gbg)
		plainMulBlockDiagDense(wmd, b, gbg)
		checkBits(t, k, "MulBlockDiagDense", gmd, wmd)
	}
}

func negZero() float64 { z := 0.0; return -z }

func checkBits(t *testing.T, k int, what string, got, want *mat.Dense) {
	t.Helper()
	if !matcmp.BitsEqual(got, want) {
		t.Errorf("k = %d: %s differs from the plain loop's bits", k, what)
	}
}
