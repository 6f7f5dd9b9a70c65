package grouping

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Folder is one worker's fold-in of single documents into one class's
// topics Ũ_p = [U0 | U_p] of a group model (GRLSI, Group NMF), the
// family-specific part of FoldGroup. It owns its scratch, so each worker
// needs its own.
type Folder struct {
	// XU (Ks+Kc) receives Ũ_pᵀd before each call of Fold.
	XU []float64
	// V (Ks+Kc) holds the representation of the document in class p after
	// Fold.
	V []float64
	// Row prepares document i, given its stored values.
	Row func(i int, vals []float64)
	// Fold folds the prepared document into class p (XU holding Ũ_pᵀd),
	// leaving v in V, and returns E(d; Ũ_p).
	Fold func(p int) float64
}

// Group describes a fitted group model for FoldGroup.
type Group struct {
	Pool *parallel.Pool
	// U is [U0 | U_1 … U_P] (M × (Ks + P·Kc)).
	U         *mat.Dense
	Ks, Kc, P int
	// Sizes are the training documents per class: a class without any is
	// never predicted (unless no class has any).
	Sizes []int
	// Block is the number of documents per unit of work.
	Block int
	// NewFolder returns one worker's Folder.
	NewFolder func() Folder
}

// FoldGroup folds in the rows of X (checked by the caller) in a group
// model (GMF §4.3 and §5.3): row i in class classes[i] when that is ≥ 0,
// else in the predicted class ŷ = argmin_p E(d; Ũ_p) (ties to the lowest
// class). It returns the n×K representations laid out like the model's
// DocTopics (v in the Ks shared columns and the Kc columns of the class
// used), the n×P matrix of E when wantErr (+Inf for an untrained class),
// and the classes used. Rows are independent, so the result is the same
// bits for any number of workers. It returns ctx's error if cancelled.
func FoldGroup(ctx context.Context, g Group, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error) {
	n := x.Rows
	pred := make([]int, n)
	if n == 0 {
		return &mat.Dense{}, &mat.Dense{}, pred, nil
	}
	ks, kc, kt, np := g.Ks, g.Kc, g.Ks+g.Kc, g.P
	mm, _ := g.U.Dims()
	var phi0, phic *mat.Dense
	if ks > 0 {
		phi0 = mat.NewDense(n, ks, nil)
		sparse.MulDense(g.Pool, phi0, x, g.U.Slice(0, mm, 0, ks).(*mat.Dense)) // row i = (U0ᵀd_i)ᵀ
	}
	if kc > 0 {
		phic = mat.NewDense(n, np*kc, nil)
		sparse.MulDense(g.Pool, phic, x, g.U.Slice(0, mm, ks, ks+np*kc).(*mat.Dense)) // [U_1ᵀd_i … U_Pᵀd_i]
	}
	anyTrained := false // with no trained class at all, every class competes
	for _, sz := range g.Sizes {
		anyTrained = anyTrained || sz > 0
	}
	reps := mat.NewDense(n, ks+np*kc, nil)
	var errs *mat.Dense
	if wantErr {
		errs = mat.NewDense(n, np, nil)
	}
	g.Pool.For(n, g.Block, func(_, lo, hi int) {
		f := g.NewFolder()
		best := make([]float64, kt)
		for i := lo; i < hi; i++ {
			if ctx.Err() != nil {
				return
			}
			_, vals := x.Row(i)
			f.Row(i, vals)
			fold := func(p int) float64 {
				if ks > 0 {
					copy(f.XU[:ks], phi0.RawRowView(i))
				}
				if kc > 0 {
					copy(f.XU[ks:], phic.RawRowView(i)[p*kc:(p+1)*kc])
				}
				return f.Fold(p)
			}
			given := -1
			if classes != nil {
				given = classes[i]
			}
			if given < 0 || wantErr {
				bestE, bestP := math.Inf(1), -1
				for p := 0; p < np; p++ {
					if g.Sizes[p] == 0 && anyTrained {
						if wantErr {
							errs.Set(i, p, math.Inf(1))
						}
						continue
					}
					e := fold(p)
					if wantErr {
						errs.Set(i, p, e)
					}
					if bestP < 0 || e < bestE {
						bestE, bestP = e, p
						copy(best, f.V)
					}
				}
				pred[i] = bestP
			}
			if given >= 0 {
				fold(given)
				copy(best, f.V)
				pred[i] = given
			}
			dst := reps.RawRowView(i)
			copy(dst[:ks], best[:ks])
			copy(dst[ks+pred[i]*kc:ks+(pred[i]+1)*kc], best[ks:])
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	return reps, errs, pred, nil
}

// Projection folds in the rows of X for a group or per-class model: row i
// in class classes[i] when classes is non-nil and classes[i] ≥ 0, else in
// the predicted class. It returns the n×K representations, the n×P matrix
// of E(d; Ũ_p) when wantErr, and the classes used. FoldMethods calls it
// with an X that passed engine.CheckFoldIn and a context not yet cancelled.
type Projection func(ctx context.Context, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error)

// FoldMethods are the fold-in methods of a group or per-class model, all
// answered by its one Projection; the model embeds it.
type FoldMethods struct {
	// Who names the model in errors.
	Who string
	// P is the number of classes.
	P int
	// Terms is M, the size of the training vocabulary: X must have M
	// columns.
	Terms int
	// Trained, when not nil, reports whether class c has a model; a given
	// class must have one.
	Trained func(c int) bool
	Project Projection
}

// project checks X and the context (engine.CheckFoldIn: M columns, finite
// entries; a family whose model needs X ≥ 0 checks that in Project), then
// projects.
func (f FoldMethods) project(ctx context.Context, x *sparse.CSR, classes []int, wantErr bool) (*mat.Dense, *mat.Dense, []int, error) {
	if err := engine.CheckFoldIn(ctx, f.Who, x, f.Terms, engine.Finite); err != nil {
		return nil, nil, nil, err
	}
	return f.Project(ctx, x, classes, wantErr)
}

// FoldIn represents new documents of unknown class: each row d of X is
// assigned the class ŷ = argmin_p E(d; Ũ_p) (GMF §4.3, §5.3) and
// represented in that class. It returns an n×K matrix laid out like the
// model's DocTopics.
func (f FoldMethods) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	reps, _, _, err := f.project(ctx, x, nil, false)
	return reps, err
}

// FoldInClass represents new documents of known class: classes[i] is row
// i's class, or −1 to predict it as FoldIn does. It returns an n×K matrix
// laid out like the model's DocTopics.
func (f FoldMethods) FoldInClass(ctx context.Context, x *sparse.CSR, classes []int) (*mat.Dense, error) {
	if x != nil && len(classes) != x.Rows {
		return nil, fmt.Errorf("%s: FoldInClass: %d classes for %d documents", f.Who, len(classes), x.Rows)
	}
	for i, c := range classes {
		if f.Trained == nil {
			if c < -1 || c >= f.P {
				return nil, fmt.Errorf("%s: FoldInClass: document %d has class %d, want −1..%d", f.Who, i, c, f.P-1)
			}
		} else if c < -1 || c >= f.P || (c >= 0 && !f.Trained(c)) {
			return nil, fmt.Errorf("%s: FoldInClass: document %d has class %d, want −1 or a trained class in 0..%d", f.Who, i, c, f.P-1)
		}
	}
	reps, _, _, err := f.project(ctx, x, classes, false)
	return reps, err
}

// ReconstructionErrors returns the n×P matrix of E(d; Ũ_p) for every row d
// of X and class p; classes without a model or without training documents
// read +Inf (they are never predicted).
func (f FoldMethods) ReconstructionErrors(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	_, e, _, err := f.project(ctx, x, nil, true)
	return e, err
}

// PredictClasses returns ŷ_d = argmin_p E(d; Ũ_p) for every row d of X
// (ties to the lowest class index).
func (f FoldMethods) PredictClasses(ctx context.Context, x *sparse.CSR) ([]int, error) {
	_, _, pred, err := f.project(ctx, x, nil, false)
	return pred, err
}
