package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/topicmf/topicmf/experiments"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// A log gets a line per finished job with the count, elapsed time and an
// ETA from the rate of the computed jobs; cached jobs found before any
// computing give one line when they are all there is.
func TestProgressPlain(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{time.Unix(0, 0)}
	v := &progressView{m: newMeterClock(&buf, false, clk.now)}
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventCached, Job: "x/y [c]", Done: 1, Cached: 1, Total: 4})
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventStart, Job: "x/y [a]", Done: 1, Cached: 1, Total: 4})
	clk.advance(2 * time.Second)
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventIter, Job: "x/y [a]", Iter: 3, Done: 1, Cached: 1, Total: 4})
	clk.advance(8 * time.Second)
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventDone, Job: "x/y [a]", Done: 2, Cached: 1, Total: 4})
	clk.advance(10 * time.Second)
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventDone, Job: "x/y [b]", Done: 3, Cached: 1, Total: 4})
	clk.advance(95 * time.Second)
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventDone, Job: "x/y [d]", Done: 4, Cached: 1, Total: 4})
	v.Finish()
	// After 10 s, 1 of 3 jobs to compute is done: 20 s left; after 20 s,
	// 2 of 3: 10 s left.
	want := "x/y 2/4  elapsed 10s  ETA 20s  done [a]\n" +
		"x/y 3/4  elapsed 20s  ETA 10s  done [b]\n" +
		"x/y 4/4  elapsed 1m55s  ETA 0s  done [d]\n"
	if buf.String() != want {
		t.Fatalf("plain progress:\n%s\nwant\n%s", buf.String(), want)
	}
}

// A fit's plain progress is a line every plainEvery, not one per
// iteration.
func TestMeterPlainEvery(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{time.Unix(0, 0)}
	m := newMeterClock(&buf, false, clk.now)
	for i := 1; i <= 100; i++ {
		clk.advance(time.Second / 4)
		m.show("iteration", i, 200, remaining(m.elapsed(), i, 200), "objective 1", false)
	}
	m.finish()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 5 { // 25 s of work, a line each 5 s
		t.Fatalf("%d lines, want 5:\n%s", len(lines), buf.String())
	}
	if lines[0] != "iteration 20/200  elapsed 5s  ETA 45s  objective 1" {
		t.Fatalf("first line %q", lines[0])
	}
}

// On a terminal the line is redrawn in place with a bar, and a shorter
// line clears what the longer one left.
func TestMeterTerminal(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{time.Unix(0, 0)}
	m := newMeterClock(&buf, true, clk.now)
	clk.advance(3 * time.Second)
	m.show("iteration", 5, 10, remaining(m.elapsed(), 5, 10), "objective 12.5", false)
	m.show("iteration", 10, 10, 0, "", false)
	m.finish()
	want := "\riteration [██████████··········] 5/10  elapsed 3s  ETA 3s  objective 12.5" +
		"\riteration [████████████████████] 10/10  elapsed 3s  ETA 0s" + strings.Repeat(" ", len("  objective 12.5")-1) + "\n"
	if buf.String() != want {
		t.Fatalf("terminal progress:\n%q\nwant\n%q", buf.String(), want)
	}

	// Redraws at most every redrawEvery: 1,000 iterations in 1 s give
	// about 10 lines, and the last one is always drawn.
	buf.Reset()
	m = newMeterClock(&buf, true, clk.now)
	for i := 1; i <= 1000; i++ {
		clk.advance(time.Millisecond)
		m.show("iteration", i, 1000, -1, "", false)
	}
	if n := strings.Count(buf.String(), "\r"); n < 9 || n > 12 {
		t.Errorf("%d redraws for 1,000 iterations in 1 s", n)
	}
	if !strings.Contains(buf.String(), "1000/1000") {
		t.Error("the last iteration was not drawn")
	}
}

func TestQuietMeter(t *testing.T) {
	var buf bytes.Buffer
	if m := newMeter(&buf, true); m != nil {
		t.Fatal("--quiet gave a meter")
	}
	var v *progressView = newProgressView(&buf, true)
	v.Update(experiments.Progress{Experiment: "x/y", Event: experiments.EventDone, Done: 1, Total: 1})
	v.Finish()
	if buf.Len() != 0 {
		t.Fatalf("quiet view wrote %q", buf.String())
	}
}

func TestFmtDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 1499 * time.Millisecond: "1s", 59 * time.Second: "59s", 61 * time.Second: "1m01s",
		3599 * time.Second: "59m59s", 3600 * time.Second: "1h00m", 26*time.Hour + 5*time.Minute: "26h05m",
	} {
		if got := fmtDuration(d); got != want {
			t.Errorf("fmtDuration(%v) = %q, want %q", d, got, want)
		}
	}
	if remaining(time.Second, 0, 10) != -1 {
		t.Error("an ETA before the first step")
	}
}

// fit on a Matrix Market file writes progress lines to a non-terminal
// stderr only when the fit is long; --quiet writes none even then.
func TestFitQuiet(t *testing.T) {
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 30, 20)
	_, stderr, err := runTopicmf(context.Background(), "fit", "--quiet", "--model", "nmf", "-k", "3", "--iters", "5",
		"--mtx", mtx, "--vocab", vocab, "--out", filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	if stderr != "" {
		t.Fatalf("--quiet fit wrote to stderr: %q", stderr)
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

// A terminal line longer than the terminal is cut, so that \r redraws it.
func TestMeterTerminalWidth(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{time.Unix(0, 0)}
	m := newMeterClock(&buf, true, clk.now)
	m.width = 40
	m.show("a-long-experiment-name", 1, 2, 0, "done [a job with a long label]", true)
	line := strings.TrimPrefix(buf.String(), "\r")
	if n := utf8.RuneCountInString(line); n != 39 || !strings.HasSuffix(line, "…") {
		t.Fatalf("line of %d runes: %q", n, line)
	}
}
