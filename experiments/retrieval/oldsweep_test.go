package retrieval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/topicmf/topicmf/metrics/ir"
)

// The sweep as it was before topK and sweepJudgments (commit 8553b7b),
// kept as the reference the new code must match bit for bit: a heap
// selection per α and query, the run built with string ids, and
// ir.Evaluate of the run.

// oldRankedBefore reports whether document a ranks before b in
// sortRanked's order.
func oldRankedBefore(a, b int, score []float64, order []int) bool {
	if score[a] != score[b] {
		return score[a] > score[b]
	}
	return order[a] > order[b]
}

// oldTopRanked is the heap selection of the first k documents.
func oldTopRanked(docs []int, score []float64, order []int, k int) []int {
	if k <= 0 || 2*k >= len(docs) {
		sortRanked(docs, score, order)
		return docs[:max(0, min(k, len(docs)))]
	}
	heap := docs[:k]
	worse := func(i, j int) bool { return oldRankedBefore(heap[j], heap[i], score, order) }
	down := func(i int) {
		for {
			w, l, r := i, 2*i+1, 2*i+2
			if l < k && worse(l, w) {
				w = l
			}
			if r < k && worse(r, w) {
				w = r
			}
			if w == i {
				return
			}
			heap[i], heap[w] = heap[w], heap[i]
			i = w
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, d := range docs[k:] {
		if oldRankedBefore(d, heap[0], score, order) {
			heap[0] = d
			down(0)
		}
	}
	sortRanked(heap, score, order)
	return heap
}

func oldCandidates(score []float64, k int, order []int) []int {
	docs := identity(len(score))
	if k <= 0 || k >= len(docs) {
		return docs
	}
	return oldTopRanked(docs, score, order, k)
}

func oldNormalized(x []float64, cands []int, n Normalization) []float64 {
	out := make([]float64, len(x))
	if n == NormNone {
		for _, d := range cands {
			out[d] = x[d]
		}
		return out
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, d := range cands {
		lo, hi = math.Min(lo, x[d]), math.Max(hi, x[d])
	}
	if !(hi > lo) {
		return out
	}
	w := hi - lo
	for _, d := range cands {
		out[d] = (x[d] - lo) / w
	}
	return out
}

func oldCombined(alpha float64, term, topic, termN, topicN []float64, cands []int) []float64 {
	switch alpha {
	case 0:
		return term
	case 1:
		return topic
	}
	s := make([]float64, len(term))
	for _, d := range cands {
		s[d] = alpha*topicN[d] + (1-alpha)*termN[d]
	}
	return s
}

func (t *Task) oldTopRun(cands []int, score []float64, order []int, depth int) []ir.ScoredDoc {
	docs := oldTopRanked(slices.Clone(cands), score, order, depth)
	out := make([]ir.ScoredDoc, len(docs))
	for i, d := range docs {
		out[i] = ir.ScoredDoc{DocID: t.DocIDs[d], Score: score[d]}
	}
	return out
}

func (t *Task) oldRunOf(s *Scores, o CombineOptions) (ir.Run, error) {
	if err := t.checkInputs(o, s); err != nil {
		return nil, err
	}
	order := t.docOrder()
	depth := o.runDepth(len(t.DocIDs))
	entries := make([][]ir.ScoredDoc, len(t.QueryIDs))
	for q := range t.QueryIDs {
		entries[q] = t.oldTopRun(oldCandidates(s.Values[q], o.RerankDepth, order), s.Values[q], order, depth)
	}
	return t.toRun(entries), nil
}

// oldSweep returns the old sweep's evaluations and runs.
func (t *Task) oldSweep(term, topic *Scores, alphas []float64, o CombineOptions) ([]*Evaluation, []ir.Run, error) {
	if err := t.checkInputs(o, term, topic); err != nil {
		return nil, nil, err
	}
	order := t.docOrder()
	depth := o.runDepth(len(t.DocIDs))
	nq := len(t.QueryIDs)
	cands := make([][]int, nq)
	termN := make([][]float64, nq)
	topicN := make([][]float64, nq)
	for q := range nq {
		cands[q] = oldCandidates(term.Values[q], o.RerankDepth, order)
		termN[q] = oldNormalized(term.Values[q], cands[q], o.Normalization)
		topicN[q] = oldNormalized(topic.Values[q], cands[q], o.Normalization)
	}
	var evals []*Evaluation
	var runs []ir.Run
	for _, a := range alphas {
		entries := make([][]ir.ScoredDoc, nq)
		for q := range nq {
			s := oldCombined(a, term.Values[q], topic.Values[q], termN[q], topicN[q], cands[q])
			entries[q] = t.oldTopRun(cands[q], s, order, depth)
		}
		run := t.toRun(entries)
		runs = append(runs, run)
		e, err := t.Evaluate(fmt.Sprintf("%s+%s α=%g", term.Name, topic.Name, a), run)
		if err != nil {
			return nil, nil, err
		}
		evals = append(evals, e)
	}
	return evals, runs, nil
}

// randomSweepTask is a task of n documents and nq queries with ids in an
// order unlike the index order, qrels with levels −1…3 that judge
// documents outside the collection, queries outside the task and queries
// without a relevant document, and two scores with few distinct values
// (many ties, ±0, negatives) or continuous ones.
func randomSweepTask(r *rand.Rand, n, nq int) (*Task, *Scores, *Scores) {
	t := &Task{Name: "random", Qrels: ir.Qrels{}}
	for _, d := range r.Perm(n) {
		t.DocIDs = append(t.DocIDs, "d"+strconv.Itoa(d*7%(n+3)))
	}
	judge := func() map[string]int {
		m := map[string]int{}
		for range r.IntN(12) {
			doc := "d" + strconv.Itoa(r.IntN(n+5)) // some beyond the collection
			m[doc] = r.IntN(5) - 1
		}
		if r.IntN(4) == 0 {
			m["d"+strconv.Itoa(r.IntN(n))] = 0 // judged, gain 0
		}
		return m
	}
	for q := range nq {
		id := "q" + strconv.Itoa(nq-q)
		t.QueryIDs = append(t.QueryIDs, id)
		t.Qrels[id] = judge()
	}
	for e := range r.IntN(3) {
		t.Qrels["x"+strconv.Itoa(e)] = judge() // judged, not a task query
	}
	gains := map[int]float64{}
	if r.IntN(2) == 0 {
		gains = map[int]float64{1: 1, 2: 3, 3: 0.5, -1: 0}
	}
	t.Eval = ir.Options{Gains: gains, Complete: r.IntN(3) > 0, SkipNoRelevant: r.IntN(3) == 0,
		PCutoffs: []int{5, 10, 1 + r.IntN(20)}, NDCGCutoffs: []int{1, 3, 5, 10}}
	if t.Eval.PCutoffs[2] == 5 || t.Eval.PCutoffs[2] == 10 {
		t.Eval.PCutoffs = t.Eval.PCutoffs[:2]
	}
	if r.IntN(3) == 0 {
		t.Eval.RelevanceLevel = 1 + r.IntN(3)
	}
	scores := func(name string) *Scores {
		s := &Scores{Name: name, Values: make([][]float64, nq)}
		kind := r.IntN(3)
		for q := range s.Values {
			row := make([]float64, n)
			for d := range row {
				switch kind {
				case 0:
					row[d] = float64(r.IntN(4)) / 3 // few values: ties
				case 1:
					row[d] = []float64{0, math.Copysign(0, -1), -1.5, 2, 0.1}[r.IntN(5)]
				default:
					row[d] = r.NormFloat64()
				}
			}
			if r.IntN(8) == 0 {
				for d := range row {
					row[d] = 3 // constant: min-max gives zeros
				}
			}
			s.Values[q] = row
		}
		return s
	}
	return t, scores("term"), scores("topic")
}

// sameRuns reports the first difference between two runs, bit for bit.
func sameRuns(got, want ir.Run) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d queries, want %d", len(got), len(want))
	}
	for q, w := range want {
		g := got[q]
		if len(g) != len(w) {
			return fmt.Errorf("query %s: %d documents, want %d", q, len(g), len(w))
		}
		for i := range w {
			if g[i].DocID != w[i].DocID || math.Float64bits(g[i].Score) != math.Float64bits(w[i].Score) {
				return fmt.Errorf("query %s, rank %d: %v, want %v", q, i+1, g[i], w[i])
			}
		}
	}
	return nil
}

// sameEvaluation reports the first difference between two evaluations,
// bit for bit, means included.
func sameEvaluation(got, want *Evaluation) error {
	if got.Name != want.Name || !slices.Equal(got.Queries, want.Queries) || !slices.Equal(got.Warnings, want.Warnings) {
		return fmt.Errorf("%q %v %q, want %q %v %q", got.Name, got.Queries, got.Warnings, want.Name, want.Queries, want.Warnings)
	}
	for m, name := range Measures {
		for q := range want.Values[m] {
			if math.Float64bits(got.Values[m][q]) != math.Float64bits(want.Values[m][q]) {
				return fmt.Errorf("%s, query %s: %v, want %v", name, want.Queries[q], got.Values[m][q], want.Values[m][q])
			}
		}
		if g, w := got.Mean(name), want.Mean(name); math.Float64bits(g) != math.Float64bits(w) {
			return fmt.Errorf("mean %s: %v, want %v", name, g, w)
		}
	}
	return nil
}

// TestSweepMatchesOldSweep: SweepAlpha's evaluations, the sweep's runs and
// RunOf are bit for bit those of the old code (full sorts, heap selection,
// ir.Evaluate of string-keyed runs) on random tasks with many ties, ±0,
// constant scores, unjudged and out-of-collection judged documents, queries
// without a relevant document, judged queries outside the task, every
// normalization, re-ranking depths and run depths. The reference runs on
// one goroutine, the new code on the default pool.
func TestSweepMatchesOldSweep(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 400 {
		n, nq := 1+r.IntN(300), 1+r.IntN(9)
		if trial%10 == 0 {
			n = 1 + r.IntN(3)
		}
		task, term, topic := randomSweepTask(r, n, nq)
		o := CombineOptions{Normalization: Normalization(r.IntN(2)), RunDepth: []int{0, -1, 1 + r.IntN(n), 1 + r.IntN(n/3+1)}[r.IntN(4)]}
		if r.IntN(3) == 0 {
			o.RerankDepth = 1 + r.IntN(n)
		}
		alphas := append(DefaultAlphas(), 0.25, r.Float64())
		wantEvals, wantRuns, wantErr := task.oldSweep(term, topic, alphas, o)
		sw, err := task.SweepAlpha(term, topic, alphas, o)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("trial %d: error %v, want %v", trial, err, wantErr)
		}
		if wantErr != nil {
			continue
		}
		for a, alpha := range alphas {
			if err := sameEvaluation(sw.Evals[a], wantEvals[a]); err != nil {
				t.Fatalf("trial %d (n = %d, %+v, eval %+v), α = %v: %v", trial, n, o, task.Eval, alpha, err)
			}
		}
		runs, err := task.sweep(term, topic, alphas, o, true)
		if err != nil {
			t.Fatal(err)
		}
		for a, alpha := range alphas {
			if err := sameRuns(runs.runs[a], wantRuns[a]); err != nil {
				t.Fatalf("trial %d (n = %d, %+v), α = %v, run: %v", trial, n, o, alpha, err)
			}
		}
		got, err := task.RunOf(topic, o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := task.oldRunOf(topic, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameRuns(got, want); err != nil {
			t.Fatalf("trial %d (n = %d, %+v), RunOf: %v", trial, n, o, err)
		}
	}
}

// TestNormalizedMatchesOld: normalized (builtin min and max) is the old
// one (math.Min and math.Max) bit for bit, signed zeros included.
func TestNormalizedMatchesOld(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-300, -2.5}
	for trial := range 2000 {
		x := make([]float64, 1+r.IntN(6))
		for i := range x {
			x[i] = vals[r.IntN(len(vals))]
		}
		cands := r.Perm(len(x))[:1+r.IntN(len(x))]
		for _, n := range []Normalization{NormMinMax, NormNone} {
			got, want := normalized(x, cands, n), oldNormalized(x, cands, n)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("trial %d, %v over %v of %v: %v, want %v", trial, n, cands, x, got, want)
				}
			}
		}
	}
}
