package grouping

import (
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Blocks names the blocks of a group model's factors in the layout of GMF
// §3.1 that GRLSI, Group NMF and GNMFNC share: U = [U0 | U_1 … U_P] (M×K,
// K = Ks + P·Kc) and the compact V, one row [h_n; w_n] of Kt = Ks + Kc
// values per document in class-major order, whose class Grams V_pV_pᵀ
// (Layout.ClassGrams, Kt×Kt) have the blocks
//
//	V_pV_pᵀ = [ H_pH_pᵀ  H_pW_pᵀ ]
//	          [ W_pH_pᵀ  W_pW_pᵀ ].
//
// The views share the storage of the matrix they are taken from.
type Blocks struct{ Ks, Kc, P int }

// K is the number of columns of U, Ks + P·Kc.
func (b Blocks) K() int { return b.Ks + b.P*b.Kc }

// Kt is the number of topics a document is modelled with, Ks + Kc.
func (b Blocks) Kt() int { return b.Ks + b.Kc }

// U0 is the shared block of U (its first Ks columns).
func (b Blocks) U0(u *mat.Dense) *mat.Dense { return Cols(u, 0, b.Ks) }

// Uc is [U_1 … U_P], the class blocks of U.
func (b Blocks) Uc(u *mat.Dense) *mat.Dense { return Cols(u, b.Ks, b.K()) }

// Up is U_p, class p's block of U.
func (b Blocks) Up(u *mat.Dense, p int) *mat.Dense {
	return Cols(u, b.Ks+p*b.Kc, b.Ks+(p+1)*b.Kc)
}

// H is the shared block of the compact V (the h_n).
func (b Blocks) H(v *mat.Dense) *mat.Dense { return Cols(v, 0, b.Ks) }

// W is the class block of the compact V (the w_n).
func (b Blocks) W(v *mat.Dense) *mat.Dense { return Cols(v, b.Ks, b.Kt()) }

// NewGrams returns P zero Kt×Kt matrices, one per class, to hold class
// Grams V_pV_pᵀ or topic Grams Ũ_pᵀŨ_p (TopicGrams).
func (b Blocks) NewGrams() []*mat.Dense {
	out := make([]*mat.Dense, b.P)
	for p := range out {
		out[p] = mat.NewDense(b.Kt(), b.Kt(), nil)
	}
	return out
}

// Cols returns columns [lo, hi) of a as a view (hi > lo).
func Cols(a *mat.Dense, lo, hi int) *mat.Dense {
	r, _ := a.Dims()
	return a.Slice(0, r, lo, hi).(*mat.Dense)
}

// SharedGram returns S0 = Σ_p H_pH_pᵀ (Ks×Ks) from the class Grams g,
// added in class order.
func (b Blocks) SharedGram(g []*mat.Dense) *mat.Dense {
	s0 := mat.NewDense(b.Ks, b.Ks, nil)
	for _, gp := range g {
		s0.Add(s0, gp.Slice(0, b.Ks, 0, b.Ks))
	}
	return s0
}

// WH returns [W_1H_1ᵀ; …; W_PH_Pᵀ] (P·Kc×Ks) from the class Grams g, so
// that [U_1 … U_P]·WH = Σ_p U_pW_pH_pᵀ.
func (b Blocks) WH(g []*mat.Dense) *mat.Dense {
	out := mat.NewDense(b.P*b.Kc, b.Ks, nil)
	for p, gp := range g {
		out.Slice(p*b.Kc, (p+1)*b.Kc, 0, b.Ks).(*mat.Dense).Copy(gp.Slice(b.Ks, b.Kt(), 0, b.Ks))
	}
	return out
}

// HW returns [H_1W_1ᵀ … H_PW_Pᵀ] (Ks×P·Kc) from the class Grams g, so that
// U0·HW = [U0H_1W_1ᵀ … U0H_PW_Pᵀ].
func (b Blocks) HW(g []*mat.Dense) *mat.Dense {
	out := mat.NewDense(b.Ks, b.P*b.Kc, nil)
	for p, gp := range g {
		out.Slice(0, b.Ks, p*b.Kc, (p+1)*b.Kc).(*mat.Dense).Copy(gp.Slice(0, b.Ks, b.Ks, b.Kt()))
	}
	return out
}

// Sparsity returns the recorded zero fractions of U0, [U_1 … U_P] and the
// compact V (nil when there are no documents), under the given names in
// that order; an empty factor reads 0.
func (b Blocks) Sparsity(p *parallel.Pool, u, v *mat.Dense, names [3]string) []engine.Term {
	z := [3]float64{}
	if b.Ks > 0 {
		z[0] = dense.ZeroFraction(p, b.U0(u))
	}
	if b.Kc > 0 && b.P > 0 {
		z[1] = dense.ZeroFraction(p, b.Uc(u))
	}
	if v != nil {
		z[2] = dense.ZeroFraction(p, v)
	}
	return []engine.Term{{Name: names[0], Value: z[0]}, {Name: names[1], Value: z[1]}, {Name: names[2], Value: z[2]}}
}

// RandomStart draws the start of a non-negative group model (Group NMF,
// GNMFNC) by engine/nmf's random rule, scikit-learn's: every entry
// |z|·sqrt(mean(D)/(Ks+Kc)), z ~ N(0, 1) from engine.NewRand(seed), mean(D)
// over all M·N entries of d (sparse.Mean); drawn U0 row by row, then U_1,
// …, U_P each row by row, then the documents in corpus order (Ks shared
// then Kc class weights each) into their class-major rows of v. Ks+Kc is
// the number of topics a document is modelled with, so a document's
// starting reconstruction has the scale of the data. With one class and
// Kc = 0 these are exactly engine/nmf's draws.
func (b Blocks) RandomStart(lay *Layout, d *sparse.CSR, seed uint64, u, v *mat.Dense) {
	scale := math.Sqrt(sparse.Mean(d) / float64(b.Kt()))
	rng := engine.NewRand(seed)
	m, _ := u.Dims()
	for i := 0; i < m && b.Ks > 0; i++ {
		solve.HalfNormal(rng, scale, u.RawRowView(i)[:b.Ks])
	}
	for p := 0; p < b.P && b.Kc > 0; p++ {
		for i := 0; i < m; i++ {
			solve.HalfNormal(rng, scale, u.RawRowView(i)[b.Ks+p*b.Kc:b.Ks+(p+1)*b.Kc])
		}
	}
	for _, pos := range lay.Pos {
		solve.HalfNormal(rng, scale, v.RawRowView(pos))
	}
}

// CheckTopics is the Check of a group model's or per-class baseline's
// options o (who names it): a declared parameter outside its range
// (param.Check), Ks = Kc = 0, which leaves no topics, or Ks + Kc beyond
// the int range is an error. It needs no corpus (Layout.CheckK bounds K by
// the corpus).
func CheckTopics(who string, o any, ks, kc int) error {
	if err := param.Check(o); err != nil {
		return fmt.Errorf("%s: %w", who, err)
	}
	if ks == 0 && kc == 0 {
		return fmt.Errorf("%s: Ks = Kc = 0 leaves no topics; want Ks + Kc ≥ 1", who)
	}
	if kc > math.MaxInt-ks {
		return fmt.Errorf("%s: Ks + Kc = %d + %d is beyond the int range", who, ks, kc)
	}
	return nil
}
