package notebook

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/metrics/coherence"
)

// TestQualityTable: one row per topic with every measure, equal to
// experiments/quality on the same fit and training texts.
func TestQualityTable(t *testing.T) {
	c := userCorpus(t)
	f, err := Fit(c, "nmf", Params{"k": "2", "seed": "3", "iters": "200"})
	if err != nil {
		t.Fatal(err)
	}
	df, err := Quality(f)
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != 2 || df.Ncol() != 6 {
		t.Fatalf("Quality: %d×%d, want 2 topics × (topic, 4 measures, words): %v", df.Nrow(), df.Ncol(), df.Names())
	}
	ref, err := quality.Reference(c.Collection, c.DocIDs, c.Vectorizer)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := quality.Evaluate(f.Model.TermTopics(), ref, quality.Options{Measures: coherence.All})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range coherence.All {
		for k, v := range df.Col(quality.Label(m)).Float() {
			if want := rep.Topics[k].Scores[m]; v != want && !(math.IsNaN(v) && math.IsNaN(want)) {
				t.Errorf("%s topic %d: %v, want %v", m, k, v, want)
			}
		}
	}
}

// TestSweepPlotsCoherenceAgainstK: a sweep over K on a corpus with texts
// records mean NPMI, C_V and TD@25, and plots NPMI against K.
func TestSweepPlotsCoherenceAgainstK(t *testing.T) {
	t.Setenv("TOPICMF_RESULTS", t.TempDir())
	c := userCorpus(t)
	s, err := Sweep(c, SweepSpec{Name: "quality-sweep", Family: "nmf", Params: Params{"iters": "50"},
		Grid: map[string][]string{"k": {"2", "3"}}})
	if err != nil {
		t.Fatal(err)
	}
	tab := s.Table()
	for _, col := range []string{MetricNPMI, MetricCV, MetricTD25} {
		vals := tab.Col(col).Float()
		if len(vals) != 2 || math.IsNaN(vals[0]) || math.IsNaN(vals[1]) {
			t.Errorf("%s: %v", col, vals)
		}
	}
	b, err := s.Plot("k", MetricNPMI)
	if err != nil {
		t.Fatal(err)
	}
	isPNG(t, b)
}
