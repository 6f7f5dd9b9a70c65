package tnmf2013

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/metrics/topics"
)

// Hand computation: apple and banana are mostly in class x, cherry in y.
// Topic {apple, banana, cherry}: dominant clusters x, x, y → 2/3; topic
// {cherry}: 1. Mean (2/3 + 1)/2 = 5/6.
func TestClusterPurityTop(t *testing.T) {
	col := &datasets.Collection{Name: "toy", Classes: []string{"x", "y"}, Docs: []datasets.Document{
		{ID: "1", Text: "apple banana", Class: "x"},
		{ID: "2", Text: "apple banana cherry", Class: "x"},
		{ID: "3", Text: "cherry", Class: "y"},
		{ID: "4", Text: "cherry apple", Class: "y"},
	}}
	c, _, err := text.Build(col, corpusOptions(1, "tf"))
	if err != nil {
		t.Fatal(err)
	}
	top := [][]topics.Term{
		{{Term: "apple"}, {Term: "banana"}, {Term: "cherry"}},
		{{Term: "cherry"}},
	}
	if got := clusterPurityTop(c, top); math.Abs(got-5.0/6) > 1e-15 {
		t.Fatalf("clusterPurityTop = %v, want 5/6", got)
	}
}

// TestTopWordsTable reads two runs' top-words.csv into rows labelled by
// method, in job order, and names the file that is missing.
func TestTopWordsTable(t *testing.T) {
	e := Table2()
	r := &experiments.Results{Experiment: e}
	for _, m := range []struct{ label, csv string }{
		{TNMFE, "topic,word_1,word_2,word_3,word_4,word_5,npmi,cv\n1,egypt,cairo,mubarak,protest,army,0.123456,0.5\n2,super,bowl,packers,steelers,game,-0.01,0.49999\n"},
		{LDA, "topic,word_1,word_2,word_3,word_4,word_5,npmi,cv\n1,a,b,c,d,,,\n"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, topWordsFile), []byte(m.csv), 0o644); err != nil {
			t.Fatal(err)
		}
		j := &experiments.Job{Experiment: e, Dataset: Tweet, Method: experiments.MethodSpec{Label: m.label}}
		r.Jobs = append(r.Jobs, &experiments.JobResult{Job: j, Dir: dir, Run: &experiments.StoredRun{}})
	}
	head, rows, err := topWordsTable(r)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(head, ",") + "\n"
	for _, row := range rows {
		got += strings.Join(row, ",") + "\n"
	}
	want := "method,topic,word 1,word 2,word 3,word 4,word 5,npmi (top 10),cv (top 10)\n" + TNMFE + ",1,egypt,cairo,mubarak,protest,army,0.1235,0.5000\n" +
		TNMFE + ",2,super,bowl,packers,steelers,game,-0.0100,0.5000\n" + LDA + ",1,a,b,c,d,,–,–\n"
	if got != want {
		t.Errorf("table:\n%s\nwant\n%s", got, want)
	}
	bad := filepath.Join(r.Jobs[1].Dir, topWordsFile)
	if err := os.WriteFile(bad, []byte("topic,word_1,word_2,word_3,word_4,word_5,npmi,cv\n1,a,b,c,d,e,x,0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := topWordsTable(r); err == nil || !strings.Contains(err.Error(), bad+" line 2") {
		t.Errorf("bad score: err = %v, want one naming %s line 2", err, bad)
	}
	r.Jobs[1].Dir = t.TempDir()
	if _, _, err := topWordsTable(r); err == nil || !strings.Contains(err.Error(), topWordsFile) {
		t.Errorf("missing file: err = %v, want one naming %s", err, topWordsFile)
	}
}
