package cost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

// writeRun writes a run directory holding only what FromStore reads: the
// configuration and the provenance (computed from start for wall seconds).
func writeRun(t *testing.T, root, id string, cfg any, start string, wall, cpu float64) {
	t.Helper()
	s, err := time.Parse(time.RFC3339, start)
	if err != nil {
		t.Fatal(err)
	}
	end := s.Add(time.Duration(wall * float64(time.Second))).Format(time.RFC3339Nano)
	dir := filepath.Join(root, "runs", id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := store.CanonicalIndent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := json.Marshal(store.Provenance{RunID: id, Start: start, End: end, Seconds: wall, CPUSeconds: cpu})
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{store.ConfigFile: c, store.ProvenanceFile: p} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runID(c byte) string { return strings.Repeat(string(c), 64) }

// fixtureStore is a results root whose runs are:
//   - paperA/exp3, job rep 0 computed twice (wall 100, CPU 150, then later
//     wall 5, CPU 9: the later counts) and job rep 1 (wall 3, CPU 4);
//   - paperA/exp1 (wall 1000, CPU 1000), which its committed report
//     replaces;
//   - a topicmf fit of nmf (wall 2, CPU 3);
//   - a run being computed (no provenance), which does not count.
func fixtureStore(t *testing.T) string {
	root := t.TempDir()
	exp3 := func(rep int) experiments.JobConfig {
		return experiments.JobConfig{Experiment: "paperA/exp3", Dataset: "d3", Method: "nmf", Params: map[string]string{"k": "5"}, Replicate: rep, RootSeed: 9}
	}
	writeRun(t, root, runID('a'), exp3(0), "2026-01-01T00:00:00Z", 100, 150)
	writeRun(t, root, runID('b'), exp3(0), "2026-02-01T00:00:00Z", 5, 9)
	writeRun(t, root, runID('c'), exp3(1), "2026-02-01T00:00:05Z", 3, 4)
	writeRun(t, root, runID('d'), experiments.JobConfig{Experiment: "paperA/exp1", Dataset: "d1", Method: "nmf"}, "2026-02-01T00:00:00Z", 1000, 1000)
	writeRun(t, root, runID('e'), map[string]any{"model": "nmf", "data": map[string]string{"name": "x"}}, "2026-02-01T00:00:00Z", 2, 3)
	if err := os.MkdirAll(filepath.Join(root, "runs", runID('f')), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestFromStoreCountsTheLatestRunOfAConfiguration(t *testing.T) {
	root := fixtureStore(t)
	// A scoring of the fit (wall 0.5, CPU 0.25) counts as fit/scores.
	writeRun(t, root, runID('9'), map[string]any{"command": "score", "run": runID('e')}, "2026-02-01T00:00:09Z", 0.5, 0.25)
	groups, superseded, err := FromStore(root)
	if err != nil {
		t.Fatal(err)
	}
	if superseded != 1 {
		t.Errorf("superseded = %d, want 1 (the first run of exp3 rep 0)", superseded)
	}
	got := map[string]Group{}
	for _, g := range groups {
		got[g.Experiment] = g
	}
	if len(got) != 4 {
		t.Fatalf("groups %v, want paperA/exp3, paperA/exp1, fit/nmf and fit/scores", groups)
	}
	if s := got["fit/scores"]; s.Paper != "fit" || len(s.Jobs) != 1 || s.Jobs[0].CPU != 0.25 {
		t.Errorf("fit/scores = %+v, want paper fit, one job of CPU 0.25", s)
	}
	e3 := got["paperA/exp3"]
	wall, cpu := 0.0, 0.0
	for _, j := range e3.Jobs {
		wall += j.Wall
		cpu += j.CPU
	}
	if e3.Paper != "paperA" || len(e3.Jobs) != 2 || wall != 8 || cpu != 13 {
		t.Errorf("paperA/exp3: paper %s, %d jobs, wall %g, CPU %g; want paperA, 2 jobs, wall 5+3 = 8, CPU 9+4 = 13", e3.Paper, len(e3.Jobs), wall, cpu)
	}
	// Not registered here: labelled from the configuration.
	if want := "[d3 nmf k=5 rep 0]"; e3.Jobs[0].Label != want && e3.Jobs[1].Label != want {
		t.Errorf("labels %q, %q; want one %q", e3.Jobs[0].Label, e3.Jobs[1].Label, want)
	}
	if f := got["fit/nmf"]; f.Paper != "fit" || len(f.Jobs) != 1 || f.Jobs[0].CPU != 3 {
		t.Errorf("fit/nmf = %+v, want paper fit, one job of CPU 3", f)
	}
}

// TestSummarizeHandComputed: the committed reports of paperA/exp1 (CPU
// 18 + 20 = 38, wall 10 + 12 = 22, its two jobs side by side from 00:00:00
// to 00:00:13, so 13 s elapsed) and paperB/exp2 (CPU 70, wall 40, elapsed
// 40) replace the store's exp1; with the store's exp3 (CPU 13, wall 8; its
// later rep 0 from 00:00:00 for 5 s and rep 1 from 00:00:05 for 3 s, so 8 s
// elapsed; the superseded January run does not widen it) and fit (CPU 3,
// wall 2, elapsed 2) the total is CPU 124, wall 72, elapsed 63.
func TestSummarizeHandComputed(t *testing.T) {
	root := fixtureStore(t)
	reports, err := FromReports("testdata/results")
	if err != nil {
		t.Fatal(err)
	}
	runs, superseded, err := FromStore(root)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Summarize(Merge(reports, runs))
	if err != nil {
		t.Fatal(err)
	}
	tab.Superseded = superseded
	if !tab.ByCPU {
		t.Fatal("ByCPU = false, want true: every job has a CPU time")
	}
	type want struct {
		name, source       string
		jobs               int
		elapsed, wall, cpu float64
		share              float64
		largest            string
		largestCPU         float64
		experimentsInPaper int
	}
	check := func(what string, got []Row, ws []want) {
		t.Helper()
		if len(got) != len(ws) {
			t.Fatalf("%s: %d rows, want %d: %+v", what, len(got), len(ws), got)
		}
		for i, w := range ws {
			r := got[i]
			if r.Name != w.name || r.Source != w.source || r.Jobs != w.jobs || r.Elapsed != w.elapsed || r.ElapsedMissing != 0 || r.Wall != w.wall || r.CPU != w.cpu ||
				r.Largest.Label != w.largest || r.Largest.CPU != w.largestCPU || (w.experimentsInPaper > 0 && r.Experiments != w.experimentsInPaper) {
				t.Errorf("%s row %d = %+v, want %+v", what, i, r, w)
			}
			if s := tab.Share(r); s < w.share-1e-12 || s > w.share+1e-12 {
				t.Errorf("%s row %s: share %g, want %g", what, r.Name, s, w.share)
			}
		}
	}
	check("experiments", tab.Experiments, []want{
		{"paperB/exp2", SourceReport, 1, 40, 40, 70, 70.0 / 124, "[d2 LDA k=50 rep 0]", 70, 0},
		{"paperA/exp1", SourceReport, 2, 13, 22, 38, 38.0 / 124, "[d1 NMF k=10 rep 1]", 20, 0},
		{"paperA/exp3", SourceRuns, 2, 8, 8, 13, 13.0 / 124, "[d3 nmf k=5 rep 0]", 9, 0},
		{"fit/nmf", SourceRuns, 1, 2, 2, 3, 3.0 / 124, "[run eeeeeeeeeeee]", 3, 0},
	})
	check("papers", tab.Papers, []want{
		{"paperB", "", 1, 40, 40, 70, 70.0 / 124, "paperB/exp2 [d2 LDA k=50 rep 0]", 70, 1},
		{"paperA", "", 4, 21, 30, 51, 51.0 / 124, "paperA/exp1 [d1 NMF k=10 rep 1]", 20, 2},
		{"fit", "", 1, 2, 2, 3, 3.0 / 124, "fit/nmf [run eeeeeeeeeeee]", 3, 1},
	})
	if tab.Total.Jobs != 6 || tab.Total.Elapsed != 63 || tab.Total.Wall != 72 || tab.Total.CPU != 124 || tab.Total.Experiments != 4 {
		t.Errorf("total = %+v, want 6 jobs, elapsed 63, wall 72, CPU 124, 4 experiments", tab.Total)
	}
	// Cores = CPU / elapsed: exp1 38/13 = 2.923…, exp2 70/40 = 1.75,
	// paperA (38+13)/(13+8) = 51/21 = 2.428…, the total 124/63 = 1.968….
	for _, c := range []struct {
		row  Row
		want string
	}{{tab.Experiments[1], "2.92"}, {tab.Experiments[0], "1.75"}, {tab.Papers[1], "2.43"}, {tab.Total, "1.97"}} {
		if got := coresText(c.row); got != c.want {
			t.Errorf("%s: cores %q, want %s", c.row.Name, got, c.want)
		}
	}
}

// TestSummarizeWithoutCPU: a job without a CPU time (recorded before it
// was measured) orders and shares the table by wall time and marks the
// CPU sums that leave it out.
func TestSummarizeWithoutCPU(t *testing.T) {
	tab, err := Summarize([]Group{
		{Paper: "p", Experiment: "p/a", Source: SourceRuns, Jobs: []Job{{Label: "[x]", Wall: 30, CPU: 50}, {Label: "[y]", Wall: 10}}},
		{Paper: "p", Experiment: "p/b", Source: SourceRuns, Jobs: []Job{{Label: "[z]", Wall: 60}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if tab.ByCPU {
		t.Fatal("ByCPU = true with jobs lacking a CPU time")
	}
	if tab.Experiments[0].Name != "p/b" || tab.Share(tab.Experiments[0]) != 0.6 || tab.Share(tab.Experiments[1]) != 0.4 {
		t.Errorf("rows %+v, want p/b first with 60/100 of the wall time, p/a 40/100", tab.Experiments)
	}
	if got := cpuText(tab.Experiments[1]); got != "50.0s+" {
		t.Errorf("p/a CPU text %q, want 50.0s+ (one job without CPU)", got)
	}
	if got := cpuText(tab.Experiments[0]); got != "-" {
		t.Errorf("p/b CPU text %q, want - (no job with CPU)", got)
	}
	if got := coresText(tab.Experiments[1]); got != "-" {
		t.Errorf("p/a cores %q, want - (a job without CPU time)", got)
	}
	var text strings.Builder
	tab.WriteText(&text)
	if !strings.Contains(text.String(), "2 of 3 jobs have no CPU time") {
		t.Errorf("the notes do not count the jobs without CPU time:\n%s", text.String())
	}
	if !strings.Contains(text.String(), "Largest job is the job of most wall-clock time") {
		t.Errorf("the notes do not say the largest job is by wall time here:\n%s", text.String())
	}
	if l := tab.Experiments[1].Largest; l.Label != "[x]" {
		t.Errorf("p/a largest %q, want [x] (largest wall, 30 s)", l.Label)
	}
}

// TestElapsedUnknown: an experiment without a readable span shows "-",
// and a paper summing it with one that has a span marks the sum with "+".
func TestElapsedUnknown(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tab, err := Summarize([]Group{
		{Paper: "p", Experiment: "p/a", Jobs: []Job{{Wall: 30, CPU: 50}}, Start: at("2026-01-01T00:00:00Z"), End: at("2026-01-01T00:01:30.5Z")},
		{Paper: "p", Experiment: "p/b", Jobs: []Job{{Wall: 60, CPU: 60}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b := tab.Experiments[0], tab.Experiments[1]
	if a.Name != "p/b" {
		a, b = b, a
	}
	if got := elapsedText(a); got != "-" {
		t.Errorf("p/b elapsed %q, want - (no span)", got)
	}
	if got := elapsedText(b); got != "1m31s" {
		t.Errorf("p/a elapsed %q, want 1m31s (90.5 s)", got)
	}
	if got := coresText(a); got != "-" {
		t.Errorf("p/b cores %q, want - (no span)", got)
	}
	if got := coresText(b); got != "0.55" {
		t.Errorf("p/a cores %q, want 0.55 (50 s of CPU in 90.5 s)", got)
	}
	if got := coresText(tab.Papers[0]); got != "-" {
		t.Errorf("paper p cores %q, want - (p/b has no span)", got)
	}
	if got := elapsedText(tab.Papers[0]); got != "1m31s+" {
		t.Errorf("paper p elapsed %q, want 1m31s+ (p/b has no span)", got)
	}
	var g Group
	span(&g.Start, &g.End, "not a time", "2026-01-01T00:00:01Z")
	if _, ok := g.Elapsed(); ok {
		t.Errorf("a span with an unreadable start is known: %+v", g)
	}
}

func TestSummarizeRefusesAnExperimentTwice(t *testing.T) {
	g := Group{Paper: "p", Experiment: "p/a", Jobs: []Job{{Wall: 1, CPU: 1}}}
	if _, err := Summarize([]Group{g, g}); err == nil || !strings.Contains(err.Error(), "p/a appears twice") {
		t.Fatalf("err = %v, want p/a appears twice", err)
	}
}

func TestDuration(t *testing.T) {
	for s, want := range map[float64]string{0: "0.0s", 42.34: "42.3s", 59.96: "1m00s", 725: "12m05s", 3599.6: "1h00m", 11220: "3h07m"} {
		if got := Duration(s); got != want {
			t.Errorf("Duration(%g) = %q, want %q", s, got, want)
		}
	}
}

func TestFromReportsNamesABadFile(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "p", "e")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "provenance.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := FromReports(root); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "provenance.json")) {
		t.Fatalf("err = %v, want one naming %s", err, filepath.Join(dir, "provenance.json"))
	}
}
