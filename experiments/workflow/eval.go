package workflow

import (
	"fmt"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/metrics/ir"
)

// Qrels layouts of ReadQrels.
const (
	QrelsTREC  = "trec"  // "qid iter docno rel"
	QrelsSMART = "smart" // "qid docno 0 0", as CACM's and CISI's qrels.text
)

// ReadQrels reads the relevance judgments in path, in the layout format
// names. SMART qrels are read by the datasets package's reader of the
// registered SMART collections: every listed pair is relevant (level 1),
// ids are canonical decimal ("01" is query 1, as the SMART query file
// numbers it), and a pair listed twice says nothing more.
func ReadQrels(path, format string) (ir.Qrels, error) {
	switch format {
	case QrelsTREC:
		return ir.ReadQrelsFile(path)
	case QrelsSMART:
		js, err := datasets.ReadSMARTQrels(path)
		if err != nil {
			return nil, err
		}
		q := ir.Qrels{}
		for _, j := range js {
			if q[j.QueryID] == nil {
				q[j.QueryID] = map[string]int{}
			}
			q[j.QueryID][j.DocID] = j.Level
		}
		return q, nil
	}
	return nil, fmt.Errorf("qrels format %q: want %s or %s", format, QrelsTREC, QrelsSMART)
}
