package grouprlsi

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/rlsi"
)

func TestPerClassMatchesRLSIPerClass(t *testing.T) {
	// CRLSI's class-p model is engine/rlsi fitted on class p's documents
	// alone with seed grouping.ClassSeed(Seed, p), bit for bit, for 1 and
	// 2 workers; class 2 has 3 documents, fewer than Kc + Ks = 4, so its
	// model has 3 topics; class 3 is empty and has none.
	stop := engine.Stopping{MaxIter: 50, RelTol: 1e-3}
	c, m0 := enginetest.PerClassMatches(t, 0.9, func(c *engine.Corpus, pool *parallel.Pool, rec *engine.Recorder) (engine.Model, engine.Status, error) {
		o := PerClassOptions{Kc: 3, Ks: 1, Lambda1: 0.05, Lambda2: 0.1, Stopping: stop, Seed: 8, Pool: pool, InnerTol: rlsi.DefaultInnerTol}
		return o.Fit(context.Background(), c, rec)
	}, func(p int, sub *engine.Corpus) (engine.Model, engine.Status, error) {
		want := rlsi.Options{K: min(4, sub.Docs()), Lambda1: 0.05, Lambda2: 0.1, Stopping: stop, Seed: grouping.ClassSeed(8, p), InnerTol: rlsi.DefaultInnerTol}
		return want.Fit(context.Background(), sub, nil)
	})
	m := m0.(*PerClassModel)
	enginetest.Shapes(t, m, c, 4*4)
	// DocTopics: document n's representation in its class's columns.
	v := m.DocTopics()
	for n := 0; n < c.Docs(); n++ {
		p := c.Labels[n]
		for k := 0; k < 16; k++ {
			in := k/4 == p && k%4 < m.ClassModel(p).DocTopics().RawMatrix().Cols
			if !in && v.At(n, k) != 0 {
				t.Fatalf("document %d has weight outside its class", n)
			}
		}
	}
	// Training documents fold in to their representation with their
	// class known (PerClassMatches checks that they are mostly recognised
	// with it unknown).
	f, err := m.FoldInClass(context.Background(), c.DT, c.Labels)
	if err != nil {
		t.Fatal(err)
	}
	if !matcmp.BitsEqual(f, v) {
		t.Errorf("fold-in of the training documents differs by %g", matcmp.MaxAbsDiff(f, v))
	}
	e, err := m.ReconstructionErrors(context.Background(), c.DT)
	if err != nil || !math.IsInf(e.At(0, 3), 1) {
		t.Errorf("empty class error %v (%v)", e.At(0, 3), err)
	}
}
