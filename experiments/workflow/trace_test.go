package workflow

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
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

// failingWriter accepts n bytes, then fails every write.
type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

// TestTraceRecordFailsAtOnce: a trace row that cannot be written is an
// error of Record at that very iteration (each row is flushed), so that
// the fit stops there; later calls return the same error (issue 23: the
// error was kept until Close, at the end of the fit). Runs without root,
// unlike TestFaultDiskFullDuringTrace.
func TestTraceRecordFailsAtOnce(t *testing.T) {
	tw := &traceWriter{csv: csv.NewWriter(&failingWriter{n: 100}), index: map[traceCol]int{}}
	written := 0
	for it := 1; it <= 100; it++ {
		row := fmt.Sprintf("%d,0.5,%d\n", it, it)
		err := tw.Record(engine.Iteration{Iter: it, Seconds: 0.5, Objective: float64(it)})
		if written+len(row) <= 100 {
			if err != nil {
				t.Fatalf("iteration %d: %v with room left", it, err)
			}
			written += len(row)
			continue
		}
		want := fmt.Sprintf("writing the iteration trace (iterations.csv) at iteration %d: disk full", it)
		if err == nil || err.Error() != want {
			t.Fatalf("iteration %d: err = %v, want %q", it, err, want)
		}
		if again := tw.Record(engine.Iteration{Iter: it + 1}); again == nil || again.Error() != want {
			t.Errorf("the next call returns %v, want the first error", again)
		}
		return
	}
	t.Fatal("no error after 100 rows of at least 8 bytes into 100 bytes")
}
