package retrieval

import (
	"context"
	"math"
	"syscall"
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
// documents for one query (random scores): the full sort and the heap
// selection (oldTopRanked) the runs used before, and the quickselect
// (topRanked) they use now.
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
			oldTopRanked(identity(n), score, order, k)
		}
	})
	b.Run("select", func(b *testing.B) {
		for b.Loop() {
			topRanked(identity(n), score, order, k)
		}
	})
}

// BenchmarkSweepNPL times one α sweep as rlsi2011's retrieval jobs run it:
// NPL (11,429 documents, 93 queries), BM25 mixed with the topic cosine of
// an RLSI model (K = 20, 5 iterations, fitted outside the timer), the
// default α grid and options. cpu-ms/op is the process's user + system
// time per sweep (both cores' worth when the sweep runs in parallel), the
// measure that a loaded machine disturbs least.
func BenchmarkSweepNPL(b *testing.B) {
	p := prepareReal(b, "npl", "npl")
	tk := p.Task
	ctx := context.Background()
	m, _, err := rlsi.Options{K: 20, Seed: 1, Stopping: engine.Stopping{MaxIter: 5, RelTol: engine.DefaultRelTol}, Lambda1: rlsi.DefaultLambda1, Lambda2: rlsi.DefaultLambda2, InnerTol: rlsi.DefaultInnerTol}.Fit(ctx, p.Corpus, engine.NewRecorder())
	if err != nil {
		b.Fatal(err)
	}
	term, err := tk.TermScores(BM25, TermOptions{})
	if err != nil {
		b.Fatal(err)
	}
	topic, err := tk.TopicScores(ctx, "rlsi", m, DocTopicRows)
	if err != nil {
		b.Fatal(err)
	}
	cpu0 := cpuSeconds()
	for b.Loop() {
		if _, err := tk.SweepAlpha(term, topic, nil, CombineOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
}

// cpuSeconds is the process's user + system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
