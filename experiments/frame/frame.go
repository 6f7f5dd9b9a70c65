// Package frame turns the engine's plain records into go-gota dataframes for
// notebooks and reports. It sits above the engine so that the engine core
// imports no dataframe library.
package frame

import (
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/topicmf/topicmf/engine"
)

// Iterations returns the iterations held by rec as a dataframe with the
// columns of rec.Header(): "iter" as int, the rest (seconds, objective, each
// objective term, each "sparsity_<factor>") as float, NaN where an iteration
// did not report a value.
func Iterations(rec *engine.Recorder) dataframe.DataFrame {
	head, cols := rec.Columns()
	ss := make([]series.Series, len(head))
	for c, name := range head {
		if c == 0 {
			ints := make([]int, len(cols[0]))
			for i, v := range cols[0] {
				ints[i] = int(v)
			}
			ss[c] = series.New(ints, series.Int, name)
			continue
		}
		ss[c] = series.New(cols[c], series.Float, name)
	}
	return dataframe.New(ss...)
}
