package grouping

import (
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/topicmf/topicmf/engine"
)

// ClassSeed is the seed of class p's model in the per-class baselines
// (CRLSI, CNMF): engine.DeriveSeed(seed, "class", p), so every class has
// its own random stream and fitting the single-class model on class p's
// documents with this seed reproduces the baseline's class-p model.
func ClassSeed(seed uint64, p int) uint64 {
	return engine.DeriveSeed(seed, "class", strconv.Itoa(p))
}

// ClassCorpus returns the documents of class p as a corpus of their own
// (same vocabulary, documents in corpus order, no labels), named
// "<corpus>/<class>".
func (l *Layout) ClassCorpus(c *engine.Corpus, p int) (*engine.Corpus, error) {
	lo, hi := l.Offset[p], l.Offset[p+1]
	dt := RowView(l.DT, lo, hi)
	ids := make([]string, hi-lo)
	for i := range ids {
		n := l.Order[lo+i]
		if n < len(c.DocIDs) {
			ids[i] = c.DocIDs[n]
		} else {
			ids[i] = strconv.Itoa(n)
		}
	}
	return engine.NewCorpus(c.Name+"/"+l.ClassNames[p], c.Vocab, dt.T(), ids, nil, nil)
}

// ClassRun is what one class's fit of a per-class baseline produced.
type ClassRun struct {
	Class  int
	Iters  []engine.Iteration
	Status engine.Status
	// Entries are the sizes of the factors whose sparsities the class's
	// iterations report, in their order (e.g. M·K_p for U, N_p·K_p for V),
	// used to weight the merged sparsity.
	Entries []float64
}

// ClassFit fits class p's model, recording every iteration in rec; it is
// called by RunClasses.
type ClassFit func(p int, rec *engine.Recorder) (engine.Status, error)

// RunClasses fits one model per class (the per-class baselines CRLSI and
// CNMF) in lockstep: every class runs its iteration t, then the merged
// iteration t (see MergeAt) is recorded in out — so out's OnIteration sees
// live progress and a cancellation from it stops every class after the
// same iteration — and then iteration t + 1 starts. One class computes at a
// time, each using the whole pool inside its own fit (its parallel loops),
// so no more goroutines compute than the pool allows; the other classes
// wait, idle, at the barrier. A class that stops early (converged,
// cancelled, failed) keeps its last values in the merged record. entries
// gives class p's ClassRun.Entries. Classes are independent, so the
// results do not depend on the order in which they take turns. It returns
// the runs in the order of classes and the first error (by class order).
func RunClasses(classes []int, fit ClassFit, entries func(p int) []float64, out *engine.Recorder) ([]ClassRun, error) {
	n := len(classes)
	runs := make([]ClassRun, n)
	errs := make([]error, n)
	var (
		turn    sync.Mutex // held by the class that computes
		mu      sync.Mutex
		changed = sync.NewCond(&mu)
		reached = make([]int, n)
		done    = make([]bool, n)
		emitted = 0
	)
	for i, p := range classes {
		runs[i] = ClassRun{Class: p, Entries: entries(p)}
	}
	// tryEmit records every merged iteration that all classes have reached
	// (or stopped before); mu is held.
	tryEmit := func() {
		for {
			t := emitted + 1
			any := false
			for i := range classes {
				if reached[i] >= t {
					any = true
				} else if !done[i] {
					return
				}
			}
			if !any {
				return
			}
			out.Record(MergeAt(runs, t-1))
			emitted = t
			changed.Broadcast()
		}
	}
	var wg sync.WaitGroup
	for i, p := range classes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := engine.NewRecorder()
			rec.OnIteration = func(it engine.Iteration) {
				turn.Unlock()
				mu.Lock()
				runs[i].Iters = append(runs[i].Iters, it)
				reached[i] = it.Iter
				tryEmit()
				for emitted < it.Iter {
					changed.Wait()
				}
				mu.Unlock()
				turn.Lock()
			}
			turn.Lock()
			st, err := fit(p, rec)
			turn.Unlock()
			mu.Lock()
			runs[i].Status, errs[i] = st, err
			done[i] = true
			tryEmit()
			changed.Broadcast()
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return runs, nil
}

// MergeStatus combines the classes' statuses: NumericalFailure if any class
// failed (Detail names the first, by class order), else Cancelled if any
// was, else IterationLimit if any hit it, else Converged; Iterations is the
// largest count and Objective the sum of the classes' final objectives.
func MergeStatus(runs []ClassRun, names []string) engine.Status {
	st := engine.Status{Reason: engine.Converged}
	if len(runs) == 0 {
		return engine.Status{Reason: engine.IterationLimit, Objective: math.NaN()}
	}
	cancelled, limited := false, false
	for _, r := range runs {
		st.Iterations = max(st.Iterations, r.Status.Iterations)
		st.Objective += r.Status.Objective
		switch r.Status.Reason {
		case engine.NumericalFailure:
			if st.Reason != engine.NumericalFailure {
				st.Reason = engine.NumericalFailure
				st.Detail = fmt.Sprintf("class %s: %s", names[r.Class], r.Status.Detail)
			}
		case engine.Cancelled:
			cancelled = true
		case engine.IterationLimit:
			limited = true
		}
	}
	if st.Reason != engine.NumericalFailure {
		switch {
		case cancelled:
			st.Reason = engine.Cancelled
		case limited:
			st.Reason = engine.IterationLimit
		}
	}
	return st
}

// MergeAt is the merged iteration t+1 (0-based t) of the classes' runs,
// classes in the order given: the objective and each term are sums over
// classes of their values at that iteration, a class that stopped earlier
// counting with its last value (its model no longer changes); Seconds is
// the sum of the times the classes spent on that iteration; each sparsity
// is the entry-weighted mean over classes.
func MergeAt(runs []ClassRun, t int) engine.Iteration {
	it := engine.Iteration{Iter: t + 1}
	var terms, sp []engine.Term
	var spW []float64
	index := func(list []engine.Term, name string) int {
		for i := range list {
			if list[i].Name == name {
				return i
			}
		}
		return -1
	}
	for _, r := range runs {
		if len(r.Iters) == 0 {
			continue
		}
		ri := r.Iters[min(t, len(r.Iters)-1)]
		if t < len(r.Iters) {
			it.Seconds += ri.Seconds
		}
		it.Objective += ri.Objective
		for _, term := range ri.Terms {
			if j := index(terms, term.Name); j >= 0 {
				terms[j].Value += term.Value
			} else {
				terms = append(terms, term)
			}
		}
		for j, s := range ri.Sparsity {
			w := 1.0
			if j < len(r.Entries) {
				w = r.Entries[j]
			}
			q := index(sp, s.Name)
			if q < 0 {
				sp = append(sp, engine.Term{Name: s.Name})
				spW = append(spW, 0)
				q = len(sp) - 1
			}
			sp[q].Value += s.Value * w
			spW[q] += w
		}
	}
	for i := range sp {
		if spW[i] > 0 {
			sp[i].Value /= spW[i]
		}
	}
	it.Terms, it.Sparsity = terms, sp
	return it
}
