package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/metrics/ir"
)

// Scores of the rank command, as the RLSI paper combines them (Wang et al.,
// SIGIR 2011, §5; experiments/retrieval documents our reading):
//
//	s_topic(q, d) = ⟨v_q, v_d⟩ / (‖v_q‖ ‖v_d‖)      (Eq. 4; 0 for a zero vector)
//	s(q, d) = α·s_topic(q, d) + (1 − α)·s_term(q, d)  (Eq. 5)
//
// v_q is the fold-in of the query weighted by the run's vectorizer, v_d the
// run's fitted representation of d (its column of V), s_term BM25 or
// query-likelihood LM (engine/rank) over the run's training counts. For
// 0 < α < 1 both scores are min-max normalized per query over all documents
// first (retrieval.Mix); α = 0 and α = 1 use the raw term and topic
// scores.

// cosineRows returns the cosine of vq's row q with every row of vd.
func cosineRows(vq, vd *mat.Dense, q int) []float64 {
	n, k := vd.Dims()
	a := vq.RawRowView(q)
	na := 0.0
	for _, x := range a {
		na += x * x
	}
	out := make([]float64, n)
	if na == 0 {
		return out
	}
	for d := range n {
		b := vd.RawRowView(d)
		dot, nb := 0.0, 0.0
		for t := range k {
			dot += a[t] * b[t]
			nb += b[t] * b[t]
		}
		if nb > 0 {
			out[d] = dot / math.Sqrt(na*nb)
		}
	}
	return out
}

func newRankCmd() *cobra.Command {
	var (
		queriesPath, qrelsPath, outPath, root, termModel, tag string
		alpha                                                 float64
		depth                                                 int
		uopt                                                  datasets.UserOptions
		factorsDir                                            string
	)
	cmd := &cobra.Command{
		Use:   "rank RUN|--factors DIR --queries FILE [--qrels FILE] [--alpha A] [--term bm25|lm] [--output FILE]",
		Short: "Rank a run's documents for queries (topic score with BM25 or LM); write a TREC run",
		Long: `rank scores every document of the run's training collection for each query by
s = α·s_topic + (1 − α)·s_term (RLSI, SIGIR 2011, §5, Eqs. 4-5): s_topic is the
cosine between the query's folded-in topic vector and the document's, s_term is
BM25 (k1 = 1.2, b = 0.75) or the Dirichlet-smoothed query-likelihood LM, both
min-max normalized per query when 0 < α < 1. It writes a TREC run
("qid Q0 docno rank score tag", ties broken by docno descending as trec_eval
does) of the top --depth documents per query. With --qrels it also prints the
run's evaluation (as topicmf eval does).

--queries is read as fit --data reads documents: a SMART query file (.I/.W), a
.csv/.tsv with id and text columns, or a .jsonl file. The model is restored
as transform restores it (--factors: exported RLSI factors, see transform).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if queriesPath == "" {
				return errors.New("rank: --queries FILE is required")
			}
			if math.IsNaN(alpha) || alpha < 0 || alpha > 1 {
				return fmt.Errorf("rank: --alpha = %v, want a number in [0, 1]", alpha)
			}
			if depth < 1 {
				return fmt.Errorf("rank: --depth = %d, want ≥ 1", depth)
			}
			dir, err := locateFitted(args, root, factorsDir)
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			qs, err := datasets.ReadUser(queriesPath, uopt)
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			var qrels ir.Qrels
			if qrelsPath != "" {
				if qrels, err = ir.ReadQrelsFile(qrelsPath); err != nil {
					return fmt.Errorf("rank: %w", err)
				}
			}
			r, err := openFitted(cmd, dir, factorsDir != "", true)
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			ix, err := rank.NewIndex(r.counts)
			if err != nil {
				return fmt.Errorf("rank: %s: %w", r.dir, err)
			}
			var scorer rank.Scorer
			switch termModel {
			case "bm25":
				scorer, err = rank.NewBM25(ix, rank.DefaultBM25Params())
			case "lm":
				scorer, err = rank.NewLM(ix, rank.LMParams{})
			default:
				return fmt.Errorf("rank: --term %q: want bm25 or lm", termModel)
			}
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			countVec, err := text.NewVectorizer(r.vec.Vocab, r.vec.DF, r.vec.N, countOptions(r.vec.Options))
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			texts := make([]string, len(qs.Docs))
			for i, q := range qs.Docs {
				texts[i] = q.Text
			}
			qCounts := countVec.Transform(texts)
			vq, err := r.model.FoldIn(cmd.Context(), r.vec.Transform(texts))
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			vd := r.model.DocTopics()
			n := len(r.docIDs)
			order := make([]int, n) // documents by docno descending: trec_eval's tie order
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(a, b int) bool { return r.docIDs[order[a]] > r.docIDs[order[b]] })

			write := func(w io.Writer) error {
				bw := bufio.NewWriter(w)
				for qi, q := range qs.Docs {
					terms, qtf := qCounts.Row(qi)
					term := scorer.Score(terms, qtf, nil)
					topic := cosineRows(vq, vd, qi)
					s := retrieval.Mix(alpha, term, topic)
					docs := append([]int(nil), order...)
					sort.SliceStable(docs, func(a, b int) bool { return s[docs[a]] > s[docs[b]] })
					for rk, d := range docs[:min(depth, n)] {
						fmt.Fprintf(bw, "%s Q0 %s %d %s %s\n", q.ID, r.docIDs[d], rk+1, strconv.FormatFloat(s[d], 'g', -1, 64), tag)
					}
				}
				return bw.Flush()
			}
			if err := writeAtomic(outPath, cmd.OutOrStdout(), write); err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			if qrels == nil {
				return nil
			}
			if outPath == "-" {
				return errors.New("rank: --qrels needs --output FILE (the evaluation is printed on standard output)")
			}
			run, err := ir.ReadRunFile(outPath)
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			rep, err := ir.Evaluate(qrels, run, ir.Options{})
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			for _, w := range rep.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "topicmf rank: warning:", w)
			}
			return rep.WriteTREC(cmd.OutOrStdout(), false)
		},
	}
	f := cmd.Flags()
	f.StringVar(&queriesPath, "queries", "", "queries: SMART query file, .csv/.tsv (id, text) or .jsonl")
	f.StringVar(&uopt.Format, "format", "", "format of --queries: smart, csv, tsv or jsonl (default: from the path)")
	f.StringVar(&qrelsPath, "qrels", "", "TREC qrels: also evaluate the run (MAP, P@k, NDCG@k)")
	f.Float64Var(&alpha, "alpha", 0.5, "weight α of the topic score in α·s_topic + (1−α)·s_term (0: term model alone; 1: topic score alone)")
	f.StringVar(&termModel, "term", "bm25", "term model: bm25 or lm")
	f.IntVar(&depth, "depth", 1000, "documents kept per query")
	f.StringVar(&tag, "tag", "topicmf", "run tag (last column)")
	f.StringVar(&outPath, "output", "-", `TREC run file to write ("-": standard output)`)
	f.StringVar(&root, "out", "results", "results root holding runs/<id>")
	addFactorsFlag(cmd, &factorsDir)
	return cmd
}
