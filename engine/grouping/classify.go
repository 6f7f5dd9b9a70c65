package grouping

import (
	"context"
	"fmt"

	"github.com/topicmf/topicmf/engine/sparse"
)

// ClassPredictor is a fitted group or per-class model that predicts the
// class of new documents (GMF §4.3 and §5.3: ŷ_d = argmin_p E(d; Ũ_p)).
type ClassPredictor interface {
	PredictClasses(ctx context.Context, x *sparse.CSR) ([]int, error)
}

// ClassAccuracy is the fraction of held-out documents (rows of X, weighted
// over the training vocabulary) whose predicted class equals labels[i];
// documents labelled −1 are not counted. It returns the accuracy and the
// number of documents counted, and an error when none is.
func ClassAccuracy(ctx context.Context, m ClassPredictor, x *sparse.CSR, labels []int) (float64, int, error) {
	if x == nil {
		return 0, 0, fmt.Errorf("class accuracy: nil matrix")
	}
	if len(labels) != x.Rows {
		return 0, 0, fmt.Errorf("class accuracy: %d labels for %d documents", len(labels), x.Rows)
	}
	pred, err := m.PredictClasses(ctx, x)
	if err != nil {
		return 0, 0, err
	}
	right, counted := 0, 0
	for i, y := range labels {
		if y < 0 {
			continue
		}
		counted++
		if pred[i] == y {
			right++
		}
	}
	if counted == 0 {
		return 0, 0, fmt.Errorf("class accuracy: no document has a label")
	}
	return float64(right) / float64(counted), counted, nil
}
