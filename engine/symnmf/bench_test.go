package symnmf

import (
	"testing"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/symmetric"
	"github.com/topicmf/topicmf/engine/synthetic"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkStepShortTexts times the first iterations of PGD on a synthetic
// short-text corpus of StackOverflow's size in the TNMF experiments (16,407
// documents of about 5 distinct terms, 20 classes; engine/synthetic, raw
// counts — the cosine matrix ignores the weighting's scale per document);
// A is built once outside the timer. One benchmark op is 5 Steps from the
// same H⁽⁰⁾, with A stored (nnz(A)·K multiply-adds per product) or
// factored as ÃÃᵀ (what Fit uses), at K = 100.
//
//	go test ./engine/symnmf -run '^$' -bench StepShortTexts -benchtime=3x
//
// The sizes measured on the real StackOverflow collection are quoted at
// factored (pgd.go).
func BenchmarkStepShortTexts(b *testing.B) {
	c, _, err := synthetic.Generate(synthetic.Config{Name: "short-texts", M: 2500, N: 16407, P: 20, Ks: 5, Kc: 1,
		Length: synthetic.LengthSpec{Dist: synthetic.LengthPoisson, Mean: 5}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	p := parallel.Default()
	o, err := Options{K: 100, Pool: p}.resolve(c.Docs())
	if err != nil {
		b.Fatal(err)
	}
	a := symmetric.Cosine(p, c.DT, o.Storage)
	normA2 := a.FrobeniusSq(p)
	n, k := c.Docs(), o.K
	h0 := mat.NewDense(n, k, nil)
	initH(h0, o, matrixMean(p, a))
	cur, next := newState(n, k), newState(n, k)
	grad := mat.NewDense(n, k, nil)
	fa := newFactored(c.DT, a.NNZ(), k)
	if fa == nil {
		b.Fatal("factored A is not cheaper")
	}
	b.Logf("N=%d M=%d nnz(A)=%d nnz(Ã)=%d", n, c.Terms(), a.NNZ(), len(fa.x.Val))
	for _, bc := range []struct {
		name string
		op   multiplier
	}{{"stored", a}, {"factored", fa}} {
		b.Run(bc.name, func(b *testing.B) {
			for it := 0; it < b.N; it++ {
				cur.h.Copy(h0)
				cur.eval(p, bc.op, normA2)
				for t := 0; t < 5; t++ {
					alpha, ok := step(p, bc.op, normA2, cur, next, grad, o.Sigma, o.Beta)
					if !ok {
						b.Fatal("no step")
					}
					if it == 0 {
						b.Logf("step %d: α = %g f = %.17g", t, alpha, next.f)
					}
					cur, next = next, cur
				}
			}
		})
	}
}
