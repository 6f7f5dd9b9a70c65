package gmf2012

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments/exptest"
	"github.com/topicmf/topicmf/internal/realdata"

	"github.com/topicmf/topicmf/experiments"
)

func TestGroupSplit(t *testing.T) {
	for k, want := range map[int][2]int{110: {10, 4}, 220: {20, 8}, 550: {50, 20}, 1100: {100, 40}} {
		ks, kc, err := groupSplit(k)
		if err != nil || ks != want[0] || kc != want[1] || ks+wikiClasses*kc != k {
			t.Errorf("groupSplit(%d) = %d, %d, %v; want %v", k, ks, kc, err, want)
		}
	}
	for _, k := range []int{0, 100, 111, -110} {
		if _, _, err := groupSplit(k); err == nil || !strings.Contains(err.Error(), "ktotal") {
			t.Errorf("groupSplit(%d): error %v, want one naming ktotal", k, err)
		}
	}
}

// TestTotalTopics checks K = Ks + P·Kc for the settings of §7.1 on the
// 25 Wikipedia classes and on the 20 Newsgroups classes, by hand:
// 10 + 20·4 = 90, 20 + 20·8 = 180, 50 + 20·20 = 450, 100 + 20·40 = 900.
func TestTotalTopics(t *testing.T) {
	for ktotal, want := range map[int][2]int{110: {110, 90}, 220: {220, 180}, 550: {550, 450}, 1100: {1100, 900}} {
		ks, kc, err := groupSplit(ktotal)
		if err != nil {
			t.Fatal(err)
		}
		if got := totalTopics(ks, kc, wikiClasses); got != want[0] {
			t.Errorf("Wikipedia K of setting %d = %d, want %d", ktotal, got, want[0])
		}
		if got := totalTopics(ks, kc, newsClasses); got != want[1] {
			t.Errorf("20 Newsgroups K of setting %d = %d, want %d", ktotal, got, want[1])
		}
		if got := settingK(newsData, ktotal); got != want[1] {
			t.Errorf("settingK(20newsgroups, %d) = %d, want %d", ktotal, got, want[1])
		}
	}
	if got := settingK("other", 220); got != 220 {
		t.Errorf("settingK of an unknown data set = %d, want the setting itself", got)
	}
}

// timingResults builds results with the given seconds per iteration by
// method label and K (one job each, λ1 = 0.01 for the RLSI methods) on
// the Wikipedia-like data set.
func timingResults(secs map[string]map[string]float64) *experiments.Results {
	return timingResultsOn(wikiData, secs)
}

func timingResultsOn(dataset string, secs map[string]map[string]float64) *experiments.Results {
	e := Tables67()
	res := &experiments.Results{Experiment: e}
	for label, byK := range secs {
		for k, s := range byK {
			point := map[string]string{"ktotal": k}
			if label == labelRLSI || label == labelGRLSI {
				point["lambda1"] = "0.01"
			}
			j := &experiments.Job{Experiment: e, Dataset: dataset, Point: point, Method: experiments.MethodSpec{Label: label}, TaskParams: map[string]string{"ktotal": k}}
			run := &experiments.StoredRun{Metrics: []experiments.Metric{{Name: "sec_per_iter", Value: s}}}
			res.Jobs = append(res.Jobs, &experiments.JobResult{Job: j, Run: run})
		}
	}
	return res
}

func TestJudgeSpeedup(t *testing.T) {
	// 4/2 = 2×, 12/4 = 3×, 40/10 = 4×: held.
	r := timingResults(map[string]map[string]float64{
		labelRLSI:  {"110": 4, "220": 12, "1100": 40},
		labelGRLSI: {"110": 2, "220": 4, "1100": 10},
	})
	v := judgeSpeedup(r, wikiData, labelRLSI, labelGRLSI, true)
	if v.Outcome != experiments.Held || !strings.Contains(v.Detail, "K=110: 2.00× (paper at λ1 = 0.01: 1.30×), K=220: 3.00×") || !strings.Contains(v.Detail, "K=1100: 4.00× (paper at λ1 = 0.01: 3.23×)") {
		t.Fatalf("held: %+v", v)
	}
	// 4/2 = 2×, 6/4 = 1.5×: falls.
	r = timingResults(map[string]map[string]float64{labelNMF: {"110": 4, "220": 6}, labelGroupNMF: {"110": 2, "220": 4}})
	if v := judgeSpeedup(r, wikiData, labelNMF, labelGroupNMF, false); v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "falls from K = 110 to K = 220") {
		t.Fatalf("falling: %+v", v)
	}
	// Group slower at K = 110.
	r = timingResults(map[string]map[string]float64{labelNMF: {"110": 1, "220": 6}, labelGroupNMF: {"110": 2, "220": 4}})
	if v := judgeSpeedup(r, wikiData, labelNMF, labelGroupNMF, false); v.Outcome != experiments.NotHeld || !strings.Contains(v.Detail, "not faster at K = 110") {
		t.Fatalf("slower: %+v", v)
	}
	r = timingResults(map[string]map[string]float64{labelNMF: {"110": 4}, labelGroupNMF: {"110": 2}})
	if v := judgeSpeedup(r, wikiData, labelNMF, labelGroupNMF, false); v.Outcome != experiments.Inconclusive {
		t.Fatalf("one K: %+v", v)
	}
	// Per data set: 20 Newsgroups jobs do not count for the Wikipedia-like
	// claim, its K are Ks + 20·Kc, and no paper ratio is printed for it.
	r = timingResultsOn(newsData, map[string]map[string]float64{labelRLSI: {"110": 3, "1100": 50}, labelGRLSI: {"110": 1, "1100": 5}})
	if v := judgeSpeedup(r, wikiData, labelRLSI, labelGRLSI, true); v.Outcome != experiments.Inconclusive {
		t.Fatalf("Wikipedia-like claim from 20 Newsgroups jobs: %+v", v)
	}
	v = judgeSpeedup(r, newsData, labelRLSI, labelGRLSI, false)
	if v.Outcome != experiments.Held || !strings.Contains(v.Detail, "K=90: 3.00×, K=900: 10.00×") || strings.Contains(v.Detail, "paper") {
		t.Fatalf("20 Newsgroups: %+v", v)
	}
}

// wikiRLSI110Seed is the derived seed of the Wikipedia-like RLSI job at
// ktotal = 110, λ1 = 0.01 under Version 1 of tables6-7 (printed by
// Tables67().Jobs(false, 0) at commit 84b953c).
const wikiRLSI110Seed = 5739205092372645378

func TestTables67Jobs(t *testing.T) {
	e := Tables67()
	full, err := e.Jobs(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Per data set, RLSI and GRLSI: 4 K × 4 λ1; NMF and GroupNMF: 4 K (λ1 does
	// not apply).
	if len(full) != 2*(2*16+2*4) {
		t.Errorf("%d full jobs, want 80", len(full))
	}
	quick, err := e.Jobs(true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(quick) != 16 {
		t.Errorf("%d quick jobs, want 16", len(quick))
	}
	// The Wikipedia-like jobs keep the configurations (hence seeds) of
	// Version 1, which had only that data set: the seed is derived from the
	// experiment ID and the job configuration, which adding a data set does
	// not change. Seed of RLSI at ktotal = 110, λ1 = 0.01 as Version 1
	// (commit 84b953c, before 20 Newsgroups was added) expanded it.
	for _, j := range full {
		if j.Dataset == wikiData && j.Method.Label == labelRLSI && j.Point["ktotal"] == "110" && j.Point["lambda1"] == "0.01" {
			if j.Seed != wikiRLSI110Seed {
				t.Errorf("Wikipedia-like RLSI K=110 λ1=0.01 seed %d, want %d (Version 1)", j.Seed, wikiRLSI110Seed)
			}
		}
	}
	// The paper's Table 7 is complete (its last cell 97.13 was read as lost).
	n := 0
	for _, pv := range e.PaperValues {
		if pv.Where[experiments.ColDataset] != wikiData {
			t.Errorf("paper value without the Wikipedia-like data set: %+v", pv.Where)
		}
		if math.IsNaN(pv.Value) {
			t.Errorf("NaN paper value at %+v", pv.Where)
		}
		n++
	}
	if n != 32 {
		t.Errorf("%d paper values, want 32", n)
	}
	// The column is seconds: Table 7's last cell, 97.13 minutes, appears
	// as 5827.8 seconds.
	found := false
	for _, pv := range e.PaperValues {
		found = found || math.Abs(pv.Value-5827.8) < 1e-9
	}
	if !found {
		t.Error("no paper value of 5827.8 s (Table 7's 97.13 minutes)")
	}
}

// newsMissing returns why the 20 Newsgroups files are unavailable ("" when
// they are all under TOPICMF_DATA).
func newsMissing() string {
	dir, err := realdata.Resolve()
	if err != nil {
		return err.Error()
	}
	if dir == "" {
		return "TOPICMF_DATA is not set"
	}
	src, err := datasets.Lookup(newsData)
	if err != nil {
		return err.Error()
	}
	for _, f := range src.Files {
		if _, err := os.Stat(filepath.Join(dir, f.Path)); err != nil {
			return fmt.Sprintf("%s is absent from TOPICMF_DATA=%s", f.Path, dir)
		}
	}
	return ""
}

// checkTiming checks that a timing job ran its 3 iterations and measured
// a positive time per iteration.
func checkTiming(t *testing.T, j *experiments.JobResult) {
	t.Helper()
	s, ok := j.Run.Metric("sec_per_iter")
	if !ok || !(s > 0) {
		t.Errorf("%s: sec_per_iter %v %v", j.Job.Label(), s, ok)
	}
	if n := len(j.Run.IterColumn("objective")); n != 3 {
		t.Errorf("%s: %d iterations, want 3", j.Job.Label(), n)
	}
}

// TestTables67Quick runs the quick variant end to end (about 20 s): the
// Wikipedia-like jobs always, the 20 Newsgroups ones when its files are
// under TOPICMF_DATA.
func TestTables67Quick(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 16 models on a 1,000 × 1,000 synthetic corpus and 20 Newsgroups; skipped in -short")
	}
	e := Tables67()
	want := 16
	if why := newsMissing(); why != "" {
		t.Logf("20 Newsgroups jobs skipped: %s", why)
		e.Datasets = []string{wikiData}
		want = 8
	}
	res := exptest.RunQuickJobs(t, e, want, "")
	for _, j := range res.Jobs {
		checkTiming(t, j)
		k, _ := j.Run.Metric("k")
		p := map[string]float64{wikiData: wikiClasses, newsData: newsClasses}[j.Job.Dataset]
		ks, _ := j.Run.Metric("ks")
		kc, _ := j.Run.Metric("kc")
		if k != ks+p*kc || (j.Job.Point["ktotal"] == "110" && ks != 10) {
			t.Errorf("%s: k = %v, ks = %v, kc = %v (P = %v)", j.Job.Label(), k, ks, kc, p)
		}
	}
	for _, v := range res.Verdicts() {
		t.Logf("%s: %s", v.Outcome, v.Detail)
	}
}
