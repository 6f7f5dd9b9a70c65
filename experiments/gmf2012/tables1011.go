package gmf2012

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/metrics/topics"
)

func init() { experiments.Register(Tables1011()) }

// Settings of the topic tables (GMF §7.3, Experiment 2: "(Ks = 20,
// Kc = 8(10), λ1 = 0.01, λ2 = 0.1)"; we read Kc = 8 as Wikipedia's and
// Kc = 10 as Web-I's, and use Kc = 8 on both of our corpora; GroupNMF has no
// λ and takes the same Ks and Kc).
const (
	topicTerms    = 6 // "Top 6 weighted terms are shown for each topic"
	shownShared   = 3 // "3 shared topics and 9 class-specific topics"
	shownClass    = 9
	topicIters    = "100"
	CompactAvg    = 0.05 // threshold of the compactness claim
	ClassTermRate = 2.0 / 3
	// ClassPredictGain is the threshold of the held-out class-prediction
	// claim: the share of the majority-class baseline's errors the
	// prediction removes, (acc − maj)/(1 − maj), scale-free across corpora
	// whose largest class holds 5% (20 Newsgroups) or 40% (Reuters).
	ClassPredictGain = 0.5
)

// Tables1011 is the experiment "gmf2012/tables10-11".
func Tables1011() *experiments.Experiment {
	params := map[string]string{"ks": "20", "kc": "8", "lambda1": "0.01", "lambda2": "0.1", "iters": topicIters, "tol": "-1"}
	nmfParams := map[string]string{"ks": "20", "kc": "8", "iters": topicIters, "tol": "-1"}
	var pv []experiments.PaperValue
	for _, p := range []struct {
		ds string
		v  float64
		t  string
	}{{newsData, 0.0032, "Wikipedia"}, {reutersData, 0.0018, "Web-I"}} {
		pv = append(pv, experiments.PaperValue{Where: map[string]string{experiments.ColMethod: labelGRLSI, experiments.ColDataset: p.ds}, Metric: "avgcomp", Value: p.v,
			Note: "§7.3: AvgComp of GRLSI's topics on " + p.t + " (another corpus; printed for scale only)"})
	}
	return &experiments.Experiment{
		ID:      "gmf2012/tables10-11",
		Title:   "Shared and class-specific topics of Group RLSI and Group NMF (20 Newsgroups, Reuters-21578)",
		Paper:   experiments.PaperRef{Reference: thePaper, Cite: paperCite, Where: "§7.3 Experiment 2, Tables 10 and 11"},
		Version: "3", // 3: npmi, cv, td25

		Datasets: []string{newsData, reutersData},
		Methods: []experiments.MethodSpec{
			{Label: labelGRLSI, Name: "grouprlsi", Params: params},
			{Label: labelGroupNMF, Name: "groupnmf", Params: nmfParams},
		},
		TaskParams: []string{"vocab"},
		Seed:       20120812,
		Corpus:     tables1011Corpus,
		Fit:        tables1011Task,

		Metrics: []experiments.MetricDef{
			{Name: "avgcomp", Definition: "AvgComp of all K = Ks + P·Kc topics: mean over topics of the fraction of terms with a non-zero weight (GMF §7.3 footnote 6); the paper reports it for GRLSI only: GroupNMF's multiplicative updates leave nearly every weight positive, so its AvgComp is near 1 by construction and shown for contrast"},
			{Name: "avgcomp_shared", Definition: "AvgComp of the Ks shared topics (columns of U0)"},
			{Name: "avgcomp_class", Definition: "AvgComp of the P·Kc class-specific topics (columns of U_1 … U_P)"},
			{Name: "class_term_share", Definition: fmt.Sprintf("mean over the non-empty class topics of the share of their top-%d terms (by weight, positive weights only) whose document frequency rate in the topic's class, df_p(t)/N_p, exceeds their rate in the whole corpus, df(t)/N", topicTerms)},
			{Name: "class_term_share_other", Definition: "baseline of class_term_share: the same share of a class topic's top terms measured against each other class, averaged over the other classes and then over the non-empty class topics (near class_term_share would mean the proxy does not tell classes apart)"},
			{Name: "shared_term_share", Definition: "the same share for the shared topics, each against the class in which its top terms are most frequent (a reference: a shared topic may be dominated by one class)"},
			{Name: "empty_topics", Definition: "topics whose top terms have no positive weight"},
			{Name: "terms", Definition: "terms of the model corpus"},
			{Name: "documents", Definition: "documents of the model corpus"},
			{Name: "classes", Definition: "classes P"},
			{Name: "class_accuracy", Definition: "share of the held-out test documents (20 Newsgroups test split; single-label ModApte test stories) whose class predicted with the class unknown, argmin_p E(d; Ũ_p) (§4.3 Eq. 8 and §5.3; engine/grouping.ClassAccuracy), is their class; documents are weighted like the model corpus (training vocabulary and idf, unit length), and those with no training term or a class absent from training are not counted"},
			{Name: "class_accuracy_n", Definition: "held-out documents counted in class_accuracy"},
			{Name: "class_majority", Definition: "accuracy of always predicting the most frequent class among those documents (the scale of class_accuracy)"},
			quality.Metrics[0], quality.Metrics[1], quality.Metrics[2],
		},
		Tables: []experiments.Table{{
			Name: "compactness", Title: "GRLSI and GroupNMF topics: compactness and class relatedness (Ks = 20, Kc = 8; GRLSI λ1 = 0.01, λ2 = 0.1)",
			Rows:    []string{experiments.ColMethod, experiments.ColDataset},
			Metrics: []string{"avgcomp", "avgcomp_shared", "avgcomp_class", "class_term_share", "class_term_share_other", "shared_term_share", "npmi", "cv", "td25", "empty_topics", "terms", "documents", "classes"},
			Digits:  4,
		}, {
			Name: "class-prediction", Title: "Class of held-out documents predicted with the class unknown (§4.3, §5.3)",
			Rows:    []string{experiments.ColMethod, experiments.ColDataset},
			Metrics: []string{"class_accuracy", "class_majority", "class_accuracy_n"},
			Digits:  4,
		}},
		PaperValues: pv,
		Claims: []experiments.Claim{
			{
				Statement: fmt.Sprintf("GRLSI discovers compact topics: AvgComp < %g for the shared and for the class-specific topics on every corpus", CompactAvg),
				Source:    "§7.3, finding (3): AvgComp = 0.0032 (Wikipedia), 0.0018 (Web-I); stated for GRLSI only",
				Judge:     judgeCompact,
			},
			{
				Statement: fmt.Sprintf("GRLSI's class-specific topics characterize their class: on every corpus, a mean share ≥ %.2f of a class topic's top-%d terms are more frequent (document frequency rate) in its class than in the whole corpus", ClassTermRate, topicTerms),
				Source:    "§7.3, finding (2): \"For each class, GRLSI and GroupNMF can discover class-specific topics that characterize the class\"",
				Judge:     func(r *experiments.Results) experiments.Verdict { return judgeClassTerms(r, labelGRLSI) },
			},
			{
				Statement: fmt.Sprintf("GroupNMF's class-specific topics characterize their class: the same test (mean share ≥ %.2f of the top-%d terms over-represented in the topic's class) on every corpus", ClassTermRate, topicTerms),
				Source:    "§7.3, finding (2) (the same sentence, for GroupNMF)",
				Judge:     func(r *experiments.Results) experiments.Verdict { return judgeClassTerms(r, labelGroupNMF) },
			},
			{
				Statement: fmt.Sprintf("Folding in with the class unknown predicts the class of held-out documents: it removes at least %g of the errors of always predicting the majority class, (acc − maj)/(1 − maj) ≥ %g, for GRLSI and GroupNMF on every corpus", ClassPredictGain, ClassPredictGain),
				Source:    "§4.3 and §5.3 (the paper describes the prediction and reports no accuracy; the issue asks for it)",
				Judge:     judgeClassPrediction,
			},
			{
				Statement: "Evidence: Tables 10–11 layout, 3 shared and 9 class topics (top-6 terms) per corpus and method (GRLSI top, GroupNMF bottom, as the paper), selected at random from the job's seed",
				Source:    "Tables 10 and 11",
				Judge:     topicTableEvidence,
			},
			quality.CoherenceNote(experiments.ColMethod, "class_term_share", false, map[string]string{experiments.ColDataset: newsData}),
			quality.CoherenceNote(experiments.ColMethod, "class_term_share", false, map[string]string{experiments.ColDataset: reutersData}),
		},
		Quick: experiments.Quick{
			Params: map[string]string{"iters": "4", "vocab": "2000"},
		},
		Substitutes: "Wikipedia (25 classes) and Web-I (204 ODP classes) are not public: the 20 Newsgroups train split (20 groups) and the " +
			"single-label ModApte training stories of Reuters-21578 (their TOPICS category as class) stand in.",
		Protocol: "Text: tokens of 2+ letters, numbers dropped, SMART stop list, no stemming, tf-idf weights (datasets/text), then terms of total " +
			"frequency < 10 removed (§7.1), then every document scaled to unit length (our reading: the paper does not say how D is scaled, " +
			"and λ1 = 0.01 leaves raw tf-idf topics fully dense). GRLSI with (Ks, Kc) = (20, 8), λ1 = 0.01, λ2 = 0.1 as §7.3 states (\"Kc = 8(10)\": 8 for Wikipedia, " +
			"10 for Web-I; we use 8), and GroupNMF (Eq. 9, Algorithm 5's update order, ε-guarded multiplicative updates) with the same (Ks, Kc) = (20, 8) and no λ, " +
			"both " + topicIters + " iterations as the paper (the tolerance test off), random initialization from the job's seed. " +
			"Every topic's top-" + strconv.Itoa(topicTerms) + " terms are in the run's topics.txt (class names beside class topics) and the " +
			"Tables 10–11 selection in table.md. The class-relatedness proxy and both thresholds were fixed before any run. " +
			"Each fitted model then predicts, with the class unknown, the class of every single-label test document (20 Newsgroups test split, " +
			"ModApte test stories) weighted with the training vocabulary and idf; the claim's threshold (half of the majority baseline's errors removed) " +
			"was fixed after a 4-iteration smoke run and before the full run. " +
			"Quick: the 2,000 terms of highest document frequency, 4 iterations.",
	}
}

// tables1011Corpus is the model corpus of the job's data set (modelSpec),
// with the task parameter vocab terms (0: all).
func tables1011Corpus(j *experiments.Job) (experiments.CorpusSpec, error) {
	vocab, err := j.IntParamIn("vocab", 0, 0, math.MaxInt)
	if err != nil {
		return experiments.CorpusSpec{}, err
	}
	return modelSpec(j.Dataset, vocab), nil
}

// heldOut returns the single-label test documents of a data set as rows
// weighted like its model corpus (training vocabulary and idf, pruned
// terms dropped, unit length), with their classes as indices of the
// corpus's ClassNames: −1 for a class absent from training or a document
// with no training term (not counted by grouping.ClassAccuracy).
func heldOut(name string, d *experiments.Corpus) (*sparse.CSR, []int, error) {
	col, err := corpora.Collection(name)
	if err != nil {
		return nil, nil, err
	}
	class := map[string]int{}
	for p, c := range d.ClassNames {
		class[c] = p
	}
	var texts []string
	var labels []int
	for _, doc := range col.Docs {
		if doc.Split != "test" || doc.Class == "" || len(doc.Categories) > 1 {
			continue
		}
		texts = append(texts, doc.Text)
		if p, ok := class[doc.Class]; ok {
			labels = append(labels, p)
		} else {
			labels = append(labels, -1)
		}
	}
	if len(texts) == 0 {
		return nil, nil, fmt.Errorf("data set %s: no single-label document in split \"test\"", name)
	}
	x := projectRows(d.Vectorizer.Transform(texts), d.TermRow, d.Terms())
	experiments.UnitRows(x)
	for i := range labels {
		if x.RowPtr[i+1] == x.RowPtr[i] {
			labels[i] = -1
		}
	}
	return x, labels, nil
}

// projectRows keeps the columns c of x with row[c] ≥ 0, renumbered to
// row[c], in an n × cols matrix (row is increasing where ≥ 0, so every
// row stays sorted).
func projectRows(x *sparse.CSR, row []int32, cols int) *sparse.CSR {
	out := &sparse.CSR{Rows: x.Rows, Cols: cols, RowPtr: make([]int, x.Rows+1)}
	for i := 0; i < x.Rows; i++ {
		for k := x.RowPtr[i]; k < x.RowPtr[i+1]; k++ {
			if r := row[x.ColIdx[k]]; r >= 0 {
				out.ColIdx = append(out.ColIdx, r)
				out.Val = append(out.Val, x.Val[k])
			}
		}
		out.RowPtr[i+1] = len(out.ColIdx)
	}
	return out
}

// majorityShare is the accuracy of always predicting the most frequent
// class among the counted labels (those ≥ 0).
func majorityShare(labels []int) float64 {
	count := map[int]int{}
	n, best := 0, 0
	for _, y := range labels {
		if y < 0 {
			continue
		}
		n++
		count[y]++
		best = max(best, count[y])
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(best) / float64(n)
}

// docFreqs returns, for every term, its document frequency in the whole
// corpus and in each class, and the class sizes.
func docFreqs(c *engine.Corpus) (df []int, dfc [][]int, sizes []int) {
	p := len(c.ClassNames)
	df = make([]int, c.D.Rows)
	dfc = make([][]int, c.D.Rows)
	sizes = make([]int, p)
	for _, l := range c.Labels {
		if l >= 0 {
			sizes[l]++
		}
	}
	for m := 0; m < c.D.Rows; m++ {
		dfc[m] = make([]int, p)
		for k := c.D.RowPtr[m]; k < c.D.RowPtr[m+1]; k++ {
			if c.D.Val[k] == 0 {
				continue
			}
			df[m]++
			if l := c.Labels[c.D.ColIdx[k]]; l >= 0 {
				dfc[m][l]++
			}
		}
	}
	return df, dfc, sizes
}

// classShare is the share of terms whose document frequency rate in class
// p exceeds their rate in the whole corpus of n documents (NaN for no
// terms).
func classShare(terms []topics.Term, p int, df []int, dfc [][]int, sizes []int, n int) float64 {
	if len(terms) == 0 || sizes[p] == 0 {
		return math.NaN()
	}
	hit := 0
	for _, t := range terms {
		if float64(dfc[t.Index][p])/float64(sizes[p]) > float64(df[t.Index])/float64(n) {
			hit++
		}
	}
	return float64(hit) / float64(len(terms))
}

// positiveTop lists up to n terms of column k of U with positive weight.
func positiveTop(U *mat.Dense, vocab []string, n int) [][]topics.Term {
	return topics.TopTermsBy(U, vocab, n, topics.PositiveOnly)
}

func tables1011Task(ctx context.Context, j *experiments.Job, f *experiments.Fit) (*experiments.Result, error) {
	corpus, status := f.Corpus, f.Status
	gm, ok := f.Model.(grouping.GroupModel)
	if !ok {
		return nil, fmt.Errorf("%s: model is %T, want a group model (Group RLSI or Group NMF)", j.Label(), f.Model)
	}
	res := &experiments.Result{}
	x, labels, err := heldOut(j.Dataset, corpus)
	if err != nil {
		return nil, err
	}
	acc, counted, err := grouping.ClassAccuracy(ctx, gm, x, labels)
	if err != nil {
		return nil, fmt.Errorf("%s: held-out class prediction: %w", j.Label(), err)
	}
	res.AddMetric("class_accuracy", acc)
	res.AddMetric("class_accuracy_n", float64(counted))
	if err := quality.AddMetrics(res, j, f); err != nil {
		return nil, err
	}
	res.AddMetric("class_majority", majorityShare(labels))
	ks, kc, np := gm.Dims()
	names := gm.ClassNames()
	df, dfc, sizes := docFreqs(corpus.Corpus)
	n := corpus.D.Cols

	var shared [][]topics.Term
	if U0 := gm.Shared(); U0 != nil {
		shared = positiveTop(U0, corpus.Vocab, topicTerms)
		res.AddMetric("avgcomp_shared", topics.AvgComp(U0))
	}
	class := make([][][]topics.Term, np)
	var compSum float64
	empty := 0
	var shareSum, otherSum float64
	shareN, otherN := 0, 0
	for p := 0; p < np; p++ {
		Up := gm.ClassTopics(p)
		if Up == nil {
			continue
		}
		class[p] = positiveTop(Up, corpus.Vocab, topicTerms)
		compSum += topics.AvgComp(Up) * float64(kc)
		for _, ts := range class[p] {
			if len(ts) == 0 {
				empty++
				continue
			}
			shareSum += classShare(ts, p, df, dfc, sizes, n)
			shareN++
			var o float64
			no := 0
			for q := 0; q < np; q++ {
				if q != p && sizes[q] > 0 {
					o += classShare(ts, q, df, dfc, sizes, n)
					no++
				}
			}
			if no > 0 {
				otherSum += o / float64(no)
				otherN++
			}
		}
	}
	if kc > 0 && np > 0 {
		res.AddMetric("avgcomp_class", compSum/float64(kc*np))
	}
	var sharedSum float64
	sharedN := 0
	for _, ts := range shared {
		if len(ts) == 0 {
			empty++
			continue
		}
		best := math.Inf(-1)
		for p := 0; p < np; p++ {
			if s := classShare(ts, p, df, dfc, sizes, n); s > best {
				best = s
			}
		}
		sharedSum += best
		sharedN++
	}
	res.AddMetric("avgcomp", topics.AvgComp(gm.TermTopics()))
	res.AddMetric("class_term_share", shareSum/float64(shareN))
	res.AddMetric("class_term_share_other", otherSum/float64(otherN))
	res.AddMetric("shared_term_share", sharedSum/float64(sharedN))
	res.AddMetric("empty_topics", float64(empty))
	res.AddMetric("terms", float64(corpus.D.Rows))
	res.AddMetric("documents", float64(n))
	res.AddMetric("classes", float64(np))
	res.AddMetric("objective", status.Objective)
	res.AddMetric("iterations", float64(status.Iterations))

	// Tables 10–11 show topics "randomly selected": draw them from the
	// job's seed, 3 shared and 9 class topics from distinct classes.
	rnd := engine.NewRand(j.Seed)
	pickShared := rnd.Perm(ks)
	if len(pickShared) > shownShared {
		pickShared = pickShared[:shownShared]
	}
	type pick struct{ p, k int }
	var pickClass []pick
	if kc > 0 {
		for _, p := range rnd.Perm(np) {
			if len(pickClass) == shownClass {
				break
			}
			pickClass = append(pickClass, pick{p, rnd.IntN(kc)})
		}
	}
	res.Artifacts = append(res.Artifacts,
		experiments.Artifact{Name: "topics.txt", Write: func(w io.Writer) error {
			for k, ts := range shared {
				if _, err := fmt.Fprintf(w, "shared %d: %s\n", k+1, topics.Format(ts)); err != nil {
					return err
				}
			}
			for p := range class {
				for k, ts := range class[p] {
					if _, err := fmt.Fprintf(w, "class %s topic %d (share %.3f): %s\n", names[p], k+1,
						classShare(ts, p, df, dfc, sizes, n), topics.Format(ts)); err != nil {
						return err
					}
				}
			}
			return nil
		}},
		experiments.Artifact{Name: "table.md", Write: func(w io.Writer) error {
			var b strings.Builder
			fmt.Fprintf(&b, "Topics discovered by %s on %s (top-%d terms)\n\n| kind | class | terms |\n|---|---|---|\n", j.Method.DisplayName(), j.Dataset, topicTerms)
			for _, k := range pickShared {
				fmt.Fprintf(&b, "| shared %d | | %s |\n", k+1, orEmpty(topics.Format(shared[k])))
			}
			for _, pc := range pickClass {
				fmt.Fprintf(&b, "| class topic %d | %s | %s |\n", pc.k+1, names[pc.p], orEmpty(topics.Format(class[pc.p][pc.k])))
			}
			_, err := io.WriteString(w, b.String())
			return err
		}},
	)
	return res, nil
}

func orEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

// judgeCompact: held when every GRLSI run's shared and class AvgComp are
// below CompactAvg. GroupNMF's AvgComp (the paper claims no compactness for
// it) is quoted as a reference.
func judgeCompact(r *experiments.Results) experiments.Verdict {
	var parts, ref []string
	held, n := true, 0
	for _, j := range r.Jobs {
		s, ok1 := j.Run.Metric("avgcomp_shared")
		c, ok2 := j.Run.Metric("avgcomp_class")
		if !ok1 || !ok2 {
			continue
		}
		if j.Job.Method.DisplayName() != labelGRLSI {
			ref = append(ref, fmt.Sprintf("%s %s: shared %.4f, class %.4f", j.Job.Method.DisplayName(), j.Job.Dataset, s, c))
			continue
		}
		n++
		parts = append(parts, fmt.Sprintf("%s: shared %.4f, class %.4f", j.Job.Dataset, s, c))
		if !(s < CompactAvg && c < CompactAvg) {
			held = false
		}
	}
	detail := "GRLSI AvgComp " + strings.Join(parts, "; ") + fmt.Sprintf(" (threshold %g; paper 0.0032 and 0.0018)", CompactAvg)
	if len(ref) > 0 {
		detail += "; for reference, not claimed (dense multiplicative-update topics): " + strings.Join(ref, "; ")
	}
	if n == 0 {
		return experiments.Undecided("no GRLSI run with both AvgComp values")
	}
	return experiments.Judged(held, detail)
}

// judgeClassTerms: held when every run of the method labelled label has
// class_term_share at least ClassTermRate.
func judgeClassTerms(r *experiments.Results, label string) experiments.Verdict {
	var parts []string
	held, n := true, 0
	for _, j := range r.Jobs {
		if j.Job.Method.DisplayName() != label {
			continue
		}
		c, ok := j.Run.Metric("class_term_share")
		if !ok || math.IsNaN(c) {
			continue
		}
		s, _ := j.Run.Metric("shared_term_share")
		o, _ := j.Run.Metric("class_term_share_other")
		n++
		parts = append(parts, fmt.Sprintf("%s: class topics %.3f (against the other classes %.3f; shared topics against their best class %.3f)", j.Job.Dataset, c, o, s))
		if c < ClassTermRate {
			held = false
		}
	}
	detail := label + ": mean share of top-6 terms more frequent in the class: " + strings.Join(parts, "; ") + fmt.Sprintf("; threshold %.3f", ClassTermRate)
	if n == 0 {
		return experiments.Undecided("no " + label + " run with non-empty class topics")
	}
	return experiments.Judged(held, detail)
}

// topicTableEvidence quotes every run's table.md rows; it is evidence, not
// a claim.
func topicTableEvidence(r *experiments.Results) experiments.Verdict {
	var parts []string
	for _, j := range r.Jobs {
		b, err := os.ReadFile(filepath.Join(j.Dir, "table.md"))
		if err != nil {
			parts = append(parts, fmt.Sprintf("[%s, %s] no table.md: %v", j.Job.Method.DisplayName(), j.Job.Dataset, err))
			continue
		}
		var rows []string
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Split(line, "|")
			if len(f) != 5 || strings.HasPrefix(strings.TrimSpace(f[1]), "kind") || strings.HasPrefix(f[1], "---") {
				continue
			}
			kind, cls, terms := strings.TrimSpace(f[1]), strings.TrimSpace(f[2]), strings.TrimSpace(f[3])
			if cls != "" {
				kind += " of " + cls
			}
			rows = append(rows, kind+": "+terms)
		}
		parts = append(parts, fmt.Sprintf("[%s, %s] %s", j.Job.Method.DisplayName(), j.Job.Dataset, strings.Join(rows, " · ")))
	}
	if len(parts) == 0 {
		return experiments.Undecided("no runs")
	}
	return experiments.Undecided(strings.Join(parts, " "))
}

// judgeClassPrediction holds when every job's held-out class prediction
// removes at least ClassPredictGain of the majority baseline's errors.
func judgeClassPrediction(r *experiments.Results) experiments.Verdict {
	var parts []string
	n, held := 0, 0
	for _, j := range r.Jobs {
		acc, ok1 := j.Run.Metric("class_accuracy")
		maj, ok2 := j.Run.Metric("class_majority")
		cnt, _ := j.Run.Metric("class_accuracy_n")
		if !ok1 || !ok2 {
			continue
		}
		n++
		gain := (acc - maj) / (1 - maj)
		if gain >= ClassPredictGain {
			held++
		}
		parts = append(parts, fmt.Sprintf("%s %s: %.4f against majority %.4f over %.0f documents (error reduction %.3f)", j.Job.Method.Label, j.Job.Dataset, acc, maj, cnt, gain))
	}
	detail := fmt.Sprintf("%d of %d (method, corpus) with error reduction ≥ %g: %s", held, n, ClassPredictGain, strings.Join(parts, "; "))
	if n == 0 {
		return experiments.Undecided("no run has class_accuracy")
	}
	return experiments.Judged(held == n, detail)
}
