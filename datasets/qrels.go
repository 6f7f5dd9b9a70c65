package datasets

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// Relevance-file layouts a user's qrels may have (ReadQrelsLayout,
// DetectQrelsLayout).
const (
	// QrelsTREC is TREC's "query iteration doc level" (read by metrics/ir,
	// trec_eval's semantics: ids are any tokens).
	QrelsTREC = "trec"
	// QrelsSMART is "query doc 0 0.000000", CACM's, CISI's and ADI's
	// qrels.text: every listed pair is relevant.
	QrelsSMART = "smart"
	// QrelsCranfield is Cranfield's cranqrel, "query doc code": codes 1
	// (most relevant) to 4 become levels 4 to 1 (gain 5 − code, as the
	// registered Cranfield), −1 (no relevance) level 0.
	QrelsCranfield = "cranfield"
	// QrelsNPL is the Glasgow layout of NPL's rlv-ass: a query id on a
	// line, the ids of its relevant documents on the next lines, "/".
	QrelsNPL = "npl"
)

// QrelsLayouts are the layouts, in the order --qrels-format lists them.
var QrelsLayouts = []string{QrelsTREC, QrelsSMART, QrelsCranfield, QrelsNPL}

// qrelsSniffLines is how many non-blank lines DetectQrelsLayout reads.
const qrelsSniffLines = 200

// DetectQrelsLayout tells the layout of a relevance file from its first
// non-blank lines: a line "/" is NPL; 3 fields a line is Cranfield; 4
// fields whose last holds a decimal point ("0.000000") and whose third is
// 0 are SMART; other 4-field lines are TREC. A file that fits none of them
// is an error naming the line and the layouts, and --qrels-format.
func DetectQrelsLayout(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return detectQrelsLayout(skipBOM(f), path)
}

func detectQrelsLayout(r io.Reader, path string) (string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	three, trec, smart, seen, line := 0, 0, 0, 0, 0
	odd, oddLine, oddText := 0, 0, "" // lines of another field count
	for seen < qrelsSniffLines && sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		seen++
		switch {
		case len(fields) == 1 && fields[0] == "/":
			return QrelsNPL, nil // whatever came before: NPL's lines vary in length
		case len(fields) == 3:
			three++
		case len(fields) == 4 && fields[2] == "0" && strings.Contains(fields[3], "."):
			smart++
		case len(fields) == 4:
			trec++
		default:
			if odd == 0 {
				oddLine, oddText = line, sc.Text()
			}
			odd++
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("%s: line %d: %w", path, line+1, err)
	}
	switch {
	case seen == 0:
		return "", fmt.Errorf("%s: no judgments", path)
	case odd > 0:
		return "", fmt.Errorf("%s: line %d: a layout --qrels-format does not know (%s): %q",
			path, oddLine, qrelsLayoutHelp, Elide(oddText, 60))
	case three > 0 && trec+smart == 0:
		return QrelsCranfield, nil
	case smart > 0 && three+trec == 0:
		return QrelsSMART, nil
	case trec > 0 && three+smart == 0:
		return QrelsTREC, nil
	}
	return "", fmt.Errorf("%s: lines of different layouts in the first %d (%d of 3 fields, %d TREC, %d SMART); give --qrels-format (%s)",
		path, seen, three, trec, smart, qrelsLayoutHelp)
}

// qrelsLayoutHelp lists the layouts for an error message.
const qrelsLayoutHelp = `trec "q iter doc rel", smart "q doc 0 0.000000", cranfield "q doc code", npl "q" then doc lines then "/"`

// ReadQrelsLayout reads a relevance file in one of the numeric layouts
// (QrelsSMART, QrelsCranfield, QrelsNPL; ids canonical decimal, "01" is
// query 1); TREC qrels are read by metrics/ir. Cranfield codes are turned
// into levels as QrelsCranfield says.
func ReadQrelsLayout(path, layout string) ([]Judgment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := skipBOM(f)
	var js []Judgment
	switch layout {
	case QrelsSMART:
		js, err = irParseQrels(r, irQrelsSMART)
	case QrelsCranfield:
		js, err = irParseQrels(r, irQrelsCranfield)
		for i, j := range js {
			switch {
			case j.Level >= 1 && j.Level <= 4:
				js[i].Level = 5 - j.Level
			case j.Level == -1:
				js[i].Level = 0
			default:
				return nil, fmt.Errorf("%s: entry %d (query %s, document %s): Cranfield code %d, want 1 to 4 or -1", path, i+1, j.QueryID, j.DocID, j.Level)
			}
		}
	case QrelsNPL:
		js, err = nplParseRelevance(r)
	default:
		return nil, fmt.Errorf("qrels layout %q: want one of %s", layout, strings.Join(QrelsLayouts, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return js, nil
}
