package corpora

import (
	"fmt"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/internal/memo"
)

// collections memoizes Collection: every job of an experiment reads the
// same files, so each registered collection is read once per process.
var collections memo.Map[*datasets.Collection]

// Collection reads the named registered collection from the data directory
// (datasets.DataDir: $TOPICMF_DATA or the per-user default), once per
// process; later calls return the same *Collection, which callers must not
// modify.
func Collection(name string) (*datasets.Collection, error) {
	return collections.Get(name, func() (*datasets.Collection, error) {
		src, err := datasets.Lookup(name)
		if err != nil {
			return nil, err
		}
		dir, err := datasets.DataDir("")
		if err != nil {
			return nil, err
		}
		col, err := src.Read(dir)
		if err != nil {
			return nil, fmt.Errorf("data set %s: %w", name, err)
		}
		return col, nil
	})
}
