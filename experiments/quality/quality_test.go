package quality

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/metrics/coherence"
)

func TestEvaluate(t *testing.T) {
	col := &datasets.Collection{Name: "toy", Docs: []datasets.Document{
		{ID: "1", Text: "apple banana apple cherry"},
		{ID: "2", Text: "banana cherry durian"},
		{ID: "3", Text: "apple durian banana"},
		{ID: "4", Text: "cherry apple"},
	}}
	_, vec, _, err := text.Fit(col, text.Bare(text.Options{Weighting: text.WeightTF, Norm: text.NormNone}))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Reference(col, []string{"2", "1", "3", "4"}, vec)
	if err != nil {
		t.Fatal(err)
	}
	// Vocabulary sorted: apple banana cherry durian; document "2" first.
	if got := strings.Join(vocabWords(ref, ref.Docs[0]), " "); got != "banana cherry durian" {
		t.Fatalf("first stream %q", got)
	}
	U := mat.NewDense(4, 2, []float64{
		0.9, 0, // apple
		0.5, 0.1, // banana
		0, 0.8, // cherry
		0, 0.7, // durian
	})
	rep, err := Evaluate(U, ref, Options{Measures: []coherence.Measure{coherence.NPMI, coherence.UMass}})
	if err != nil {
		t.Fatal(err)
	}
	// Topic 0 lists apple, banana; topic 1 cherry, durian, banana: 5 words,
	// 4 distinct.
	if rep.TD != 4.0/5 {
		t.Errorf("TD = %v, want 4/5", rep.TD)
	}
	want, err := coherence.Score(ref, [][]int32{{0, 1}, {2, 3, 1}}, rep.Measures, coherence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rep.Measures {
		for k := range rep.Topics {
			if rep.Topics[k].Scores[m] != want[m][k] {
				t.Errorf("%s topic %d: %v, want %v", m, k, rep.Topics[k].Scores[m], want[m][k])
			}
		}
		if math.Abs(rep.Mean[m]-(want[m][0]+want[m][1])/2) > 1e-15 {
			t.Errorf("mean %s = %v", m, rep.Mean[m])
		}
	}
	var b bytes.Buffer
	if err := rep.WriteTopics(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || lines[0] != "topic,npmi,umass,words" || !strings.HasSuffix(lines[2], ",cherry durian banana") {
		t.Errorf("per-topic CSV:\n%s", b.String())
	}
	if s := rep.Summary(); !strings.HasPrefix(s, "NPMI ") || !strings.Contains(s, "TD@25 0.8000") {
		t.Errorf("summary %q", s)
	}
	if _, err := Reference(col, []string{"9"}, vec); err == nil || err.Error() != `document "9" is not in toy` {
		t.Errorf("missing document: %v", err)
	}
}

func vocabWords(ref coherence.Reference, doc []int32) []string {
	var out []string
	for _, t := range doc {
		out = append(out, ref.Vocab[t])
	}
	return out
}
