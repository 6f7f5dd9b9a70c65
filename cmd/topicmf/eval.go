package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/experiments/retrieval"
	"github.com/topicmf/topicmf/metrics/ir"
)

// addQrelsFormatFlag adds --qrels-format to eval and rank.
func addQrelsFormatFlag(cmd *cobra.Command, format *string) {
	cmd.Flags().StringVar(format, "qrels-format", retrieval.QrelsAuto, `layout of --qrels: auto (told from the file), trec ("qid iter docno rel"), smart ("qid docno 0 0.000000", CACM's, CISI's and ADI's qrels.text), cranfield ("qid docno code", cranqrel) or npl (Glasgow rlv-ass)`)
}

// readQrels reads the qrels file path in the layout format names (see
// addQrelsFormatFlag and retrieval.ReadQrelsFile).
func readQrels(path, format string) (ir.Qrels, error) {
	q, _, err := retrieval.ReadQrelsFile(path, format)
	return q, err
}

func newEvalCmd() *cobra.Command {
	var (
		qrelsPath, qrelsFormat, runPath string
		labelsPath, root                string
		gains, cutoffs                  string
		complete, perQuery, skipNoRel   bool
		level                           int
		qf                              qualityFlags
	)
	cmd := &cobra.Command{
		Use:   "eval --qrels FILE --run FILE | eval --run RUN [--coherence MEASURES] | eval --labels FILE --run RUN",
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
			if labelsPath != "" {
				if qrelsPath != "" || runPath == "" {
					return fmt.Errorf("eval: --labels takes --run RUN (a fitted run), not --qrels")
				}
				if err := evalLabels(cmd, labelsPath, runPath, root); err != nil {
					return fmt.Errorf("eval: %w", err)
				}
				return nil
			}
			if cmd.Flags().Changed("coherence") || cmd.Flags().Changed("reference") || scoresTopics(qrelsPath, runPath) {
				if qrelsPath != "" || runPath == "" {
					return fmt.Errorf("eval: --coherence scores a fit run: give --run RUN and no --qrels")
				}
				dir, err := runDir(runPath, root)
				if err != nil {
					return fmt.Errorf("eval: %w", err)
				}
				if err := evalQuality(cmd.OutOrStdout(), dir, &qf, dataDirFlag(cmd)); err != nil {
					return fmt.Errorf("eval: %w", err)
				}
				return nil
			}
			if qrelsPath == "" && runPath != "" {
				return fmt.Errorf("eval: --run %s is a TREC run file: give --qrels FILE to evaluate it (a fit run's topics are scored with --run RUN alone)", runPath)
			}
			if qrelsPath == "" || runPath == "" {
				return fmt.Errorf("eval: both --qrels and --run are required")
			}
			opts := ir.Options{Complete: complete, SkipNoRelevant: skipNoRel, RelevanceLevel: level}
			var err error
			if opts.Gains, err = ir.ParseGains(gains); err != nil {
				return fmt.Errorf("eval: --gains: %w", err)
			}
			if cutoffs != "" {
				var ks []int
				for _, f := range strings.Split(cutoffs, ",") {
					k, err := strconv.Atoi(strings.TrimSpace(f))
					if err != nil {
						return fmt.Errorf("eval: --cutoffs: %q is not an integer", f)
					}
					ks = append(ks, k)
				}
				opts.PCutoffs, opts.NDCGCutoffs = ks, ks
			}
			qrels, err := readQrels(qrelsPath, qrelsFormat)
			if err != nil {
				return fmt.Errorf("eval: %w", err)
			}
			run, err := ir.ReadRunFile(runPath)
			if err != nil {
				return fmt.Errorf("eval: %w", err)
			}
			rep, err := ir.Evaluate(qrels, run, opts)
			if err != nil {
				return fmt.Errorf("eval: %w", err)
			}
			for _, w := range rep.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "topicmf eval: warning:", w)
			}
			return rep.WriteTREC(cmd.OutOrStdout(), perQuery)
		},
	}
	f := cmd.Flags()
	f.StringVar(&qrelsPath, "qrels", "", "qrels file: qid iter docno rel (see --qrels-format)")
	addQrelsFormatFlag(cmd, &qrelsFormat)
	f.StringVar(&runPath, "run", "", "TREC run file: qid Q0 docno rank score tag (with --labels: a fitted run, directory or id)")
	f.StringVar(&labelsPath, "labels", "", "class labels of a fitted run's documents: print purity, NMI, ARI of its argmax topics")
	f.StringVar(&gains, "gains", "", `gain of each judgment level, "level:gain,..." (default: the level itself)`)
	f.StringVar(&cutoffs, "cutoffs", "", "cutoffs k for P_k and ndcg_cut_k, comma-separated (default 5,10,15,20,30,100,200,500,1000)")
	f.IntVarP(&level, "level", "l", 0, "minimum level counted relevant by map and P (trec_eval -l; default: levels with gain > 0)")
	f.BoolVarP(&complete, "complete", "c", false, "average over every qrels query, missing ones scoring 0 (trec_eval -c)")
	f.BoolVarP(&perQuery, "per-query", "q", false, "also print every query's values (trec_eval -q)")
	f.BoolVar(&skipNoRel, "skip-no-relevant", false, "leave out queries without any relevant document")
	qf.register(f, "all")
	f.StringVar(&root, "out", "results", "results root holding runs/<id> (for --run RUN, a fitted run)")
	return cmd
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
