package retrieval

import (
	"context"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rlsi"
)

// BenchmarkCranfield times the task's parts on Cranfield (1400 documents,
// 225 queries, SMART stop list) with an RLSI model (K = 20, 10 iterations,
// fitted outside the timer): topic scores (fold-in + cosine), an 11-point α
// sweep with evaluation, and a 5-fold LambdaRank of 20 epochs over BM25,
// VSM, LM and the topic score (top 1000 candidates).
func BenchmarkCranfield(b *testing.B) {
	p := prepareReal(b, "cranfield", "cranfield")
	tk := p.Task
	ctx := context.Background()
	m, _, err := rlsi.Options{K: 20, Seed: 1, Stopping: engine.Stopping{MaxIter: 10, RelTol: engine.DefaultRelTol}, Lambda1: rlsi.DefaultLambda1, Lambda2: rlsi.DefaultLambda2, InnerTol: rlsi.DefaultInnerTol}.Fit(ctx, p.Corpus, engine.NewRecorder())
	if err != nil {
		b.Fatal(err)
	}
	var feats []*Scores
	for _, name := range []string{BM25, VSM, LM} {
		s, err := tk.TermScores(name, TermOptions{})
		if err != nil {
			b.Fatal(err)
		}
		feats = append(feats, s)
	}
	topic, err := tk.TopicScores(ctx, "rlsi", m, DocTopicRows)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("topic-scores", func(b *testing.B) {
		for b.Loop() {
			if _, err := tk.TopicScores(ctx, "rlsi", m, DocTopicRows); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sweep", func(b *testing.B) {
		for b.Loop() {
			if _, err := tk.SweepAlpha(feats[0], topic, nil, CombineOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lambdarank-20-epochs", func(b *testing.B) {
		for b.Loop() {
			if _, err := tk.CrossValidateLambdaRank("ltr", append(feats, topic), LambdaRankOptions{Epochs: 20}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTopRanked times keeping the first 1,000 of NPL's 11,429
// documents for one query (random scores): the full sort the runs used
// before, and the heap selection (topRanked) they use now.
func BenchmarkTopRanked(b *testing.B) {
	const n, k = 11429, 1000
	r := engine.NewRand(1)
	score := make([]float64, n)
	for i := range score {
		score[i] = r.Float64()
	}
	order := r.Perm(n)
	b.Run("sort", func(b *testing.B) {
		for b.Loop() {
			docs := identity(n)
			sortRanked(docs, score, order)
			_ = docs[:k]
		}
	})
	b.Run("heap", func(b *testing.B) {
		for b.Loop() {
			topRanked(identity(n), score, order, k)
		}
	})
}
