package groupnmf

import (
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
)

// testSolver returns the solver of a fit of c with options o, initialized
// as Fit initializes it.
func testSolver(t *testing.T, o Options, c *engine.Corpus) *solver {
	t.Helper()
	set, err := o.resolve()
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(set, enginetest.Layout(t, c))
	s.init(c.D)
	return s
}
