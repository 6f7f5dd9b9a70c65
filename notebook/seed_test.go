package notebook

import (
	"testing"

	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/metrics/topics"
)

// TestSweepJobIsFit: a sweep's job at k = 10 is Fit at k = 10, bit for
// bit (every iteration's objective and the final AvgComp), with the
// default seed and with an explicit one; renaming the sweep changes no
// number; a second replicate takes another seed.
func TestSweepJobIsFit(t *testing.T) {
	t.Setenv("TOPICMF_RESULTS", t.TempDir())
	cfg := synthetic.Default()
	c, err := LoadSpec(experiments.CorpusSpec{Synthetic: &cfg, Name: "synthetic/default"})
	if err != nil {
		t.Fatal(err)
	}
	fixed := Params{"iters": "12", "init": "random"}
	for _, seed := range []uint64{0, 7} {
		params := Params{"k": "10", "iters": "12", "init": "random"}
		if seed != 0 {
			params["seed"] = "7"
		}
		f, err := Fit(c, "nmf", params)
		if err != nil {
			t.Fatal(err)
		}
		want := Iterations(f).Col("objective").Float()
		var byName [][]float64
		for _, name := range []string{"first-name", "renamed"} {
			s, err := Sweep(c, SweepSpec{Name: name, Family: "nmf", Params: fixed, Seed: seed,
				Grid: map[string][]string{"k": {"6", "10"}}, Replicates: 2})
			if err != nil {
				t.Fatal(err)
			}
			var at10 []*experiments.JobResult
			for _, j := range s.Jobs {
				if j.Job.Method.Params["k"] == "10" {
					at10 = append(at10, j)
				}
			}
			if len(at10) != 2 {
				t.Fatalf("seed %d: %d jobs at k = 10, want 2 replicates", seed, len(at10))
			}
			got := iterColumn(t, at10[0].Run, "objective")
			if len(got) != len(want) {
				t.Fatalf("seed %d, sweep %s: %d iterations, Fit has %d", seed, name, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("seed %d, sweep %s: iteration %d objective %v, Fit's %v", seed, name, i+1, got[i], want[i])
				}
			}
			if a, _ := at10[0].Run.Metric(MetricAvgComp); a != topics.AvgComp(f.Model.TermTopics()) {
				t.Errorf("seed %d, sweep %s: AvgComp %v, Fit's %v", seed, name, a, topics.AvgComp(f.Model.TermTopics()))
			}
			if at10[1].Job.Seed == at10[0].Job.Seed {
				t.Errorf("seed %d: replicates 0 and 1 share seed %d", seed, at10[0].Job.Seed)
			}
			var objs []float64
			for _, j := range s.Jobs {
				o, _ := j.Run.Metric(MetricObjective)
				objs = append(objs, o)
			}
			byName = append(byName, objs)
		}
		for i := range byName[0] {
			if byName[0][i] != byName[1][i] {
				t.Errorf("seed %d: job %d objective %v, renamed %v", seed, i, byName[0][i], byName[1][i])
			}
		}
	}
	if _, err := Sweep(c, SweepSpec{Name: "seeded", Family: "nmf", Params: Params{"seed": "3"}}); err == nil {
		t.Error("a seed in Params: no error")
	}
}

// iterColumn is a stored run's iteration column.
func iterColumn(t *testing.T, r *experiments.StoredRun, name string) []float64 {
	t.Helper()
	for c, h := range r.IterHeader {
		if h == name {
			var out []float64
			for _, row := range r.Iterations {
				out = append(out, row[c])
			}
			return out
		}
	}
	t.Fatalf("run %s has no iteration column %s: %v", r.Dir, name, r.IterHeader)
	return nil
}
