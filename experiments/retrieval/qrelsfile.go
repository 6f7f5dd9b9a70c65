package retrieval

import (
	"fmt"
	"strings"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/metrics/ir"
)

// QrelsAuto asks ReadQrelsFile to tell the layout from the file.
const QrelsAuto = "auto"

// ReadQrelsFile reads a relevance file in layout, one of
// datasets.QrelsLayouts or QrelsAuto (datasets.DetectQrelsLayout), and
// returns the judgments and the layout read. TREC qrels are read by
// metrics/ir (trec_eval's semantics), the others by datasets
// (ReadQrelsLayout; a pair listed twice keeps its last level). When a
// layout given explicitly fails, the error also says which layout the file
// looks like, so that a wrong --qrels-format is named as the cause.
func ReadQrelsFile(path, layout string) (ir.Qrels, string, error) {
	if layout == QrelsAuto || layout == "" {
		l, err := datasets.DetectQrelsLayout(path)
		if err != nil {
			return nil, "", err
		}
		q, err := readQrelsAs(path, l)
		if err != nil {
			return nil, l, fmt.Errorf("%w (read as --qrels-format %s, the layout its first lines have)", err, l)
		}
		return q, l, nil
	}
	q, err := readQrelsAs(path, layout)
	if err != nil {
		hint := ""
		if l, derr := datasets.DetectQrelsLayout(path); derr == nil && l != layout {
			hint = fmt.Sprintf("; the file looks like --qrels-format %s", l)
		}
		return nil, layout, fmt.Errorf("%w (read as --qrels-format %s%s)", err, layout, hint)
	}
	return q, layout, nil
}

func readQrelsAs(path, layout string) (ir.Qrels, error) {
	if layout == datasets.QrelsTREC {
		return ir.ReadQrelsFile(path)
	}
	known := false
	for _, l := range datasets.QrelsLayouts {
		known = known || l == layout
	}
	if !known {
		return nil, fmt.Errorf("--qrels-format %q: want %s or %s", layout, QrelsAuto, strings.Join(datasets.QrelsLayouts, ", "))
	}
	js, err := datasets.ReadQrelsLayout(path, layout)
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
