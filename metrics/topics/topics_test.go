package topics

import (
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var vocab = []string{"apple", "bank", "cat", "dog", "egg"}

// U is 5 terms × 3 topics.
var U = mat.NewDense(5, 3, []float64{
	0.5, 0, -0.9, // apple
	0.2, 0, 0.1, // bank
	0.5, 0, 0, // cat (ties apple in topic 0)
	0, 0.3, -0.2, // dog
	0.1, 0, 0.4, // egg
})

func TestTopTerms(t *testing.T) {
	tests := []struct {
		name  string
		order Order
		n     int
		want  [][]string
	}{
		{"by weight", ByWeight, 3, [][]string{{"apple", "cat", "bank"}, {"dog"}, {"egg", "bank", "dog"}}},
		{"by weight, all", ByWeight, 10, [][]string{{"apple", "cat", "bank", "egg"}, {"dog"}, {"egg", "bank", "dog", "apple"}}},
		{"by magnitude", ByMagnitude, 2, [][]string{{"apple", "cat"}, {"dog"}, {"apple", "egg"}}},
		{"positive only", PositiveOnly, 5, [][]string{{"apple", "cat", "bank", "egg"}, {"dog"}, {"egg", "bank"}}},
		{"n = 1", ByWeight, 1, [][]string{{"apple"}, {"dog"}, {"egg"}}},
		{"n = 0", ByWeight, 0, [][]string{{}, {}, {}}},
	}
	for _, tc := range tests {
		got := TopTermsBy(U, vocab, tc.n, tc.order)
		var words [][]string
		for _, topic := range got {
			words = append(words, Words(topic))
		}
		if !reflect.DeepEqual(words, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, words, tc.want)
		}
	}
	top := TopTerms(U, vocab, 2)
	if top[2][0] != (Term{"egg", 4, 0.4}) {
		t.Errorf("term detail %+v", top[2][0])
	}
	if mag := TopTermsBy(U, vocab, 1, ByMagnitude); mag[2][0].Weight != -0.9 {
		t.Errorf("magnitude order should keep the sign: %+v", mag[2][0])
	}
	if got := Format(top[0]); got != "apple cat" {
		t.Errorf("Format = %q", got)
	}
	if TopTerms(&mat.Dense{}, nil, 3) != nil {
		t.Error("empty U should give nil")
	}
}

func TestTopTermsTieOrder(t *testing.T) {
	// equal weights: by term ascending, then by row for duplicate strings
	u := mat.NewDense(4, 1, []float64{1, 1, 1, 1})
	got := TopTerms(u, []string{"b", "a", "c", "a"}, 3)
	want := []Term{{"a", 1, 1}, {"a", 3, 1}, {"b", 0, 1}}
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("ties: %v, want %v", got[0], want)
	}
}

func TestTopTermsPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("vocabulary size mismatch did not panic")
		}
	}()
	TopTerms(U, vocab[:4], 2)
}

func TestAvgComp(t *testing.T) {
	// non-zeros per topic: 4, 1, 4 of 5 terms
	if got := Compactness(U); !reflect.DeepEqual(got, []float64{0.8, 0.2, 0.8}) {
		t.Errorf("Compactness = %v", got)
	}
	if got, want := AvgComp(U), (0.8+0.2+0.8)/3; math.Abs(got-want) > 1e-15 {
		t.Errorf("AvgComp = %v, want %v", got, want)
	}
	// |w| > 0.15: topic 0 {apple, bank, cat}, topic 1 {dog}, topic 2 {apple, dog, egg}
	if got, want := AvgCompTol(U, 0.15), (0.6+0.2+0.6)/3; math.Abs(got-want) > 1e-15 {
		t.Errorf("AvgCompTol = %v, want %v", got, want)
	}
	tests := []struct {
		u    *mat.Dense
		want float64
	}{
		{mat.NewDense(1, 1, []float64{0}), 0},
		{mat.NewDense(1, 1, []float64{-2}), 1},
		{mat.NewDense(2, 2, []float64{1, 1, 1, 1}), 1}, // dense topics, like LDA's AvgComp = 1
	}
	for _, tc := range tests {
		if got := AvgComp(tc.u); got != tc.want {
			t.Errorf("AvgComp(%v) = %v, want %v", mat.Formatted(tc.u), got, tc.want)
		}
	}
	if !math.IsNaN(AvgComp(&mat.Dense{})) || Compactness(nil) != nil {
		t.Error("empty U: want NaN / nil")
	}
}
