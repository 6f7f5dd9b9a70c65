package corpora

import (
	"fmt"
	"sync"

	"github.com/topicmf/topicmf/datasets"
)

// collections memoizes Collection: every job of an experiment reads the
// same files, so each registered collection is read once per process.
var collections struct {
	mu sync.Mutex
	m  map[string]*collectionEntry
}

type collectionEntry struct {
	once sync.Once
	col  *datasets.Collection
	err  error
}

// Collection reads the named registered collection from the data directory
// (datasets.DataDir: $TOPICMF_DATA or the per-user default), once per
// process; later calls return the same *Collection, which callers must not
// modify.
func Collection(name string) (*datasets.Collection, error) {
	collections.mu.Lock()
	if collections.m == nil {
		collections.m = map[string]*collectionEntry{}
	}
	e := collections.m[name]
	if e == nil {
		e = &collectionEntry{}
		collections.m[name] = e
	}
	collections.mu.Unlock()
	e.once.Do(func() {
		src, err := datasets.Lookup(name)
		if err != nil {
			e.err = err
			return
		}
		dir, err := datasets.DataDir("")
		if err != nil {
			e.err = err
			return
		}
		e.col, e.err = src.Read(dir)
		if e.err != nil {
			e.err = fmt.Errorf("data set %s: %w", name, e.err)
		}
	})
	return e.col, e.err
}
