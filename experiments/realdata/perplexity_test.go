package realdata

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/metrics/perplexity"
)

// heldOutSplit keeps every fifth document of c out of training: it
// returns the training corpus and the held-out documents as rows.
func heldOutSplit(t *testing.T, c *engine.Corpus) (*engine.Corpus, *sparse.CSR) {
	t.Helper()
	var train, held []sparse.Triplet
	var ids []string
	seen := make([]bool, c.Terms()) // in some training document
	for d := range c.Docs() {
		if d%5 != 4 {
			idx, _ := c.DT.Row(d)
			for _, w := range idx {
				seen[w] = true
			}
		}
	}
	for d := range c.Docs() {
		idx, val := c.DT.Row(d)
		if d%5 == 4 {
			// Terms of no training document are out of the model's
			// vocabulary, as with a vocabulary fitted on the training
			// documents: PLSI gives them probability 0.
			r := d / 5
			for i, w := range idx {
				if seen[w] {
					held = append(held, sparse.Triplet{Row: r, Col: int(w), Val: val[i]})
				}
			}
			continue
		}
		col := len(ids)
		ids = append(ids, c.DocIDs[d])
		for i, w := range idx {
			train = append(train, sparse.Triplet{Row: int(w), Col: col, Val: val[i]})
		}
	}
	d, err := sparse.FromTriplets(c.Terms(), len(ids), train)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := engine.NewCorpus(c.Name+"-train", c.Vocab, d, ids, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := sparse.FromTriplets(c.Docs()/5, c.Terms(), held)
	if err != nil {
		t.Fatal(err)
	}
	return tc, x
}

// TestHeldOutPerplexity fits Gibbs LDA, online LDA and PLSI (K = 10) on
// four fifths of Cranfield's documents (term counts) and scores the fifth
// by document completion, and online LDA also by its variational bound.
// Every model must beat the uniform model (perplexity M) and its own
// topics with a uniform θ (what folding in the observed half adds); the
// values are pinned (the fits are deterministic for their seeds).
func TestHeldOutPerplexity(t *testing.T) {
	col, _ := collection(t, "cranfield")
	c, _, _, err := text.Fit(col, text.Options{Weighting: text.WeightTF, Norm: text.NormNone})
	if err != nil {
		t.Fatal(err)
	}
	train, x := heldOutSplit(t, c)
	// pinned: completion perplexity (and online LDA's bound) measured
	// 2026-11-27 with the families' default seed (1, workflow.DefaultSeed);
	// relative tolerance 1e-6.
	for _, f := range []struct {
		name          string
		params        catalog.Params
		pinned, bound float64
	}{
		{"lda", catalog.Params{"k": "10", "iters": "100", "burnin": "50", "fold-in-iters": "50"}, 894.241280, 0},
		{"onlinelda", catalog.Params{"k": "10", "passes": "5"}, 806.067431, 2614.087578},
		{"plsi", catalog.Params{"k": "10", "iters": "50"}, 875.606717, 0},
	} {
		m, err := catalog.New(f.name, f.params)
		if err != nil {
			t.Fatal(err)
		}
		model, _, err := m.Fit(context.Background(), train, nil)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		got, err := perplexity.Completion(context.Background(), model, x)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		_, heldOut, _ := perplexity.Split(x)
		uniformTheta := uniformRows(x.Rows, 10)
		flat, err := perplexity.Score(model.TermTopics(), uniformTheta, heldOut)
		if err != nil {
			t.Fatal(err)
		}
		bound, hasBound, err := perplexity.VariationalBound(context.Background(), model, x)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: completion perplexity %.6f (uniform θ %.6f, M = %d); variational bound %v (%v)", f.name, got, flat, c.Terms(), bound, hasBound)
		if !(got < flat && flat < float64(c.Terms())) || math.IsNaN(got) {
			t.Errorf("%s: completion perplexity %v, with uniform θ %v, uniform model %d: want increasing", f.name, got, flat, c.Terms())
		}
		if math.Abs(got/f.pinned-1) > 1e-6 || math.Abs(bound-f.bound) > 1e-6*f.bound {
			t.Errorf("%s: completion perplexity %.6f, bound %.6f; pinned %.6f, %.6f", f.name, got, bound, f.pinned, f.bound)
		}
		if hasBound != (f.name == "onlinelda") {
			t.Errorf("%s: variational bound offered = %v", f.name, hasBound)
		}
	}
}

// uniformRows is an n × k matrix of 1/k.
func uniformRows(n, k int) *mat.Dense {
	u := mat.NewDense(n, k, nil)
	for i := range n {
		for j := range k {
			u.Set(i, j, 1/float64(k))
		}
	}
	return u
}
