package grouping

import (
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Factors are the fitted factors of a group model (GRLSI or Group NMF) in
// the layout of GMF §3.1, with the accessors both models offer: U = [U0 |
// U_1 … U_P] (M×K, K = Ks + P·Kc; topic k is shared for k < Ks and belongs
// to class (k − Ks)/Kc otherwise) and the compact representations
// v_n = [h_n; w_n] (Ks + Kc values per document, in its own class's
// topics). A model embeds a *Factors; its methods are the model's.
type Factors struct {
	u          *mat.Dense // M×K = [U0 | U_1 … U_P]
	v          *mat.Dense // N×(Ks+Kc), class-major rows
	pos        []int      // corpus index → class-major row of v
	labels     []int      // corpus index → class
	sizes      []int      // training documents per class
	classNames []string
	ks, kc, np int

	once      sync.Once
	docTopics *mat.Dense
}

// NewFactors holds u (M×(Ks+P·Kc)) and v (N×(Ks+Kc), rows in the
// class-major order of lay), not copied.
func NewFactors(lay *Layout, u, v *mat.Dense, ks, kc int) *Factors {
	f := &Factors{u: u, v: v, pos: lay.Pos, labels: make([]int, lay.N), sizes: make([]int, lay.P),
		classNames: lay.ClassNames, ks: ks, kc: kc, np: lay.P}
	for n, pos := range lay.Pos {
		f.labels[n] = int(lay.ClassOf[pos])
	}
	for p := range f.sizes {
		f.sizes[p] = lay.Size(p)
	}
	return f
}

// TermTopics is U = [U0 | U_1 … U_P] (M×K, K = Ks + P·Kc). It is the
// model's own matrix, not a copy.
func (f *Factors) TermTopics() *mat.Dense { return f.u }

// DocTopics is the N×K matrix whose row n (corpus order) holds document n's
// representation v_n = [h_n; w_n] in the columns of its topics: the Ks
// shared columns and the Kc columns of its class; the other columns are 0.
// It is built on first call (N·K values); Representations gives the
// compact form.
func (f *Factors) DocTopics() *mat.Dense {
	f.once.Do(func() {
		n := len(f.pos)
		if n == 0 {
			f.docTopics = &mat.Dense{}
			return
		}
		f.docTopics = mat.NewDense(n, f.ks+f.np*f.kc, nil)
		for i, pos := range f.pos {
			dst, v, p := f.docTopics.RawRowView(i), f.v.RawRowView(pos), f.labels[i]
			copy(dst[:f.ks], v[:f.ks])
			copy(dst[f.ks+p*f.kc:f.ks+(p+1)*f.kc], v[f.ks:])
		}
	})
	return f.docTopics
}

// Representations returns the compact N×(Ks+Kc) matrix (a copy) whose row n
// (corpus order) is v_n = [h_n; w_n] of GMF §3.1 for document n in its own
// class's topics.
func (f *Factors) Representations() *mat.Dense {
	n := len(f.pos)
	if n == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(n, f.ks+f.kc, nil)
	for i, pos := range f.pos {
		copy(out.RawRowView(i), f.v.RawRowView(pos))
	}
	return out
}

// Shared is U0 (M×Ks view of TermTopics), nil when Ks = 0.
func (f *Factors) Shared() *mat.Dense {
	if f.ks == 0 {
		return nil
	}
	return f.cols(0, f.ks)
}

// ClassTopics is U_p (M×Kc view of TermTopics), nil when Kc = 0.
func (f *Factors) ClassTopics(p int) *mat.Dense {
	if f.kc == 0 {
		return nil
	}
	return f.cols(f.ks+p*f.kc, f.ks+(p+1)*f.kc)
}

func (f *Factors) cols(lo, hi int) *mat.Dense {
	r, _ := f.u.Dims()
	return f.u.Slice(0, r, lo, hi).(*mat.Dense)
}

// TopicClass is −1 for a shared topic k (k < Ks) and the class of a
// class-specific topic otherwise.
func (f *Factors) TopicClass(k int) int {
	if k < f.ks {
		return -1
	}
	return (k - f.ks) / f.kc
}

// Dims returns Ks, Kc and the number of classes P.
func (f *Factors) Dims() (ks, kc, p int) { return f.ks, f.kc, f.np }

// ClassNames are the class names of the training corpus.
func (f *Factors) ClassNames() []string { return f.classNames }

// ClassSizes are the numbers of training documents per class (not a copy).
func (f *Factors) ClassSizes() []int { return f.sizes }
