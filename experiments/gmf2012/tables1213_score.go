package gmf2012

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/retrieval"
)

// classCosineScores is the topic matching score of GMF §7.4 for the group
// and per-class models: "given a query q and a document d (and its label
// y_d), the method assigns the query into the same class that the
// document belongs to, i.e. class y_d, and then calculates the matching
// score between the query and the document in the topic space" (§6, Eq. 11's
// s_topic: the cosine). So
//
//	s_topic(q, d) = cos(v_q^{(y_d)}, v_d),   v_q^{(p)} = FoldInClass(q, p),
//	                                           v_d = FoldInClass(d, y_d),
//
// i.e. q folded in with Ũ_{y_d} = [U0, U_{y_d}] (GRLSI, Group NMF) or with
// class y_d's own model (CRLSI, CNMF). Every query is folded in once per
// class that some document has; a zero vector gives 0 (as
// retrieval.CosineScores). qx is Q×M (the queries' weighted rows), dx N×M
// (the documents'), docClass the N classes in 0..P−1.
func classCosineScores(ctx context.Context, name string, m grouping.ClassFolder, qx, dx *sparse.CSR, docClass []int, p int) (*retrieval.Scores, error) {
	if qx == nil || dx == nil {
		return nil, fmt.Errorf("%s: nil query or document matrix", name)
	}
	nq, nd := qx.Rows, dx.Rows
	if len(docClass) != nd {
		return nil, fmt.Errorf("%s: %d document classes for %d documents", name, len(docClass), nd)
	}
	byClass := make([][]int, p)
	for d, c := range docClass {
		if c < 0 || c >= p {
			return nil, fmt.Errorf("%s: document %d has class %d, want 0..%d", name, d, c, p-1)
		}
		byClass[c] = append(byClass[c], d)
	}
	vd, err := m.FoldInClass(ctx, dx, docClass)
	if err != nil {
		return nil, fmt.Errorf("%s: folding in the documents: %w", name, err)
	}
	out := make([][]float64, nq)
	for q := range out {
		out[q] = make([]float64, nd)
	}
	cls := make([]int, nq)
	for c, docs := range byClass {
		if len(docs) == 0 {
			continue
		}
		for i := range cls {
			cls[i] = c
		}
		vq, err := m.FoldInClass(ctx, qx, cls)
		if err != nil {
			return nil, fmt.Errorf("%s: folding in the queries in class %d: %w", name, c, err)
		}
		_, k := vd.Dims()
		sub := mat.NewDense(len(docs), k, nil)
		for i, d := range docs {
			copy(sub.RawRowView(i), vd.RawRowView(d))
		}
		s, err := retrieval.CosineScores(name, vq, sub, nq, len(docs))
		if err != nil {
			return nil, err
		}
		for q, row := range s.Values {
			for i, d := range docs {
				out[q][d] = row[i]
			}
		}
	}
	return &retrieval.Scores{Name: name, Values: out}, nil
}

// topicScores is s_topic of every (query, document) of d for a fitted
// model: classCosineScores for the group and per-class models; for RLSI
// and NMF, which need no labels (§7.4), the cosine of the fold-ins of the
// query and of the document (retrieval.Task.TopicScores with DocFoldIn).
func topicScores(ctx context.Context, name string, model engine.Model, d *relData) (*retrieval.Scores, error) {
	if cf, ok := model.(grouping.ClassFolder); ok {
		return classCosineScores(ctx, name, cf, d.task.QueryWeights, d.task.DocWeights, d.corpus.Labels, len(d.corpus.ClassNames))
	}
	return d.task.TopicScores(ctx, name, model, retrieval.DocFoldIn)
}

// sliceScores restricts scores to the queries and documents of a group.
func sliceScores(s *retrieval.Scores, g relGroup) *retrieval.Scores {
	out := &retrieval.Scores{Name: s.Name, Values: make([][]float64, len(g.queries))}
	for i, q := range g.queries {
		row := make([]float64, len(g.docs))
		for j, d := range g.docs {
			row[j] = s.Values[q][d]
		}
		out.Values[i] = row
	}
	return out
}

// sweepGroups evaluates Eq. 11, s = α·s_topic + (1 − α)·s_term, at every
// α of alphas: each group's queries are ranked over the group's candidates
// by retrieval.SweepAlpha (min-max normalization per query over the
// candidates, α = 0 and 1 the raw single scores, every candidate in the
// run), and the groups' per-query values are merged into one evaluation
// per α over all queries, in byte order of the ids.
func sweepGroups(d *relData, term, topic *retrieval.Scores, alphas []float64) ([]*retrieval.Evaluation, error) {
	type qv struct {
		id   string
		vals [][]float64 // [α][measure]
	}
	var all []qv
	o := retrieval.CombineOptions{}
	for _, g := range d.groups {
		sw, err := g.task.SweepAlpha(sliceScores(term, g), sliceScores(topic, g), alphas, o)
		if err != nil {
			return nil, err
		}
		for qi, id := range sw.Evals[0].Queries {
			v := qv{id: id, vals: make([][]float64, len(alphas))}
			for a, e := range sw.Evals {
				if e.Queries[qi] != id {
					return nil, fmt.Errorf("%s: query order differs between α", g.task.Name)
				}
				v.vals[a] = make([]float64, len(retrieval.Measures))
				for m := range retrieval.Measures {
					v.vals[a][m] = e.Values[m][qi]
				}
			}
			all = append(all, v)
		}
	}
	slices.SortFunc(all, func(a, b qv) int { return strings.Compare(a.id, b.id) })
	out := make([]*retrieval.Evaluation, len(alphas))
	for a, alpha := range alphas {
		e := &retrieval.Evaluation{Name: fmt.Sprintf("%s+%s α=%g", term.Name, topic.Name, alpha), Values: make([][]float64, len(retrieval.Measures))}
		for i, v := range all {
			if i > 0 && all[i-1].id == v.id {
				return nil, fmt.Errorf("query %s is in two groups", v.id)
			}
			e.Queries = append(e.Queries, v.id)
			for m := range retrieval.Measures {
				e.Values[m] = append(e.Values[m], v.vals[a][m])
			}
		}
		out[a] = e
	}
	return out, nil
}

// restrict returns e on the queries whose ids are in keep, in e's order.
func restrict(e *retrieval.Evaluation, keep map[string]bool) *retrieval.Evaluation {
	out := &retrieval.Evaluation{Name: e.Name, Values: make([][]float64, len(e.Values))}
	for i, id := range e.Queries {
		if !keep[id] {
			continue
		}
		out.Queries = append(out.Queries, id)
		for m := range e.Values {
			out.Values[m] = append(out.Values[m], e.Values[m][i])
		}
	}
	return out
}
