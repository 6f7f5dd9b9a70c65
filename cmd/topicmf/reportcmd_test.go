package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report"}, "requires at least 1 arg"},
		{[]string{"report", "nope"}, `no experiment matches "nope/*"`},
		{[]string{"report", "clitest", "--results", filepath.Join(res, "absent")}, "report clitest"},
	} {
		_, _, err := runTopicmf(context.Background(), c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
	}
}
