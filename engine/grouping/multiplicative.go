package grouping

import (
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// MultiplicativeRows sets dst = x ∗ (num + ε) / (den + ε) entrywise, the
// guarded multiplicative update of a non-negative factor x whose gradient
// has the positive part num and the negative part den (Group NMF, GMF
// Algorithm 5; GNMFNC). Each entry is the product first, then the division,
// as engine/nmf evaluates it (engine/solve.MultiplicativeStep divides
// first, so its bits differ). dst may be x.
func MultiplicativeRows(dst, x, num, den *mat.Dense, eps float64) {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		d, xs := dst.RawRowView(i)[:c], x.RawRowView(i)[:c]
		ns, ds := num.RawRowView(i)[:c], den.RawRowView(i)[:c]
		for j, xj := range xs {
			d[j] = xj * (ns[j] + eps) / (ds[j] + eps)
		}
	}
}

// MultiplicativeStep is MultiplicativeRows over fixed blocks of
// dense.RowBlock term rows on the pool (each row depends on itself alone,
// so the bits do not depend on the workers), then a check for a non-finite
// result: an *engine.NonFiniteError of the given step naming the first bad
// entry of dst, the matrix called name (engine.CheckFinite).
func MultiplicativeStep(p *parallel.Pool, dst, x, num, den *mat.Dense, eps float64, step, name string) error {
	r, c := x.Dims()
	p.For(r, dense.RowBlock, func(_, lo, hi int) {
		MultiplicativeRows(dst.Slice(lo, hi, 0, c).(*mat.Dense), x.Slice(lo, hi, 0, c).(*mat.Dense),
			num.Slice(lo, hi, 0, c).(*mat.Dense), den.Slice(lo, hi, 0, c).(*mat.Dense), eps)
	})
	return engine.CheckFinite(p, dst, step, name)
}

// CheckDocs returns an *engine.NonFiniteError of the given step when the
// compact class-major V (N×(Ks+Kc), a row per position) holds a NaN or Inf,
// naming the first bad entry by its document in corpus order.
func (l *Layout) CheckDocs(p *parallel.Pool, v *mat.Dense, step string) error {
	if r, c, bad := dense.FirstNonFinite(p, v); bad {
		return engine.NonFinite(step, "entry (document %d, topic %d) is %v", l.Order[r], c, v.At(r, c))
	}
	return nil
}
