package engine

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// CheckFoldIn validates the rows X to fold into a model of terms training
// terms, as every Model.FoldIn does first: X is not nil, has one column per
// training term, and every stored entry passes entry (nil: finite and
// non-negative; entry's error completes "X[i,j] = "); then the error of a
// cancelled ctx. who names the model in the messages, e.g. "plsi: FoldIn:
// X[1,4] = -2, want finite and non-negative".
func CheckFoldIn(ctx context.Context, who string, x *sparse.CSR, terms int, entry func(v float64) error) error {
	if x == nil {
		return fmt.Errorf("%s: FoldIn: nil matrix", who)
	}
	if x.Cols != terms {
		return fmt.Errorf("%s: FoldIn: X has %d columns, want the %d terms of the training vocabulary", who, x.Cols, terms)
	}
	if entry == nil {
		entry = finiteNonNegative
	}
	for i, v := range x.Val {
		if err := entry(v); err != nil {
			r, c := x.Locate(i)
			return fmt.Errorf("%s: FoldIn: X[%d,%d] = %w", who, r, c, err)
		}
	}
	return ctx.Err()
}

// Finite is the entry check of CheckFoldIn for models whose input weights
// may be negative (LSI, RLSI): a finite value.
func Finite(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%v, want finite", v)
	}
	return nil
}

func finiteNonNegative(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%v, want finite and non-negative", v)
	}
	return nil
}

// ResolveK applies a family's default number of topics to *k when it is 0,
// then checks it against an M×N corpus as every family does (CheckFactors,
// with the document factor N×K); who names the model in the messages, e.g.
// "lsi: K = 30 exceeds min(M, N) = min(20 terms, 40 documents) = 20".
// Negative K is the caller's check.
func ResolveK(who string, k *int, def, m, n int) error {
	if *k == 0 {
		*k = def
	}
	return CheckFactors(who, fmt.Sprintf("K = %d", *k), *k, *k, m, n)
}

// CheckFactors is the check every family makes of its number of topics K
// against an M×N corpus before it allocates anything: the corpus is not
// empty, K ≤ min(M, N) (a rank-K factorization of an M×N matrix), and
// the factors fit in the memory the process may use (CheckMemory: an M×K term
// factor and an N×vCols document factor). what is K as the messages write
// it: "K = 30", or a group model's "Ks + Kc = 20 + 8 = 28" (the topics
// of one document, which it bounds: grouping.Layout.CheckK). who names
// the model in the messages.
func CheckFactors(who, what string, k, vCols, m, n int) error {
	if m == 0 || n == 0 {
		return fmt.Errorf("%s: empty corpus (%d terms × %d documents)", who, m, n)
	}
	if k > min(m, n) {
		return fmt.Errorf("%s: %s exceeds min(M, N) = min(%d terms, %d documents) = %d", who, what, m, n, min(m, n))
	}
	return CheckMemory(who, k, vCols, m, n)
}

// CheckStart validates a starting factor a given by the user (e.g. InitU):
// it must be rows×cols, shape naming those dimensions in words ("M×K"),
// and every entry finite and non-negative. who names the model and name
// the factor in the messages, e.g. "tnmf: InitU is 3×3, want M×K = 40×4".
func CheckStart(who, name string, a *mat.Dense, rows, cols int, shape string) error {
	r, c := a.Dims()
	if r != rows || c != cols {
		return fmt.Errorf("%s: %s is %d×%d, want %s = %d×%d", who, name, r, c, shape, rows, cols)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if x := a.At(i, j); math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				return fmt.Errorf("%s: %s[%d,%d] = %v, want finite and non-negative", who, name, i, j, x)
			}
		}
	}
	return nil
}
