package grouping

import (
	"context"

	"github.com/topicmf/topicmf/engine"
)

// Solver is one started fit of a group model (Group NMF, GRLSI, GNMFNC):
// the steps engine.Iterate drives (engine.Steps: Step, Objective, Accept,
// Sparsity) and the model of its current iterate.
type Solver interface {
	Step(ctx context.Context, iter int) error
	Objective() (float64, []engine.Term)
	Accept()
	Sparsity() []engine.Term
	Model() engine.Model
}

// Fit is the outline the group models' Fit share: lay out c by class (New;
// who names the model in errors), let start check its topics against the
// layout (Layout.CheckK), build and initialize the solver on it, iterate it through
// engine.Iterate under stop, and return the model of the last accepted
// iterate with the status. An error of layout or start is returned with no
// model.
func Fit(ctx context.Context, c *engine.Corpus, rec *engine.Recorder, who string,
	stop engine.Stopping, start func(lay *Layout) (Solver, error)) (engine.Model, engine.Status, error) {
	lay, err := New(c, who)
	if err != nil {
		return nil, engine.Status{}, err
	}
	s, err := start(lay)
	if err != nil {
		return nil, engine.Status{}, err
	}
	st := Run(ctx, s, stop, rec)
	return s.Model(), st, nil
}

// Run iterates s through engine.Iterate under stop until the stopping
// rule, a cancellation or a failure.
func Run(ctx context.Context, s Solver, stop engine.Stopping, rec *engine.Recorder) engine.Status {
	return engine.Iterate(ctx, stop, rec, engine.Steps{Step: s.Step, Objective: s.Objective, Accept: s.Accept, Sparsity: s.Sparsity})
}
