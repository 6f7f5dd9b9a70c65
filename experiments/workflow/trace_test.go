package workflow

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments/store"
)

// TestTraceWriterMatchesRecorder: the streamed iterations.csv is byte for
// byte what Recorder.WriteCSV writes for the same iterations, including a
// term first reported at iteration 2 (as LDA does), a term missing from a
// later iteration, and diagnostics.
func TestTraceWriterMatchesRecorder(t *testing.T) {
	its := []engine.Iteration{
		{Iter: 1, Seconds: 0.5, Objective: math.NaN(), Sparsity: []engine.Term{{Name: "U", Value: 0.25}}},
		{Iter: 2, Seconds: 0.25, Objective: 3, Terms: []engine.Term{{Name: "loss", Value: 2}, {Name: "l1", Value: 1}}, Sparsity: []engine.Term{{Name: "U", Value: 0.5}, {Name: "V", Value: 0.125}}},
		{Iter: 3, Seconds: 1e-9, Objective: 2.5, Terms: []engine.Term{{Name: "l1", Value: 0.1}}, Diagnostics: []engine.Term{{Name: "mu", Value: 4}}},
		{Iter: 4, Seconds: 2, Objective: 2, Diagnostics: []engine.Term{{Name: "residual", Value: 1e-3}, {Name: "mu", Value: 8}}},
	}
	for _, n := range []int{0, 1, len(its)} {
		rec := engine.NewRecorder()
		var want bytes.Buffer
		s, err := store.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		run, err := s.Do(context.Background(), store.Key{Config: n}, func(ctx context.Context, w *store.Writer) error {
			tw, err := newTraceWriter(w)
			if err != nil {
				return err
			}
			for _, it := range its[:n] {
				rec.Record(it)
				tw.Record(it)
			}
			return tw.Close()
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.WriteCSV(&want); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(run.Dir, "iterations.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want.String() {
			t.Errorf("%d iterations: streamed\n%s\nRecorder.WriteCSV\n%s", n, got, want.String())
		}
		ents, _ := os.ReadDir(run.Dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".tmp-") {
				t.Errorf("%d iterations: left %s behind", n, e.Name())
			}
		}
	}
}
