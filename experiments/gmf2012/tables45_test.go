package gmf2012

import (
	"math"
	"reflect"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/exptest"
)

func TestLabelledTrainAndSizes(t *testing.T) {
	col := &datasets.Collection{Name: "toy", Docs: []datasets.Document{
		{ID: "1", Class: "a", Split: "train"},
		{ID: "2", Class: "a", Split: "train", Categories: []string{"a"}},
		{ID: "3", Class: "b", Split: "train", Categories: []string{"b", "a"}}, // multi-label: dropped
		{ID: "4", Class: "b", Split: "test"},                                  // test: dropped
		{ID: "5", Class: "", Split: "train"},                                  // no class: dropped
		{ID: "6", Class: "c", Split: "train"},
		{ID: "7", Class: "a", Split: "train"},
	}}
	sub, err := labelledTrain(col)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range sub.Docs {
		ids = append(ids, d.ID)
	}
	if !reflect.DeepEqual(ids, []string{"1", "2", "6", "7"}) {
		t.Fatalf("kept %v", ids)
	}
	if got := classSizes(sub); !reflect.DeepEqual(got, []int{1, 3}) {
		t.Fatalf("class sizes %v, want [1 3]", got)
	}
	if _, err := labelledTrain(&datasets.Collection{Name: "empty"}); err == nil {
		t.Fatal("no error on a collection without train documents")
	}
}

// TestQuickRun runs gmf2012/tables4-5 in quick mode end to end. The 20
// Newsgroups train split (bydate) has 11,314 posts in 20 groups, the
// smallest talk.religion.misc with 377 and the largest rec.sport.hockey
// with 600 (the counts of scikit-learn's fetch_20newsgroups(subset="train")).
func TestQuickRun(t *testing.T) {
	exptest.NeedData(t, newsData, reutersData)
	res := exptest.RunQuickJobs(t, Tables45(), 4, "")
	get := func(ds, m string) float64 {
		v := res.Values(m, map[string]string{experiments.ColDataset: ds})
		if len(v) != 1 {
			t.Fatalf("%s %s: %d values", ds, m, len(v))
		}
		return v[0]
	}
	for _, c := range []struct {
		ds, m string
		want  float64
	}{
		{newsData, "documents", 11314}, {newsData, "classes", 20}, {newsData, "min", 377}, {newsData, "max", 600},
		{newsData, "range", 223}, {newsData, "mean", 11314.0 / 20},
		{wikiData, "documents", 1000}, {wikiData, "classes", 25},
		{web1Data, "documents", 2040}, {web1Data, "classes", 204},
	} {
		if got := get(c.ds, c.m); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s %s = %v, want %v", c.ds, c.m, got, c.want)
		}
	}
	// The synthetic class sizes follow Table 5's CV up to rounding to whole
	// documents.
	if cv := get(wikiData, "cv"); math.Abs(cv-200123.6/112301.4) > 0.05 {
		t.Errorf("Wikipedia-like CV %v, want about 1.78", cv)
	}
	if cv := get(web1Data, "cv"); math.Abs(cv-11152.0/15608.5) > 0.05 {
		t.Errorf("Web-I-like CV %v, want about 0.71", cv)
	}
	if terms := get(newsData, "terms"); terms < 5000 || terms > 40000 {
		t.Errorf("20 Newsgroups terms %v, want a few ten thousands at most", terms)
	}
	if n := get(reutersData, "documents"); n < 5000 || n > 7769 {
		t.Errorf("Reuters single-label train documents %v, want between R8's 5,485 and all 7,769 ModApte train stories", n)
	}
	v := res.Verdicts()
	if len(v) != 1 || v[0].Outcome != experiments.Held {
		t.Errorf("verdicts %+v", v)
	}
}
