package topics

import (
	"container/heap"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Order selects which terms TopTermsBy lists and how it ranks them.
type Order int

const (
	ByWeight     Order = iota // signed weight descending
	ByMagnitude               // |weight| descending
	PositiveOnly              // weight > 0 only, descending
)

func (o Order) String() string {
	switch o {
	case ByWeight:
		return "by weight"
	case ByMagnitude:
		return "by magnitude"
	case PositiveOnly:
		return "positive only"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// Term is one term of a topic.
type Term struct {
	Term   string
	Index  int // row of U
	Weight float64
}

// TopTerms returns, for each topic (column of U), up to n terms by weight
// descending (see the package documentation). vocab[m] names row m of U.
// It panics if len(vocab) differs from the rows of U (a programmer error).
func TopTerms(U *mat.Dense, vocab []string, n int) [][]Term {
	return TopTermsBy(U, vocab, n, ByWeight)
}

// TopTermsBy is TopTerms with a choice of order.
func TopTermsBy(U *mat.Dense, vocab []string, n int, order Order) [][]Term {
	if U == nil || U.IsEmpty() {
		if len(vocab) != 0 {
			panic(fmt.Sprintf("topics: %d vocabulary terms for an empty U", len(vocab)))
		}
		return nil
	}
	M, K := U.Dims()
	if len(vocab) != M {
		panic(fmt.Sprintf("topics: U has %d rows (terms) but the vocabulary %d", M, len(vocab)))
	}
	if order < ByWeight || order > PositiveOnly {
		panic(fmt.Sprintf("topics: unknown %v", order))
	}
	out := make([][]Term, K)
	for k := range K {
		h := &termHeap{order: order}
		if n > 0 {
			for m := range M {
				w := U.At(m, k)
				if w == 0 || math.IsNaN(w) || (order == PositiveOnly && w < 0) {
					continue
				}
				t := Term{Term: vocab[m], Index: m, Weight: w}
				if h.Len() < n {
					heap.Push(h, t)
				} else if h.before(t, h.terms[0]) {
					h.terms[0] = t
					heap.Fix(h, 0)
				}
			}
		}
		list := make([]Term, h.Len())
		for i := len(list) - 1; i >= 0; i-- {
			list[i] = heap.Pop(h).(Term)
		}
		out[k] = list
	}
	return out
}

// termHeap is a min-heap by list order: its root is the term that would be
// listed last, so it is the one replaced by a better candidate.
type termHeap struct {
	order Order
	terms []Term
}

// before reports whether a is listed before b.
func (h *termHeap) before(a, b Term) bool {
	ka, kb := a.Weight, b.Weight
	if h.order == ByMagnitude {
		ka, kb = math.Abs(ka), math.Abs(kb)
	}
	if ka != kb {
		return ka > kb
	}
	if a.Term != b.Term {
		return a.Term < b.Term
	}
	return a.Index < b.Index
}

func (h *termHeap) Len() int           { return len(h.terms) }
func (h *termHeap) Less(i, j int) bool { return h.before(h.terms[j], h.terms[i]) }
func (h *termHeap) Swap(i, j int)      { h.terms[i], h.terms[j] = h.terms[j], h.terms[i] }
func (h *termHeap) Push(x any)         { h.terms = append(h.terms, x.(Term)) }
func (h *termHeap) Pop() any {
	t := h.terms[len(h.terms)-1]
	h.terms = h.terms[:len(h.terms)-1]
	return t
}

// Words returns the term strings of a topic's list.
func Words(terms []Term) []string {
	w := make([]string, len(terms))
	for i, t := range terms {
		w[i] = t.Term
	}
	return w
}

// Format joins a topic's terms with spaces, as the papers' topic tables.
func Format(terms []Term) string { return strings.Join(Words(terms), " ") }

// Compactness returns, per topic k, the fraction of terms with a non-zero
// weight: |{m : U_mk ≠ 0}| / M.
func Compactness(U *mat.Dense) []float64 { return compactness(U, 0, true) }

// AvgComp is the RLSI paper's average topic compactness: the mean over
// topics of Compactness (NaN for an empty U).
func AvgComp(U *mat.Dense) float64 { return mean(compactness(U, 0, true)) }

// AvgCompTol is AvgComp counting only weights with |U_mk| > tol.
func AvgCompTol(U *mat.Dense, tol float64) float64 { return mean(compactness(U, tol, false)) }

func compactness(U *mat.Dense, tol float64, exact bool) []float64 {
	if U == nil || U.IsEmpty() {
		return nil
	}
	M, K := U.Dims()
	counts := make([]int, K)
	for m := range M {
		for k, w := range U.RawRowView(m) {
			if (exact && w != 0) || (!exact && math.Abs(w) > tol) {
				counts[k]++
			}
		}
	}
	out := make([]float64, K)
	for k, c := range counts {
		out[k] = float64(c) / float64(M)
	}
	return out
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
