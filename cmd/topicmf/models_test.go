package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/topicmf/topicmf/engine/catalog"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// checkGolden compares got with the golden file path; with -update it
// writes got there first.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update creates it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestModelsNMFGolden pins the listing of one family, wrapping included.
func TestModelsNMFGolden(t *testing.T) {
	out, _, err := runTopicmf(context.Background(), "models", "nmf")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "models-nmf.golden"), out)
}

// Every family, every parameter key and declared default is listed, within
// the width.
func TestModelsListsEveryFamily(t *testing.T) {
	out, _, err := runTopicmf(context.Background(), "models")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > modelsWidth {
			t.Errorf("line of %d runes: %q", n, line)
		}
	}
	for _, f := range catalog.Families() {
		if !strings.Contains(out, "\n"+f.Name+"\n") && !strings.HasPrefix(out, f.Name+"\n") {
			t.Errorf("family %s not listed", f.Name)
		}
		for _, p := range f.Params {
			// The declared default is in the table, or in the note under
			// it when fit's own default is shown.
			if !strings.Contains(out, "  "+p.Key+" ") || !strings.Contains(out, " "+p.Default+" ") && !strings.Contains(out, p.Key+"="+p.Default) {
				t.Errorf("%s: parameter %s (default %s) not listed", f.Name, p.Key, p.Default)
			}
		}
	}
	if _, _, err := runTopicmf(context.Background(), "models", "nosuch"); err == nil || !strings.Contains(err.Error(), "known: cnmf") {
		t.Errorf("models nosuch: %v", err)
	}
	help, _, err := runTopicmf(context.Background(), "fit", "--help")
	_, families, _ := strings.Cut(strings.ReplaceAll(help, "\n", " "), "Model families")
	for _, name := range catalog.Names() {
		if err != nil || !strings.Contains(families, " "+name+",") && !strings.Contains(families, " "+name+".") {
			t.Errorf("fit --help does not list the family %s: %v\n%s", name, err, help)
		}
	}
}

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"", 10, ""},
		{"one", 10, "one"},
		{"a bb ccc dddd", 6, "a bb|ccc|dddd"},
		{"a bb ccc", 4, "a bb|ccc"},
		{"λ1 ≥ 0, ok", 4, "λ1 ≥|0,|ok"}, // runes, not bytes
		{"unbreakable-word x", 5, "unbreakable-word|x"},
	} {
		if got := strings.Join(wrap(c.in, c.width), "|"); got != c.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
