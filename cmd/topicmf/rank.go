package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/rank"
	"github.com/topicmf/topicmf/internal/outfile"
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
		queriesPath, qrelsPath, qrelsFormat, outPath, root string
		termModel, tag, alphaFlag                          string
		depth, alphaFolds                                  int
		alphaSeed                                          uint64
		queryIDs                                           string
		uopt                                               datasets.UserOptions
		factorsDir                                         string
	)
	cmd := &cobra.Command{
		Use:   "rank RUN|--factors DIR --queries FILE [--qrels FILE] [--alpha A] [--term bm25|lm] [--output FILE]",
		Short: "Rank a run's documents for queries (topic score with BM25 or LM); write a TREC run",
		Long: `rank scores every document of the run's training collection for each query by
s = α·s_topic + (1 − α)·s_term (RLSI, SIGIR 2011, §5, Eqs. 4-5): s_topic is the
cosine between the query's folded-in topic vector and the document's, s_term is
BM25 (k1 = 1.2, b = 0.75) or the Dirichlet-smoothed query-likelihood LM, both
min-max normalized per query when 0 < α < 1. α = 0 is BM25 (or LM) alone, α = 1
the topic model alone. The default, 0.25, is the α with the best mean MAP
relative to BM25 alone on the registered IR collections (Cranfield, MED, CISI,
ADI, NPL; docs/pipeline.md has the table); on other collections the best α
differs, and can be 0: with --qrels, --alpha auto chooses it by --alpha-folds
cross-validation over the judged queries, prints each fold's α and MAP, and
ranks each judged query with the α chosen on the other folds, so that the MAP
printed is a held-out one.

It writes a TREC run ("qid Q0 docno rank score tag", queries in byte order,
ties broken by docno descending as trec_eval does) of the top --depth
documents per query. With --qrels it also prints the run's evaluation (as
topicmf eval does).

--queries is read as fit --data reads documents: a SMART query file (.I/.W), a
TREC topic file (<top><num><title>; --topic-fields), a .csv/.tsv with id and
text columns (--text-col, --id-col), or a .jsonl file. --qrels is read in the
layout --qrels-format names, told from the file by default: TREC ("qid iter
docno rel"), SMART ("qid docno 0 0.000000", CACM's and CISI's qrels.text),
Cranfield's cranqrel or NPL's rlv-ass. Judged documents that are not in the
collection, and queries without judgments, are summed up in one warning. The model is
loaded as transform loads it (--factors: exported RLSI factors, see
transform). Every argument, and every query and document id (a TREC run
cannot hold one with white space), is checked before the model is loaded,
and the run is written only once it is complete.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Every argument is checked before the documents are read and
			// the model loaded.
			if queriesPath == "" {
				return errors.New("rank: --queries FILE is required")
			}
			alpha, err := parseAlpha(alphaFlag, qrelsPath != "")
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			if alphaFolds < 2 {
				return fmt.Errorf("rank: --alpha-folds = %d, want ≥ 2", alphaFolds)
			}
			if depth < 1 {
				return fmt.Errorf("rank: --depth = %d, want ≥ 1", depth)
			}
			if termModel != "bm25" && termModel != "lm" {
				return fmt.Errorf("rank: --term %q: want bm25 or lm", termModel)
			}
			if err := ir.CheckTag(tag); err != nil {
				return fmt.Errorf("rank: --tag: %w", err)
			}
			if qrelsPath != "" && outPath == "-" {
				return errors.New("rank: --qrels needs --output FILE (the evaluation is printed on standard output)")
			}
			if err := checkOutput(outPath); err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			dir, err := locateFitted(args, root, factorsDir)
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			if err := checkOutputPlace(outPath, dir, input{"--queries", queriesPath}, input{"--qrels", qrelsPath}); err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			qs, _, err := readUserFile(cmd.Flags(), queriesPath, uopt)
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			for _, w := range qs.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "topicmf rank: warning:", w)
			}
			if err := numberQueries(qs, queryIDs); err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			for i, q := range qs.Docs {
				if err := ir.CheckQueryID(q.ID); err != nil {
					return fmt.Errorf("rank: %s: query %d: %w", queriesPath, i+1, err)
				}
			}
			var qrels ir.Qrels
			if qrelsPath != "" {
				if qrels, err = readQrels(qrelsPath, qrelsFormat); err != nil {
					return fmt.Errorf("rank: %w", err)
				}
			}
			// The run's document ids go into the TREC run: check them before the model is loaded.
			if err := checkRunDocIDs(filepath.Join(dir, "doc_ids.txt")); err != nil {
				return fmt.Errorf("rank: %w", err)
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
			if termModel == "bm25" {
				scorer, err = rank.NewBM25(ix, rank.DefaultBM25Params())
			} else {
				scorer, err = rank.NewLM(ix, rank.LMParams{})
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
			qids := make([]string, len(qs.Docs))
			for i, q := range qs.Docs {
				qids[i] = q.ID
			}
			if w := emptyRowsWarning(qCounts, qids, "queries", "every document scores 0 for them, so their rankings are arbitrary"); w != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "topicmf rank: warning:", w)
			}
			vq, err := r.model.FoldIn(cmd.Context(), r.vec.Transform(texts))
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			vd := r.model.DocTopics()
			// The whole run is computed (and evaluated) before anything is
			// written, so that a failure leaves no partial run behind.
			scores := func(qi int) ([]float64, []float64) {
				terms, qtf := qCounts.Row(qi)
				return scorer.Score(terms, qtf, nil), cosineRows(vq, vd, qi)
			}
			if qrels != nil {
				// The queries on either side are named by the evaluation's
				// warnings; the documents are checked here.
				if w := ir.Coverage(qrels, nil, r.docIDs); w != "" {
					fmt.Fprintln(cmd.ErrOrStderr(), "topicmf rank: warning:", w)
				}
				if h := positionHint(qrels, qids, queryIDs); h != "" {
					fmt.Fprintln(cmd.ErrOrStderr(), "topicmf rank: warning:", h)
				}
			}
			var run ir.Run
			if alpha.auto {
				if run, err = autoAlpha(cmd.ErrOrStderr(), qids, r.docIDs, scores, qrels, depth, alphaFolds, alphaSeed); err != nil {
					return fmt.Errorf("rank: %w", err)
				}
			} else {
				run = rankAt(qids, r.docIDs, scores, func(int) float64 { return alpha.value }, depth)
			}
			var rep *ir.Report
			if qrels != nil {
				if rep, err = ir.Evaluate(qrels, run, ir.Options{}); err != nil {
					return fmt.Errorf("rank: %w", err)
				}
			}
			err = outfile.Write(outPath, cmd.OutOrStdout(), func(w io.Writer) error { return ir.WriteRun(w, run, tag) })
			if err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			if rep == nil {
				return nil
			}
			for _, w := range rep.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "topicmf rank: warning:", w)
			}
			return rep.WriteTREC(cmd.OutOrStdout(), false)
		},
	}
	f := cmd.Flags()
	f.StringVar(&queriesPath, "queries", "", "queries: SMART query file, .csv/.tsv (id, text) or .jsonl")
	addUserFlags(cmd, &uopt, "--queries")
	f.StringVar(&qrelsPath, "qrels", "", "qrels: also evaluate the run (MAP, P@k, NDCG@k)")
	addQrelsFormatFlag(cmd, &qrelsFormat)
	f.StringVar(&alphaFlag, "alpha", defaultAlpha, "weight α of the topic score in α·s_topic + (1−α)·s_term: 0 is BM25 (or LM) alone, 1 the topic score alone; auto (with --qrels) picks α by cross-validation over the queries")
	f.StringVar(&queryIDs, "query-ids", "as-given", "as-given, or position: number the queries 1, 2, … in file order, as qrels that name queries by position do (Cranfield's cranqrel)")
	f.IntVar(&alphaFolds, "alpha-folds", 5, "with --alpha auto: folds of the cross-validation over queries")
	f.Uint64Var(&alphaSeed, "alpha-seed", 1, "with --alpha auto: seed of the split of the queries into folds")
	f.StringVar(&termModel, "term", "bm25", "term model: bm25 or lm")
	f.IntVar(&depth, "depth", 1000, "documents kept per query")
	f.StringVar(&tag, "tag", "topicmf", "run tag (last column)")
	f.StringVar(&outPath, "output", "-", `TREC run file to write ("-": standard output)`)
	f.StringVar(&root, "out", "results", "results root holding runs/<id>")
	addFactorsFlag(cmd, &factorsDir)
	return cmd
}

// checkRunDocIDs checks that every document id in path (a run's or
// exported factors' doc_ids.txt) can be written to a TREC run. A missing
// file is left to openFitted, which says what should have written it.
func checkRunDocIDs(path string) error {
	ids, err := readLines(path, "document id")
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for i, id := range ids {
		if err := ir.CheckDocID(id); err != nil {
			return fmt.Errorf("%s: line %d: %w", path, i+1, err)
		}
	}
	return nil
}
