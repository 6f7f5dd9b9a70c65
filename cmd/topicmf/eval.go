package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/metrics/ir"
)

// addQrelsFormatFlag adds --qrels-format to eval and rank.
func addQrelsFormatFlag(cmd *cobra.Command, format *string) {
	cmd.Flags().StringVar(format, "qrels-format", retrieval.QrelsAuto, `layout of --qrels: auto (told from the file), trec ("qid iter docno rel"), smart ("qid docno 0 0.000000", CACM's, CISI's and ADI's qrels.text), cranfield ("qid docno code", cranqrel) or npl (Glasgow rlv-ass)`)
}

// evalFlags are eval's command line.
type evalFlags struct {
	qrels, qrelsFormat, run       string
	labels, root                  string
	gains, cutoffs                string
	complete, perQuery, skipNoRel bool
	level                         int
	quality                       qualityFlags
}

func newEvalCmd() *cobra.Command {
	e := &evalFlags{}
	cmd := &cobra.Command{
		Use:   "eval --qrels FILE --run FILE | --run RUN [--coherence MEASURES] | --labels FILE --run RUN",
		Short: "Evaluate a TREC run against qrels with trec_eval semantics",
		Long: `eval scores a TREC run file ("qid Q0 docno rank score tag") against a qrels
file ("qid 0 docno rel"; with --qrels-format smart, SMART qrels "qid docno 0 0"
as CACM's and CISI's qrels.text, every listed pair relevant) and prints trec_eval-style lines: measure, query id
(or "all"), value. Measures: map, P_k, ndcg_cut_k (linear gains, log2(rank+1)
discount, ideal from all judged documents) and ndcg. Ties in score are broken
by docno descending, as trec_eval does. See package metrics/ir for the exact
definitions.

With --labels FILE, --run names a fitted run (its directory or id, as
transform takes it) and eval prints the clustering numbers of its documents
against the labels: each document goes to its argmax topic, and purity, NMI
and ARI (metrics/cluster) compare those clusters with the classes. FILE holds
one label a line in document order (as fit's labels.txt), or "id<TAB>label"
lines; "" and "-" mean no label.

With --run RUN alone or with --coherence (npmi, cv, umass, uci, all), RUN
names a fit run instead (a run directory, or a run id or id prefix under
<out>/runs, as transform takes it), and eval prints each topic's coherence against the training
documents (or --reference DATA) and the means, TD@25 and inverted RBO
(docs/quality.md).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := runEval(cmd, e); err != nil {
				return fmt.Errorf("eval: %w", err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&e.qrels, "qrels", "", "qrels file: qid iter docno rel (see --qrels-format)")
	addQrelsFormatFlag(cmd, &e.qrelsFormat)
	f.StringVar(&e.run, "run", "", "TREC run file: qid Q0 docno rank score tag (with --labels or --coherence: a fitted run, directory or id)")
	f.StringVar(&e.labels, "labels", "", "class labels of a fitted run's documents: print purity, NMI, ARI of its argmax topics")
	f.StringVar(&e.root, "out", "results", "results root holding runs/<id> (for --run RUN, a fitted run)")
	f.StringVar(&e.gains, "gains", "", `gain of each judgment level, "level:gain,..." (default: the level itself)`)
	f.StringVar(&e.cutoffs, "cutoffs", "", "cutoffs k for P_k and ndcg_cut_k, comma-separated (default 5,10,15,20,30,100,200,500,1000)")
	f.IntVarP(&e.level, "level", "l", 0, "minimum level counted relevant by map and P (trec_eval -l; default: levels with gain > 0)")
	f.BoolVarP(&e.complete, "complete", "c", false, "average over every qrels query, missing ones scoring 0 (trec_eval -c)")
	f.BoolVarP(&e.perQuery, "per-query", "q", false, "also print every query's values (trec_eval -q)")
	f.BoolVar(&e.skipNoRel, "skip-no-relevant", false, "leave out queries without any relevant document")
	e.quality.register(f, "all")
	return cmd
}

// runEval evaluates a TREC run against qrels, or a fit run's clusters
// against --labels, or with --coherence its topics.
func runEval(cmd *cobra.Command, e *evalFlags) error {
	if e.labels != "" {
		if e.qrels != "" || e.run == "" {
			return fmt.Errorf("--labels takes --run RUN (a fitted run), not --qrels")
		}
		return evalLabels(cmd, e.labels, e.run, e.root)
	}
	if cmd.Flags().Changed("coherence") || cmd.Flags().Changed("reference") || scoresTopics(e.qrels, e.run) {
		if e.qrels != "" || e.run == "" {
			return fmt.Errorf("--coherence scores a fit run: give --run RUN and no --qrels")
		}
		dir, err := runDir(e.run, e.root)
		if err != nil {
			return err
		}
		return evalQuality(cmd.OutOrStdout(), dir, &e.quality, dataDirFlag(cmd))
	}
	if e.qrels == "" && e.run != "" {
		return fmt.Errorf("--run %s is a TREC run file: give --qrels FILE to evaluate it (a fit run's topics are scored with --run RUN alone)", e.run)
	}
	if e.qrels == "" || e.run == "" {
		return fmt.Errorf("both --qrels and --run are required")
	}
	opts, err := e.options()
	if err != nil {
		return err
	}
	qrels, err := workflow.ReadQrels(e.qrels, e.qrelsFormat)
	if err != nil {
		return err
	}
	run, err := ir.ReadRunFile(e.run)
	if err != nil {
		return err
	}
	rep, err := ir.Evaluate(qrels, run, opts)
	if err != nil {
		return err
	}
	for _, w := range rep.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "topicmf eval: warning:", w)
	}
	return rep.WriteTREC(cmd.OutOrStdout(), e.perQuery)
}

// options are the evaluation options of the command line.
func (e *evalFlags) options() (ir.Options, error) {
	opts := ir.Options{Complete: e.complete, SkipNoRelevant: e.skipNoRel, RelevanceLevel: e.level}
	var err error
	if opts.Gains, err = ir.ParseGains(e.gains); err != nil {
		return opts, fmt.Errorf("--gains: %w", err)
	}
	if e.cutoffs != "" {
		var ks []int
		for _, f := range strings.Split(e.cutoffs, ",") {
			k, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return opts, fmt.Errorf("--cutoffs: %q is not an integer", f)
			}
			ks = append(ks, k)
		}
		opts.PCutoffs, opts.NDCGCutoffs = ks, ks
	}
	return opts, nil
}

// scoresTopics reports whether eval was asked to score a fit run's topics
// without --coherence: --run alone, naming no regular file (a TREC run),
// so a run directory, id or id prefix.
func scoresTopics(qrelsPath, runPath string) bool {
	if qrelsPath != "" || runPath == "" {
		return false
	}
	fi, err := os.Stat(runPath)
	return err != nil || !fi.Mode().IsRegular()
}
