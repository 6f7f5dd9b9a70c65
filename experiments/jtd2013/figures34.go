package jtd2013

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/quality"
	"gonum.org/v1/gonum/mat"
)

func init() { experiments.Register(Figures34()) }

// Method labels. LDA is online LDA with scikit-learn's defaults;
// LDAOnlineLDAVB is the same model with the settings of the driver scripts
// of Hoffman et al.'s onlineldavb, the implementation the paper cites as
// its reference [8] (OnlineLDA(vocab, K, D, 1/K, 1/K, 1024, 0.7) on
// minibatches of 64).
const (
	Ours           = "Ours"
	LDA            = "LDA"
	LDAOnlineLDAVB = "LDA (onlineldavb settings)"
)

// onlineldavb's settings (its onlinewikipedia.py driver): α = η = 1/K
// (engine/onlinelda's default), τ0 = 1024, κ = 0.7, minibatches of 64.
const (
	onlineLDAVBTau0  = "1024"
	onlineLDAVBKappa = "0.7"
	onlineLDAVBBatch = "64"
)

// LDAGapTolerance is how close (in accuracy) LDA with onlineldavb's
// settings must come to the paper's LDA at both k for the settings to
// explain the gap; fixed before running.
const LDAGapTolerance = 0.03

// paperLDAAccuracy is the paper's LDA accuracy on Movie Review by k
// (Figure 4).
var paperLDAAccuracy = map[string]float64{"30": 0.572, "50": 0.613}

// FeatureVocab is m of Figure 4, which the paper does not state: the
// smaller m of Figure 5.
const FeatureVocab = 2000

// LDAPasses is §5.2's "we pass the corpus 200 times".
const LDAPasses = 200

// topicTerms is how many terms per topic the topics artifact keeps
// (Figure 3 shows 10).
const topicTerms = 10

// Figures34 is "jtd2013/figures3-4": the noisy joint topic-document model
// and online LDA at k = 30 and 50 on the 2,000 reviews (and, beyond the
// paper, on 2,000 posts of 20 Newsgroups); each fit's document vectors
// (S_i, LDA's θ_i) are scored by 5-fold cross-validated linear-SVM accuracy
// (Figure 4) and its topics are kept with their weights (Figure 3).
func Figures34() *experiments.Experiment {
	movie := map[string]string{experiments.ColDataset: MovieReview}
	var paper []experiments.PaperValue
	for _, v := range []struct {
		method, k string
		acc       float64
	}{{Ours, "30", 0.682}, {Ours, "50", 0.700}, {LDA, "30", paperLDAAccuracy["30"]}, {LDA, "50", paperLDAAccuracy["50"]},
		{LDAOnlineLDAVB, "30", paperLDAAccuracy["30"]}, {LDAOnlineLDAVB, "50", paperLDAAccuracy["50"]}} {
		paper = append(paper, experiments.PaperValue{Where: map[string]string{experiments.ColDataset: MovieReview, experiments.ColMethod: v.method, "k": v.k},
			Metric: "accuracy", Value: v.acc, Note: "Figure 4 (the paper's LDA: onlineldavb, its reference [8])"})
	}
	return &experiments.Experiment{
		ID:      "jtd2013/figures3-4",
		Title:   "Topics beside online LDA's, and polarity classification with the topic mixtures S_i against LDA's topic proportions",
		Paper:   paperRef("§5.2, Figures 3–4"),
		Version: "3", // 2: npmi, cv, td25; 3: LDA with onlineldavb's settings

		Datasets: []string{MovieReview, Newsgroups},
		Methods: []experiments.MethodSpec{
			{Label: Ours, Name: "jtd"},
			{Label: LDA, Name: "onlinelda", Params: map[string]string{"passes": strconv.Itoa(LDAPasses)}},
			{Label: LDAOnlineLDAVB, Name: "onlinelda", Params: map[string]string{"passes": strconv.Itoa(LDAPasses),
				"tau0": onlineLDAVBTau0, "kappa": onlineLDAVBKappa, "batch": onlineLDAVBBatch}},
		},
		Grid:       map[string][]string{"k": {"30", "50"}},
		Replicates: 5,
		Seed:       20130526,
		TaskParams: []string{"sample"},
		Corpus:     topicsCorpus,
		Fit:        topicsTask,
		Metrics: []experiments.MetricDef{
			{Name: "accuracy", Definition: "5-fold cross-validated accuracy of the linear SVM on the documents' k-dimensional vectors (S_i for ours, θ_i for LDA), scaled to unit length"},
			{Name: "top1_weight", Definition: "mean over topics of the largest term weight (topics as distributions over the m terms; Figure 3 prints these weights)"},
			{Name: "density_s", Definition: "fraction of non-zero entries of S (θ for LDA is dense)"},
			{Name: "iterations", Definition: "ALM iterations (ours) or passes (LDA) run"},
			quality.Metrics[0], quality.Metrics[1], quality.Metrics[2],
		},
		Tables: []experiments.Table{
			{Name: "figure4-accuracy", Title: "Classification accuracy with the topic vectors (Figure 4; 20 Newsgroups beyond the paper)",
				Rows: []string{experiments.ColDataset, experiments.ColMethod, "k"}, Metrics: []string{"accuracy", "top1_weight", "density_s", "npmi", "cv", "td25", "iterations"}},
		},
		Figures: []experiments.Figure{{Name: "figure4-accuracy", Title: "Accuracy with the topic vectors on Movie Review (Figure 4)",
			Kind: experiments.Bar, Source: experiments.FromMetrics, X: "k", Y: "accuracy", Series: []string{experiments.ColMethod},
			Where: movie, ErrorBars: true, XLabel: "k (topics)", YLabel: "5-fold accuracy"}},
		PaperValues: paper,
		Claims: []experiments.Claim{
			{Statement: "S_i classifies the reviews more accurately than LDA's topic proportions at k = 30 and at k = 50 (higher mean, paired t-test over folds × replicates p < 0.05)",
				Source: "§5.2, Figure 4", Judge: judgeOursBeatsLDA(0)},
			{Statement: "… by a wide margin: at least 5 accuracy points at both k (the paper: +11.0 and +8.7)",
				Source: "§5.2: \"significantly outperformed the LDA counterpart\"", Judge: judgeOursBeatsLDA(0.05)},
			{Statement: "Our topics concentrate their weight: the mean weight of a topic's top term is higher than LDA's at k = 30 on Movie Review (the paper's Figure 3 pairs: 0.127, 0.058, 0.069 against 0.005, 0.008, 0.008)",
				Source: "§5.2, Figure 3", Judge: judgeMoreConcentrated},
			{Statement: fmt.Sprintf("Beyond the paper: onlineldavb's settings explain our LDA's distance to the paper's: with them (τ0 = %s, κ = %s, minibatches of %s; ours: scikit-learn's τ0 = 10, minibatches of 128) LDA's mean accuracy on Movie Review is within %g of the paper's 0.572 and 0.613 at k = 30 and 50",
				onlineLDAVBTau0, onlineLDAVBKappa, onlineLDAVBBatch, LDAGapTolerance),
				Source: "§5.2 and its reference [8]; threshold fixed before running", Judge: judgeOnlineLDAVBGap},
			quality.CoherenceNote(experiments.ColMethod, "top1_weight", false, map[string]string{experiments.ColDataset: MovieReview, "k": "30"}),
			{Statement: "Figure 3: the three best-matched pairs of our topics and LDA's at k = 30 (Movie Review, replicate 0; matched by the cosine of their term distributions)",
				Source: "§5.2, Figure 3", Judge: matchedTopics},
		},
		Quick: experiments.Quick{
			Grid: map[string][]string{"k": {"30"}}, Replicates: 1, Datasets: []string{MovieReview},
			Params: map[string]string{"passes": "4", "iters": "8", "sample": "400"},
		},
		Protocol: fmt.Sprintf("Both models see the same %d top-df terms of the 2,000 documents (package doc): ours the tf-idf matrix, "+
			"online LDA the counts. Ours: engine/jtd with its defaults, which are ours: the paper gives no values for any of them (λ = mean document ℓ1 mass, τ = λ/RMS of the non-zero weights, γ = 0.01, "+
			"μ0 = 1.25/‖D‖₂, ρ = 1.5, 5 SNMF iterations per ALM iteration, (B, S) started by 10 ANLS NMF iterations, at most 100 iterations or a "+
			"primal residual of 1e-6; the paper: not stated). LDA: engine/onlinelda twice, labelled: \"LDA\" with scikit-learn's defaults (ours; α = η = 1/k, τ0 = 10, κ = 0.7, minibatches of 128), and "+
			"\"LDA (onlineldavb settings)\" with those of the driver scripts of Hoffman et al.'s onlineldavb, which the paper ran (its reference [8]): α = η = 1/k, τ0 = 1024, κ = 0.7, minibatches of 64; "+
			"both %d passes (§5.2). The paper's Figure 4 LDA values are printed beside both. Features are scaled to unit length; 5 folds drawn per data set and replicate, the same for both methods, so "+
			"fold accuracies pair. %d replicates with derived seeds. --quick: k = 30, Movie Review, 400 sampled documents, one replicate, 8 ALM iterations, 4 passes. "+
			"Thresholds of the claims were fixed before running.", FeatureVocab, LDAPasses, 5),
		Substitutes: substitutes,
	}
}

// topicsCorpus is the job's corpus over FeatureVocab terms: tf-idf for
// ours, counts for LDA.
func topicsCorpus(j *experiments.Job) (experiments.CorpusSpec, error) {
	weighting := "tfidf"
	if j.Method.Name == "onlinelda" {
		weighting = "tf"
	}
	return corpus(j, FeatureVocab, weighting)
}

// topicsTask cross-validates the document vectors of the job's fitted
// model and keeps the topics.
func topicsTask(ctx context.Context, j *experiments.Job, f *experiments.Fit) (*experiments.Result, error) {
	c, res, model := f.Corpus.Corpus, newResult(j, f.Corpus), f.Model
	y, err := labels(c)
	if err != nil {
		return nil, err
	}
	if err := crossValidate(ctx, j, res, "accuracy", model.DocTopics(), y); err != nil {
		return nil, err
	}
	topics := columnDistributions(model.TermTopics())
	res.AddMetric("top1_weight", meanTopWeight(topics))
	res.AddMetric("density_s", 1-zeroFraction(model.DocTopics()))
	res.AddMetric("iterations", float64(f.Status.Iterations))
	if err := quality.AddMetrics(res, j, f); err != nil {
		return nil, err
	}
	res.Artifacts = append(res.Artifacts, topicsArtifact(c.Vocab, topics))
	return res, nil
}

// columnDistributions returns the topics of U (M×K) as distributions over
// terms: each column of |U| divided by its sum (B's columns already sum
// to 1, Eq. 12; LDA's E[β] too).
func columnDistributions(u *mat.Dense) *mat.Dense {
	m, k := u.Dims()
	out := mat.NewDense(m, k, nil)
	for z := range k {
		s := 0.0
		for i := range m {
			s += math.Abs(u.At(i, z))
		}
		if s == 0 {
			continue
		}
		for i := range m {
			out.Set(i, z, math.Abs(u.At(i, z))/s)
		}
	}
	return out
}

func meanTopWeight(topics *mat.Dense) float64 {
	m, k := topics.Dims()
	total := 0.0
	for z := range k {
		best := 0.0
		for i := range m {
			best = math.Max(best, topics.At(i, z))
		}
		total += best
	}
	return total / float64(k)
}

func zeroFraction(x *mat.Dense) float64 {
	zeros := 0
	raw := x.RawMatrix()
	for i := range raw.Rows {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			if v == 0 {
				zeros++
			}
		}
	}
	return float64(zeros) / float64(raw.Rows*raw.Cols)
}

// topicsArtifact is topics.tsv: one line per topic, its top terms as
// "term:weight" separated by tabs, weights in full precision.
func topicsArtifact(vocab []string, topics *mat.Dense) experiments.Artifact {
	return experiments.Artifact{Name: "topics.tsv", Write: func(w io.Writer) error {
		m, k := topics.Dims()
		bw := bufio.NewWriter(w)
		for z := range k {
			idx := make([]int, m)
			for i := range idx {
				idx[i] = i
			}
			sort.SliceStable(idx, func(a, b int) bool { return topics.At(idx[a], z) > topics.At(idx[b], z) })
			var parts []string
			for _, i := range idx[:min(topicTerms, m)] {
				parts = append(parts, vocab[i]+":"+strconv.FormatFloat(topics.At(i, z), 'g', -1, 64))
			}
			fmt.Fprintln(bw, strings.Join(parts, "\t"))
		}
		return bw.Flush()
	}}
}

// readTopicsTSV reads topics.tsv back: per topic, its terms and weights.
func readTopicsTSV(dir string) ([][]termWeight, error) {
	f, err := os.Open(filepath.Join(dir, "topics.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][]termWeight
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var topic []termWeight
		for _, field := range strings.Split(sc.Text(), "\t") {
			term, w, ok := strings.Cut(field, ":")
			v, err := strconv.ParseFloat(w, 64)
			if !ok || err != nil {
				return nil, fmt.Errorf("%s line %d: field %q: want term:weight", f.Name(), line, field)
			}
			topic = append(topic, termWeight{term, v})
		}
		out = append(out, topic)
	}
	return out, sc.Err()
}

type termWeight struct {
	term   string
	weight float64
}

// judgeOursBeatsLDA holds when ours is more accurate than LDA on Movie
// Review at both k by at least margin (0: any) and significantly (paired
// t-test over folds × replicates, p < 0.05).
func judgeOursBeatsLDA(margin float64) func(r *experiments.Results) experiments.Verdict {
	where := func(m string) func(k string) map[string]string {
		return func(k string) map[string]string {
			return map[string]string{experiments.ColDataset: MovieReview, experiments.ColMethod: m, "k": k}
		}
	}
	return func(r *experiments.Results) experiments.Verdict {
		return betterAtBoth(r, "k", [2]string{"30", "50"}, "accuracy", where(Ours), "accuracy", where(LDA), margin)
	}
}

func judgeMoreConcentrated(r *experiments.Results) experiments.Verdict {
	where := func(m string) map[string]string {
		return map[string]string{experiments.ColDataset: MovieReview, experiments.ColMethod: m, "k": "30"}
	}
	a, b := r.Values("top1_weight", where(Ours)), r.Values("top1_weight", where(LDA))
	if len(a) == 0 || len(b) == 0 {
		return experiments.Undecided("no runs at k = 30")
	}
	return experiments.Judged(mean(a) > mean(b), fmt.Sprintf("mean top-term weight at k = 30: ours %.4f, LDA %.4f", mean(a), mean(b)))
}

// matchedTopics shows the three pairs of (our topic, LDA topic) with the
// highest cosine between their term distributions over the kept top terms,
// matched greedily without reuse: evidence, not a claim.
func matchedTopics(r *experiments.Results) experiments.Verdict {
	pick := func(m string) *experiments.JobResult {
		js := r.Select(map[string]string{experiments.ColDataset: MovieReview, experiments.ColMethod: m, "k": "30"})
		for _, j := range js {
			if j.Job.Replicate == 0 {
				return j
			}
		}
		return nil
	}
	a, b := pick(Ours), pick(LDA)
	if a == nil || b == nil {
		return experiments.Undecided("no runs at k = 30, replicate 0")
	}
	ta, err := readTopicsTSV(a.Dir)
	if err != nil {
		return experiments.Undecided(err.Error())
	}
	tb, err := readTopicsTSV(b.Dir)
	if err != nil {
		return experiments.Undecided(err.Error())
	}
	type pair struct {
		i, j int
		cos  float64
	}
	var pairs []pair
	for i := range ta {
		for j := range tb {
			pairs = append(pairs, pair{i, j, topicCosine(ta[i], tb[j])})
		}
	}
	sort.SliceStable(pairs, func(x, y int) bool { return pairs[x].cos > pairs[y].cos })
	usedA, usedB := map[int]bool{}, map[int]bool{}
	var parts []string
	for _, p := range pairs {
		if usedA[p.i] || usedB[p.j] {
			continue
		}
		usedA[p.i], usedB[p.j] = true, true
		parts = append(parts, fmt.Sprintf("[cosine %.2f] ours: %s — LDA: %s", p.cos, showTopic(ta[p.i]), showTopic(tb[p.j])))
		if len(parts) == 3 {
			break
		}
	}
	return experiments.Undecided(strings.Join(parts, " · "))
}

func topicCosine(a, b []termWeight) float64 {
	wb := map[string]float64{}
	var na, nb, dot float64
	for _, t := range b {
		wb[t.term] = t.weight
		nb += t.weight * t.weight
	}
	for _, t := range a {
		na += t.weight * t.weight
		dot += t.weight * wb[t.term]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func showTopic(t []termWeight) string {
	var parts []string
	for _, tw := range t {
		parts = append(parts, fmt.Sprintf("%s (%.5f)", tw.term, tw.weight))
	}
	return strings.Join(parts, ", ")
}

// judgeOnlineLDAVBGap holds when LDA with onlineldavb's settings comes
// within LDAGapTolerance of the paper's LDA accuracy at k = 30 and 50 on
// Movie Review; the detail sets both LDAs beside the paper's.
func judgeOnlineLDAVBGap(r *experiments.Results) experiments.Verdict {
	held, n := true, 0
	var parts []string
	for _, k := range []string{"30", "50"} {
		at := func(m string) []float64 {
			return r.Values("accuracy", map[string]string{experiments.ColDataset: MovieReview, experiments.ColMethod: m, "k": k})
		}
		sk, vb := at(LDA), at(LDAOnlineLDAVB)
		if len(vb) == 0 {
			parts = append(parts, "k = "+k+": no run with onlineldavb's settings")
			continue
		}
		n++
		gap := math.Abs(mean(vb) - paperLDAAccuracy[k])
		held = held && gap <= LDAGapTolerance
		skText := "no run"
		if len(sk) > 0 {
			skText = fmt.Sprintf("%.4f", mean(sk))
		}
		parts = append(parts, fmt.Sprintf("k = %s: onlineldavb's settings %.4f, scikit-learn's %s, paper %.3f (|onlineldavb's − paper| = %.4f)", k, mean(vb), skText, paperLDAAccuracy[k], gap))
	}
	detail := strings.Join(parts, "; ") + fmt.Sprintf("; threshold: within %g at both k", LDAGapTolerance)
	if n < 2 {
		return experiments.Undecided(detail)
	}
	return experiments.Judged(held, detail)
}
