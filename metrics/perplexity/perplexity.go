// Package perplexity measures how well a probabilistic topic model (LDA by
// Gibbs sampling, online LDA, PLSI) predicts documents it was not fitted
// on.
//
// # Document completion
//
// Completion follows Wallach, Murray, Salakhutdinov and Mimno,
// "Evaluation Methods for Topic Models" (ICML 2009, §4, "document
// completion"; Rosen-Zvi et al., UAI 2004): each held-out document's
// tokens are split into an observed half and a held-out half; the model
// folds in the observed half with its topics fixed, giving θ_d, and
// scores the other half:
//
//	perplexity = exp( − Σ_d Σ_w h(d,w) · log Σ_k θ_dk φ_wk  /  Σ_d Σ_w h(d,w) )
//
// with h(d,w) the held-out counts and φ_wk = P(w|z=k) the model's term
// distributions (the columns of TermTopics, normalized to sum 1: LDA's φ
// and PLSI's P(w|z) already do; for online LDA it is E[β] = λ/Σλ). Folding
// in the observed half alone keeps the scored tokens out of θ_d: folding
// in the whole document and scoring it again (as Hofmann, "Probabilistic
// Latent Semantic Indexing", SIGIR 1999, §4 does for PLSI's perplexity)
// flatters the model.
//
// Each family folds in as its paper does (engine.Model.FoldIn): LDA by
// Gibbs sampling with φ fixed (Griffiths and Steyvers, PNAS 2004), θ
// averaged over the sweeps after burn-in; PLSI by EM with P(w|z) fixed
// (Hofmann 1999, §4.2); online LDA by its variational E-step with λ fixed,
// θ = γ/Σγ (Hoffman, Blei and Bach, NIPS 2010).
//
// Held-out documents are given over the training vocabulary; a held-out
// token of a term that no training document contains has probability 0
// under PLSI (it has no prior) and makes the perplexity +Inf: score with a
// vocabulary fitted on the training documents (as topicmf fit's is, and
// transform's vectorizer keeps), or drop such terms first.
//
// The split is deterministic: a document's tokens, listed term by term in
// vocabulary order, go alternately to the observed half (1st, 3rd, …) and
// the held-out half (2nd, 4th, …): both halves have the same size (±1)
// and a term seen c times goes ⌈c/2⌉ or ⌊c/2⌋ times to each. The counts
// carry no token order, so Wallach et al.'s "first half in text order" is
// not available; the alternation keeps both halves alike.
//
// # Online LDA's bound
//
// For online LDA, Hoffman et al.'s own estimator is also offered
// (VariationalBound): exp(−bound(X)/ΣX) with the evidence lower bound of
// their Eq. 4 over whole held-out documents, as scikit-learn's
// LatentDirichletAllocation.perplexity computes it. It is an upper bound
// on the true perplexity of the whole documents, not a completion score:
// the two numbers are not comparable with each other.
package perplexity

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Split cuts the documents X (n × M, rows are documents, integer counts)
// into the observed and held-out halves of document completion (see the
// package documentation). It refuses a count that is not a non-negative
// integer.
func Split(x *sparse.CSR) (observed, heldOut *sparse.CSR, err error) {
	var obs, held []sparse.Triplet
	for d := range x.Rows {
		idx, val := x.Row(d)
		next := 0 // 0: the next token goes to the observed half
		for i, w := range idx {
			c := val[i]
			if c < 0 || c != math.Trunc(c) || math.IsInf(c, 0) {
				return nil, nil, fmt.Errorf("perplexity: document %d term %d has count %v, want a non-negative integer", d, w, c)
			}
			n := int(c)
			toNext, toOther := (n+1)/2, n/2 // the term's tokens alternate from half `next`
			o, h := toNext, toOther
			if next == 1 {
				o, h = toOther, toNext
			}
			if o > 0 {
				obs = append(obs, sparse.Triplet{Row: d, Col: int(w), Val: float64(o)})
			}
			if h > 0 {
				held = append(held, sparse.Triplet{Row: d, Col: int(w), Val: float64(h)})
			}
			next = (next + n) % 2
		}
	}
	if observed, err = sparse.FromTriplets(x.Rows, x.Cols, obs); err != nil {
		return nil, nil, err
	}
	heldOut, err = sparse.FromTriplets(x.Rows, x.Cols, held)
	return observed, heldOut, err
}

// Completion is the document-completion perplexity of model on the
// held-out documents X (n × M over the training vocabulary, counts): X is
// Split, the observed halves folded in, the held-out halves scored. A
// document whose held-out half is empty adds nothing; a held-out token of
// probability 0 under the model makes the perplexity +Inf.
func Completion(ctx context.Context, model engine.Model, x *sparse.CSR) (float64, error) {
	observed, heldOut, err := Split(x)
	if err != nil {
		return 0, err
	}
	theta, err := model.FoldIn(ctx, observed)
	if err != nil {
		return 0, err
	}
	return Score(model.TermTopics(), theta, heldOut)
}

// Score is exp(−Σ h(d,w) log Σ_k θ_dk φ_wk / Σ h) for document-topic
// proportions theta (n × K, rows normalized here to sum 1), term-topic
// weights phi (M × K, columns normalized here) and held-out counts h (n ×
// M).
func Score(phi, theta *mat.Dense, h *sparse.CSR) (float64, error) {
	m, k := phi.Dims()
	n, k2 := theta.Dims()
	if k != k2 || h.Rows != n || h.Cols != m {
		return 0, fmt.Errorf("perplexity: φ is %d×%d, θ %d×%d, the held-out counts %d×%d", m, k, n, k2, h.Rows, h.Cols)
	}
	colSum := make([]float64, k)
	for w := range m {
		for z := range k {
			colSum[z] += phi.At(w, z)
		}
	}
	var logLik, tokens float64
	row := make([]float64, k)
	for d := range n {
		idx, val := h.Row(d)
		if len(idx) == 0 {
			continue
		}
		var s float64
		for z := range k {
			row[z] = theta.At(d, z)
			s += row[z]
		}
		for i, w := range idx {
			var p float64
			for z := range k {
				if colSum[z] > 0 && s > 0 {
					p += row[z] / s * phi.At(int(w), z) / colSum[z]
				}
			}
			logLik += val[i] * math.Log(p)
			tokens += val[i]
		}
	}
	if tokens == 0 {
		return 0, fmt.Errorf("perplexity: no held-out token")
	}
	return math.Exp(-logLik / tokens), nil
}

// boundModel is a model with its own perplexity estimator (online LDA).
type boundModel interface {
	Perplexity(ctx context.Context, x *sparse.CSR) (float64, error)
}

// VariationalBound is exp(−bound(X)/ΣX) of a model that defines one
// (online LDA: Hoffman et al. 2010, Eq. 4; scikit-learn's perplexity), on
// whole held-out documents X; ok is false for a model without it.
func VariationalBound(ctx context.Context, model engine.Model, x *sparse.CSR) (p float64, ok bool, err error) {
	b, ok := model.(boundModel)
	if !ok {
		return 0, false, nil
	}
	p, err = b.Perplexity(ctx, x)
	return p, true, err
}
