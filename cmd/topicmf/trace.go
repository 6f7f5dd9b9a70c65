package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments/store"
)

// traceWriter streams a fit's iterations to iterations.csv as they arrive,
// so that a long fit's trace lives on disk rather than in memory: only the
// column names are kept. The file has exactly the columns and order of
// engine.Recorder.WriteCSV (iter, seconds, objective, every objective term,
// every sparsity_<factor>, each in first-seen order; a value an iteration
// does not report is NaN), which is known only at the end because a family
// may report a term first at a later iteration (LDA evaluates its objective
// every few sweeps). So rows go to a spool file in the order their columns
// were first seen, and Close writes the header and copies the rows over,
// reordered and padded, one row at a time.
type traceWriter struct {
	w     *store.Writer
	spool *os.File
	csv   *csv.Writer
	cols  []traceCol
	index map[traceCol]int
	row   []string
	rows  int
	err   error // the first write error; later rows are dropped
}

type traceCol struct {
	sparsity bool
	name     string
}

func newTraceWriter(w *store.Writer) (*traceWriter, error) {
	f, err := os.CreateTemp(w.Dir(), ".tmp-iterations-spool-*")
	if err != nil {
		return nil, err
	}
	return &traceWriter{w: w, spool: f, csv: csv.NewWriter(f), index: map[traceCol]int{}}, nil
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Record appends one iteration to the spool. It is meant for
// Recorder.OnIteration, which the engine calls serially.
func (t *traceWriter) Record(it engine.Iteration) {
	if t.err != nil {
		return
	}
	add := func(sparsity bool, ts []engine.Term) {
		for _, x := range ts {
			c := traceCol{sparsity, x.Name}
			if _, ok := t.index[c]; !ok {
				t.index[c] = len(t.cols)
				t.cols = append(t.cols, c)
			}
		}
	}
	add(false, it.Terms)
	add(true, it.Sparsity)
	t.row = append(t.row[:0], strconv.Itoa(it.Iter), fmtFloat(it.Seconds), fmtFloat(it.Objective))
	for range t.cols {
		t.row = append(t.row, "NaN")
	}
	for _, x := range it.Terms {
		t.row[3+t.index[traceCol{false, x.Name}]] = fmtFloat(x.Value)
	}
	for _, x := range it.Sparsity {
		t.row[3+t.index[traceCol{true, x.Name}]] = fmtFloat(x.Value)
	}
	t.err = t.csv.Write(t.row)
	t.rows++
}

// Close writes iterations.csv from the spool and removes the spool.
func (t *traceWriter) Close() error {
	defer os.Remove(t.spool.Name())
	defer t.spool.Close()
	if t.err != nil {
		return fmt.Errorf("writing the iteration trace: %w", t.err)
	}
	t.csv.Flush()
	if err := t.csv.Error(); err != nil {
		return fmt.Errorf("writing the iteration trace: %w", err)
	}
	if _, err := t.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	// Output order: terms, then sparsities, each in first-seen order.
	head := []string{"iter", "seconds", "objective"}
	var order []int // order[j] is the spool column of output column 3+j
	for _, sparsity := range []bool{false, true} {
		for i, c := range t.cols {
			if c.sparsity == sparsity {
				order = append(order, i)
				if sparsity {
					head = append(head, "sparsity_"+c.name)
				} else {
					head = append(head, c.name)
				}
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
			rec[3+j] = "NaN"
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
