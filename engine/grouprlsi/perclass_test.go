package grouprlsi

import (
	"context"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/rlsi"
	"gonum.org/v1/gonum/mat"
)

func TestPerClassMatchesRLSIPerClass(t *testing.T) {
	// CRLSI's class-p model is engine/rlsi fitted on class p's documents
	// alone with seed grouping.ClassSeed(Seed, p), bit for bit, for 1 and
	// 2 workers; class 2 has 3 documents, fewer than Kc + Ks = 4, so its
	// model has 3 topics; class 3 is empty and has none.
	c := testcorpus.UnevenClasses(t)
	lay, err := grouping.New(c, "test")
	if err != nil {
		t.Fatal(err)
	}
	var ref *mat.Dense
	for _, w := range []int{1, 2} {
		o := PerClassOptions{Kc: 3, Ks: 1, Lambda1: 0.05, Lambda2: 0.1, Stopping: engine.Stopping{MaxIter: 50, RelTol: 1e-3}, Seed: 8, Pool: parallel.NewPool(w), InnerTol: rlsi.DefaultInnerTol}
		rec := engine.NewRecorder()
		m0, st, err := o.Fit(context.Background(), c, rec)
		if err != nil {
			t.Fatal(err)
		}
		m := m0.(*PerClassModel)
		if r, k := m.TermTopics().Dims(); r != c.Terms() || k != 16 {
			t.Fatalf("U %d×%d, want %d×16", r, k, c.Terms())
		}
		sum, maxIt := 0.0, 0
		for p := 0; p < 4; p++ {
			if lay.Size(p) == 0 {
				if m.ClassModel(p) != nil {
					t.Fatal("empty class has a model")
				}
				continue
			}
			sub, err := lay.ClassCorpus(c, p)
			if err != nil {
				t.Fatal(err)
			}
			want := rlsi.Options{K: min(4, lay.Size(p)), Lambda1: 0.05, Lambda2: 0.1, Stopping: o.Stopping, Seed: grouping.ClassSeed(8, p), InnerTol: rlsi.DefaultInnerTol}
			rm, rst, err := want.Fit(context.Background(), sub, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := m.ClassModel(p)
			if !matcmp.BitsEqual(got.TermTopics(), rm.TermTopics()) || !matcmp.BitsEqual(got.DocTopics(), rm.DocTopics()) {
				t.Errorf("class %d: model differs from RLSI on the class", p)
			}
			sum += rst.Objective
			maxIt = max(maxIt, rst.Iterations)
		}
		if st.Objective != sum || st.Iterations != maxIt {
			t.Errorf("status %v, want objective %v after %d", st, sum, maxIt)
		}
		its := rec.Iterations()
		if len(its) != maxIt || its[len(its)-1].Objective != sum {
			t.Errorf("merged record: %d iterations, last objective %v; want %d, %v", len(its), its[len(its)-1].Objective, maxIt, sum)
		}
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
		// class known, and are mostly recognised with it unknown.
		f, err := m.FoldInClass(context.Background(), c.DT, c.Labels)
		if err != nil {
			t.Fatal(err)
		}
		if !matcmp.BitsEqual(f, v) {
			t.Errorf("fold-in of the training documents differs by %g", matcmp.MaxAbsDiff(f, v))
		}
		acc, _, err := grouping.ClassAccuracy(context.Background(), m, c.DT, c.Labels)
		if err != nil || acc < 0.9 {
			t.Errorf("training-document class accuracy %v (%v)", acc, err)
		}
		e, err := m.ReconstructionErrors(context.Background(), c.DT)
		if err != nil || !math.IsInf(e.At(0, 3), 1) {
			t.Errorf("empty class error %v (%v)", e.At(0, 3), err)
		}
		if w == 1 {
			ref = mat.DenseCopyOf(m.TermTopics())
		} else if !matcmp.BitsEqual(ref, m.TermTopics()) {
			t.Error("2 workers differ from 1")
		}
	}
}
