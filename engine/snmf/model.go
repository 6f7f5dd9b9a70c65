package snmf

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted ANLS factorization: U (M×K) and V (N×K).
type Model struct {
	U, V *mat.Dense
	name string // the registry name, for the messages
	opts Options
}

// TermTopics is U (M×K).
func (m *Model) TermTopics() *mat.Dense { return m.U }

// DocTopics is V (N×K).
func (m *Model) DocTopics() *mat.Dense { return m.V }

// FoldIn solves each new document's V problem with U fixed (doc.go).
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	if err := engine.CheckFoldIn(ctx, m.name, x, m.U.RawMatrix().Rows, engine.Finite); err != nil {
		return nil, err
	}
	v, err := foldIn(m.opts.Pool, m.U, m.opts.Beta, x)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.name, err)
	}
	return v, nil
}
