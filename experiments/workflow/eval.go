package workflow

import (
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/metrics/ir"
)

// ReadQrels reads the relevance judgments in path, in the layout format
// names (retrieval.QrelsAuto tells it from the file; see
// retrieval.ReadQrelsFile for the layouts). A ranking is evaluated against
// them with metrics/ir.Evaluate.
func ReadQrels(path, format string) (ir.Qrels, error) {
	q, _, err := retrieval.ReadQrelsFile(path, format)
	return q, err
}
