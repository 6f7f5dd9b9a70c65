package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments"
)

// isTerminal reports whether w is a terminal (only an *os.File can be).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// plainEvery is how often a meter writes a line when its output is not a
// terminal (a log file, a pipe, CI).
const plainEvery = 5 * time.Second

// redrawEvery is how often at most a meter redraws its terminal line.
const redrawEvery = 100 * time.Millisecond

// barWidth is the number of cells of a terminal progress bar.
const barWidth = 20

// meter shows the progress of one piece of long work, done of total steps
// (a fit's iterations, an experiment's jobs), with the elapsed time and an
// estimate of the time left. On a terminal it redraws one line in place;
// elsewhere it writes a plain line at most every plainEvery, and always
// for the last step, so that logs stay short and readable. A nil meter
// shows nothing (--quiet).
type meter struct {
	w     io.Writer
	tty   bool
	now   func() time.Time // the clock; tests set a fake one
	start time.Time
	plain time.Time // when the last plain line was written
	drawn int       // runes of the line on the terminal, to clear it
	drew  time.Time // when the terminal line was last drawn
	width int       // of the terminal; a longer line is cut, or \r could not redraw it
}

// newMeter starts a meter on w, or returns nil when quiet.
func newMeter(w io.Writer, quiet bool) *meter {
	if quiet {
		return nil
	}
	m := newMeterClock(w, isTerminal(w), time.Now)
	if m.tty {
		m.width = outputWidth(w)
	}
	return m
}

func newMeterClock(w io.Writer, tty bool, now func() time.Time) *meter {
	t := now()
	return &meter{w: w, tty: tty, now: now, start: t, plain: t}
}

// show reports done of total steps (total 0 when unknown), with label
// first and detail last on the line. force writes a plain line even when
// the last one is recent (a job finished).
func (m *meter) show(label string, done, total int, eta time.Duration, detail string, force bool) {
	if m == nil {
		return
	}
	now := m.now()
	if m.tty && !force && done != total && m.drawn > 0 && now.Sub(m.drew) < redrawEvery {
		return // a fast loop does not flood the terminal
	}
	elapsed := now.Sub(m.start)
	var b strings.Builder
	b.WriteString(label)
	if total > 0 {
		if m.tty {
			fill := min(barWidth, barWidth*done/total)
			fmt.Fprintf(&b, " [%s%s]", strings.Repeat("█", fill), strings.Repeat("·", barWidth-fill))
		}
		fmt.Fprintf(&b, " %d/%d", done, total)
	} else {
		fmt.Fprintf(&b, " %d", done)
	}
	fmt.Fprintf(&b, "  elapsed %s", fmtDuration(elapsed))
	if eta >= 0 {
		fmt.Fprintf(&b, "  ETA %s", fmtDuration(eta))
	}
	if detail != "" {
		b.WriteString("  " + detail)
	}
	line := b.String()
	if m.tty {
		if r := []rune(line); m.width > 1 && len(r) > m.width-1 {
			line = string(r[:m.width-2]) + "…"
		}
		n := utf8.RuneCountInString(line)
		fmt.Fprintf(m.w, "\r%s%s", line, strings.Repeat(" ", max(m.drawn-n, 0)))
		m.drawn, m.drew = n, now
		return
	}
	if force || now.Sub(m.plain) >= plainEvery {
		fmt.Fprintln(m.w, line)
		m.plain = now
	}
}

// message writes a line of its own (above the bar on a terminal).
func (m *meter) message(line string) {
	if m == nil {
		return
	}
	if m.tty && m.drawn > 0 {
		fmt.Fprintf(m.w, "\r%s\r", strings.Repeat(" ", m.drawn))
		m.drawn = 0
	}
	fmt.Fprintln(m.w, line)
}

// startedLine is the line a fit prints before its first iteration, so that
// a first iteration that takes minutes (tnmf with K in the thousands) is
// not a silent screen: the family and the size of the work, M terms × N
// documents, the non-zeros of the term-document matrix, and K ("" when
// the family has none).
func startedLine(family string, c *engine.Corpus, k string) string {
	line := fmt.Sprintf("started %s: %d terms × %d documents, %d non-zeros", family, c.Terms(), c.Docs(), c.D.NNZ())
	if k != "" {
		line += ", K = " + k
	}
	return line
}

// finish ends the terminal line.
func (m *meter) finish() {
	if m != nil && m.tty && m.drawn > 0 {
		fmt.Fprintln(m.w)
		m.drawn = 0
	}
}

// elapsed is the time since the meter started (0 for a nil meter).
func (m *meter) elapsed() time.Duration {
	if m == nil {
		return 0
	}
	return m.now().Sub(m.start)
}

// remaining estimates the time left for total steps when done of them
// took elapsed, at the same rate; -1 (no estimate) before the first step.
func remaining(elapsed time.Duration, done, total int) time.Duration {
	if done <= 0 || total <= 0 || done > total {
		return -1
	}
	return time.Duration(float64(elapsed) / float64(done) * float64(total-done))
}

// fmtDuration prints d to the second: 7s, 3m05s, 2h04m.
func fmtDuration(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	default:
		return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
	}
}

// progressView shows an experiment's progress: jobs done of total, the
// elapsed time and an ETA from the rate of the jobs computed so far (found
// cached jobs take no time and are left out of the rate). On a terminal it
// is one line redrawn in place, naming the job and iteration being
// computed; otherwise a line per finished job. Nil shows nothing.
type progressView struct {
	mu sync.Mutex
	m  *meter
}

func newProgressView(w io.Writer, quiet bool) *progressView {
	m := newMeter(w, quiet)
	if m == nil {
		return nil
	}
	return &progressView{m: m}
}

// Update is an experiments.Runner Progress callback.
func (v *progressView) Update(p experiments.Progress) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	// The job's label repeats the experiment's id, which leads the line.
	job := strings.TrimSpace(strings.TrimPrefix(p.Job, p.Experiment))
	computed := p.Done - p.Cached
	eta := remaining(v.m.elapsed(), computed, p.Total-p.Cached)
	if p.Done == p.Total {
		eta = 0
	}
	switch p.Event {
	case experiments.EventDone:
		v.m.show(p.Experiment, p.Done, p.Total, eta, "done "+job, true)
	case experiments.EventCached:
		// Cached jobs are found in a burst before anything is computed:
		// on a terminal the count moves, in a log one line says how many.
		if v.m.tty || p.Done == p.Total {
			v.m.show(p.Experiment, p.Done, p.Total, eta, "cached "+job, !v.m.tty)
		}
	case experiments.EventStart:
		v.m.show(p.Experiment, p.Done, p.Total, eta, job, false)
	case experiments.EventIter:
		v.m.show(p.Experiment, p.Done, p.Total, eta, fmt.Sprintf("%s iteration %d", job, p.Iter), false)
	}
}

// Note writes line on a line of its own: above the progress line, or
// straight to w when the view is nil (--quiet), as a warning is never
// silenced.
func (v *progressView) Note(w io.Writer, line string) {
	if v == nil {
		fmt.Fprintln(w, line)
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.m.message(line)
}

// recomputedNote is the warning for a job whose stored run was not served
// (experiments.EventRecomputed).
func recomputedNote(p experiments.Progress) string {
	if strings.HasPrefix(p.Detail, "failed before") {
		return fmt.Sprintf("topicmf run: %s: %s; computed again", p.Job, p.Detail)
	}
	return fmt.Sprintf("topicmf run: warning: %s: the stored run is damaged, it does not match its manifest (%s); computed again", p.Job, p.Detail)
}

// Finish ends the experiment's line.
func (v *progressView) Finish() {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.m.finish()
}

// lastObjective words a fit's objective for its progress line. A family
// that evaluates its objective only every few iterations (LDA's collapsed
// Gibbs sampler: every eval-every sweeps) reports NaN in between; the line
// then shows the last value evaluated, marked with its iteration, or says
// that none has been, rather than "NaN", which reads as a diverged fit.
type lastObjective struct {
	value float64
	iter  int // 0: none evaluated yet
}

func (l *lastObjective) text(it engine.Iteration) string {
	if !math.IsNaN(it.Objective) {
		l.value, l.iter = it.Objective, it.Iter
		return fmt.Sprintf("objective %.6g", it.Objective)
	}
	if l.iter == 0 {
		return "objective not evaluated yet"
	}
	return fmt.Sprintf("objective %.6g (at iteration %d)", l.value, l.iter)
}
