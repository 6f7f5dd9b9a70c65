package tnmf2013

import (
	"math"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
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
