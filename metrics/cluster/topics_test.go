package cluster

import (
	"math"
	"testing"
)

func TestArgmaxTopics(t *testing.T) {
	w := [][]float64{{0.1, 0.7, 0.2}, {0.5, 0.5, 0}, {math.NaN(), 0.1, 0.3}, {math.NaN(), math.NaN(), math.NaN()}}
	got := ArgmaxTopics(len(w), func(i int) []float64 { return w[i] })
	want := []int{1, 0, 2, -1} // a tie goes to the lowest topic; all NaN: unassigned
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ArgmaxTopics = %v, want %v", got, want)
		}
	}
}

// TestLabelScores: documents without a label or a cluster are left out,
// and the rest scored as Evaluate scores them. By hand, for classes
// (a, a, b, b) and clusters (0, 0, 0, 1): purity = (2 + 1)/4 = 0.75.
func TestLabelScores(t *testing.T) {
	s, err := LabelScores([]string{"a", "", "a", "b", "-", "b", "a"}, []int{0, 1, 0, 0, 1, 1, -1})
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := Evaluate([]int{0, 0, 1, 1}, []int{0, 0, 0, 1})
	if s != ref || s.N != 4 || s.Purity != 0.75 {
		t.Errorf("LabelScores = %+v, want %+v with purity 0.75", s, ref)
	}
	if _, err := LabelScores([]string{"", "-"}, []int{0, 1}); err == nil {
		t.Error("no labelled document: no error")
	}
	if _, err := LabelScores([]string{"a"}, []int{0, 1}); err == nil {
		t.Error("lengths differ: no error")
	}
}
