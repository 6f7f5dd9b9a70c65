package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/store"
)

// TestReportCmd renders the toy experiment, deletes REPORT.md and has
// report rebuild it from the section alone.
func TestReportCmd(t *testing.T) {
	toyExperiment()
	res := t.TempDir()
	if _, _, err := runTopicmf(context.Background(), "run", "clitest/toy", "--results", res); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(res, "clitest", "REPORT.md")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runTopicmf(context.Background(), "report", "clitest", "--results", res)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(stdout) != path {
		t.Errorf("stdout %q, want the report's path", stdout)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != string(want) {
		t.Fatalf("rebuilt REPORT.md differs (err %v):\n%s\nwant:\n%s", err, got, want)
	}
	checkCLIErrors(t, []cliError{
		{[]string{"report"}, "requires at least 1 arg"},
		{[]string{"report", "nope"}, `no experiment matches "nope/*"`},
		{[]string{"report", "clitest", "--results", filepath.Join(res, "absent")}, "report clitest"},
	})
}

// TestReportCheck: report --check agrees with a report rendered from the
// same runs, finds a changed number in a committed CSV, and lists an
// experiment whose runs are absent as not checked; checking nothing fails.
func TestReportCheck(t *testing.T) {
	toyExperiment()
	res := t.TempDir()
	ctx := context.Background()
	if _, _, err := runTopicmf(ctx, "run", "clitest/toy", "--results", res); err != nil {
		t.Fatal(err)
	}
	out, _, err := runTopicmf(ctx, "report", "--check", "clitest", "--results", res)
	if err != nil || !strings.Contains(out, "agree      clitest/toy (6 runs)") || !strings.Contains(out, "1 reports agree with their runs, 0 differ, 0 could not be checked") {
		t.Fatalf("intact: %v\n%s", err, out)
	}
	csvPath := filepath.Join(res, "clitest", "toy", "scores.csv")
	b, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	// The k=2 score is the mean of 2 and 3 over the two replicates.
	changed := strings.Replace(string(b), "2.5", "2.6", 1)
	if changed == string(b) {
		t.Fatalf("scores.csv has no 2.5:\n%s", b)
	}
	os.WriteFile(csvPath, []byte(changed), 0o644)
	out, _, err = runTopicmf(ctx, "report", "--check", "clitest", "--results", res)
	if err == nil || !strings.Contains(out, "DIFFER     clitest/toy") || !strings.Contains(out, `scores.csv: line 2`) {
		t.Fatalf("changed CSV: %v\n%s", err, out)
	}
	os.WriteFile(csvPath, b, 0o644)
	// A damaged run (one changed digit in its metrics.csv) is named as
	// damaged, not as absent (it used to be "not in runs/").
	ents, err := os.ReadDir(filepath.Join(res, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	var damaged string
	for _, e := range ents {
		if m := filepath.Join(res, "runs", e.Name(), "metrics.csv"); damaged == "" && store.IsRunID(e.Name()) {
			mb, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(m, append(mb, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			damaged = e.Name()
		}
	}
	out, _, err = runTopicmf(ctx, "report", "--check", "clitest", "--results", res)
	want := "unchecked  clitest/toy: 1 of 6 runs are damaged (the first: " + damaged[:12] + "…, metrics.csv: "
	if err == nil || !strings.Contains(out, want) || !strings.Contains(out, `"topicmf run clitest/toy" recomputes them`) || strings.Contains(out, "not in") {
		t.Fatalf("damaged run: %v\n%s\nwant %s…", err, out, want)
	}
	if err := os.RemoveAll(filepath.Join(res, "runs")); err != nil {
		t.Fatal(err)
	}
	// Nothing checked is a failure (rev-cli #11): no runs, no reports, a
	// mistyped --results.
	out, _, err = runTopicmf(ctx, "report", "--check", "clitest", "--results", res)
	if err == nil || !strings.Contains(out, "unchecked  clitest/toy: 6 of 6 runs are not in") ||
		!strings.Contains(err.Error(), "report --check: nothing was checked: none of the 1 reports can be checked (their runs are not in") {
		t.Fatalf("no runs: %v\n%s", err, out)
	}
	for _, root := range []string{t.TempDir(), filepath.Join(res, "typo")} {
		out, _, err = runTopicmf(ctx, "report", "--check", "clitest", "--results", root)
		if err == nil || out != "" || err.Error() != "report --check: nothing was checked: no committed report of clitest under "+root+" (give the results root with --results)" {
			t.Errorf("--results %s: %v\n%s", root, err, out)
		}
	}
	if _, _, err := runTopicmf(ctx, "report", "--check", "--quick", "clitest", "--results", res); err == nil {
		t.Error("--check --quick accepted")
	}
}

// TestReportVerify: report --verify recomputes the committed toy run and
// agrees; after one stored metric is altered by hand in provenance.json it
// fails naming the job and the metric; a section without provenance.json
// cannot be verified.
func TestReportVerify(t *testing.T) {
	toyExperiment()
	res := t.TempDir()
	if _, _, err := runTopicmf(context.Background(), "run", "clitest/toy", "--results", res); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runTopicmf(context.Background(), "report", "--verify", "clitest", "--results", res, "--budget", "1h")
	if err != nil || !strings.Contains(stdout, "6 jobs of 1 experiments recomputed: 6 agree, 0 differ") {
		t.Fatalf("unaltered: %v\n%s", err, stdout)
	}
	prov := filepath.Join(res, "clitest", "toy", "provenance.json")
	b, err := os.ReadFile(prov)
	if err != nil {
		t.Fatal(err)
	}
	// k=8 rep 1: score 9.
	altered := strings.Replace(string(b), `"score":"9"`, `"score":"9.5"`, 1)
	if altered == string(b) {
		t.Fatalf("no score 9 in %s", b)
	}
	if err := os.WriteFile(prov, []byte(altered), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err = runTopicmf(context.Background(), "report", "--verify", "clitest/*", "--results", res, "--budget", "1h")
	if err == nil || !strings.Contains(stdout, "DIFFER   clitest/toy [toy k=8 rep 1]: metric score: committed 9.5, recomputed 9") {
		t.Fatalf("altered: %v\n%s", err, stdout)
	}
	if err := os.Remove(prov); err != nil {
		t.Fatal(err)
	}
	_, _, err = runTopicmf(context.Background(), "report", "--verify", "clitest", "--results", res)
	if err == nil || !strings.Contains(err.Error(), "have no provenance.json") {
		t.Fatalf("without provenance.json: %v", err)
	}
}

// TestReportSummary writes the committed reports' verdict counts between
// the markers of a README (links relative to it), leaves it alone the
// second time, and refuses a file without the markers, unchanged.
func TestReportSummary(t *testing.T) {
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	doc := "# x\n" + report.SummaryBegin + "\n" + report.SummaryEnd + "\ntail\n"
	if err := os.WriteFile(readme, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", "..", "results"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := writeSummary(&out, root, readme); err != nil || !strings.Contains(out.String(), "written") {
		t.Fatalf("first write: %v (%s)", err, out.String())
	}
	b, _ := os.ReadFile(readme)
	link, _ := filepath.Rel(dir, root)
	if !strings.Contains(string(b), "[`rlsi2011`]("+filepath.ToSlash(link)+"/rlsi2011/REPORT.md) |") || !strings.HasSuffix(string(b), report.SummaryEnd+"\ntail\n") {
		t.Errorf("README after --summary:\n%s", b)
	}
	out.Reset()
	if err := writeSummary(&out, root, readme); err != nil || !strings.Contains(out.String(), "unchanged") {
		t.Errorf("second write: %v (%s)", err, out.String())
	}
	plain := filepath.Join(dir, "PLAIN.md")
	if err := os.WriteFile(plain, []byte("no markers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSummary(&out, root, plain); err == nil || !strings.Contains(err.Error(), plain) {
		t.Errorf("no markers: err = %v, want one naming %s", err, plain)
	}
	if b, _ := os.ReadFile(plain); string(b) != "no markers\n" {
		t.Errorf("a file without markers was changed: %q", b)
	}
}
