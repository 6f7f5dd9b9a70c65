package experiments

import (
	"math"
	"strings"
	"testing"
)

// y = 3·x² gives b = 2 and a = 3 (up to rounding); one point, equal x and
// a non-positive y are not fits.
func TestLogLogFit(t *testing.T) {
	a, b, ok := LogLogFit([]float64{1, 2, 4}, []float64{3, 12, 48})
	if !ok || math.Abs(b-2) > 1e-12 || math.Abs(a-3) > 1e-12 {
		t.Fatalf("LogLogFit = %v, %v, %v; want 3, 2, true", a, b, ok)
	}
	for _, c := range [][2][]float64{{{1}, {1}}, {{1, 1}, {2, 3}}, {{1, 2}, {0, 1}}, {{1, 2}, {1}}} {
		if _, _, ok := LogLogFit(c[0], c[1]); ok {
			t.Errorf("%v: fitted, want no fit", c)
		}
	}
	if v := SlopeAtMost([]float64{1, 2, 4}, []float64{3, 12, 48}, 2.5, "n", "sec", "d: "); v.Outcome != Held ||
		v.Detail != "d: slope 2.000 of sec over n=1: 3, n=2: 12, n=4: 48" {
		t.Errorf("SlopeAtMost 2.5: %+v", v)
	}
	if v := SlopeAtMost([]float64{1, 2, 4}, []float64{3, 12, 48}, 1.5, "n", "sec", ""); v.Outcome != NotHeld {
		t.Errorf("SlopeAtMost 1.5: %+v", v)
	}
	if v := SlopeAtMost([]float64{1}, []float64{3}, 1.5, "n", "sec", ""); v.Outcome != Inconclusive || !strings.Contains(v.Detail, "NaN") {
		t.Errorf("SlopeAtMost of one point: %+v", v)
	}
}

// fakeResults builds results from (method, k, value) rows of one metric.
func fakeResults(metric string, rows []struct {
	method, k string
	v         float64
}) *Results {
	e := &Experiment{ID: "t/claims"}
	r := &Results{Experiment: e}
	for _, row := range rows {
		j := &Job{Experiment: e, Method: MethodSpec{Name: row.method}, Point: map[string]string{"k": row.k}}
		r.Jobs = append(r.Jobs, &JobResult{Job: j, Run: &StoredRun{Metrics: []Metric{{Name: metric, Value: row.v}}}})
	}
	return r
}

// A beats B at K = 5 and 10 (means over replicates 0.6 vs 0.5, 0.8 vs 0.7)
// but not at K = 20; K sorts numerically (5 before 10 before 20).
func TestBeatsAtEvery(t *testing.T) {
	rows := []struct {
		method, k string
		v         float64
	}{
		{"a", "10", 0.7}, {"a", "10", 0.9}, {"b", "10", 0.7},
		{"a", "5", 0.6}, {"b", "5", 0.5},
		{"a", "20", 0.4}, {"b", "20", 0.4},
		{"b", "40", 1},
	}
	r := fakeResults("acc", rows)
	v := BeatsAtEvery(r, "acc", "k", "K", nil, "a", "b", false, "p: ")
	if v.Outcome != NotHeld || v.Detail != "p: K=5 0.600 vs 0.500, K=10 0.800 vs 0.700, K=20 0.400 vs 0.400" {
		t.Errorf("%+v", v)
	}
	if v := BeatsAtEvery(r, "acc", "k", "K", map[string]string{"k": "10"}, "a", "b", false, ""); v.Outcome != Held {
		t.Errorf("at K = 10: %+v", v)
	}
	if v := BeatsAtEvery(r, "acc", "k", "K", map[string]string{"k": "10"}, "a", "b", true, ""); v.Outcome != NotHeld {
		t.Errorf("lower better at K = 10: %+v", v)
	}
	if v := BeatsAtEvery(r, "acc", "k", "K", nil, "a", "c", false, ""); v.Outcome != Inconclusive {
		t.Errorf("absent method: %+v", v)
	}
}

// The mean 0.925 of (0.9, 0.95) is in [0.9, +Inf) and not in [0, 0.92].
func TestInBand(t *testing.T) {
	rows := []struct {
		method, k string
		v         float64
	}{{"a", "1", 0.95}, {"a", "1", 0.9}}
	r := fakeResults("rec", rows)
	v := InBand(r, "rec", nil, 0.9, math.Inf(1), 3, "threshold 0.90")
	if v.Outcome != Held || v.Detail != "mean 0.925 over 2 runs (0.900, 0.950); threshold 0.90" {
		t.Errorf("%+v", v)
	}
	if v := InBand(r, "rec", nil, 0, 0.92, 3, ""); v.Outcome != NotHeld {
		t.Errorf("%+v", v)
	}
	if v := InBand(r, "other", nil, 0, 1, 3, ""); v.Outcome != Inconclusive {
		t.Errorf("%+v", v)
	}
}
