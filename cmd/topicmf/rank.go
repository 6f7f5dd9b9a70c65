package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/internal/outfile"
	"github.com/topicmf/topicmf/metrics/ir"
)

// rankFlags are rank's command line.
type rankFlags struct {
	queries, qrels, qrelsFormat, output, root, tag, factors string
	read                                                    datasets.UserOptions
	// given are the ranking parameters given (alpha, term, depth), by key.
	given map[string]string
}

func newRankCmd() *cobra.Command {
	r := &rankFlags{given: map[string]string{}}
	cmd := &cobra.Command{
		Use:   "rank RUN|--factors DIR --queries FILE [--qrels FILE] [--alpha A] [--term bm25|lm] [--output FILE]",
		Short: "Rank a run's documents for queries (topic score with BM25 or LM); write a TREC run",
		Long: `rank scores every document of the run's training collection for each query by
s = α·s_topic + (1 − α)·s_term (RLSI, SIGIR 2011, §5, Eqs. 4-5): s_topic is the
cosine between the query's folded-in topic vector and the document's, s_term is
BM25 (k1 = 1.2, b = 0.75) or the Dirichlet-smoothed query-likelihood LM, both
min-max normalized per query when 0 < α < 1. It writes a TREC run ("qid Q0
docno rank score tag", queries in byte order, ties broken by docno descending
as trec_eval does) of the top --depth documents per query. With --qrels it
also prints the run's evaluation (as topicmf eval does).

--queries is read as fit --data reads documents: a SMART query file (.I/.W), a
.csv/.tsv with id and text columns (--text-col, --id-col), or a .jsonl file.
--qrels is TREC qrels ("qid iter docno rel") or, with --qrels-format smart,
SMART qrels ("qid docno 0 0", as CACM's and CISI's qrels.text). The model is
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
	f.StringVar(&r.queries, "queries", "", "queries: SMART query file, .csv/.tsv (id, text) or .jsonl")
	addUserFlags(cmd, &r.read, "--queries")
	f.StringVar(&r.qrels, "qrels", "", "qrels: also evaluate the run (MAP, P@k, NDCG@k)")
	addQrelsFormatFlag(cmd, &r.qrelsFormat)
	var scratch workflow.RankOptions
	addParamFlags(f, workflow.RankParams(), r.given, "", func(v map[string]string) error { return workflow.ParseRankParams(&scratch, v) })
	f.StringVar(&r.tag, "tag", "topicmf", "run tag (last column)")
	f.StringVar(&r.output, "output", "-", `TREC run file to write ("-": standard output)`)
	f.StringVar(&r.root, "out", "results", "results root holding runs/<id>")
	addFactorsFlag(cmd, &r.factors)
	return cmd
}

// runRank checks every argument, and every query and document id (a TREC
// run cannot hold one with white space), before the model is loaded,
// then ranks, evaluates when --qrels is given, and writes the run only
// once it is complete.
func runRank(cmd *cobra.Command, args []string, r *rankFlags) error {
	opts, qs, qrels, dir, err := r.check(cmd.Flags(), args)
	if err != nil {
		return err
	}
	run, err := openFitted(cmd, dir, r.factors != "", true)
	if err != nil {
		return err
	}
	ids, texts := make([]string, len(qs.Docs)), make([]string, len(qs.Docs))
	for i, q := range qs.Docs {
		ids[i], texts[i] = q.ID, q.Text
	}
	ranked, err := run.Ranker().Rank(cmd.Context(), ids, texts, opts)
	if err != nil {
		return err
	}
	var rep *ir.Report
	if qrels != nil {
		if rep, err = ir.Evaluate(qrels, ranked, ir.Options{}); err != nil {
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

// check checks rank's arguments and reads the queries and the qrels.
func (r *rankFlags) check(fs *pflag.FlagSet, args []string) (workflow.RankOptions, *datasets.Collection, ir.Qrels, string, error) {
	opts := workflow.DefaultRankOptions()
	fail := func(err error) (workflow.RankOptions, *datasets.Collection, ir.Qrels, string, error) {
		return opts, nil, nil, "", err
	}
	if r.queries == "" {
		return fail(errors.New("--queries FILE is required"))
	}
	if err := workflow.ParseRankParams(&opts, r.given); err != nil {
		return fail(err)
	}
	if err := ir.CheckTag(r.tag); err != nil {
		return fail(fmt.Errorf("--tag: %w", err))
	}
	if r.qrels != "" && r.output == "-" {
		return fail(errors.New("--qrels needs --output FILE (the evaluation is printed on standard output)"))
	}
	if err := checkOutput(r.output); err != nil {
		return fail(err)
	}
	dir, err := locateFitted(args, r.root, r.factors)
	if err != nil {
		return fail(err)
	}
	qs, err := r.readQueries(fs)
	if err != nil {
		return fail(err)
	}
	var qrels ir.Qrels
	if r.qrels != "" {
		if qrels, err = workflow.ReadQrels(r.qrels, r.qrelsFormat); err != nil {
			return fail(err)
		}
	}
	// The run's document ids go into the TREC run: check them before the model is loaded.
	if err := checkRunDocIDs(filepath.Join(dir, "doc_ids.txt")); err != nil {
		return fail(err)
	}
	return opts, qs, qrels, dir, nil
}

// readQueries reads --queries and checks that every query id can be
// written to a TREC run.
func (r *rankFlags) readQueries(fs *pflag.FlagSet) (*datasets.Collection, error) {
	qs, _, err := readUserFile(fs, r.queries, r.read)
	if err != nil {
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
