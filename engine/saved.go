package engine

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Saved is the state of a fitted model: everything its FoldIn and its
// accessors need, so that the model can be rebuilt without its corpus and
// without fitting again. engine/modelio writes it to files and reads it
// back; every catalog family's Model implements Saver and its Options
// implement Loader.
//
// Only state the fit computed is recorded; what a family derives from it
// by a deterministic computation (UᵀU and (UᵀU + λ2 I)⁻¹, PLSI's active
// terms, online LDA's exp E[log β]) is computed again on Load by the same kernels, so a
// loaded model folds in with the same bits as the fitted one in the same
// build.
type Saved struct {
	// Options are the options as used: every default the fit resolved is
	// written out (LDA's α = 50/K as the number it came to, RLSI's relative
	// λ as the absolute λ it became), so that a saved model does not depend
	// on the defaults of the version that reads it.
	Options Method
	// Matrices are the model's matrices by name: U, V, φ, λ… A name is
	// lower case letters, digits and '_' (it names the file).
	Matrices map[string]*mat.Dense
	// Vectors are short vectors by name: singular values, class sizes.
	Vectors map[string][]float64
	// Names are lists of strings by name: the classes of a group model.
	Names map[string][]string
}

// Saver is a fitted model that can be saved.
type Saver interface {
	Model
	// Save returns the model's state. The matrices are the model's own,
	// not copies.
	Save() Saved
}

// Loader is a Method (a family's Options) that rebuilds a model it fitted
// from the model's saved state: the receiver holds s.Options, and Load
// checks that the matrices agree with each other and with the options.
type Loader interface {
	Load(s Saved) (Model, error)
}

// Matrix returns the matrix called name, checking its shape: rows or cols
// below 0 accept any size. who names the family in the error.
func (s Saved) Matrix(who, name string, rows, cols int) (*mat.Dense, error) {
	a, ok := s.Matrices[name]
	if !ok || a == nil {
		return nil, fmt.Errorf("%s: saved model has no matrix %q (has %s)", who, name, matrixNames(s.Matrices))
	}
	r, c := 0, 0
	if !a.IsEmpty() {
		r, c = a.Dims()
	}
	if (rows >= 0 && r != rows) || (cols >= 0 && c != cols) {
		return nil, fmt.Errorf("%s: saved matrix %q is %d×%d, want %s×%s", who, name, r, c, wanted(rows, r), wanted(cols, c))
	}
	return a, nil
}

// NonNegative is Matrix for a matrix that the family's model defines as
// non-negative (the factors of the NMF families, the probabilities of
// PLSI and LDA): a negative entry means the files were not written by the
// fit, and loading it would fold in with factors outside the model. The
// first negative entry, in the order a Matrix Market array holds them
// (column by column), is refused as a *NegativeError.
func (s Saved) NonNegative(who, name string, rows, cols int) (*mat.Dense, error) {
	a, err := s.Matrix(who, name, rows, cols)
	if err != nil || a.IsEmpty() {
		return a, err
	}
	r, c := a.Dims()
	for j := range c {
		for i := range r {
			if x := a.At(i, j); x < 0 {
				return nil, &NegativeError{Who: who, Matrix: name, Row: i, Col: j, Value: x}
			}
		}
	}
	return a, nil
}

// NegativeError is a negative entry of a saved matrix that must be
// non-negative (Saved.NonNegative).
type NegativeError struct {
	Who    string // the family
	Matrix string // the matrix's name
	// Row and Col are 0-based; the message gives them 1-based, as a
	// Matrix Market file numbers them.
	Row, Col int
	Value    float64
}

func (e *NegativeError) Error() string {
	return fmt.Sprintf("%s: saved matrix %q: row %d, column %d = %v, want ≥ 0 (%s's factors are non-negative)",
		e.Who, e.Matrix, e.Row+1, e.Col+1, e.Value, e.Who)
}

// Vector returns the vector called name, checking its length (n below 0
// accepts any).
func (s Saved) Vector(who, name string, n int) ([]float64, error) {
	v, ok := s.Vectors[name]
	if !ok {
		return nil, fmt.Errorf("%s: saved model has no vector %q", who, name)
	}
	if n >= 0 && len(v) != n {
		return nil, fmt.Errorf("%s: saved vector %q has %d entries, want %d", who, name, len(v), n)
	}
	return v, nil
}

// Counts returns the vector called name as non-negative integers of at
// most max (class sizes, document counts), checking its length.
func (s Saved) Counts(who, name string, n, max int) ([]int, error) {
	v, err := s.Vector(who, name, n)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(v))
	for i, x := range v {
		if x != float64(int(x)) || x < 0 || x > float64(max) {
			return nil, fmt.Errorf("%s: saved vector %q: entry %d = %v, want an integer in [0, %d]", who, name, i, x, max)
		}
		out[i] = int(x)
	}
	return out, nil
}

func wanted(want, got int) string {
	if want < 0 {
		return fmt.Sprint(got)
	}
	return fmt.Sprint(want)
}

// matrixNames lists the names of m, the first few of many only, so that
// an error stays one readable line.
func matrixNames(m map[string]*mat.Dense) string {
	const shown = 6
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	if len(ks) > shown {
		return fmt.Sprintf("%v… (%d in all)", ks[:shown], len(ks))
	}
	return fmt.Sprint(ks)
}

// evalEvery names the vector that holds Stopping.EvalEvery, which families
// do not declare as a parameter but whose fold-in applies it.
const evalEvery = "eval_every"

// WithStopping returns s recording the part of st that the family's
// parameters leave out (EvalEvery), for a family whose fold-in applies its
// stopping rule.
func (s Saved) WithStopping(st Stopping) Saved {
	if s.Vectors == nil {
		s.Vectors = map[string][]float64{}
	}
	s.Vectors[evalEvery] = []float64{float64(st.Every())}
	return s
}

// Stopping returns st with the part WithStopping recorded.
func (s Saved) Stopping(who string, st Stopping) (Stopping, error) {
	n, err := s.Counts(who, evalEvery, 1, 1<<30)
	if err != nil {
		return st, err
	}
	st.EvalEvery = n[0]
	return st, nil
}
