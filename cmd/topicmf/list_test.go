package main

import (
	"context"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
)

func TestListCmd(t *testing.T) {
	out, _, err := runTopicmf(context.Background(), "list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "PAPER") || !strings.Contains(lines[0], "TITLE") {
		t.Fatalf("header: %q", lines[0])
	}
	all := experiments.All()
	if len(lines) != 1+len(all) {
		t.Fatalf("%d lines for %d experiments:\n%s", len(lines), len(all), out)
	}
	for i, e := range all {
		if !strings.HasPrefix(lines[i+1], e.ID+" ") || !strings.Contains(lines[i+1], e.Title) {
			t.Errorf("line %q does not list %s", lines[i+1], e.ID)
		}
	}
	if _, _, err := runTopicmf(context.Background(), "list", "extra"); err == nil {
		t.Fatal("list accepted an argument")
	}
}
