package engine

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
	"sync"
)

// Term is one named value: a term of the objective (e.g. "loss",
// "lambda1*|U|_1") or the sparsity of one factor (e.g. "U").
type Term struct {
	Name  string
	Value float64
}

// Iteration is what a model reports after each iteration.
type Iteration struct {
	Iter      int     // 1-based
	Seconds   float64 // wall time of this iteration alone
	Objective float64 // NaN on iterations where the objective was not evaluated
	// Terms are the separate terms of the objective, in a fixed order, whose
	// sum is Objective.
	Terms []Term
	// Sparsity is the fraction of exactly-zero entries of each factor.
	Sparsity []Term
	// Diagnostics are other per-iteration quantities that are not terms of
	// the objective, e.g. an ALM's primal residual and penalty μ.
	Diagnostics []Term
}

// Recorder captures the iterations of a fit. A nil *Recorder is valid and
// records nothing. It is safe for concurrent use.
//
// A Recorder made by NewRecorder keeps every iteration; one made by
// NewBoundedRecorder keeps only the most recent ones, so that a fit of a
// billion iterations holds a bounded trace in memory while OnIteration (for
// example a CSV writer streaming to disk) still sees every iteration.
type Recorder struct {
	mu    sync.Mutex
	keep  int // most iterations held; 0: all
	iters []Iteration
	total int // iterations recorded, held or not
	// OnIteration, if set, is called after each recorded iteration (for
	// progress display or streaming). It must not block for long.
	OnIteration func(Iteration)
}

// NewRecorder returns an empty Recorder that keeps every iteration.
func NewRecorder() *Recorder { return &Recorder{} }

// NewBoundedRecorder returns an empty Recorder that keeps only the last keep
// iterations (keep ≥ 1) in memory.
func NewBoundedRecorder(keep int) *Recorder {
	if keep < 1 {
		panic("engine: NewBoundedRecorder needs keep ≥ 1")
	}
	return &Recorder{keep: keep}
}

// Record appends one iteration, dropping the oldest held one when the
// Recorder is bounded and full.
func (r *Recorder) Record(it Iteration) {
	if r == nil {
		return
	}
	it.Terms = append([]Term(nil), it.Terms...)
	it.Sparsity = append([]Term(nil), it.Sparsity...)
	it.Diagnostics = append([]Term(nil), it.Diagnostics...)
	r.mu.Lock()
	if r.keep > 0 && len(r.iters) == r.keep {
		copy(r.iters, r.iters[1:])
		r.iters = r.iters[:len(r.iters)-1]
	}
	r.iters = append(r.iters, it)
	r.total++
	f := r.OnIteration
	r.mu.Unlock()
	if f != nil {
		f(it)
	}
}

// Iterations returns a copy of the held iterations (all of them, or the
// most recent ones of a bounded Recorder).
func (r *Recorder) Iterations() []Iteration {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Iteration(nil), r.iters...)
}

// Total is the number of iterations recorded, including those a bounded
// Recorder no longer holds.
func (r *Recorder) Total() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// Header is the CSV / dataframe column order: iter, seconds, objective, then
// every objective term, every "sparsity_<factor>" and every diagnostic, each
// group in first-seen order.
func (r *Recorder) Header() []string {
	head, _ := r.Columns()
	return head
}

// groups are the three named-value lists of an Iteration, with the prefix of
// their columns.
var groups = []struct {
	prefix string
	of     func(Iteration) []Term
}{
	{"", func(it Iteration) []Term { return it.Terms }},
	{"sparsity_", func(it Iteration) []Term { return it.Sparsity }},
	{"", func(it Iteration) []Term { return it.Diagnostics }},
}

// Columns returns the held iterations as float columns in Header order
// ("iter" as a float); a value missing from an iteration is NaN. Front ends
// build tables from it (a go-gota dataframe in experiments/frame).
func (r *Recorder) Columns() ([]string, [][]float64) {
	its := r.Iterations()
	head := []string{"iter", "seconds", "objective"}
	type column struct {
		group int
		name  string
	}
	var named []column
	for g, grp := range groups {
		seen := map[string]bool{}
		for _, it := range its {
			for _, t := range grp.of(it) {
				if !seen[t.Name] {
					seen[t.Name] = true
					named = append(named, column{g, t.Name})
					head = append(head, grp.prefix+t.Name)
				}
			}
		}
	}
	cols := make([][]float64, len(head))
	for c := range cols {
		cols[c] = make([]float64, len(its))
	}
	for i, it := range its {
		cols[0][i] = float64(it.Iter)
		cols[1][i] = it.Seconds
		cols[2][i] = it.Objective
		for j, c := range named {
			cols[3+j][i] = lookup(groups[c.group].of(it), c.name)
		}
	}
	return head, cols
}

// lookup returns the value of the named term, NaN when absent.
func lookup(ts []Term, name string) float64 {
	for _, t := range ts {
		if t.Name == name {
			return t.Value
		}
	}
	return nan
}

// WriteCSV writes the iterations as CSV with the columns of Header. Floats
// are written in full precision (strconv 'g', -1): stored numbers are never
// rounded. A NaN (a value not evaluated at that iteration, such as LDA's
// objective between evaluations) is an empty cell.
func (r *Recorder) WriteCSV(w io.Writer) error {
	head, cols := r.Columns()
	cw := csv.NewWriter(w)
	if err := cw.Write(head); err != nil {
		return err
	}
	rec := make([]string, len(head))
	n := 0
	if len(cols) > 0 {
		n = len(cols[0])
	}
	for i := 0; i < n; i++ {
		for c := range head {
			if c == 0 {
				rec[c] = strconv.Itoa(int(cols[0][i]))
			} else {
				rec[c] = ""
				if v := cols[c][i]; !math.IsNaN(v) { // not evaluated at this iteration
					rec[c] = strconv.FormatFloat(v, 'g', -1, 64)
				}
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
