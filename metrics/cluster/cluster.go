package cluster

import (
	"fmt"
	"math"
	"slices"
)

// Contingency is the contingency table of two labelings of the same n items,
// stored sparsely (only non-zero cells).
type Contingency struct {
	Classes  []int   // distinct reference labels, increasing
	Clusters []int   // distinct predicted labels, increasing
	ClassN   []int64 // ClassN[j] = a_j, size of class Classes[j]
	ClusterN []int64 // ClusterN[k] = b_k, size of cluster Clusters[k]
	Cells    []Cell  // non-zero cells ordered by (Class, Cluster)
	N        int64   // number of items
}

// Cell is one non-zero cell: Count items have class Classes[Class] and
// cluster Clusters[Cluster].
type Cell struct {
	Class, Cluster int
	Count          int64
}

// NewContingency builds the table of reference labels truth against
// predicted labels pred. It returns an error if the lengths differ.
func NewContingency(truth, pred []int) (*Contingency, error) {
	if len(truth) != len(pred) {
		return nil, fmt.Errorf("cluster: %d reference labels but %d predicted labels", len(truth), len(pred))
	}
	c := &Contingency{N: int64(len(truth))}
	c.Classes = distinct(truth)
	c.Clusters = distinct(pred)
	ci, ki := indexOf(c.Classes), indexOf(c.Clusters)
	nk := int64(len(c.Clusters))
	keys := make([]int64, len(truth))
	for i := range truth {
		keys[i] = int64(ci[truth[i]])*nk + int64(ki[pred[i]])
	}
	slices.Sort(keys)
	c.ClassN = make([]int64, len(c.Classes))
	c.ClusterN = make([]int64, len(c.Clusters))
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		cell := Cell{Class: int(keys[i] / nk), Cluster: int(keys[i] % nk), Count: int64(j - i)}
		c.Cells = append(c.Cells, cell)
		c.ClassN[cell.Class] += cell.Count
		c.ClusterN[cell.Cluster] += cell.Count
		i = j
	}
	return c, nil
}

func distinct(x []int) []int {
	seen := map[int]struct{}{}
	for _, v := range x {
		seen[v] = struct{}{}
	}
	out := make([]int, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

func indexOf(labels []int) map[int]int {
	m := make(map[int]int, len(labels))
	for i, v := range labels {
		m[v] = i
	}
	return m
}

// Purity is (1/n) Σ_k max_j n_kj (1 for an empty table).
func (c *Contingency) Purity() float64 {
	if c.N == 0 {
		return 1
	}
	best := make([]int64, len(c.Clusters))
	for _, cell := range c.Cells {
		best[cell.Cluster] = max(best[cell.Cluster], cell.Count)
	}
	var sum int64
	for _, b := range best {
		sum += b
	}
	return float64(sum) / float64(c.N)
}

// entropy is −Σ (x/n) (log x − log n) over the non-zero sizes.
func entropy(sizes []int64, n int64) float64 {
	if len(sizes) <= 1 {
		return 0
	}
	logN := math.Log(float64(n))
	h := 0.0
	for _, s := range sizes {
		if s > 0 {
			h -= float64(s) / float64(n) * (math.Log(float64(s)) - logN)
		}
	}
	return h
}

// MutualInfo is I(Ω; C) in nats (see the package documentation).
func (c *Contingency) MutualInfo() float64 {
	if len(c.Classes) <= 1 || len(c.Clusters) <= 1 {
		return 0
	}
	n := float64(c.N)
	logN := math.Log(n)
	eps := math.Nextafter(1, 2) - 1
	mi := 0.0
	for _, cell := range c.Cells {
		p := float64(cell.Count) / n
		term := p * (math.Log(float64(cell.Count)) + logN -
			math.Log(float64(c.ClassN[cell.Class])) - math.Log(float64(c.ClusterN[cell.Cluster])))
		if math.Abs(term) >= eps {
			mi += term
		}
	}
	return max(mi, 0)
}

// NMI is I(Ω; C) / ((H(Ω) + H(C))/2), with scikit-learn's limit conventions.
func (c *Contingency) NMI() float64 {
	nc, nk := len(c.Classes), len(c.Clusters)
	if (nc == 1 && nk == 1) || (nc == 0 && nk == 0) {
		return 1
	}
	mi := c.MutualInfo()
	if mi == 0 {
		return 0
	}
	return mi / ((entropy(c.ClassN, c.N) + entropy(c.ClusterN, c.N)) / 2)
}

func choose2(x int64) float64 { f := float64(x); return f * (f - 1) / 2 }

// ARI is the adjusted Rand index of Hubert & Arabie, computed in float64.
//
// With T = C(n, 2), ARI = (S·T − A·B) / ((A+B)/2·T − A·B). S, A, B and T are
// integers (or halves) held exactly in float64 up to n ≈ 10⁸; the two
// differences of products of size ~10²² are formed with fused multiply-adds
// (A·B split into its rounded value and exact error), so near-independent
// labelings do not lose their leading digits to cancellation.
func (c *Contingency) ARI() float64 {
	var s, a, b float64
	for _, cell := range c.Cells {
		s += choose2(cell.Count)
	}
	for _, x := range c.ClassN {
		a += choose2(x)
	}
	for _, x := range c.ClusterN {
		b += choose2(x)
	}
	if s == a && s == b { // the same partition (includes n ≤ 1)
		return 1
	}
	t := choose2(c.N)
	ab := a * b
	abErr := math.FMA(a, b, -ab) // a·b = ab + abErr exactly
	num := math.FMA(s, t, -ab) - abErr
	den := math.FMA((a+b)/2, t, -ab) - abErr
	return num / den
}

// Scores are the three clustering measures of one labeling.
type Scores struct {
	Purity, NMI, ARI float64
	N                int // items
	Classes          int // distinct reference labels
	Clusters         int // distinct predicted labels
}

// Evaluate computes purity, NMI and ARI of pred against truth.
func Evaluate(truth, pred []int) (Scores, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return Scores{}, err
	}
	return Scores{Purity: c.Purity(), NMI: c.NMI(), ARI: c.ARI(), N: int(c.N),
		Classes: len(c.Classes), Clusters: len(c.Clusters)}, nil
}

// Purity of pred against truth (see Contingency.Purity).
func Purity(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.Purity(), nil
}

// NMI of pred against truth (see Contingency.NMI).
func NMI(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.NMI(), nil
}

// ARI of pred against truth (see Contingency.ARI).
func ARI(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.ARI(), nil
}
