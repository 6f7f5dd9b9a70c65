package stability

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/internal/realdata"
)

// TestHungarianMatchesScipy solves random assignment problems (square and
// rectangular) with synthetic.Hungarian and with
// scipy.optimize.linear_sum_assignment, and compares the optimal costs.
func TestHungarianMatchesScipy(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import scipy.optimize").Run(); err != nil {
		realdata.Missing(t, "scipy is not installed for /usr/bin/python3 (apt-get install python3-scipy): %v", err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var problems [][][]float64
	for _, shape := range [][2]int{{1, 1}, {3, 3}, {5, 8}, {20, 20}, {50, 50}} {
		for range 4 {
			c := make([][]float64, shape[0])
			for i := range c {
				c[i] = make([]float64, shape[1])
				for j := range c[i] {
					c[i][j] = rng.NormFloat64()
				}
			}
			problems = append(problems, c)
		}
	}
	in, _ := json.Marshal(problems)
	cmd := exec.Command("/usr/bin/python3", "-c", `
import json, sys
import numpy as np
from scipy.optimize import linear_sum_assignment
out = []
for c in json.load(sys.stdin):
    c = np.array(c)
    r, k = linear_sum_assignment(c)
    out.append(float(c[r, k].sum()))
json.dump(out, sys.stdout)
`)
	stdin, _ := cmd.StdinPipe()
	go func() { stdin.Write(in); stdin.Close() }()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scipy: %v", err)
	}
	var want []float64
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for p, c := range problems {
		a := synthetic.Hungarian(c)
		got := 0.0
		used := map[int]bool{}
		for i, j := range a {
			if j < 0 || used[j] {
				t.Fatalf("problem %d: assignment %v is not one to one", p, a)
			}
			used[j] = true
			got += c[i][j]
		}
		if math.Abs(got-want[p]) > 1e-9 {
			t.Errorf("problem %d (%d×%d): cost %v, scipy %v", p, len(c), len(c[0]), got, want[p])
		}
	}
}

// TestStabilityPermuted: fits that are column permutations of one another
// are perfectly stable; an unrelated fit is not.
func TestStabilityPermuted(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const m, k = 40, 5
	u := mat.NewDense(m, k, nil)
	for i := range m {
		for j := range k {
			u.Set(i, j, rng.Float64())
		}
	}
	perm := mat.NewDense(m, k, nil)
	for j, p := range []int{3, 0, 4, 1, 2} {
		perm.SetCol(j, mat.Col(nil, p, u))
	}
	r, err := Stability([]*mat.Dense{u, perm, u})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Mean-1) > 1e-12 || r.SD > 1e-12 || len(r.Pairs) != 3 {
		t.Errorf("permuted fits: %+v, want mean 1, sd 0, 3 pairs", r)
	}
	// Orthogonal topics: columns with disjoint supports against u's.
	other := mat.NewDense(m, k, nil)
	other.Set(0, 0, 1)
	for j := 1; j < k; j++ {
		other.Set(j, j, 1)
	}
	r, err = Stability([]*mat.Dense{u, other})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mean >= 0.9 {
		t.Errorf("unrelated fits: mean %v, want well below 1", r.Mean)
	}
	if _, err := Stability([]*mat.Dense{u}); err == nil {
		t.Error("one fit accepted")
	}
	if _, err := Stability([]*mat.Dense{u, mat.NewDense(m, k+1, nil)}); err == nil {
		t.Error("fits of different K accepted")
	}
}
