package workflow

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments/store"
)

// traceWriter streams a fit's iterations to iterations.csv as they arrive,
// so that a long fit's trace lives on disk rather than in memory: only the
// column names are kept. The file has exactly the columns and order of
// engine.Recorder.WriteCSV (iter, seconds, objective, then every objective
// term, every sparsity_<factor> and every diagnostic, each group in
// first-seen order; a value an iteration does not report, or reports as
// NaN, is an empty cell), which is
// known only at the end because a family may report a term first at a later
// iteration (LDA evaluates its objective every few sweeps). So rows go to a
// spool file in the order their columns were first seen, and Close writes
// the header and copies the rows over, reordered and padded, one row at a
// time.
type traceWriter struct {
	w     *store.Writer
	spool *os.File
	csv   *csv.Writer
	cols  []traceCol
	index map[traceCol]int
	row   []string
	rows  int
	err   error // the first write error; the fit stops there
}

// traceCol is a named column: its group (0 objective terms, 1 sparsity,
// 2 diagnostics) and name.
type traceCol struct {
	group int
	name  string
}

// traceGroups are the groups of an Iteration in column order, with the
// prefix of their column names.
var traceGroups = []struct {
	prefix string
	of     func(engine.Iteration) []engine.Term
}{
	{"", func(it engine.Iteration) []engine.Term { return it.Terms }},
	{"sparsity_", func(it engine.Iteration) []engine.Term { return it.Sparsity }},
	{"", func(it engine.Iteration) []engine.Term { return it.Diagnostics }},
}

func newTraceWriter(w *store.Writer) (*traceWriter, error) {
	f, err := os.CreateTemp(w.Dir(), ".tmp-iterations-spool-*")
	if err != nil {
		return nil, err
	}
	return &traceWriter{w: w, spool: f, csv: csv.NewWriter(f), index: map[traceCol]int{}}, nil
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// traceCell is a value of iterations.csv: empty for NaN (not evaluated at
// that iteration), as engine.Recorder.WriteCSV writes it.
func traceCell(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return fmtFloat(v)
}

// Record appends one iteration to the spool and flushes it, so that a
// write error (a full disk) is returned at the iteration it happens, for
// the fit to stop there rather than run on to its end. After an error
// every later call returns it. It is meant for Recorder.OnIteration, which
// the engine calls serially.
func (t *traceWriter) Record(it engine.Iteration) error {
	if t.err != nil {
		return t.err
	}
	for g, grp := range traceGroups {
		for _, x := range grp.of(it) {
			c := traceCol{g, x.Name}
			if _, ok := t.index[c]; !ok {
				t.index[c] = len(t.cols)
				t.cols = append(t.cols, c)
			}
		}
	}
	t.row = append(t.row[:0], strconv.Itoa(it.Iter), traceCell(it.Seconds), traceCell(it.Objective))
	for range t.cols {
		t.row = append(t.row, "")
	}
	for g, grp := range traceGroups {
		for _, x := range grp.of(it) {
			t.row[3+t.index[traceCol{g, x.Name}]] = traceCell(x.Value)
		}
	}
	t.rows++
	err := t.csv.Write(t.row)
	if err == nil {
		t.csv.Flush()
		err = t.csv.Error()
	}
	if err != nil {
		// The spool's own path would mean nothing to the user.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		t.err = fmt.Errorf("writing the iteration trace (iterations.csv) at iteration %d: %w", it.Iter, err)
	}
	return t.err
}

// Err is the first error Record met, or nil.
func (t *traceWriter) Err() error { return t.err }

// Abort removes the spool; after Close it does nothing.
func (t *traceWriter) Abort() {
	t.spool.Close()
	os.Remove(t.spool.Name())
}

// Close writes iterations.csv from the spool and removes the spool.
func (t *traceWriter) Close() error {
	defer os.Remove(t.spool.Name())
	defer t.spool.Close()
	if t.err != nil {
		return t.err
	}
	t.csv.Flush()
	if err := t.csv.Error(); err != nil {
		return fmt.Errorf("writing the iteration trace: %w", err)
	}
	if _, err := t.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	// Output order: the groups in turn, each in first-seen order.
	head := []string{"iter", "seconds", "objective"}
	var order []int // order[j] is the spool column of output column 3+j
	for g, grp := range traceGroups {
		for i, c := range t.cols {
			if c.group == g {
				order = append(order, i)
				head = append(head, grp.prefix+c.name)
			}
		}
	}
	out, err := t.w.Create("iterations.csv")
	if err != nil {
		return err
	}
	cw := csv.NewWriter(out)
	cr := csv.NewReader(t.spool)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	err = cw.Write(head)
	rec := make([]string, len(head))
	for n := 0; err == nil; n++ {
		var in []string
		in, err = cr.Read()
		if errors.Is(err, io.EOF) {
			if n != t.rows {
				err = fmt.Errorf("iteration trace: spool holds %d rows, %d were written", n, t.rows)
			} else {
				err = nil
			}
			break
		}
		if err != nil {
			break
		}
		copy(rec, in[:3])
		for j, i := range order {
			rec[3+j] = ""
			if 3+i < len(in) {
				rec[3+j] = in[3+i]
			}
		}
		err = cw.Write(rec)
	}
	if err == nil {
		cw.Flush()
		err = cw.Error()
	}
	if err != nil {
		out.Abort()
		return fmt.Errorf("writing the iteration trace: %w", err)
	}
	return out.Commit()
}
