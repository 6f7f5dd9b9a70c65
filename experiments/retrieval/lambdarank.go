package retrieval

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/metrics/ir"
)

// LambdaRankOptions configure the linear LambdaRank of the learning-to-rank
// combination; the zero value is valid.
type LambdaRankOptions struct {
	// Folds is the number of cross-validation folds over queries; 0 means 5.
	Folds int
	// Seed fixes the folds (SplitQueries).
	Seed uint64
	// Epochs is the number of full-batch gradient steps; 0 means 200.
	Epochs int
	// LearningRate is the step size η; 0 means 1.
	LearningRate float64
	// Sigma is the σ of the RankNet cross-entropy; 0 means 1.
	Sigma float64
	// Depth is the number of candidates per query: the first feature's
	// top Depth documents; 0 means DefaultRunDepth (1000), < 0 every
	// document.
	Depth int
}

func (o LambdaRankOptions) normalized() LambdaRankOptions {
	o.Folds = cmp.Or(o.Folds, 5)
	o.Epochs = cmp.Or(o.Epochs, 200)
	o.LearningRate = cmp.Or(o.LearningRate, 1)
	o.Sigma = cmp.Or(o.Sigma, 1)
	o.Depth = cmp.Or(o.Depth, DefaultRunDepth)
	return o
}

func (o LambdaRankOptions) validate() error {
	switch {
	case o.Folds < 2:
		return fmt.Errorf("retrieval: LambdaRank Folds = %d, want ≥ 2", o.Folds)
	case o.Epochs < 0:
		return fmt.Errorf("retrieval: LambdaRank Epochs = %d, want ≥ 0", o.Epochs)
	case !(o.LearningRate > 0) || math.IsInf(o.LearningRate, 0):
		return fmt.Errorf("retrieval: LambdaRank LearningRate = %v, want a finite number > 0", o.LearningRate)
	case !(o.Sigma > 0) || math.IsInf(o.Sigma, 0):
		return fmt.Errorf("retrieval: LambdaRank Sigma = %v, want a finite number > 0", o.Sigma)
	}
	return nil
}

// ltrQuery is one query's candidates with normalized features and gains.
type ltrQuery struct {
	docs  []int       // candidate documents
	x     [][]float64 // x[i] = features of docs[i], each in [0, 1]
	gain  []float64   // gain of docs[i] (0 if unjudged)
	idcg  float64     // DCG of the ideal ranking of every judged document
	order []int       // docOrder of docs[i], for ties
}

// ltrData builds the candidates and features of every query.
func (t *Task) ltrData(feats []*Scores, depth int) []ltrQuery {
	order := t.docOrder()
	out := make([]ltrQuery, len(t.QueryIDs))
	parallel.Default().For(len(t.QueryIDs), 4, func(_, lo, hi int) {
		for q := lo; q < hi; q++ {
			docs := candidates(feats[0].Values[q], depth, order)
			slices.Sort(docs)
			lq := ltrQuery{docs: docs, x: make([][]float64, len(docs)), gain: make([]float64, len(docs)), order: make([]int, len(docs))}
			for i := range lq.x {
				lq.x[i] = make([]float64, len(feats))
			}
			for f, s := range feats {
				v := normalized(s.Values[q], docs, NormMinMax)
				for i, d := range docs {
					lq.x[i][f] = v[d]
				}
			}
			judged := t.Qrels[t.QueryIDs[q]]
			var all []float64
			for _, l := range judged {
				all = append(all, t.Eval.Gain(l))
			}
			slices.Sort(all) // map order must not reach the sums
			lq.idcg = ir.DCG(ir.IdealGains(all), 0)
			for i, d := range docs {
				if l, ok := judged[t.DocIDs[d]]; ok {
					lq.gain[i] = t.Eval.Gain(l)
				}
				lq.order[i] = order[d]
			}
			out[q] = lq
		}
	})
	return out
}

// scoreRank returns the linear scores w·x of a query's candidates and the
// rank (1-based) of each in trec_eval order.
func (lq *ltrQuery) scoreRank(w []float64) (s []float64, rank []int) {
	s = make([]float64, len(lq.docs))
	for i, x := range lq.x {
		for f, v := range x {
			s[i] += w[f] * v
		}
	}
	idx := identity(len(s))
	sortRanked(idx, s, lq.order)
	rank = make([]int, len(s))
	for r, i := range idx {
		rank[i] = r + 1
	}
	return s, rank
}

// discount is 1/log2(1+r).
func discount(r int) float64 { return 1 / math.Log2(float64(r)+1) }

// lambdas returns the ascent direction Σ_i λ_i x_i of one query and its
// NDCG (over the candidates) at w.
//
// For every pair with gain_i > gain_j (Burges, Ragno, Le, "Learning to Rank
// with Nonsmooth Cost Functions", NIPS 2006, Sections 4–5, with RankNet's
// cross-entropy as in Burges, "From RankNet to LambdaRank to LambdaMART",
// MSR-TR-2010-82, Eq. 3–4):
//
//	ρ_ij = σ·|ΔNDCG_ij| / (1 + exp(σ(s_i − s_j))),
//	|ΔNDCG_ij| = |g_i − g_j| · |1/log2(1+r_i) − 1/log2(1+r_j)| / IDCG,
//
// the change of NDCG if i and j swapped ranks; λ_i += ρ_ij, λ_j −= ρ_ij.
func (lq *ltrQuery) lambdas(w []float64, sigma float64) (grad []float64, ndcg float64) {
	grad = make([]float64, len(w))
	if lq.idcg <= 0 {
		return grad, 0
	}
	s, rank := lq.scoreRank(w)
	n := len(s)
	// 1/(1 + exp(σ(s_i − s_j))) = e_j/(e_i + e_j) with e = exp(σ(s − max s))
	// ∈ (0, 1]: one exp per document instead of one per pair. When both
	// underflow to 0 the pair is computed directly.
	smax := math.Inf(-1)
	for _, v := range s {
		smax = math.Max(smax, v)
	}
	e := make([]float64, n)
	disc := make([]float64, n)
	for i := range s {
		e[i] = math.Exp(sigma * (s[i] - smax))
		disc[i] = discount(rank[i])
	}
	lam := make([]float64, n)
	scale := sigma / lq.idcg
	for i, gi := range lq.gain {
		if gi <= 0 {
			continue
		}
		di, ei := disc[i], e[i]
		ndcg += gi * di
		for j, gj := range lq.gain {
			if gj >= gi {
				continue
			}
			var p float64 // 1/(1 + exp(σ(s_i − s_j)))
			if sum := ei + e[j]; sum > 0 {
				p = e[j] / sum
			} else {
				p = 1 / (1 + math.Exp(sigma*(s[i]-s[j])))
			}
			rho := scale * (gi - gj) * math.Abs(di-disc[j]) * p
			lam[i] += rho
			lam[j] -= rho
		}
	}
	for i, l := range lam {
		if l == 0 {
			continue
		}
		for f, v := range lq.x[i] {
			grad[f] += l * v
		}
	}
	return grad, ndcg / lq.idcg
}

// LambdaRankModel is a trained linear scorer s(d) = Σ_f w_f·x_f(d) over
// per-query min-max normalized features.
type LambdaRankModel struct {
	Features []string
	Weights  []float64
	// Epoch is the epoch whose weights were kept (0 = the initial zero
	// weights) and TrainNDCG their mean NDCG over the training queries.
	Epoch     int
	TrainNDCG float64
}

// train runs full-batch gradient ascent on the training queries from w = 0
// and keeps the weights with the best mean training NDCG (ties: the
// earliest). Per-query directions are computed in parallel and summed in
// query order, so the result does not depend on GOMAXPROCS.
func trainLambdaRank(data []ltrQuery, train []int, nf int, o LambdaRankOptions) (w []float64, epoch int, best float64) {
	w = make([]float64, nf)
	bestW := slices.Clone(w)
	best = math.Inf(-1)
	grads := make([][]float64, len(train))
	ndcgs := make([]float64, len(train))
	for e := 0; e <= o.Epochs; e++ {
		parallel.Default().For(len(train), 4, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				grads[i], ndcgs[i] = data[train[i]].lambdas(w, o.Sigma)
			}
		})
		if m := meanOver(ndcgs, nil); m > best {
			best, epoch = m, e
			copy(bestW, w)
		}
		if e == o.Epochs {
			break
		}
		step := o.LearningRate / float64(len(train))
		for _, g := range grads {
			for f, v := range g {
				w[f] += step * v
			}
		}
	}
	return bestW, epoch, best
}

// LTRResult is a cross-validated LambdaRank.
type LTRResult struct {
	Features []string
	// Folds[f] are the query ids tested in fold f, with Models[f] trained
	// on the other folds.
	Folds  [][]string
	Models []*LambdaRankModel
	// Eval holds each query's values when ranked by the model of its fold.
	Eval *Evaluation
}

// CrossValidateLambdaRank trains and tests a linear LambdaRank by k-fold
// cross-validation over the queries (SplitQueries(Q, Folds, Seed)). Each
// query's candidates are the first feature's top Depth documents; every
// feature is min-max normalized per query over the candidates (LETOR's
// QueryLevelNorm); documents are ranked by w·x with trec_eval's tie order,
// and the run holds every candidate.
func (t *Task) CrossValidateLambdaRank(name string, feats []*Scores, o LambdaRankOptions) (*LTRResult, error) {
	o = o.normalized()
	if err := o.validate(); err != nil {
		return nil, err
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if len(feats) == 0 {
		return nil, fmt.Errorf("retrieval: LambdaRank %q: no features", name)
	}
	names := make([]string, len(feats))
	for f, s := range feats {
		if err := s.check(t); err != nil {
			return nil, err
		}
		names[f] = s.Name
	}
	folds, err := SplitQueries(len(t.QueryIDs), o.Folds, o.Seed)
	if err != nil {
		return nil, fmt.Errorf("LambdaRank %q: %w", name, err)
	}
	depth := o.Depth
	if depth < 0 {
		depth = 0
	}
	data := t.ltrData(feats, depth)
	res := &LTRResult{Features: names}
	entries := make([][]ir.ScoredDoc, len(t.QueryIDs))
	for f, test := range folds {
		var train []int
		for g, other := range folds {
			if g != f {
				train = append(train, other...)
			}
		}
		slices.Sort(train)
		w, epoch, ndcg := trainLambdaRank(data, train, len(feats), o)
		res.Models = append(res.Models, &LambdaRankModel{Features: names, Weights: w, Epoch: epoch, TrainNDCG: ndcg})
		ids := make([]string, len(test))
		for i, q := range test {
			ids[i] = t.QueryIDs[q]
			lq := &data[q]
			s, rank := lq.scoreRank(w)
			e := make([]ir.ScoredDoc, len(s))
			for i, d := range lq.docs {
				e[rank[i]-1] = ir.ScoredDoc{DocID: t.DocIDs[d], Score: s[i]}
			}
			entries[q] = e
		}
		res.Folds = append(res.Folds, ids)
	}
	if res.Eval, err = t.Evaluate(name, t.toRun(entries)); err != nil {
		return nil, err
	}
	return res, nil
}

// LTRComparison is the learning-to-rank stand-in for the RLSI paper's
// Figure 9: LambdaRank over the term features, with and without the topic
// matching score as an extra feature, beside the first term feature alone on
// the same candidates.
type LTRComparison struct {
	// Baseline ranks the candidates by the first term feature (BM25 in
	// the usual order) alone.
	Baseline *Evaluation
	Without  *LTRResult // term features only
	With     *LTRResult // term features + topic
	// Paired t-tests, per measure.
	WithVsWithout, WithVsBaseline, WithoutVsBaseline []Test
}

// CompareLambdaRank cross-validates LambdaRank on the term features alone
// and with the topic feature added, on the same folds and candidates, and
// tests the differences.
func (t *Task) CompareLambdaRank(term []*Scores, topic *Scores, o LambdaRankOptions) (*LTRComparison, error) {
	if len(term) == 0 {
		return nil, fmt.Errorf("retrieval: CompareLambdaRank needs at least one term feature")
	}
	on := o.normalized()
	c := &LTRComparison{}
	var err error
	if c.Without, err = t.CrossValidateLambdaRank("lambdarank", term, o); err != nil {
		return nil, err
	}
	with := append(slices.Clone(term), topic)
	if c.With, err = t.CrossValidateLambdaRank("lambdarank+"+topic.Name, with, o); err != nil {
		return nil, err
	}
	if c.Baseline, err = t.EvaluateScores(term[0], CombineOptions{RerankDepth: max(on.Depth, 0), RunDepth: -1}); err != nil {
		return nil, err
	}
	if c.WithVsWithout, err = Compare(c.With.Eval, c.Without.Eval); err != nil {
		return nil, err
	}
	if c.WithVsBaseline, err = Compare(c.With.Eval, c.Baseline); err != nil {
		return nil, err
	}
	if c.WithoutVsBaseline, err = Compare(c.Without.Eval, c.Baseline); err != nil {
		return nil, err
	}
	return c, nil
}
