package grouping

import (
	"fmt"
	"math"
	"slices"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Layout is a labelled corpus in class-major order (see the package doc).
type Layout struct {
	// M terms, N documents, P classes (len of the corpus ClassNames).
	M, N, P int
	// Order[i] is the corpus index of the document at class-major position i.
	Order []int
	// Pos[n] is the class-major position of corpus document n.
	Pos []int
	// Offset (len P+1): class p holds positions [Offset[p], Offset[p+1]).
	Offset []int
	// ClassOf[i] is the class of position i.
	ClassOf []int32
	// D is M×N with columns in class-major order; DT is its transpose (row i
	// is the document at position i). They are the corpus's own matrices
	// when Identity.
	D, DT *sparse.CSR
	// Identity reports that class-major order is the corpus order.
	Identity bool
	// ClassNames are the corpus's class names (len P).
	ClassNames []string
}

// CheckK is the check of a group model's numbers of topics against the
// corpus, made before anything is allocated: a document's Ks + Kc topics
// (kc is Kc, or GNMFNC's Kp, as kcName says) must not exceed min(M, N),
// the rank of each class's factorization D_p ≈ Ũ_pV_p
// (engine.CheckFactors, e.g. "groupnmf: Ks + Kc = 40 + 10 = 50 exceeds
// min(M, N) = min(30 terms, 60 documents) = 30"), while the whole K = Ks +
// P·Kc may, as in GMF's experiments (K of 1,000 and more on fewer terms);
// U (M×K) and the compact V (N×(Ks+Kc)) must fit in memory
// (engine.CheckMemory). A K beyond the int range does not.
func (l *Layout) CheckK(who string, ks, kc int, kcName string) error {
	perDoc, ok := sum(ks, 1, kc)
	what := fmt.Sprintf("Ks + %s = %d + %d", kcName, ks, kc)
	if ok {
		what += fmt.Sprintf(" = %d", perDoc)
	}
	if err := engine.CheckFactors(who, what, perDoc, perDoc, l.M, l.N); err != nil {
		return err
	}
	k, _ := sum(ks, l.P, kc)
	return engine.CheckMemory(who, k, perDoc, l.M, l.N)
}

// sum is a + p·b for non-negative a, p, b, and whether it fits an int;
// math.MaxInt when it does not.
func sum(a, p, b int) (int, bool) {
	if b > 0 && p > (math.MaxInt-a)/b {
		return math.MaxInt, false
	}
	return a + p*b, true
}

// CheckNorm is the error of a fit whose ‖D‖²_F (dnorm2) overflows float64:
// no objective can be evaluated from the random initialization.
func (l *Layout) CheckNorm(who string, dnorm2 float64) error {
	if math.IsNaN(dnorm2) || math.IsInf(dnorm2, 0) {
		return fmt.Errorf("%s: initialization: ‖D‖²_F overflows float64 (largest entry %v): scale the term-document matrix down", who, slices.Max(l.D.Val))
	}
	return nil
}

// New lays out the corpus by class. who names the model in errors. It is an
// error for the corpus to fail the checks every family makes of D
// (engine.Corpus.Transposed: empty, a NaN or ±Inf entry, no non-zero
// entry), to have no labels or no classes, or for a document to have no
// class (label −1): GMF (§3.1) assigns every training document to one of
// the P classes.
func New(c *engine.Corpus, who string) (*Layout, error) {
	dt, err := c.Transposed(who)
	if err != nil {
		return nil, err
	}
	n := c.D.Cols
	if c.Labels == nil || len(c.ClassNames) == 0 {
		return nil, fmt.Errorf("%s: corpus %q has no class labels; the group models need the class of every document (GMF §3.1)", who, c.Name)
	}
	if len(c.Labels) != n {
		return nil, fmt.Errorf("%s: corpus %q has %d labels for %d documents", who, c.Name, len(c.Labels), n)
	}
	p := len(c.ClassNames)
	l := &Layout{M: c.D.Rows, N: n, P: p, Order: make([]int, n), Pos: make([]int, n),
		Offset: make([]int, p+1), ClassOf: make([]int32, n), ClassNames: c.ClassNames}
	for i, y := range c.Labels {
		if y < 0 || y >= p {
			id := fmt.Sprint(i)
			if i < len(c.DocIDs) {
				id = c.DocIDs[i]
			}
			if y == -1 {
				return nil, fmt.Errorf("%s: corpus %q: document %s (column %d) has no class (label −1); every training document needs one", who, c.Name, id, i)
			}
			return nil, fmt.Errorf("%s: corpus %q: document %s (column %d) has label %d, want 0..%d", who, c.Name, id, i, y, p-1)
		}
	}
	l.place(c.Labels)
	if l.Identity {
		l.D, l.DT = c.D, dt
	} else {
		l.DT = dt.SelectRows(l.Order)
		l.D = l.DT.T()
	}
	return l, nil
}

// place puts the documents in class-major order: labels[i] is document
// i's class, in [0, P).
func (l *Layout) place(labels []int) {
	for _, y := range labels {
		l.Offset[y+1]++
	}
	for q := 0; q < l.P; q++ {
		l.Offset[q+1] += l.Offset[q]
	}
	next := append([]int(nil), l.Offset[:l.P]...)
	l.Identity = true
	for i, y := range labels {
		pos := next[y]
		next[y]++
		l.Order[pos] = i
		l.Pos[i] = pos
		l.ClassOf[pos] = int32(y)
		if pos != i {
			l.Identity = false
		}
	}
}

// LayoutOf is the layout of a corpus of m terms whose documents have the
// classes labels (each in [0, len(classNames))), without its matrices D
// and DT: what a saved group model rebuilds its factors with. who names
// the model in errors.
func LayoutOf(who string, m int, labels []int, classNames []string) (*Layout, error) {
	n, p := len(labels), len(classNames)
	if p == 0 {
		return nil, fmt.Errorf("%s: saved model has no classes", who)
	}
	for i, y := range labels {
		if y < 0 || y >= p {
			return nil, fmt.Errorf("%s: saved model: document %d has class %d, want 0..%d", who, i, y, p-1)
		}
	}
	l := &Layout{M: m, N: n, P: p, Order: make([]int, n), Pos: make([]int, n),
		Offset: make([]int, p+1), ClassOf: make([]int32, n), ClassNames: classNames}
	l.place(labels)
	return l, nil
}

// Size is the number of documents of class p.
func (l *Layout) Size(p int) int { return l.Offset[p+1] - l.Offset[p] }

// Unit is a block of class-major positions [Lo, Hi) inside one class.
type Unit struct {
	Class, Lo, Hi int
}

// Units cuts every class's positions into blocks of block documents
// starting at the class's offset (the last block of a class may be
// shorter; an empty class has no unit), in class order.
func (l *Layout) Units(block int) []Unit {
	if block < 1 {
		block = 1
	}
	var us []Unit
	for p := 0; p < l.P; p++ {
		for lo := l.Offset[p]; lo < l.Offset[p+1]; lo += block {
			us = append(us, Unit{Class: p, Lo: lo, Hi: min(lo+block, l.Offset[p+1])})
		}
	}
	return us
}

// RowView returns rows [lo, hi) of a as a CSR matrix sharing a's column
// indices and values (its RowPtr is rebased, so it is a valid CSR).
func RowView(a *sparse.CSR, lo, hi int) *sparse.CSR {
	base, end := a.RowPtr[lo], a.RowPtr[hi]
	rp := make([]int, hi-lo+1)
	for i := range rp {
		rp[i] = a.RowPtr[lo+i] - base
	}
	return &sparse.CSR{Rows: hi - lo, Cols: a.Cols, RowPtr: rp, ColIdx: a.ColIdx[base:end:end], Val: a.Val[base:end:end]}
}
