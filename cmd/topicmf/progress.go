package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/topicmf/topicmf/experiments"
)

// isTerminal reports whether w is a terminal (only an *os.File can be).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressView shows an experiment's progress on w: a progress bar when w
// is a terminal, otherwise one plain line per finished (or cached) job, so
// that logs stay readable.
type progressView struct {
	mu  sync.Mutex
	w   io.Writer
	tty bool
	bar *progressbar.ProgressBar
	exp string // experiment of the current bar
}

func newProgressView(w io.Writer) *progressView {
	return &progressView{w: w, tty: isTerminal(w)}
}

// Update is an experiments.Runner Progress callback.
func (v *progressView) Update(p experiments.Progress) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.tty {
		if v.bar == nil {
			v.exp = p.Experiment
			v.bar = progressbar.NewOptions(p.Total,
				progressbar.OptionSetWriter(v.w),
				progressbar.OptionSetDescription(p.Experiment),
				progressbar.OptionShowCount(),
				progressbar.OptionSetWidth(30),
				progressbar.OptionThrottle(100_000_000),
			)
		}
		switch p.Event {
		case experiments.EventDone, experiments.EventCached:
			if p.Done == p.Total {
				v.bar.Describe(v.exp)
			}
			v.bar.Set(p.Done)
		case experiments.EventIter:
			v.bar.Describe(fmt.Sprintf("%s iter %d", p.Job, p.Iter))
		case experiments.EventStart:
			v.bar.Describe(p.Job)
		}
		return
	}
	switch p.Event {
	case experiments.EventDone:
		fmt.Fprintf(v.w, "[%d/%d] done   %s\n", p.Done, p.Total, p.Job)
	case experiments.EventCached:
		fmt.Fprintf(v.w, "[%d/%d] cached %s\n", p.Done, p.Total, p.Job)
	}
}

// Finish ends the bar of the current experiment.
func (v *progressView) Finish() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.bar != nil {
		v.bar.Describe(v.exp)
		v.bar.Finish()
		v.bar = nil
		fmt.Fprintln(v.w)
	}
}
