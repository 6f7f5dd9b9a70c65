package all_test

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	_ "github.com/topicmf/topicmf/experiments/all"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/realdata"
)

var update = flag.Bool("update", false, "rewrite testdata/quick/<paper>/<experiment>.csv from this run")

// TestQuickPins is the regression registry, in the manner of Anserini's: it
// runs every registered experiment in quick mode and compares each job's
// metrics with the numbers committed under testdata/quick (regenerated with
// go test ./experiments/all -run TestQuickPins -update). Runs are
// deterministic (same seed, same bits for any number of workers), so the
// comparison is exact: any change of a number, intended or not, fails here
// and an intended one is committed with -update. Metrics that measure the
// machine rather than the method (see machineDependent) are not pinned.
//
// It costs one quick run of the whole registry (about 75 s of CPU).
func TestQuickPins(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the quick pins run every experiment (about 75 s of CPU)")
	}
	// The data directory, absolute for the runner (skips, or fails under
	// CI=true, when it is missing).
	realdata.Dir(t)
	s, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range experiments.All() {
		t.Run(e.ID, func(t *testing.T) {
			r := &experiments.Runner{Store: s, Quick: true}
			res, err := r.Run(context.Background(), e)
			if err != nil {
				t.Fatal(err)
			}
			got := pins(e, res)
			path := filepath.Join("testdata", "quick", e.PaperKey(), e.Name()+".csv")
			if *update {
				if err := writePins(path, got); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := readPins(path)
			if err != nil {
				t.Fatalf("%v (write it with -update)", err)
			}
			comparePins(t, path, want, got)
		})
	}
}

// pins are the rows job,metric,value of every pinned metric, in job order.
func pins(e *experiments.Experiment, res *experiments.Results) [][]string {
	rows := [][]string{{"job", "metric", "value"}}
	for _, j := range res.Jobs {
		for _, m := range j.Run.Metrics {
			if !e.MachineDependent(m.Name) {
				rows = append(rows, []string{j.Job.Label(), m.Name, store.FormatFloat(m.Value)})
			}
		}
	}
	return rows
}

func writePins(path string, rows [][]string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return store.WriteFileAtomic(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.WriteAll(rows)
		return cw.Error()
	})
}

func readPins(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// comparePins reports every difference (up to 20) between the committed
// and the computed rows.
func comparePins(t *testing.T, path string, want, got [][]string) {
	t.Helper()
	key := func(r []string) string { return r[0] + " | " + r[1] }
	wantBy := map[string]string{}
	for _, r := range want[1:] {
		wantBy[key(r)] = r[2]
	}
	n := 0
	report := func(format string, args ...any) {
		if n++; n <= 20 {
			t.Errorf(format, args...)
		}
	}
	for _, r := range got[1:] {
		w, ok := wantBy[key(r)]
		delete(wantBy, key(r))
		switch {
		case !ok:
			report("%s: new pin %s = %s", path, key(r), r[2])
		case w != r[2]:
			report("%s: %s = %s, pinned %s", path, key(r), r[2], w)
		}
	}
	for k, w := range wantBy {
		report("%s: pinned %s = %s no longer computed", path, k, w)
	}
	if n > 20 {
		t.Errorf("%s: %d differences in all", path, n)
	}
}
