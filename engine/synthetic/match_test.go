package synthetic

import (
	"math"
	"reflect"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"gonum.org/v1/gonum/mat"
)

func TestMatchTopicsPermuted(t *testing.T) {
	_, tr, err := Generate(Default())
	if err != nil {
		t.Fatal(err)
	}
	planted := tr.Topics()
	m, k := planted.Dims()
	perm := engine.NewRand(3).Perm(k)
	learned := mat.NewDense(m, k, nil)
	for i, j := range perm { // planted column i becomes learned column j, scaled
		for r := 0; r < m; r++ {
			learned.Set(r, j, planted.At(r, i)*float64(i+2))
		}
	}
	score, assign := MatchTopics(planted, learned)
	if math.Abs(score-1) > 1e-12 || !reflect.DeepEqual(assign, perm) {
		t.Errorf("score %v assignment %v, want 1 and %v", score, assign, perm)
	}
	// Half the topics missing: those score 0.
	half := mat.DenseCopyOf(planted.Slice(0, m, 0, k/2))
	score, assign = MatchTopics(planted, half)
	unmatched := 0
	for _, j := range assign {
		if j < 0 {
			unmatched++
		}
	}
	if unmatched != k-k/2 || math.Abs(score-float64(k/2)/float64(k)) > 1e-12 {
		t.Errorf("half the topics: score %v, %d unmatched", score, unmatched)
	}
	// More learned topics than planted: every planted one finds its copy.
	score, _ = MatchTopics(half, planted)
	if math.Abs(score-1) > 1e-12 {
		t.Errorf("extra learned topics: score %v", score)
	}
}

func TestMatchTopicsEdges(t *testing.T) {
	// Size 0 and 1.
	if s, a := MatchTopics(&mat.Dense{}, &mat.Dense{}); s != 0 || len(a) != 0 {
		t.Errorf("empty: %v %v", s, a)
	}
	one := mat.NewDense(3, 1, []float64{1, 0, 0})
	other := mat.NewDense(3, 1, []float64{1, 1, 0})
	if s, a := MatchTopics(one, other); math.Abs(s-1/math.Sqrt2) > 1e-15 || !reflect.DeepEqual(a, []int{0}) {
		t.Errorf("one topic: %v %v", s, a)
	}
	// Zero and NaN columns match with cosine 0 (no hang, no panic).
	bad := mat.NewDense(3, 2, []float64{0, math.NaN(), 0, 1, 0, 1})
	if s, _ := MatchTopics(mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 0}), bad); s != 0 {
		t.Errorf("zero/NaN learned topics score %v", s)
	}
	defer func() {
		if recover() == nil {
			t.Error("row mismatch did not panic")
		}
	}()
	MatchTopics(one, mat.NewDense(4, 1, nil))
}

// TestHungarianOptimal checks Hungarian against exhaustive search of all
// injective assignments on random matrices, square and rectangular.
func TestHungarianOptimal(t *testing.T) {
	// Greedy best-first takes 0.9 then 0.1 (total 1.0); the optimum is 1.6.
	greedyTrap := [][]float64{{-0.9, -0.8}, {-0.8, -0.1}}
	if a := Hungarian(greedyTrap); !reflect.DeepEqual(a, []int{1, 0}) {
		t.Errorf("greedy trap: %v, want [1 0]", a)
	}
	r := engine.NewRand(11)
	for trial := 0; trial < 200; trial++ {
		rows, cols := 1+r.IntN(6), 1+r.IntN(6)
		cost := make([][]float64, rows)
		for i := range cost {
			cost[i] = make([]float64, cols)
			for j := range cost[i] {
				cost[i][j] = math.Round(r.NormFloat64()*10) / 2 // ties are likely
			}
		}
		a := Hungarian(cost)
		used := map[int]bool{}
		got, matched := 0.0, 0
		for i, j := range a {
			if j < 0 {
				continue
			}
			if used[j] {
				t.Fatalf("%v: column %d used twice in %v", cost, j, a)
			}
			used[j] = true
			got += cost[i][j]
			matched++
		}
		if matched != min(rows, cols) {
			t.Fatalf("%v: %d rows matched, want %d", cost, matched, min(rows, cols))
		}
		if want := bruteForce(cost); math.Abs(got-want) > 1e-9 {
			t.Fatalf("%v: Hungarian total %v, exhaustive optimum %v (%v)", cost, got, want, a)
		}
	}
	if a := Hungarian(nil); len(a) != 0 {
		t.Errorf("empty cost: %v", a)
	}
}

// bruteForce is the smallest total over all ways of matching min(r, c)
// rows to distinct columns.
func bruteForce(cost [][]float64) float64 {
	rows, cols := len(cost), len(cost[0])
	best := math.Inf(1)
	used := make([]bool, cols)
	var rec func(i, matched int, sum float64)
	rec = func(i, matched int, sum float64) {
		if i == rows {
			if matched == min(rows, cols) {
				best = math.Min(best, sum)
			}
			return
		}
		if rows-i > cols-matched { // this row may stay unmatched
			rec(i+1, matched, sum)
		}
		for j := 0; j < cols; j++ {
			if !used[j] {
				used[j] = true
				rec(i+1, matched+1, sum+cost[i][j])
				used[j] = false
			}
		}
	}
	rec(0, 0, 0)
	return best
}
