package testcorpus

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine"
)

// WithClasses returns a method that fits inner on the corpus with document
// n in class n mod p, named class "c0" … "c(p−1)" (factortest's corpora
// carry no labels; the group families need them).
func WithClasses(inner engine.Method, p int) engine.Method { return withClasses{inner, p} }

type withClasses struct {
	inner engine.Method
	p     int
}

func (w withClasses) Name() string { return w.inner.Name() }

func (w withClasses) Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder) (engine.Model, engine.Status, error) {
	labels := make([]int, c.Docs())
	for n := range labels {
		labels[n] = n % w.p
	}
	names := make([]string, w.p)
	for p := range names {
		names[p] = fmt.Sprint("c", p)
	}
	// A copy of c with labels, not engine.NewCorpus: the model, not the
	// wrapper, must be the one that checks the corpus (factortest hands
	// it corpora NewCorpus would refuse).
	lc := *c
	lc.Labels, lc.ClassNames = labels, names
	return w.inner.Fit(ctx, &lc, rec)
}

// GroupTopics splits K = Ks + 3·Kc with Ks ≥ 1 (K < 1 maps to an invalid
// Ks); Kc = none when K < 4 (none is the family's "no class topics"
// value).
func GroupTopics(k, none int) (ks, kc int) {
	if k < 1 {
		return -7, 0
	}
	kc = (k - 1) / 3
	ks = k - 3*kc
	if kc == 0 {
		kc = none
	}
	return ks, kc
}
