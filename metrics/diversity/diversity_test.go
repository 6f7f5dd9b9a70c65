package diversity

import (
	"math"
	"strings"
	"testing"
)

// TestTopicDiversityByHand: three topics of top-4 words, k = 4.
// Topics "a b c d", "a b e f", "g h i j": 10 distinct of 12 listed words.
func TestTopicDiversityByHand(t *testing.T) {
	topics := [][]string{strings.Fields("a b c d x"), strings.Fields("a b e f y"), strings.Fields("g h i j z")}
	if got, want := TopicDiversity(topics, 4), 10.0/12; got != want {
		t.Errorf("TD@4 = %v, want 10/12", got)
	}
	// With k = 5 the fifth words x, y, z are all new: 13 of 15.
	if got, want := TopicDiversity(topics, 5), 13.0/15; got != want {
		t.Errorf("TD@5 = %v, want 13/15", got)
	}
	// K copies of one topic: 1/K.
	same := [][]string{strings.Fields("a b c"), strings.Fields("a b c"), strings.Fields("a b c"), strings.Fields("a b c")}
	if got := TopicDiversity(same, 25); got != 0.25 {
		t.Errorf("TD of 4 copies = %v, want 1/4", got)
	}
	// A sparse topic counts the words it lists: "a" and "a b c" give 3 of 4.
	if got := TopicDiversity([][]string{{"a"}, strings.Fields("a b c")}, 25); got != 0.75 {
		t.Errorf("TD with a sparse topic = %v, want 3/4", got)
	}
	if got := TopicDiversity(nil, 25); !math.IsNaN(got) {
		t.Errorf("TD of no topic = %v, want NaN", got)
	}
}

// TestRBOByHand checks RBO_ext on cases worked out by hand.
func TestRBOByHand(t *testing.T) {
	abc := strings.Split("abcdefg", "")
	bac := strings.Split("bacdefg", "")
	cases := []struct {
		s, u []string
		p    float64
		want float64
	}{
		{abc, abc, 0.9, 1},
		// X_1 = 0, X_d = d for d ≥ 2: (1−p)/p Σ_{d=2..7} p^d + p^7 = p(1 − p^6) + p^7 = p.
		{abc, bac, 0.9, 0.9},
		{abc, strings.Split("hijklmn", ""), 0.9, 0},
		// Uneven: S = "a", T = "a b": X_1 = X_2 = 1, s = 1, l = 2:
		// (1−p)/p (p + p²/2 + 1·1/2·p²) + ((1−1)/2 + 1/1) p² = (1−p)(1+p) + p² = 1.
		{[]string{"a"}, []string{"a", "b"}, 0.5, 1},
		// S = "b", T = "a b": X_1 = 0, X_2 = 1: (1−p)/p (p²/2 + 0) + (1/2 + 0) p²
		// = (1−p)p/2 + p²/2 = p/2.
		{[]string{"b"}, []string{"a", "b"}, 0.5, 0.25},
	}
	for _, c := range cases {
		if got := RBOExt(c.s, c.u, c.p); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("RBOExt(%v, %v, %v) = %v, want %v", c.s, c.u, c.p, got, c.want)
		}
	}
	// Inverted RBO of identical topics is 0, of disjoint ones 1.
	if got, _ := InvertedRBO([][]string{abc, abc}, 10, 0.9); math.Abs(got) > 1e-15 {
		t.Errorf("inverted RBO of identical topics = %v", got)
	}
	if got, _ := InvertedRBO([][]string{abc, strings.Split("hijklmn", ""), strings.Split("opqrstu", "")}, 10, 0.9); got != 1 {
		t.Errorf("inverted RBO of disjoint topics = %v", got)
	}
	if _, err := InvertedRBO([][]string{abc, abc}, 10, 1); err == nil {
		t.Error("p = 1 accepted")
	}
}
