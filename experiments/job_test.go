package experiments

import (
	"maps"
	"math"
	"strings"
	"testing"
)

// TestWithTopics: each family gets the setting's topic counts in its own
// parameters, and its total K; the job itself is not modified.
func TestWithTopics(t *testing.T) {
	e := &Experiment{ID: "toy/topics"}
	for _, c := range []struct {
		family string
		want   map[string]string
		k      int
	}{
		{"nmf", map[string]string{"iters": "5", "k": "23"}, 23},
		{"rlsi", map[string]string{"iters": "5", "k": "23"}, 23},
		{"cnmf", map[string]string{"iters": "5", "kc": "4"}, 20},
		{"crlsi", map[string]string{"iters": "5", "kc": "4"}, 20},
		{"groupnmf", map[string]string{"iters": "5", "ks": "3", "kc": "4"}, 23},
		{"grouprlsi", map[string]string{"iters": "5", "ks": "3", "kc": "4"}, 23},
		{"gnmfnc", map[string]string{"iters": "5", "ks": "3", "kp": "4"}, 23},
	} {
		j := &Job{Experiment: e, Method: MethodSpec{Name: c.family, Params: map[string]string{"iters": "5"}}}
		jc, k, err := j.WithTopics(3, 4, 5)
		if err != nil {
			t.Fatalf("%s: %v", c.family, err)
		}
		if k != c.k || !maps.Equal(jc.Method.Params, c.want) {
			t.Errorf("%s: K = %d, params %v; want %d, %v", c.family, k, jc.Method.Params, c.k, c.want)
		}
		if len(j.Method.Params) != 1 {
			t.Errorf("%s: the job's own parameters changed: %v", c.family, j.Method.Params)
		}
	}
	j := &Job{Experiment: e, Method: MethodSpec{Name: "lda"}}
	if _, _, err := j.WithTopics(3, 4, 5); err == nil || !strings.Contains(err.Error(), `"lda"`) {
		t.Errorf("lda: error %v, want one naming the family", err)
	}
}

// TestIntParamIn: the default when absent, the value inside the range, and
// an error naming the parameter and the range outside it.
func TestIntParamIn(t *testing.T) {
	e := &Experiment{ID: "toy/params"}
	j := &Job{Experiment: e, TaskParams: map[string]string{"n": "7", "bad": "x"}}
	for _, c := range []struct {
		key     string
		lo, hi  int
		want    int
		wantErr string
	}{
		{"absent", 0, math.MaxInt, 3, ""},
		{"n", 1, 7, 7, ""},
		{"n", 8, math.MaxInt, 0, "task parameter n = 7: want ≥ 8"},
		{"n", 2, 6, 0, "task parameter n = 7: want 2 to 6"},
		{"bad", 0, math.MaxInt, 0, "want an integer"},
	} {
		got, err := j.IntParamIn(c.key, 3, c.lo, c.hi)
		if c.wantErr == "" && (err != nil || got != c.want) {
			t.Errorf("%s in [%d, %d] = %d, %v; want %d", c.key, c.lo, c.hi, got, err, c.want)
		}
		if c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), e.ID)) {
			t.Errorf("%s in [%d, %d]: error %v, want one with %q and the experiment", c.key, c.lo, c.hi, err, c.wantErr)
		}
	}
}
