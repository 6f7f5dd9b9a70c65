package text

import (
	"reflect"
	"testing"

	"github.com/topicmf/topicmf/datasets"
)

// TestStreams: the streams keep the text order, drop stop words and terms
// outside the vocabulary, and stem as the corpus did.
func TestStreams(t *testing.T) {
	col := &datasets.Collection{Name: "toy", Docs: []datasets.Document{
		{ID: "1", Text: "The flows of air and the flow"},
		{ID: "2", Text: "air flowing over wings"},
	}}
	_, vec, _, err := Fit(col, Options{Stem: true, MinDF: 1, MaxDF: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := vec.Streams([]string{"the air flows; unknown wings, and flow!", ""})
	var words [][]string
	for _, s := range got {
		var w []string
		for _, id := range s {
			w = append(w, vec.Vocab[id])
		}
		words = append(words, w)
	}
	want := [][]string{{"air", "flow", "wing", "flow"}, nil}
	if !reflect.DeepEqual(words, want) {
		t.Errorf("streams %q, want %q (vocabulary %q)", words, want, vec.Vocab)
	}
}
