package gnmfnc2014

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/experiments/retrieval"
)

// Translation baselines (Table 2 rows 3–4): the word-translation table is
// learned by IBM Model 1 on the question–comment pairs of the training
// threads, in both directions, and pooled as Xue, Jeon & Croft (2008) do.
const (
	// ibm1Iterations is the number of EM iterations (GIZA++'s default for
	// Model 1, rank.DefaultIBM1Iterations).
	ibm1Iterations = rank.DefaultIBM1Iterations
	// poolDelta is δ of T_pool = (1−δ)·T(q|c) + δ·T(c|q): an even mix
	// (Xue et al. tune it; we fix it before any run).
	poolDelta = 0.5
)

// Score names of the term models.
const (
	scoreBM25 = retrieval.BM25
	scoreLM   = retrieval.LM
	scoreTM   = "tm"
	scoreTRLM = "trlm"
)

// trlmBetas are the TRLM's β, chosen on the validation queries.
var trlmBetas = []float64{0.2, 0.5, 0.8}

func trlmName(b float64) string { return scoreTRLM + " β=" + strconv.FormatFloat(b, 'g', -1, 64) }

// translationTable trains the pooled IBM Model 1 table on the training
// threads' (related question, comment) pairs, over the archive's
// vocabulary (counts; words outside it are dropped), and describes it.
// Only threads of training queries are used: the dev and test threads'
// comments stay unseen.
func translationTable(p *retrieval.Prepared, t *retrieval.Task) (rank.Table, string, error) {
	dir, err := datasets.DataDir("")
	if err != nil {
		return nil, "", err
	}
	src, err := datasets.Lookup(Dataset)
	if err != nil {
		return nil, "", err
	}
	var questions, comments []string
	for _, f := range src.Files {
		base := filepath.Base(f.Path)
		if !strings.Contains(base, "-train-") || !strings.HasSuffix(base, ".xml.gz") {
			continue
		}
		q, c, err := datasets.ReadSemEvalComments(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			return nil, "", err
		}
		questions, comments = append(questions, q...), append(comments, c...)
	}
	if len(questions) == 0 {
		return nil, "", fmt.Errorf("data set %s: no training thread to learn the translation table from", Dataset)
	}
	n := t.Index.Docs()
	df := make([]int, t.Index.Terms())
	for m := range df {
		df[m] = max(t.Index.DF(m), 1)
	}
	o := pipeline()
	o.Weighting, o.Norm = text.WeightTF, text.NormNone
	vec, err := text.NewVectorizer(p.Corpus.Vocab, df, n, o)
	if err != nil {
		return nil, "", err
	}
	qc, cc := vec.Transform(questions), vec.Transform(comments)
	params := rank.IBM1Params{Iterations: ibm1Iterations}
	qFromC, err := rank.TrainIBM1(cc, qc, params) // t(question word | comment word)
	if err != nil {
		return nil, "", err
	}
	cFromQ, err := rank.TrainIBM1(qc, cc, params) // t(comment word | question word)
	if err != nil {
		return nil, "", err
	}
	table, err := rank.Pool(qFromC, cFromQ, poolDelta)
	if err != nil {
		return nil, "", err
	}
	ll := func(m *rank.IBM1) string {
		l := m.LogLikelihood()
		return fmt.Sprintf("%.6g → %.6g", l[0], l[len(l)-1])
	}
	desc := fmt.Sprintf("IBM Model 1 on %d (related question, comment) pairs of the training threads, %d EM iterations each way: "+
		"question←comment %d pairs used, log-likelihood %s; comment←question %d pairs used, log-likelihood %s; pooled with δ = %g",
		len(questions), ibm1Iterations, qFromC.PairsUsed(), ll(qFromC), cFromQ.PairsUsed(), ll(cFromQ), poolDelta)
	return table, desc, nil
}
