package cluster

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

// Expected values from scikit-learn 1.2.1 (Debian python3-sklearn):
// adjusted_rand_score, normalized_mutual_info_score (arithmetic) and purity
// as contingency_matrix(t, p).max(axis=0).sum() / n.
var cases = []struct {
	name             string
	truth, pred      []int
	ari, nmi, purity float64
}{
	{"empty", nil, nil, 1, 1, 1},
	{"single", []int{0}, []int{0}, 1, 1, 1},
	{"one cluster each, relabeled", []int{0, 0}, []int{1, 1}, 1, 1, 1},
	{"truth split, pred one cluster", []int{0, 1}, []int{0, 0}, 0, 0, 0.5},
	// sklearn documentation example; its docs print 0.24242424242424246 for
	// the ARI, sklearn 1.2.1 computes 0.24242424242424243 (= 8/33 correctly
	// rounded); NMI 0.5158037429793888, purity 5/6.
	{"sklearn doc 1", []int{0, 0, 0, 1, 1, 1}, []int{0, 0, 1, 1, 2, 2}, 0.24242424242424243, 0.5158037429793888, 0.8333333333333334},
	// sklearn documentation example: ARI -0.12903225806451613.
	{"sklearn doc 2", []int{0, 1, 2, 0, 3, 4, 5, 1}, []int{1, 1, 0, 0, 2, 2, 2, 2}, -0.12903225806451613, 0.49999999999999983, 0.375},
	{"independent", []int{0, 0, 1, 1}, []int{0, 1, 0, 1}, -0.5, 0, 0.5},
	{"all singletons vs one class", []int{0, 0, 0, 0}, []int{0, 1, 2, 3}, 0, 0, 1},
	{"arbitrary labels", []int{1, 1, 2, 2, 3, 3, 3}, []int{5, 5, 5, 7, 7, 9, 9}, 0.2125, 0.5636355530993445, 0.7142857142857143},
	{"ten", []int{0, 0, 1, 2, 2, 2, 1, 0, 1, 1}, []int{2, 2, 0, 1, 1, 0, 0, 2, 1, 1}, 0.3181818181818182, 0.5700127345819985, 0.7},
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-15*math.Max(1, math.Abs(b)) }

func TestScores(t *testing.T) {
	for _, tc := range cases {
		s, err := Evaluate(tc.truth, tc.pred)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !close(s.ARI, tc.ari) || !close(s.NMI, tc.nmi) || !close(s.Purity, tc.purity) {
			t.Errorf("%s: ARI %.17g NMI %.17g purity %.17g, want %.17g %.17g %.17g",
				tc.name, s.ARI, s.NMI, s.Purity, tc.ari, tc.nmi, tc.purity)
		}
		if s.N != len(tc.truth) {
			t.Errorf("%s: N = %d", tc.name, s.N)
		}
		// ARI and NMI are symmetric and invariant to relabeling.
		relabel := make([]int, len(tc.pred))
		for i, p := range tc.pred {
			relabel[i] = -7 * p
		}
		r, _ := Evaluate(relabel, tc.truth)
		if !close(r.ARI, tc.ari) || !close(r.NMI, tc.nmi) {
			t.Errorf("%s swapped/relabeled: ARI %v NMI %v", tc.name, r.ARI, r.NMI)
		}
		for _, f := range []func([]int, []int) (float64, error){Purity, NMI, ARI} {
			if _, err := f(tc.truth, tc.pred); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
	}
}

func TestContingency(t *testing.T) {
	c, err := NewContingency([]int{3, 3, -1, 3}, []int{0, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []Cell{{0, 1, 1}, {1, 0, 1}, {1, 1, 2}}
	if len(c.Cells) != len(want) {
		t.Fatalf("cells %v", c.Cells)
	}
	for i := range want {
		if c.Cells[i] != want[i] {
			t.Errorf("cell %d = %v, want %v", i, c.Cells[i], want[i])
		}
	}
	if c.Classes[0] != -1 || c.Classes[1] != 3 || c.ClassN[1] != 3 || c.ClusterN[1] != 3 || c.N != 4 {
		t.Errorf("table %+v", c)
	}
	for _, f := range []func([]int, []int) (float64, error){Purity, NMI, ARI} {
		if _, err := f([]int{1}, nil); err == nil || !strings.Contains(err.Error(), "1 reference labels but 0 predicted") {
			t.Errorf("length mismatch: %v", err)
		}
	}
	if _, err := Evaluate([]int{1}, nil); err == nil {
		t.Error("Evaluate accepted a length mismatch")
	}
}

// exactARI computes the Hubert-Arabie ARI in exact rational arithmetic.
func exactARI(c *Contingency) float64 {
	ch := func(x int64) *big.Rat { return new(big.Rat).SetFrac(big.NewInt(x*(x-1)), big.NewInt(2)) }
	s, a, b := new(big.Rat), new(big.Rat), new(big.Rat)
	for _, cell := range c.Cells {
		s.Add(s, ch(cell.Count))
	}
	for _, x := range c.ClassN {
		a.Add(a, ch(x))
	}
	for _, x := range c.ClusterN {
		b.Add(b, ch(x))
	}
	e := new(big.Rat).Mul(a, b)
	e.Quo(e, ch(c.N))
	num := new(big.Rat).Sub(s, e)
	den := new(big.Rat).Add(a, b)
	den.Quo(den, big.NewRat(2, 1)).Sub(den, e)
	f, _ := new(big.Rat).Quo(num, den).Float64()
	return f
}

// TestMillion checks the measures on a million documents, where Σ C(a_j,2) ·
// Σ C(b_k,2) is about 10²² and would overflow int64. Expected values from
// scikit-learn 1.2.1 on the same formula-generated labels
// (i = 0..999999; truth = (7919 i) mod 13; pred = truth unless i mod 10 = 0,
// then (31 i + 7) mod 17), and from exact rational arithmetic.
func TestMillion(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 0
	}
	truth, pred := make([]int, n), make([]int, n)
	for i := range n {
		truth[i] = (i * 7919) % 13
		pred[i] = truth[i]
		if i%10 == 0 {
			pred[i] = (i*31 + 7) % 17
		}
	}
	if n > 0 {
		c, err := NewContingency(truth, pred)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := c.ARI(), 0.8269390792342894; math.Abs(got-want) > 1e-14 {
			t.Errorf("ARI = %.17g, want %.17g (sklearn)", got, want)
		}
		if got, want := c.ARI(), exactARI(c); math.Abs(got-want) > 1e-14 {
			t.Errorf("ARI = %.17g, exact %.17g", got, want)
		}
		if got, want := c.NMI(), 0.7962847834948376; math.Abs(got-want) > 1e-13 {
			t.Errorf("NMI = %.17g, want %.17g (sklearn)", got, want)
		}
		if got, want := c.Purity(), 0.907693; math.Abs(got-want) > 1e-15 {
			t.Errorf("purity = %.17g, want %.17g (sklearn)", got, want)
		}
	}
	// Two orthogonal halvings of 10⁶ items: sklearn gives ARI
	// -1.0000020000040001e-06 and NMI 0. S ≈ E here, the case where a plain
	// float64 evaluation loses digits to cancellation; also checked against
	// exact rational arithmetic.
	m := 1_000_000
	if testing.Short() {
		m = 1000
	}
	a, b := make([]int, m), make([]int, m)
	for i := range m {
		a[i], b[i] = i%2, (i/2)%2
	}
	c, _ := NewContingency(a, b)
	if got, want := c.ARI(), exactARI(c); math.Abs(got-want) > 1e-15*math.Abs(want) {
		t.Errorf("halvings: ARI = %.17g, exact %.17g", got, want)
	}
	if m == 1_000_000 && math.Abs(c.ARI()-(-1.0000020000040001e-06)) > 1e-18 {
		t.Errorf("halvings: ARI = %.17g, want sklearn -1.0000020000040001e-06", c.ARI())
	}
	if c.NMI() != 0 {
		t.Errorf("halvings: NMI = %v, want 0", c.NMI())
	}
}

func BenchmarkEvaluateMillion(b *testing.B) {
	n := 1_000_000
	truth, pred := make([]int, n), make([]int, n)
	for i := range n {
		truth[i], pred[i] = (i*7919)%20, (i*31+7)%25
	}
	for b.Loop() {
		if _, err := Evaluate(truth, pred); err != nil {
			b.Fatal(err)
		}
	}
}
