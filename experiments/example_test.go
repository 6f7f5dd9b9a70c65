package experiments_test

import (
	"context"
	"fmt"
	"math"
	"os"

	"github.com/topicmf/topicmf/datasets/synthetic"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/metrics/topics"
)

// A complete experiment in the shape the package documentation's guide
// describes: the corpus declared as data, a catalog method with a grid,
// a FitTask that only scores, and a claim judged by a helper. The runner
// builds the corpus once, fits both jobs and stores them.
func Example() {
	planted := synthetic.Config{Name: "tiny", M: 300, N: 200, P: 2, Ks: 2, Kc: 1,
		Length: synthetic.LengthSpec{Dist: synthetic.LengthPoisson, Mean: 60}, Seed: 1}
	e := &experiments.Experiment{
		ID:    "example/nmf-tiny",
		Title: "NMF on a tiny planted corpus",
		Corpus: func(*experiments.Job) (experiments.CorpusSpec, error) {
			return experiments.CorpusSpec{Synthetic: &planted, Name: "synthetic/tiny"}, nil
		},
		Datasets: []string{"synthetic/tiny"},
		Methods:  []experiments.MethodSpec{{Label: "NMF", Name: "nmf", Params: map[string]string{"iters": "50", "tol": "-1"}}},
		Grid:     map[string][]string{"k": {"3", "4"}},
		Seed:     1,
		Fit: func(_ context.Context, _ *experiments.Job, f *experiments.Fit) (*experiments.Result, error) {
			recovery, _ := synthetic.MatchTopics(f.Corpus.Truth.Topics(), f.Model.TermTopics())
			res := &experiments.Result{}
			res.AddMetric("recovery", recovery)
			res.AddMetric("avgcomp", topics.AvgComp(f.Model.TermTopics()))
			return res, nil
		},
		Claims: []experiments.Claim{{
			Statement: "At the planted K = 4 the mean matched cosine is at least 0.5",
			Judge: func(r *experiments.Results) experiments.Verdict {
				return experiments.InBand(r, "recovery", map[string]string{"k": "4"}, 0.5, math.Inf(1), 3, "threshold 0.50")
			},
		}},
	}
	dir, err := os.MkdirTemp("", "topicmf-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := (&experiments.Runner{Store: st}).Run(context.Background(), e)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Jobs), "jobs;", res.Verdicts()[0].Outcome)
	// Output: 2 jobs; held
}
