package retrieval

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/metrics/ir"
)

// Normalization says how the two scores of Eq. 5 are put on a common scale
// before they are mixed (see the package documentation for the reading).
type Normalization int

const (
	// NormMinMax maps each score, per query over the candidate documents,
	// to [0, 1] by (x − min)/(max − min) (0 when max = min). The default.
	NormMinMax Normalization = iota
	// NormNone mixes the raw scores, Eq. 5 taken literally.
	NormNone
)

func (n Normalization) String() string {
	switch n {
	case NormMinMax:
		return "minmax"
	case NormNone:
		return "none"
	}
	return fmt.Sprintf("Normalization(%d)", int(n))
}

// DefaultRunDepth is the number of documents kept per query in an
// evaluated run when CombineOptions.RunDepth is 0 (trec_eval's convention
// of 1000).
const DefaultRunDepth = 1000

// CombineOptions configure the linear combination of Eq. 5 and the runs
// built from scores. The zero value: min-max normalization, every document
// a candidate, 1000 documents per query in the run.
type CombineOptions struct {
	Normalization Normalization
	// RerankDepth, when > 0, restricts the candidates of a query to the
	// term model's top RerankDepth documents (re-ranking); 0 makes every
	// document of the collection a candidate (the paper's reading, see the
	// package documentation).
	RerankDepth int
	// RunDepth is the number of top candidates kept per query in the run
	// given to the evaluation: 0 means DefaultRunDepth, < 0 every
	// candidate.
	RunDepth int
}

func (o CombineOptions) validate() error {
	if o.Normalization != NormMinMax && o.Normalization != NormNone {
		return fmt.Errorf("retrieval: unknown Normalization %d", int(o.Normalization))
	}
	if o.RerankDepth < 0 {
		return fmt.Errorf("retrieval: RerankDepth = %d, want ≥ 0 (0: every document is a candidate)", o.RerankDepth)
	}
	return nil
}

func (o CombineOptions) runDepth(n int) int {
	switch {
	case o.RunDepth == 0:
		return min(DefaultRunDepth, n)
	case o.RunDepth < 0:
		return n
	}
	return min(o.RunDepth, n)
}

// String describes the options for report footers.
func (o CombineOptions) String() string {
	cands := "all documents"
	if o.RerankDepth > 0 {
		cands = fmt.Sprintf("term top %d", o.RerankDepth)
	}
	depth := fmt.Sprint(o.RunDepth)
	if o.RunDepth == 0 {
		depth = fmt.Sprint(DefaultRunDepth)
	} else if o.RunDepth < 0 {
		depth = "all"
	}
	return fmt.Sprintf("normalization %s, candidates %s, run depth %s", o.Normalization, cands, depth)
}

// DefaultAlphas returns α = 0, 0.1, …, 1 (each i/10, so 0.3 is the float64
// nearest to 3/10).
func DefaultAlphas() []float64 {
	a := make([]float64, 11)
	for i := range a {
		a[i] = float64(i) / 10
	}
	return a
}

// docOrder returns, for every document, its position in the byte order of
// the ids: trec_eval breaks score ties by document id descending.
func (t *Task) docOrder() []int {
	idx := identity(len(t.DocIDs))
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(t.DocIDs[a], t.DocIDs[b]) })
	pos := make([]int, len(idx))
	for p, d := range idx {
		pos[d] = p
	}
	return pos
}

// identity returns 0, 1, …, n−1.
func identity(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// sortRanked sorts documents by score descending, ties by document id
// descending (trec_eval's order).
func sortRanked(docs []int, score []float64, order []int) {
	slices.SortFunc(docs, func(a, b int) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		}
		return order[b] - order[a]
	})
}

// rankItem is a document in a selection: its score, its position in the
// byte order of the ids (the order of docOrder) and its index.
type rankItem struct {
	score float64
	ord   int
	doc   int
}

// before reports whether a ranks before b in sortRanked's order: the higher
// score, on equal scores (−0 = +0) the later document id.
func (a rankItem) before(b rankItem) bool {
	return a.score > b.score || a.score == b.score && a.ord > b.ord
}

// beforeInt is before as 1 or 0, computed without branches, for the
// partition loop, whose comparisons a branch predictor cannot guess.
func (a rankItem) beforeInt(b rankItem) int {
	gt, eq, later := 0, 0, 0
	if a.score > b.score {
		gt = 1
	}
	if a.score == b.score {
		eq = 1
	}
	if a.ord > b.ord {
		later = 1
	}
	return gt | eq&later
}

// compareItems is before as a comparison for slices.SortFunc.
func compareItems(a, b rankItem) int {
	switch {
	case a.score > b.score:
		return -1
	case a.score < b.score:
		return 1
	}
	return b.ord - a.ord
}

// topRanked returns the first k documents of docs in sortRanked's order,
// reordering docs: what sortRanked(docs) followed by docs[:k] returns (see
// topK).
func topRanked(docs []int, score []float64, order []int, k int) []int {
	var sel topK
	sel.reset(k, len(docs))
	for _, d := range docs {
		sel.push(rankItem{score[d], order[d], d})
	}
	top := sel.top()
	for i, it := range top {
		docs[i] = it.doc
	}
	return docs[:len(top)]
}

// topK selects the first k of the items pushed to it in sortRanked's
// order. The scores are finite (Scores.check) and the ords distinct, so the
// order is total and the first k are the same items in the same order
// whichever way they are found. topK keeps a buffer of up to 2k items and,
// once it has held k, the k-th best of them, th: an item that does not
// rank before th has k items before it and is dropped at the cost of one
// comparison, the common case; when the buffer is full it is cut to its
// best k (nthItem) and th moves up. Out of n items in random order about
// k·ln(n/k) enter the buffer, as many as a heap of k would take in, but
// each costs an append instead of a sift through the heap. The k are
// sorted at the end.
type topK struct {
	k   int
	buf []rankItem
	th  rankItem
	cut bool // th is set
}

// reset prepares the selection of the first k of n items, keeping the
// buffer's memory.
func (s *topK) reset(k, n int) {
	s.k = max(0, min(k, n))
	size := min(2*s.k, n)
	if cap(s.buf) < size {
		s.buf = make([]rankItem, 0, size)
	}
	s.buf, s.cut = s.buf[:0:size], false
}

// push offers one item.
func (s *topK) push(it rankItem) {
	if s.cut && !it.before(s.th) {
		return
	}
	s.buf = append(s.buf, it)
	if len(s.buf) == cap(s.buf) && len(s.buf) > s.k {
		s.shrink()
	}
}

// shrink cuts the buffer to its best k items.
func (s *topK) shrink() {
	if s.k == 0 {
		s.buf = s.buf[:0]
		return
	}
	nthItem(s.buf, s.k-1)
	s.buf, s.th, s.cut = s.buf[:s.k], s.buf[s.k-1], true
}

// top returns the first k items pushed, in order.
func (s *topK) top() []rankItem {
	if len(s.buf) > s.k {
		s.shrink()
	}
	sortItems(s.buf)
	return s.buf
}

// nthItem reorders items so that items[n] is the item sortRanked's order
// puts there, preceded by the ones before it: Hoare's FIND over
// partitionItems, expected O(len(items)). A selection that has not
// converged after 2·log2(len(items)) partitions sorts what is left, so the
// worst case stays O(n log n).
func nthItem(items []rankItem, n int) {
	// items[:lo] precede items[n], items[hi:] follow it.
	lo, hi := 0, len(items)
	for budget := 2 * bits.Len(uint(len(items))); hi-lo > 16 && budget > 0; budget-- {
		s := lo + partitionItems(items[lo:hi])
		switch {
		case s > n:
			hi = s
		case s < n:
			lo = s + 1
		default:
			return
		}
	}
	sortItems(items[lo:hi])
}

// sortItems sorts items in sortRanked's order: quicksort over
// partitionItems, insertion sort below 12 items, and slices.SortFunc for a
// part that has not been cut down after 2·log2(len) partitions
// (introsort's guard against bad pivots).
func sortItems(items []rankItem) {
	for budget := 2 * bits.Len(uint(len(items))); len(items) > 12; budget-- {
		if budget == 0 {
			slices.SortFunc(items, compareItems)
			return
		}
		s := partitionItems(items)
		if s < len(items)-s {
			sortItems(items[:s])
			items = items[s+1:]
		} else {
			sortItems(items[s+1:])
			items = items[:s]
		}
	}
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && items[j].before(items[j-1]); j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
}

// partitionItems partitions items (at least 3) around the median p of the
// first, middle and last (Lomuto's scheme, swapping every item and
// advancing the boundary by beforeInt, so that the loop does not branch on
// the comparison) and returns p's position s:
// items[:s] precede p, items[s+1:] follow it.
func partitionItems(items []rankItem) int {
	hi := len(items) - 1
	m := hi / 2
	a, b, c := items[0], items[m], items[hi]
	pi := m
	if a.before(b) != a.before(c) {
		pi = 0
	} else if c.before(a) != c.before(b) {
		pi = hi
	}
	items[pi], items[hi] = items[hi], items[pi]
	p := items[hi]
	s := 0
	for i := range hi {
		it := items[i]
		items[i] = items[s]
		items[s] = it
		s += it.beforeInt(p)
	}
	items[s], items[hi] = items[hi], items[s]
	return s
}

// candidates returns the candidate documents of one query: all of them, or
// the top k by score.
func candidates(score []float64, k int, order []int) []int {
	docs := identity(len(score))
	if k <= 0 || k >= len(docs) {
		return docs
	}
	return topRanked(docs, score, order, k)
}

// normalized returns x restricted to the candidates, scaled as n says,
// indexed like the document ids (entries outside the candidates are 0).
func normalized(x []float64, cands []int, n Normalization) []float64 {
	return normalizeInto(make([]float64, len(x)), x, cands, n)
}

// normalizeInto writes normalized's values of the candidates into dst
// (indexed like x; other entries are left alone) and returns dst. The
// builtin min and max are math.Min and math.Max (−0 below +0), inlined.
func normalizeInto(dst, x []float64, cands []int, n Normalization) []float64 {
	if n == NormNone {
		for _, d := range cands {
			dst[d] = x[d]
		}
		return dst
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, d := range cands {
		lo, hi = min(lo, x[d]), max(hi, x[d])
	}
	if !(hi > lo) {
		for _, d := range cands {
			dst[d] = 0
		}
		return dst
	}
	w := hi - lo
	for _, d := range cands {
		dst[d] = (x[d] - lo) / w
	}
	return dst
}

// Mix is Eq. 5 over one query's scores of the same documents (its
// candidates): s = α·topic + (1 − α)·term with both scores min-max
// normalized over those documents for 0 < α < 1 (NormMinMax: all 0 when
// the scores are constant), and the raw term and topic scores at α = 0 and
// α = 1, the single models exactly. The command line's rank and
// gnmfnc2014's Eq. 14 rank with it.
func Mix(alpha float64, term, topic []float64) []float64 {
	if alpha == 0 || alpha == 1 {
		return combined(alpha, term, topic, nil, nil, nil) // the raw scores: nothing to normalize
	}
	all := identity(len(term))
	return combined(alpha, term, topic, normalized(term, all, NormMinMax), normalized(topic, all, NormMinMax), all)
}

// combined is s = α·topic + (1−α)·term (Eq. 5) over the candidates; α = 0
// and α = 1 return the raw term and topic scores, so that the runs at the
// ends of the sweep are exactly those of the single models.
func combined(alpha float64, term, topic, termN, topicN []float64, cands []int) []float64 {
	switch alpha {
	case 0:
		return term
	case 1:
		return topic
	}
	s := make([]float64, len(term))
	for _, d := range cands {
		s[d] = mixed(alpha, term[d], topic[d], termN[d], topicN[d])
	}
	return s
}

// mixed is combined's score of one document: α·topicN + (1−α)·termN, the
// raw term score at α = 0 and the raw topic score at α = 1.
func mixed(alpha, term, topic, termN, topicN float64) float64 {
	switch alpha {
	case 0:
		return term
	case 1:
		return topic
	}
	return alpha*topicN + (1-alpha)*termN
}

// topRun returns the first depth candidates by score, as a run entry.
func (t *Task) topRun(cands []int, score []float64, order []int, depth int) []ir.ScoredDoc {
	docs := topRanked(slices.Clone(cands), score, order, depth)
	out := make([]ir.ScoredDoc, len(docs))
	for i, d := range docs {
		out[i] = ir.ScoredDoc{DocID: t.DocIDs[d], Score: score[d]}
	}
	return out
}

// checkInputs validates the task, the options and every score against the
// task.
func (t *Task) checkInputs(o CombineOptions, scores ...*Scores) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	for _, s := range scores {
		if err := s.check(t); err != nil {
			return err
		}
	}
	return nil
}

// RunOf ranks the documents of every query by one score (the term or the
// topic model alone): the candidates are every document, or the score's own
// top RerankDepth, and the run keeps the first RunDepth of them.
func (t *Task) RunOf(s *Scores, o CombineOptions) (ir.Run, error) {
	if err := t.checkInputs(o, s); err != nil {
		return nil, err
	}
	order := t.docOrder()
	depth := o.runDepth(len(t.DocIDs))
	entries := make([][]ir.ScoredDoc, len(t.QueryIDs))
	parallel.Default().For(len(t.QueryIDs), 4, func(_, lo, hi int) {
		for q := lo; q < hi; q++ {
			entries[q] = t.topRun(candidates(s.Values[q], o.RerankDepth, order), s.Values[q], order, depth)
		}
	})
	return t.toRun(entries), nil
}

func (t *Task) toRun(entries [][]ir.ScoredDoc) ir.Run {
	run := make(ir.Run, len(t.QueryIDs))
	for q, id := range t.QueryIDs {
		run[id] = entries[q]
	}
	return run
}

// Evaluation holds the per-query values of Measures for one ranking.
type Evaluation struct {
	Name    string
	Queries []string    // evaluated query ids, in byte order
	Values  [][]float64 // Values[m][q]: Measures[m] on Queries[q]
	// Warnings are metrics/ir's notes on the evaluation.
	Warnings []string
}

// measureIndex is the position of a measure in Measures, or an error.
func measureIndex(measure string) (int, error) {
	if m := slices.Index(Measures, measure); m >= 0 {
		return m, nil
	}
	return 0, fmt.Errorf("retrieval: unknown measure %q (known: %s)", measure, strings.Join(Measures, ", "))
}

// Mean is the mean of a measure over the evaluated queries (NaN for an
// unknown measure).
func (e *Evaluation) Mean(measure string) float64 {
	m, err := measureIndex(measure)
	if err != nil {
		return math.NaN()
	}
	return meanOver(e.Values[m], nil)
}

// meanOver is the mean of x over the positions idx (all when idx is nil),
// summed in index order.
func meanOver(x []float64, idx []int) float64 {
	if idx == nil {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	s := 0.0
	for _, i := range idx {
		s += x[i]
	}
	return s / float64(len(idx))
}

// Evaluate scores a run with metrics/ir under the task's options and keeps
// the values of Measures.
func (t *Task) Evaluate(name string, run ir.Run) (*Evaluation, error) {
	rep, err := ir.Evaluate(t.Qrels, run, t.Eval)
	if err != nil {
		return nil, fmt.Errorf("task %q, %s: %w", t.Name, name, err)
	}
	e := &Evaluation{Name: name, Queries: rep.Queries, Values: make([][]float64, len(Measures)), Warnings: rep.Warnings}
	for m, name := range Measures {
		if e.Values[m] = rep.PerQuery(name); e.Values[m] == nil {
			return nil, fmt.Errorf("retrieval: metrics/ir reported no %q (evaluation options lack its cutoff)", name)
		}
	}
	return e, nil
}

// EvaluateScores is Evaluate(RunOf(s)): one scoring function alone.
func (t *Task) EvaluateScores(s *Scores, o CombineOptions) (*Evaluation, error) {
	run, err := t.RunOf(s, o)
	if err != nil {
		return nil, err
	}
	return t.Evaluate(s.Name, run)
}

// Sweep is the evaluation of Eq. 5 over a grid of α for one term model and
// one topic model.
type Sweep struct {
	Term, Topic string // names of the combined scores
	Alphas      []float64
	Evals       []*Evaluation // Evals[i] is α = Alphas[i]
	Options     CombineOptions

	runs []ir.Run // the runs, kept only when sweep is called with keepRuns (by the tests, which compare them)
}

// SweepAlpha evaluates s = α·s_topic + (1−α)·s_term for every α of alphas
// (nil: DefaultAlphas). α = 0 is the term model alone and α = 1 the topic
// model alone, exactly (see Combine).
func (t *Task) SweepAlpha(term, topic *Scores, alphas []float64, o CombineOptions) (*Sweep, error) {
	if alphas == nil {
		alphas = DefaultAlphas()
	}
	return t.sweep(term, topic, alphas, o, false)
}

// sweep evaluates (or with keepRuns only ranks) Eq. 5 at every α. Each
// query is one piece of work: its candidates and normalized scores once,
// then for every α its mixed scores, their first RunDepth by topK and
// their measures by sweepJudgments, the run never built (see
// sweepJudgments for why the values are ir.Evaluate's).
func (t *Task) sweep(term, topic *Scores, alphas []float64, o CombineOptions, keepRuns bool) (*Sweep, error) {
	if err := t.checkInputs(o, term, topic); err != nil {
		return nil, err
	}
	if len(alphas) == 0 {
		return nil, fmt.Errorf("retrieval: empty α grid")
	}
	for _, a := range alphas {
		if !(a >= 0 && a <= 1) {
			return nil, fmt.Errorf("retrieval: α = %v, want a number in [0, 1]", a)
		}
	}
	order := t.docOrder()
	depth := o.runDepth(len(t.DocIDs))
	nq := len(t.QueryIDs)
	sw := &Sweep{Term: term.Name, Topic: topic.Name, Alphas: slices.Clone(alphas), Options: o}
	var entries [][][]ir.ScoredDoc // [α][query], with keepRuns
	var judg *sweepJudgments
	var values [][][]float64 // [α][measure][evaluated query]
	if keepRuns {
		entries = make([][][]ir.ScoredDoc, len(alphas))
		for a := range entries {
			entries[a] = make([][]ir.ScoredDoc, nq)
		}
	} else {
		var err error
		if judg, err = t.sweepJudgments(); err != nil {
			return nil, err
		}
		values = make([][][]float64, len(alphas))
		for a := range values {
			values[a] = judg.newValues()
		}
	}
	parallel.Default().For(nq, 4, func(_, lo, hi int) {
		var sel topK
		termN, topicN := make([]float64, len(t.DocIDs)), make([]float64, len(t.DocIDs))
		var ev *queryEvaluator
		if !keepRuns {
			ev = judg.evaluator(len(t.DocIDs))
		}
		for q := lo; q < hi; q++ {
			tv, pv := term.Values[q], topic.Values[q]
			cands := candidates(tv, o.RerankDepth, order)
			normalizeInto(termN, tv, cands, o.Normalization)
			normalizeInto(topicN, pv, cands, o.Normalization)
			if ev != nil {
				ev.setQuery(q)
			}
			for a, alpha := range alphas {
				sel.reset(depth, len(cands))
				for _, d := range cands {
					sel.push(rankItem{mixed(alpha, tv[d], pv[d], termN[d], topicN[d]), order[d], d})
				}
				top := sel.top()
				if keepRuns {
					run := make([]ir.ScoredDoc, len(top))
					for i, it := range top {
						run[i] = ir.ScoredDoc{DocID: t.DocIDs[it.doc], Score: it.score}
					}
					entries[a][q] = run
					continue
				}
				ev.evaluate(top, values[a])
			}
			if ev != nil {
				ev.clearQuery()
			}
		}
	})
	for a, alpha := range alphas {
		if keepRuns {
			sw.runs = append(sw.runs, t.toRun(entries[a]))
			continue
		}
		sw.Evals = append(sw.Evals, judg.evaluation(fmt.Sprintf("%s+%s α=%g", term.Name, topic.Name, alpha), values[a]))
	}
	return sw, nil
}

// Best returns the α of the sweep with the highest mean of a measure over
// all queries (ties: the smallest α) — the paper's "best parameter setting"
// on the TREC sets, chosen on the very queries it is reported on, hence
// optimistic; see CrossFit for the fair protocol.
func (s *Sweep) Best(measure string) (alpha, mean float64, err error) {
	m, err := measureIndex(measure)
	if err != nil {
		return 0, 0, err
	}
	bi, best := -1, math.Inf(-1)
	for i, e := range s.Evals {
		if v := meanOver(e.Values[m], nil); v > best {
			bi, best = i, v
		}
	}
	if bi < 0 {
		return 0, 0, fmt.Errorf("retrieval: empty sweep")
	}
	return s.Alphas[bi], best, nil
}
