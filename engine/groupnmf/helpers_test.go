package groupnmf

import (
	"fmt"
	"math"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// groupCorpus is a small labelled corpus with group structure: ks shared
// term blocks used by every class and kc blocks per class, documents in a
// shuffled class order so that the class-major layout is not the identity.
// Terms [0, ks·w) belong to shared topics (w terms each), then each class
// has kc blocks of w terms; every document mixes one shared and one class
// block plus sparse noise.
func groupCorpus(t testing.TB, seed uint64, np, perClass, ks, kc, w int) *engine.Corpus {
	t.Helper()
	rnd := engine.NewRand(seed)
	m := (ks + np*kc) * w
	n := np * perClass
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % np
	}
	rnd.Shuffle(n, func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	var ts []sparse.Triplet
	for j := 0; j < n; j++ {
		p := labels[j]
		blocks := []int{}
		if ks > 0 {
			blocks = append(blocks, rnd.IntN(ks))
		}
		if kc > 0 {
			blocks = append(blocks, ks+p*kc+rnd.IntN(kc))
		}
		for i := 0; i < m; i++ {
			x := 0.0
			for _, b := range blocks {
				if i/w == b {
					x += 1 + rnd.Float64()
				}
			}
			if rnd.Float64() < 0.03 {
				x += 0.2 * rnd.Float64()
			}
			if x > 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: x})
			}
		}
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	return labelled(t, d, labels, np)
}

func labelled(t testing.TB, d *sparse.CSR, labels []int, np int) *engine.Corpus {
	t.Helper()
	vocab := make([]string, d.Rows)
	for i := range vocab {
		vocab[i] = fmt.Sprint("t", i)
	}
	names := make([]string, np)
	for p := range names {
		names[p] = fmt.Sprint("class", p)
	}
	c, err := engine.NewCorpus("group", vocab, d, nil, labels, names)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// denseOf returns the CSR matrix as a gonum Dense.
func denseOf(a *sparse.CSR) *mat.Dense {
	out := mat.NewDense(a.Rows, a.Cols, nil)
	for i := 0; i < a.Rows; i++ {
		idx, val := a.Row(i)
		for q, j := range idx {
			out.Set(i, int(j), val[q])
		}
	}
	return out
}

// bitsEqual reports whether a and b hold identical bits.
func bitsEqual(a, b *mat.Dense) bool {
	r, c := a.Dims()
	if br, bc := b.Dims(); br != r || bc != c {
		return false
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// maxAbsDiff is max |a_ij − b_ij|.
func maxAbsDiff(a, b *mat.Dense) float64 {
	r, c := a.Dims()
	m := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// directLoss evaluates Eq. 9 entry by entry from dense matrices: d is M×N
// (corpus order), u = [U0 | U_1 … U_P], v the N×K DocTopics.
func directLoss(d, u, v *mat.Dense) float64 {
	var uv mat.Dense
	uv.Mul(u, v.T())
	m, n := d.Dims()
	loss := 0.0
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			e := d.At(i, j) - uv.At(i, j)
			loss += e * e
		}
	}
	return loss
}
