// Package stability measures how much a model's topics depend on its
// seed: the topics of R fits (seeds) are matched pairwise one to one, and
// the matched similarity is averaged.
//
// For two fits with term-topic matrices U and U' (M × K), the topics are
// paired by the assignment that maximizes the total cosine of their term
// vectors (the Hungarian method: Kuhn, "The Hungarian Method for the
// Assignment Problem", Naval Research Logistics Quarterly 1955), and the
// pair's similarity is the mean matched cosine over the K topics, as in
// Greene, O'Callaghan and Cunningham, "How Many Topics? Stability Analysis
// for Topic Models" (ECML PKDD 2014), who match by the Hungarian method
// too, on top-word agreement. Stability over R fits is the mean of the
// R(R−1)/2 pair similarities, and its spread their sample standard
// deviation.
//
// Cosines are signed: a topic of LSI or RLSI that comes back with the
// opposite sign scores −1 against its twin. Use non-negative families, or
// flip signs first.
package stability

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine/synthetic"
)

// Result is the stability of R fits.
type Result struct {
	// Pairs[i] is the mean matched cosine of the i-th pair of fits, pairs
	// in the order (0,1), (0,2), …, (1,2), ….
	Pairs []float64
	Mean  float64 // mean of Pairs
	SD    float64 // sample standard deviation of Pairs (0 for one pair)
	// Min is the smallest pair similarity.
	Min float64
}

// Stability compares every pair of the fits' term-topic matrices (same
// terms, same number of topics). It needs at least two fits.
func Stability(fits []*mat.Dense) (Result, error) {
	if len(fits) < 2 {
		return Result{}, fmt.Errorf("stability: %d fits, want at least 2", len(fits))
	}
	m0, k0 := fits[0].Dims()
	for i, u := range fits {
		if m, k := u.Dims(); m != m0 || k != k0 {
			return Result{}, fmt.Errorf("stability: fit %d is %d×%d, fit 0 is %d×%d", i, m, k, m0, k0)
		}
	}
	var r Result
	for i := range fits {
		for j := i + 1; j < len(fits); j++ {
			sim, _ := synthetic.MatchTopics(fits[i], fits[j])
			r.Pairs = append(r.Pairs, sim)
		}
	}
	r.Min = math.Inf(1)
	for _, s := range r.Pairs {
		r.Mean += s
		r.Min = min(r.Min, s)
	}
	r.Mean /= float64(len(r.Pairs))
	if len(r.Pairs) > 1 {
		var ss float64
		for _, s := range r.Pairs {
			ss += (s - r.Mean) * (s - r.Mean)
		}
		r.SD = math.Sqrt(ss / float64(len(r.Pairs)-1))
	}
	return r, nil
}
