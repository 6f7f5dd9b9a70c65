package frame

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
)

func TestIterations(t *testing.T) {
	rec := engine.NewRecorder()
	rec.Record(engine.Iteration{Iter: 1, Seconds: 0.5, Objective: math.NaN(), Sparsity: []engine.Term{{Name: "U", Value: 0.25}}})
	rec.Record(engine.Iteration{Iter: 2, Seconds: 0.25, Objective: 3, Terms: []engine.Term{{Name: "loss", Value: 2}, {Name: "l1", Value: 1}},
		Sparsity: []engine.Term{{Name: "U", Value: 0.5}}})
	df := Iterations(rec)
	if r, c := df.Dims(); r != 2 || c != 6 {
		t.Fatalf("dims %d×%d, want 2×6 (iter, seconds, objective, loss, l1, sparsity_U)", r, c)
	}
	want := []string{"iter", "seconds", "objective", "loss", "l1", "sparsity_U"}
	for i, n := range df.Names() {
		if n != want[i] {
			t.Fatalf("names %v, want %v", df.Names(), want)
		}
	}
	if got := df.Col("iter").Records(); got[1] != "2" {
		t.Errorf("iter column %v", got)
	}
	if v := df.Col("loss").Float(); !math.IsNaN(v[0]) || v[1] != 2 {
		t.Errorf("loss column %v, want [NaN 2]", v)
	}
	if v := df.Col("sparsity_U").Float(); v[0] != 0.25 || v[1] != 0.5 {
		t.Errorf("sparsity column %v", v)
	}
}
