package gnmfnc2014

import (
	"fmt"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments/exptest"
)

// TestOfficialVersusFolds recomputes the numbers officialVersusFolds
// states (BM25 needs no fit: they depend on the data and the pipeline
// only), so the report's explanation cannot drift from the data.
func TestOfficialVersusFolds(t *testing.T) {
	exptest.NeedData(t, Dataset)
	d, err := load()
	if err != nil {
		t.Fatal(err)
	}
	stats, all := splitStatistics(d)
	tr, dev, test := stats[splitTrain], stats[splitDev], stats[splitTest]
	var want []string
	want = append(want,
		fmt.Sprintf("archive MAP %.4f on the %d test queries against %.4f on the %d train and %.4f on the %d dev queries (%.4f over all %d;",
			test.archiveMAP, test.queries, tr.archiveMAP, tr.queries, dev.archiveMAP, dev.queries, all, test.queries+tr.queries+dev.queries),
		fmt.Sprintf("first for %d of %d test queries against %d of %d train and %d of %d dev queries", test.firstAtOne, test.queries, tr.firstAtOne, tr.queries, dev.firstAtOne, dev.queries),
		fmt.Sprintf("(MAP %.4f, %.4f, %.4f)", test.candsMAP, tr.candsMAP, dev.candsMAP),
		fmt.Sprintf("%d of the %d distinct questions judged for a test query", test.own, test.judged),
		fmt.Sprintf("every one of the %d judged for a dev query", dev.judged),
		fmt.Sprintf("%d of the %d judged for a train query", tr.own, tr.judged),
		fmt.Sprintf("test %.2f, train %.2f, dev %.2f", test.relevant, tr.relevant, dev.relevant),
		fmt.Sprintf("all %d judged queries", test.queries+tr.queries+dev.queries),
	)
	lm := d.baseline[archivePrefix+scoreLM]
	var lmTest, lmAll float64
	for q := range d.task.QueryIDs {
		lmAll += lm[q][0]
		if d.split[q] == splitTest {
			lmTest += lm[q][0]
		}
	}
	want = append(want, fmt.Sprintf("LM, likewise untuned, %.4f against %.4f over all", lmTest/float64(test.queries), lmAll/float64(len(d.task.QueryIDs))))
	if dev.withTrain != dev.judged {
		t.Errorf("%d of the %d questions judged for dev queries are judged for no train query; the text says every one is", dev.judged-dev.withTrain, dev.judged)
	}
	for _, w := range want {
		if !strings.Contains(officialVersusFolds, w) {
			t.Errorf("officialVersusFolds lacks %q", w)
		}
	}
	if t.Failed() {
		t.Logf("measured:\n%s", splitSummary(stats, all))
	}
}
