package synthetic

import (
	"math"
	"math/rand/v2"

	"github.com/topicmf/topicmf/engine"
)

// dirichlet fills dst with a draw from the symmetric Dirichlet(alpha) over
// len(dst) components, scaled to sum to total. When every gamma draw
// underflows to 0 (tiny alpha), all mass goes to one component chosen
// uniformly.
func dirichlet(r *rand.Rand, alpha, total float64, dst []float64) {
	if len(dst) == 0 {
		return
	}
	sum := 0.0
	for i := range dst {
		dst[i] = engine.Gamma(r, alpha)
		sum += dst[i]
	}
	if sum == 0 || math.IsInf(sum, 0) {
		for i := range dst {
			dst[i] = 0
		}
		dst[r.IntN(len(dst))] = total
		return
	}
	for i := range dst {
		dst[i] *= total / sum
	}
}

// poissonChunk is the largest mean drawn in one piece by Knuth's method
// (e^-500 is far from float64 underflow).
const poissonChunk = 500

// poisson draws from Poisson(lambda) by Knuth's multiplication method,
// splitting lambda into pieces of at most poissonChunk (a sum of independent
// Poisson variables is Poisson with the summed mean). It costs about
// lambda+1 uniforms, no more than drawing the document's tokens.
func poisson(r *rand.Rand, lambda float64) int {
	n := 0
	for lambda > 0 {
		l := math.Min(lambda, poissonChunk)
		lambda -= l
		limit := math.Exp(-l)
		p := r.Float64()
		for p > limit {
			n++
			p *= r.Float64()
		}
	}
	return n
}

// alias is Walker's alias table (Vose's construction) for drawing an index
// of a discrete distribution in O(1).
type alias struct {
	prob  []float64
	alias []int32
	items []int32 // the values returned (term ids)
}

// newAlias builds the table for weights w (non-negative, positive sum) over
// items.
func newAlias(items []int32, w []float64) alias {
	n := len(w)
	a := alias{prob: make([]float64, n), alias: make([]int32, n), items: items}
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	scaled := make([]float64, n)
	var small, large []int32
	for i, x := range w {
		scaled[i] = x * float64(n) / sum
		if scaled[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s := small[len(small)-1]
		small = small[:len(small)-1]
		l := large[len(large)-1]
		a.prob[s] = scaled[s]
		a.alias[s] = l
		scaled[l] = scaled[l] + scaled[s] - 1
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range large {
		a.prob[i] = 1
		a.alias[i] = i
	}
	for _, i := range small { // only from rounding
		a.prob[i] = 1
		a.alias[i] = i
	}
	return a
}

// draw returns one item.
func (a *alias) draw(r *rand.Rand) int32 {
	i := r.IntN(len(a.prob))
	if r.Float64() < a.prob[i] {
		return a.items[i]
	}
	return a.items[a.alias[i]]
}
