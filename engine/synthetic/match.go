package synthetic

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// MatchTopics pairs the planted topics (columns of planted, M × K1) with
// learned topics (columns of learned, M × K2) one to one so that the total
// cosine similarity is largest (the assignment problem, solved exactly by
// Hungarian). assignment[i] is the learned column matched to planted column
// i, or -1 when K2 < K1 leaves it unmatched; meanCosine is the mean over
// all K1 planted topics of the matched cosine (0 for an unmatched one or a
// zero column, or a column with NaN or Inf entries). A model that recovers the planted topics up to order and
// scale scores 1. Cosines are signed: an LSI topic recovered with the
// opposite sign scores −1 (flip signs first where the model allows it).
// It panics if the matrices have different numbers of rows.
func MatchTopics(planted, learned *mat.Dense) (meanCosine float64, assignment []int) {
	m1, k1 := planted.Dims()
	m2, k2 := learned.Dims()
	if m1 != m2 {
		panic(fmt.Sprintf("synthetic.MatchTopics: planted has %d rows, learned %d", m1, m2))
	}
	cos := cosines(planted, learned)
	cost := make([][]float64, k1)
	for i := range cost {
		cost[i] = make([]float64, k2)
		for j := range cost[i] {
			cost[i][j] = -cos[i][j]
		}
	}
	assignment = Hungarian(cost)
	if k1 == 0 {
		return 0, assignment
	}
	sum := 0.0
	for i, j := range assignment {
		if j >= 0 {
			sum += cos[i][j]
		}
	}
	return sum / float64(k1), assignment
}

// cosines returns the K1 × K2 cosine similarities of the columns.
func cosines(a, b *mat.Dense) [][]float64 {
	_, k1 := a.Dims()
	_, k2 := b.Dims()
	var g mat.Dense
	if k1 > 0 && k2 > 0 {
		g.Mul(a.T(), b)
	}
	na, nb := colNorms(a), colNorms(b)
	out := make([][]float64, k1)
	for i := range out {
		out[i] = make([]float64, k2)
		for j := range out[i] {
			if na[i] > 0 && nb[j] > 0 {
				out[i][j] = g.At(i, j) / (na[i] * nb[j])
			}
			if math.IsNaN(out[i][j]) || math.IsInf(out[i][j], 0) {
				out[i][j] = 0 // a diverged model's topic matches nothing
			}
		}
	}
	return out
}

func colNorms(a *mat.Dense) []float64 {
	_, k := a.Dims()
	n := make([]float64, k)
	for j := range n {
		n[j] = mat.Norm(a.ColView(j), 2)
	}
	return n
}

// Hungarian solves the assignment problem for an r × c cost matrix: it
// returns assign with assign[i] the column given to row i (distinct
// columns) so that the total cost is smallest; when r > c, r − c rows get
// -1. It is the O(r²c) shortest-augmenting-path form of the Hungarian
// method (Kuhn 1955; Munkres 1957) with row and column potentials. It
// panics on a ragged matrix or a cost that is NaN or infinite.
func Hungarian(cost [][]float64) []int {
	r := len(cost)
	if r == 0 {
		return []int{}
	}
	c := len(cost[0])
	for i, row := range cost {
		if len(row) != c {
			panic(fmt.Sprintf("synthetic.Hungarian: row %d has %d columns, row 0 has %d", i, len(row), c))
		}
		for j, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				panic(fmt.Sprintf("synthetic.Hungarian: cost[%d][%d] = %v, want finite", i, j, x))
			}
		}
	}
	if r > c { // solve the transpose
		t := make([][]float64, c)
		for j := range t {
			t[j] = make([]float64, r)
			for i := range r {
				t[j][i] = cost[i][j]
			}
		}
		colOf := Hungarian(t)
		assign := make([]int, r)
		for i := range assign {
			assign[i] = -1
		}
		for j, i := range colOf {
			assign[i] = j
		}
		return assign
	}
	// 1-based arrays: row 0 and column 0 are the virtual start.
	u := make([]float64, r+1)
	v := make([]float64, c+1)
	p := make([]int, c+1) // p[j] = row matched to column j (0: none)
	way := make([]int, c+1)
	minv := make([]float64, c+1)
	used := make([]bool, c+1)
	for i := 1; i <= r; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], math.Inf(1), 0
			for j := 1; j <= c; j++ {
				if used[j] {
					continue
				}
				if cur := cost[i0-1][j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= c; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	assign := make([]int, r)
	for j := 1; j <= c; j++ {
		if p[j] != 0 {
			assign[p[j]-1] = j - 1
		}
	}
	return assign
}
