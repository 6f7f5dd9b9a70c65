package onlinelda

import (
	"context"
	"fmt"
	"math"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted online LDA: the variational parameter λ (W×K) of the
// topics and the training documents' topic proportions.
type Model struct {
	lambda, expElogBeta *mat.Dense
	theta               *mat.Dense
	set                 settings
}

// Lambda is λ (W×K, one row per term): the topics' Dirichlet parameters.
func (m *Model) Lambda() *mat.Dense { return m.lambda }

// TermTopics is E[β] (W×K): λ with each topic's column normalized to sum 1.
func (m *Model) TermTopics() *mat.Dense {
	w, k := m.lambda.Dims()
	sums := make([]float64, k)
	for i := range w {
		for j, v := range m.lambda.RawRowView(i) {
			sums[j] += v
		}
	}
	out := mat.NewDense(w, k, nil)
	for i := range w {
		for j, v := range m.lambda.RawRowView(i) {
			out.Set(i, j, v/sums[j])
		}
	}
	return out
}

// DocTopics is θ (N×K) of the training documents: their normalized γ after
// the fit (scikit-learn's transform), each row summing to 1.
func (m *Model) DocTopics() *mat.Dense { return m.theta }

// Transform returns the unnormalized variational parameters γ (n×K) of new
// documents X (rows, counts over the training vocabulary), starting from 1
// (scikit-learn's _unnormalized_transform).
func (m *Model) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	w, k := m.lambda.Dims()
	if err := engine.CheckFoldIn(ctx, "onlinelda", x, w, nil); err != nil {
		return nil, err
	}
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	gamma := mat.NewDense(x.Rows, k, nil)
	for i, raw := 0, gamma.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = 1
	}
	eStep(m.set, m.expElogBeta, x, 0, x.Rows, gamma, nil)
	return gamma, nil
}

// FoldIn returns θ (n×K) of new documents: Transform's γ, each row
// normalized to sum 1.
func (m *Model) FoldIn(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	gamma, err := m.Transform(ctx, x)
	if err != nil || x.Rows == 0 {
		return gamma, err
	}
	r, _ := gamma.Dims()
	for i := range r {
		row := gamma.RawRowView(i)
		s := 0.0
		for _, v := range row {
			s += v
		}
		for j := range row {
			row[j] /= s
		}
	}
	return gamma, nil
}

// Perplexity is exp(−bound(X)/Σ X) for documents X, held out or not, with γ
// from Transform: scikit-learn's perplexity(X).
func (m *Model) Perplexity(ctx context.Context, x *sparse.CSR) (float64, error) {
	w, _ := m.lambda.Dims()
	if x == nil || x.Cols != w || x.Rows == 0 {
		return 0, fmt.Errorf("onlinelda: perplexity needs documents over the %d training terms", w)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	bound, words := boundOf(m.set, m.lambda, m.expElogBeta, x)
	return math.Exp(-bound / words), nil
}

// boundOf is scikit-learn's _approx_bound(X, γ, sub_sampling=False) with γ
// from a transform of X: E[log p(X|θ,β)] + E[log p(θ|α) − log q(θ|γ)] +
// E[log p(β|η) − log q(β|λ)], and the word count Σ X.
func boundOf(set settings, lambda, expElogBeta *mat.Dense, x *sparse.CSR) (bound, words float64) {
	w, k := lambda.Dims()
	gamma := mat.NewDense(x.Rows, k, nil)
	for i, raw := 0, gamma.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = 1
	}
	eStep(set, expElogBeta, x, 0, x.Rows, gamma, nil)

	elogBeta := mat.NewDense(w, k, nil)
	sums := make([]float64, k)
	for i := range w {
		for j, v := range lambda.RawRowView(i) {
			sums[j] += v
		}
	}
	for i := range w {
		for j, v := range lambda.RawRowView(i) {
			elogBeta.Set(i, j, digamma(v)-digamma(sums[j]))
		}
	}

	var score dense.Sum
	elogTheta := make([]float64, k)
	temp := make([]float64, k)
	for d := range x.Rows {
		g := gamma.RawRowView(d)
		dirichletRow(elogTheta, g)
		ids, cnts := x.Row(d)
		for l, word := range ids {
			eb := elogBeta.RawRowView(int(word))
			for j := range k {
				temp[j] = elogTheta[j] + eb[j]
			}
			score.Add(cnts[l] * logSumExp(temp))
			words += cnts[l]
		}
		// E[log p(θ_d|α) − log q(θ_d|γ_d)]
		gs := 0.0
		for j, gj := range g {
			score.Add((set.alpha-gj)*elogTheta[j] + lgamma(gj) - lgamma(set.alpha))
			gs += gj
		}
		score.Add(lgamma(set.alpha*float64(k)) - lgamma(gs))
	}
	// E[log p(β|η) − log q(β|λ)], topic by topic.
	for j := range k {
		for i := range w {
			l := lambda.At(i, j)
			score.Add((set.eta-l)*elogBeta.At(i, j) + lgamma(l) - lgamma(set.eta))
		}
		score.Add(lgamma(set.eta*float64(w)) - lgamma(sums[j]))
	}
	return score.Value(), words
}

// dirichletRow sets dst = ψ(γ) − ψ(Σγ).
func dirichletRow(dst, gamma []float64) {
	s := 0.0
	for _, v := range gamma {
		s += v
	}
	ps := digamma(s)
	for j, v := range gamma {
		dst[j] = digamma(v) - ps
	}
}

func logSumExp(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	s := 0.0
	for _, x := range v {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}
