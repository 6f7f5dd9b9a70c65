package symnmf

import (
	"testing"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/tnmf"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkStepStackOverflow times the first iterations of PGD on the real
// StackOverflow corpus at the TNMF paper's size (16,407 documents, terms
// in at least 10 documents, tf-idf, K = 100), as
// experiments/tnmf2013 builds it; A is built once outside the timer. One
// benchmark op is 5 Steps from the same H⁽⁰⁾, with A stored (nnz(A)·K
// multiply-adds per product) or factored as ÃÃᵀ (what Fit uses).
//
//	TOPICMF_DATA=../shared/datasets go test ./engine/symnmf -run '^$' -bench StepStackOverflow -benchtime=3x
func BenchmarkStepStackOverflow(b *testing.B) {
	col, _ := testcorpus.Collection(b, "sttm-stackoverflow")
	c, _, err := text.Build(col, text.Bare(text.Options{MinDF: 10, Weighting: "tfidf"}))
	if err != nil {
		b.Fatal(err)
	}
	p := parallel.Default()
	o, err := Options{K: 100, Pool: p, Stopping: engine.DefaultStopping()}.resolve(c.Docs())
	if err != nil {
		b.Fatal(err)
	}
	a := tnmf.Cosine(p, c.DT, o.Storage)
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
