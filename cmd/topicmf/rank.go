package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/internal/outfile"
	"github.com/topicmf/topicmf/metrics/ir"
)

// rankFlags are rank's command line.
type rankFlags struct {
	queries, qrels, qrelsFormat, output, root, tag, factors string
	alpha, queryIDs                                         string
	alphaFolds                                              int
	alphaSeed                                               uint64
	read                                                    datasets.UserOptions
	// given are the declared ranking parameters given (term, depth), by key.
	given map[string]string
}

// rankArgs are rank's checked arguments.
type rankArgs struct {
	opts    workflow.RankOptions
	alpha   alphaChoice
	queries *datasets.Collection
	qrels   ir.Qrels
	dir     string
}

func newRankCmd() *cobra.Command {
	r := &rankFlags{given: map[string]string{}}
	cmd := &cobra.Command{
		Use:   "rank RUN|--factors DIR --queries FILE [--qrels FILE] [--alpha A|auto] [--term bm25|lm] [--output FILE]",
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
			if err := runRank(cmd, args, r); err != nil {
				return fmt.Errorf("rank: %w", err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&r.queries, "queries", "", "queries: SMART query file, TREC topic file, .csv/.tsv (id, text) or .jsonl")
	addUserFlags(cmd, &r.read, "--queries")
	f.StringVar(&r.qrels, "qrels", "", "qrels: also evaluate the run (MAP, P@k, NDCG@k)")
	addQrelsFormatFlag(cmd, &r.qrelsFormat)
	// α takes "auto" too, so it is read by parseAlpha; term and depth are
	// declared by workflow.RankOptions.
	f.StringVar(&r.alpha, "alpha", defaultAlpha, "weight α of the topic score in α·s_topic + (1−α)·s_term: 0 is BM25 (or LM) alone, 1 the topic score alone; auto (with --qrels) picks α by cross-validation over the queries")
	var scratch workflow.RankOptions
	declared := slices.DeleteFunc(workflow.RankParams(), func(p param.Param) bool { return p.Key == "alpha" })
	addParamFlags(f, declared, r.given, "", func(v map[string]string) error { return workflow.ParseRankParams(&scratch, v) })
	f.StringVar(&r.queryIDs, "query-ids", "as-given", "as-given, or position: number the queries 1, 2, … in file order, as qrels that name queries by position do (Cranfield's cranqrel)")
	f.IntVar(&r.alphaFolds, "alpha-folds", 5, "with --alpha auto: folds of the cross-validation over queries")
	f.Uint64Var(&r.alphaSeed, "alpha-seed", 1, "with --alpha auto: seed of the split of the queries into folds")
	f.StringVar(&r.tag, "tag", "topicmf", "run tag (last column)")
	f.StringVar(&r.output, "output", "-", `TREC run file to write ("-": standard output)`)
	f.StringVar(&r.root, "out", "results", "results root holding runs/<id>")
	addFactorsFlag(cmd, &r.factors)
	return cmd
}

// runRank checks every argument, and every query and document id (a TREC
// run cannot hold one with white space), before the model is loaded, then
// ranks (at --alpha, or at the α cross-validation chooses), evaluates when
// --qrels is given, and writes the run only once it is complete.
func runRank(cmd *cobra.Command, args []string, r *rankFlags) error {
	a, err := r.check(cmd, args)
	if err != nil {
		return err
	}
	run, err := openFitted(cmd, a.dir, r.factors != "", true)
	if err != nil {
		return err
	}
	ranked, err := r.rank(cmd, run, a)
	if err != nil {
		return err
	}
	var rep *ir.Report
	if a.qrels != nil {
		if rep, err = ir.Evaluate(a.qrels, ranked, ir.Options{}); err != nil {
			return err
		}
	}
	if err := outfile.Write(r.output, cmd.OutOrStdout(), func(w io.Writer) error { return ir.WriteRun(w, ranked, r.tag) }); err != nil {
		return err
	}
	if rep == nil {
		return nil
	}
	for _, w := range rep.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "topicmf rank: warning:", w)
	}
	return rep.WriteTREC(cmd.OutOrStdout(), false)
}

// rank scores the queries against the run's documents and ranks them,
// warning of queries without a known term and of judgments the queries
// and documents do not cover.
func (r *rankFlags) rank(cmd *cobra.Command, run *workflow.Run, a *rankArgs) (ir.Run, error) {
	errw := cmd.ErrOrStderr()
	qids, texts := make([]string, len(a.queries.Docs)), make([]string, len(a.queries.Docs))
	for i, q := range a.queries.Docs {
		qids[i], texts[i] = q.ID, q.Text
	}
	rk := run.Ranker()
	qCounts, err := rk.QueryCounts(texts)
	if err != nil {
		return nil, err
	}
	if w := emptyRowsWarning(qCounts, qids, "queries", "every document scores 0 for them, so their rankings are arbitrary"); w != "" {
		fmt.Fprintln(errw, "topicmf rank: warning:", w)
	}
	terms, topics, err := rk.ScoreParts(cmd.Context(), texts, a.opts.Term)
	if err != nil {
		return nil, err
	}
	scores := func(q int) ([]float64, []float64) { return terms[q], topics[q] }
	if a.qrels != nil {
		// The queries on either side are named by the evaluation's
		// warnings; the documents are checked here.
		if w := ir.Coverage(a.qrels, nil, run.DocIDs); w != "" {
			fmt.Fprintln(errw, "topicmf rank: warning:", w)
		}
		if h := positionHint(a.qrels, qids, r.queryIDs); h != "" {
			fmt.Fprintln(errw, "topicmf rank: warning:", h)
		}
	}
	if a.alpha.auto {
		return autoAlpha(errw, qids, run.DocIDs, scores, a.qrels, a.opts.Depth, r.alphaFolds, r.alphaSeed)
	}
	return workflow.RankMixed(qids, run.DocIDs, scores, func(int) float64 { return a.alpha.value }, a.opts.Depth), nil
}

// check checks rank's arguments and reads the queries and the qrels.
func (r *rankFlags) check(cmd *cobra.Command, args []string) (*rankArgs, error) {
	a := &rankArgs{opts: workflow.DefaultRankOptions()}
	if r.queries == "" {
		return nil, errors.New("--queries FILE is required")
	}
	var err error
	if a.alpha, err = parseAlpha(r.alpha, r.qrels != ""); err != nil {
		return nil, err
	}
	if r.alphaFolds < 2 {
		return nil, fmt.Errorf("--alpha-folds = %d, want ≥ 2", r.alphaFolds)
	}
	if err := workflow.ParseRankParams(&a.opts, r.given); err != nil {
		return nil, err
	}
	if err := ir.CheckTag(r.tag); err != nil {
		return nil, fmt.Errorf("--tag: %w", err)
	}
	if r.qrels != "" && r.output == "-" {
		return nil, errors.New("--qrels needs --output FILE (the evaluation is printed on standard output)")
	}
	if err := checkOutput(r.output); err != nil {
		return nil, err
	}
	if a.dir, err = locateFitted(args, r.root, r.factors); err != nil {
		return nil, err
	}
	if err := checkOutputPlace(r.output, a.dir, input{"--queries", r.queries}, input{"--qrels", r.qrels}); err != nil {
		return nil, err
	}
	if a.queries, err = r.readQueries(cmd); err != nil {
		return nil, err
	}
	if r.qrels != "" {
		if a.qrels, err = workflow.ReadQrels(r.qrels, r.qrelsFormat); err != nil {
			return nil, err
		}
	}
	// The run's document ids go into the TREC run: check them before the model is loaded.
	if err := checkRunDocIDs(filepath.Join(a.dir, "doc_ids.txt")); err != nil {
		return nil, err
	}
	return a, nil
}

// readQueries reads --queries, numbers them as --query-ids says, and
// checks that every query id can be written to a TREC run.
func (r *rankFlags) readQueries(cmd *cobra.Command) (*datasets.Collection, error) {
	qs, _, err := readUserFile(cmd.Flags(), r.queries, r.read)
	if err != nil {
		return nil, err
	}
	for _, w := range qs.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "topicmf rank: warning:", w)
	}
	if err := numberQueries(qs, r.queryIDs); err != nil {
		return nil, err
	}
	for i, q := range qs.Docs {
		if err := ir.CheckQueryID(q.ID); err != nil {
			return nil, fmt.Errorf("%s: query %d: %w", r.queries, i+1, err)
		}
	}
	return qs, nil
}

// checkRunDocIDs checks that every document id in path (a run's or
// exported factors' doc_ids.txt) can be written to a TREC run. A missing
// file is left to openFitted, which says what should have written it.
func checkRunDocIDs(path string) error {
	ids, err := workflow.ReadLines(path, "document id")
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
