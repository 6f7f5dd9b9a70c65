package engine

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/sparse"
)

// Corpus is what a model fits: the weighted term-document matrix D (M terms ×
// N documents) with its transpose, the vocabulary and, when known, the class
// of every document.
type Corpus struct {
	Name   string
	Vocab  []string    // len M; Vocab[m] is the term of row m of D
	D      *sparse.CSR // M × N, non-negative weights
	DT     *sparse.CSR // N × M, the transpose of D (row n is document n)
	DocIDs []string    // len N

	// Labels[n] is the index in ClassNames of document n's class, or -1 when
	// unknown. Nil when the corpus carries no classes.
	Labels     []int
	ClassNames []string
}

// NewCorpus checks shapes and values and builds DT from D.
// docIDs may be nil (ids become "0", "1", ...); labels may be nil.
func NewCorpus(name string, vocab []string, d *sparse.CSR, docIDs []string, labels []int, classNames []string) (*Corpus, error) {
	if d == nil {
		return nil, fmt.Errorf("corpus %q: nil term-document matrix", name)
	}
	if len(vocab) != d.Rows {
		return nil, fmt.Errorf("corpus %q: vocabulary has %d terms but D has %d rows", name, len(vocab), d.Rows)
	}
	if docIDs == nil {
		docIDs = make([]string, d.Cols)
		for i := range docIDs {
			docIDs[i] = fmt.Sprint(i)
		}
	}
	if len(docIDs) != d.Cols {
		return nil, fmt.Errorf("corpus %q: %d document ids but D has %d columns", name, len(docIDs), d.Cols)
	}
	if labels != nil {
		if len(labels) != d.Cols {
			return nil, fmt.Errorf("corpus %q: %d labels but D has %d columns", name, len(labels), d.Cols)
		}
		for n, l := range labels {
			if l < -1 || l >= len(classNames) {
				return nil, fmt.Errorf("corpus %q: document %s has label %d, want -1..%d", name, docIDs[n], l, len(classNames)-1)
			}
		}
	}
	if r, c, bad := firstInvalidWeight(d); bad {
		return nil, fmt.Errorf("corpus %q: D[%d,%d] = %v (term %q, document %s): weights must be finite and non-negative",
			name, r, c, d.At(r, c), vocab[r], docIDs[c])
	}
	return &Corpus{Name: name, Vocab: vocab, D: d, DT: d.T(), DocIDs: docIDs, Labels: labels, ClassNames: classNames}, nil
}

// Terms is M, the number of rows of D.
func (c *Corpus) Terms() int { return c.D.Rows }

// Docs is N, the number of columns of D.
func (c *Corpus) Docs() int { return c.D.Cols }

// Classes is the number of classes (0 when the corpus is unlabeled).
func (c *Corpus) Classes() int { return len(c.ClassNames) }

// Prepare is how a family's Fit starts: the corpus checked, with its
// documents as rows (Transposed), and the family's options resolved
// against its M×N shape by resolve (which applies defaults and validates).
// who names the model in the messages.
func Prepare[S any](c *Corpus, who string, resolve func(m, n int) (S, error)) (*sparse.CSR, S, error) {
	var set S
	dt, err := c.Transposed(who)
	if err != nil {
		return nil, set, err
	}
	set, err = resolve(c.D.Rows, c.D.Cols)
	return dt, set, err
}

// CheckNonNegative is the start of a Fit whose model needs D ≥ 0 (the NMF
// families, LDA and PLSI read weights as counts or as a non-negative
// matrix): NewCorpus guarantees it, but a Corpus built as a literal may
// hold a negative or non-finite weight, which is then an error naming the
// entry, "nmf: D[1,4] = -2, want finite and non-negative". who names the
// model; a nil corpus or D is the error Transposed gives.
func (c *Corpus) CheckNonNegative(who string) error {
	if c == nil || c.D == nil {
		return fmt.Errorf("%s: nil corpus or term-document matrix", who)
	}
	if r, col, bad := firstInvalidWeight(c.D); bad {
		return fmt.Errorf("%s: D[%d,%d] = %v, want finite and non-negative", who, r, col, c.D.At(r, col))
	}
	return nil
}

// firstInvalidWeight finds the first stored entry of d that is NaN, ±Inf or
// negative, in storage order.
func firstInvalidWeight(d *sparse.CSR) (r, c int, bad bool) {
	for i, v := range d.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			r, c = d.Locate(i)
			return r, c, true
		}
	}
	return 0, 0, false
}

// Transposed returns DT, the documents as rows (computed from D when the
// corpus was built by hand without it), checked to be D's transpose in
// shape and number of non-zeros. It is how every family's Fit reads its
// corpus (directly, through Prepare, or through grouping.New), so it holds
// the checks every family makes of D: a nil corpus or D, an empty corpus,
// a stored entry that is NaN or ±Inf (named, "rlsi: D[0,4] = NaN, want
// finite") and a D with no non-zero entry (nothing to factor) are errors.
// who names the model in the messages.
func (c *Corpus) Transposed(who string) (*sparse.CSR, error) {
	if c == nil || c.D == nil {
		return nil, fmt.Errorf("%s: nil corpus or term-document matrix", who)
	}
	d := c.D
	if d.Rows == 0 || d.Cols == 0 {
		return nil, fmt.Errorf("%s: empty corpus (%d terms × %d documents)", who, d.Rows, d.Cols)
	}
	nonZero := false
	for i, v := range d.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			r, col := d.Locate(i)
			return nil, fmt.Errorf("%s: D[%d,%d] = %v, want finite", who, r, col, v)
		}
		nonZero = nonZero || v != 0
	}
	if !nonZero {
		return nil, fmt.Errorf("%s: the term-document matrix (%d terms × %d documents) has no non-zero entry: there is nothing to factor", who, d.Rows, d.Cols)
	}
	dt := c.DT
	if dt == nil {
		dt = d.T()
	}
	if dt.Rows != d.Cols || dt.Cols != d.Rows || dt.NNZ() != d.NNZ() {
		return nil, fmt.Errorf("%s: corpus DT is %d×%d with %d non-zeros, want the transpose of the %d×%d D with %d",
			who, dt.Rows, dt.Cols, dt.NNZ(), d.Rows, d.Cols, d.NNZ())
	}
	return dt, nil
}
