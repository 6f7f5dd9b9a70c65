package retrieval

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/internal/realdata"
)

// prepareReal reads a collection from TOPICMF_DATA with the SMART stop list
// and the default tf-idf weighting, or skips naming what is missing.
func prepareReal(t testing.TB, name, folder string) *Prepared {
	t.Helper()
	dir := realdata.Dir(t, folder, "stopwords")
	src, err := datasets.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	col, err := src.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(col, text.Bare(text.Options{StopList: text.StopSMART, DataDir: dir}))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMEDTermModels records the term models' MAP on MED (1033 documents, 30
// queries, SMART stop list, no stemming, top 1000). The values are what this
// code measured, kept as regression bounds (±0.002), not tuned targets. The
// BM25 value agrees with an independent python3 script (own SMART parser,
// regex tokenizer [a-z0-9]+ dropping digit-only and 1-letter tokens and the
// tokenized SMART list, the same BM25 formula, top 1000), which gave
// 0.50921 (0.29665 on Cranfield's 225 queries, where this code gives
// 0.2966); the small gap comes from the two tokenizers. The classic figure
// for BM25 on MED is about 0.5.
func TestMEDTermModels(t *testing.T) {
	p := prepareReal(t, "med", "medline")
	tk := p.Task
	if len(tk.DocIDs) != 1033 || len(tk.QueryIDs) != 30 {
		t.Fatalf("MED: %d documents, %d queries; want 1033, 30", len(tk.DocIDs), len(tk.QueryIDs))
	}
	for _, tc := range []struct {
		model string
		map_  float64
	}{
		{BM25, 0.5093}, // measured 0.50927
		{VSM, 0.4930},  // measured 0.49303
		{LM, 0.4459},   // measured 0.44590
	} {
		s, err := tk.TermScores(tc.model, TermOptions{})
		if err != nil {
			t.Fatal(err)
		}
		e, err := tk.EvaluateScores(s, CombineOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := e.Mean("map")
		t.Logf("MED %s: MAP %.5f NDCG@10 %.5f P@10 %.5f", tc.model, got, e.Mean("ndcg_cut_10"), e.Mean("P_10"))
		if math.Abs(got-tc.map_) > 0.002 {
			t.Errorf("MED %s MAP = %.5f, recorded %.4f", tc.model, got, tc.map_)
		}
	}
}

// TestMEDWithRLSI runs the whole task on MED with RLSI (K = 20, λ1 = 0.5,
// λ2 = 1, the paper's Section 6.3 setting, seed 1): the α sweep, the fair
// protocol over two candidate fits, and a short LambdaRank. The bounds are
// loose regression checks on what this code measured (noted beside each).
func TestMEDWithRLSI(t *testing.T) {
	if testing.Short() {
		t.Skip("fits RLSI twice on MED (a few seconds)")
	}
	p := prepareReal(t, "med", "medline")
	tk := p.Task
	ctx := context.Background()
	bm25, err := tk.TermScores(BM25, TermOptions{})
	if err != nil {
		t.Fatal(err)
	}
	base, err := tk.EvaluateScores(bm25, CombineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var cands []Candidate
	var topics []*Scores
	for _, k := range []int{10, 20} {
		m, status, err := rlsi.Options{K: k, Seed: 1, Lambda1: rlsi.DefaultLambda1, Lambda2: rlsi.DefaultLambda2, Stopping: engine.DefaultStopping(), InnerTol: rlsi.DefaultInnerTol}.Fit(ctx, p.Corpus, engine.NewRecorder())
		if err != nil {
			t.Fatal(err)
		}
		topic, err := tk.TopicScores(ctx, "rlsi", m, DocTopicRows)
		if err != nil {
			t.Fatal(err)
		}
		sw, err := tk.SweepAlpha(bm25, topic, nil, CombineOptions{})
		if err != nil {
			t.Fatal(err)
		}
		alpha, best, _ := sw.Best("map")
		t.Logf("RLSI K=%d (%s): best α %.1f MAP %.4f (BM25 %.4f, topic alone %.4f)", k, status, alpha, best, base.Mean("map"), sw.Evals[10].Mean("map"))
		// Measured: K=10 0.5513 at α=0.4, K=20 0.5906 at α=0.5 (BM25 0.5093).
		if !(best > base.Mean("map")+0.03) {
			t.Errorf("K=%d: best combination MAP %.4f, BM25 %.4f: expected a clear gain", k, best, base.Mean("map"))
		}
		cands = append(cands, Candidate{Label: fmt.Sprintf("K=%d", k), Sweep: sw})
		topics = append(topics, topic)
	}
	fair, err := CrossFit(base, cands, FairOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	mapTest := fair.Tests[0]
	t.Logf("fair 2-fold: %s / %s α=%g / %s α=%g: MAP %.4f vs BM25 %.4f, p = %.3g", fair.Select,
		fair.Choices[0].Candidate, fair.Choices[0].Alpha, fair.Choices[1].Candidate, fair.Choices[1].Alpha,
		mapTest.Mean, mapTest.BaselineMean, mapTest.P)
	// Measured: K=20 α=0.5 chosen on both halves, MAP 0.5906, p = 9e-5.
	if !(mapTest.Mean > mapTest.BaselineMean) {
		t.Errorf("fair protocol MAP %.4f does not beat BM25 %.4f", mapTest.Mean, mapTest.BaselineMean)
	}

	vsm, _ := tk.TermScores(VSM, TermOptions{})
	lm, _ := tk.TermScores(LM, TermOptions{})
	c, err := tk.CompareLambdaRank([]*Scores{bm25, vsm, lm}, topics[1], LambdaRankOptions{Seed: 1, Epochs: 50, Depth: 200})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("LambdaRank (5-fold, top 200): BM25 %.4f, without topic %.4f, with topic %.4f (p vs without %.3g)",
		c.Baseline.Mean("map"), c.Without.Eval.Mean("map"), c.With.Eval.Mean("map"), c.WithVsWithout[0].P)
	// Measured: BM25 0.5022, without 0.5100, with 0.5504 (p = 0.0098).
	if !(c.With.Eval.Mean("map") > c.Without.Eval.Mean("map")) {
		t.Errorf("LambdaRank with the topic feature (MAP %.4f) does not beat it without (%.4f)", c.With.Eval.Mean("map"), c.Without.Eval.Mean("map"))
	}
}
