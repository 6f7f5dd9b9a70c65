package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
)

func TestProgressPlain(t *testing.T) {
	var buf bytes.Buffer
	v := newProgressView(&buf)
	if v.tty {
		t.Fatal("a buffer is not a terminal")
	}
	for _, p := range []experiments.Progress{
		{Experiment: "x/y", Event: experiments.EventStart, Job: "x/y [a]", Total: 2},
		{Experiment: "x/y", Event: experiments.EventIter, Job: "x/y [a]", Iter: 3, Total: 2},
		{Experiment: "x/y", Event: experiments.EventDone, Job: "x/y [a]", Done: 1, Total: 2},
		{Experiment: "x/y", Event: experiments.EventCached, Job: "x/y [b]", Done: 2, Cached: 1, Total: 2},
	} {
		v.Update(p)
	}
	v.Finish()
	want := "[1/2] done   x/y [a]\n[2/2] cached x/y [b]\n"
	if buf.String() != want {
		t.Fatalf("plain progress:\n%q\nwant\n%q", buf.String(), want)
	}
}

// TestProgressBar drives the terminal mode into a buffer: the bar shows
// the experiment and the count.
func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	v := &progressView{w: &buf, tty: true}
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventStart, Job: "x/y [a]", Total: 4})
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventDone, Job: "x/y [a]", Done: 1, Total: 4})
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventCached, Job: "x/y [b]", Done: 4, Total: 4})
	v.Finish()
	out := buf.String()
	if !strings.Contains(out, "4/4") {
		t.Fatalf("bar output lacks the count: %q", out)
	}
	if v.bar != nil {
		t.Fatal("Finish left the bar")
	}
}

func TestIsTerminal(t *testing.T) {
	if isTerminal(&bytes.Buffer{}) {
		t.Fatal("buffer reported as a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Fatal("regular file reported as a terminal")
	}
}
