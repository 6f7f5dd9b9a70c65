// Command alphaevidence measures, on the registered IR test collections,
// the MAP of topicmf rank's score s = α·s_topic + (1 − α)·s_term (RLSI,
// Wang et al., SIGIR 2011, §5, Eq. 5) over a grid of α, α = 0 being BM25
// alone: the evidence for rank's default α (docs/pipeline.md).
//
// Usage (from the repository root, TOPICMF_DATA naming the data directory):
//
//	go run ./bench/cmd/alphaevidence [-collections cranfield,med,cisi,adi,npl] > table.md
//
// The protocol, fixed before any result was looked at:
//
//   - each collection is read as topicmf fit reads a registered one, with
//     fit's default text pipeline (text.Default(): SMART stop list, tokens
//     of 2-25 letters, min-df 2, max-df 0.95, l2-normalized tf-idf);
//   - four models, fitted with fit's defaults and seed 1: nmf at K = 10
//     (fit's default K) and K = 50, rlsi (λ1 = 0.05 relative, balanced
//     initialization: fit's defaults) at K = 20 (default) and K = 50;
//   - rank's scoring: BM25 (k1 = 1.2, b = 0.75) over raw counts, cosine of
//     the folded-in query with the document's fitted topic vector, both
//     min-max normalized per query for 0 < α < 1, every document a
//     candidate, top 1000 evaluated (experiments/retrieval, the code rank
//     uses);
//   - MAP as trec_eval -c computes it over the queries with at least one
//     relevant document;
//   - α ∈ {0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1};
//   - the default is the α with the highest mean, over the 20
//     (collection, model) pairs, of MAP(α) / MAP(0) (ties: the smaller α);
//   - beside it, rank --alpha auto's procedure (5-fold cross-validation over
//     queries, seed 1) gives each pair's held-out MAP.
//
// It prints a Markdown table: one row per (collection, model), MAP at each
// α, the α of the best MAP, and the cross-validated MAP; then the mean
// ratio to BM25 at each α.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/topicmf/topicmf/bench/cmd/internal/tool"
	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments/retrieval"
)

// Alphas is the grid of the protocol.
var Alphas = []float64{0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1}

// model is one fitted configuration of the protocol.
type model struct {
	label, family string
	params        catalog.Params
}

// models are fit's defaults (cmd/topicmf fitDefaults) at the protocol's K.
var models = []model{
	{"nmf K=10", "nmf", catalog.Params{"k": "10", "seed": "1"}},
	{"nmf K=50", "nmf", catalog.Params{"k": "50", "seed": "1"}},
	{"rlsi K=20", "rlsi", catalog.Params{"k": "20", "seed": "1", "lambda1": "0.05", "lambda-scale": "relative", "init-scale": "balanced"}},
	{"rlsi K=50", "rlsi", catalog.Params{"k": "50", "seed": "1", "lambda1": "0.05", "lambda-scale": "relative", "init-scale": "balanced"}},
}

func main() { tool.Main("alphaevidence", run) }

func run(args []string) error {
	fs := flag.NewFlagSet("alphaevidence", flag.ContinueOnError)
	cols := fs.String("collections", "cranfield,med,cisi,adi,npl", "registered collections, comma-separated")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := datasets.DataDir("")
	if err != nil {
		return err
	}
	ctx := context.Background()
	head := "| collection | model |"
	rule := "|---|---|"
	for _, a := range Alphas {
		head += fmt.Sprintf(" α=%g |", a)
		rule += "---:|"
	}
	fmt.Println(head + " best α | auto (5-fold CV) |")
	fmt.Println(rule + "---:|---:|")
	ratio := make([]float64, len(Alphas))
	pairs := 0
	for _, name := range strings.Split(*cols, ",") {
		src, err := datasets.Lookup(name)
		if err != nil {
			return err
		}
		col, err := src.Read(dir)
		if err != nil {
			return err
		}
		opts := text.Default()
		opts.DataDir = dir
		p, err := retrieval.Prepare(col, opts)
		if err != nil {
			return err
		}
		tk := p.Task
		term, err := tk.TermScores(retrieval.BM25, retrieval.TermOptions{})
		if err != nil {
			return err
		}
		for _, m := range models {
			method, err := catalog.New(m.family, m.params)
			if err != nil {
				return err
			}
			fitted, status, err := method.Fit(ctx, p.Corpus, engine.NewRecorder())
			if err != nil {
				return fmt.Errorf("%s %s: %w", name, m.label, err)
			}
			fmt.Fprintf(os.Stderr, "%s %s: %s\n", name, m.label, status)
			topic, err := tk.TopicScores(ctx, m.family, fitted, retrieval.DocTopicRows)
			if err != nil {
				return err
			}
			sw, err := tk.SweepAlpha(term, topic, Alphas, retrieval.CombineOptions{})
			if err != nil {
				return err
			}
			values := make([][]float64, len(Alphas))
			row := fmt.Sprintf("| %s | %s |", name, m.label)
			for i, e := range sw.Evals {
				values[i] = e.Values[0] // Measures[0] is "map"
				row += fmt.Sprintf(" %.4f |", e.Mean("map"))
				ratio[i] += e.Mean("map") / sw.Evals[0].Mean("map")
			}
			best, _, err := sw.Best("map")
			if err != nil {
				return err
			}
			cv, err := retrieval.CrossValidateAlpha(values, Alphas, 5, 1)
			if err != nil {
				return err
			}
			fmt.Println(row + fmt.Sprintf(" %g | %.4f |", best, cv.HeldOutMean))
			pairs++
		}
	}
	row := "| **mean MAP(α)/MAP(0)** | |"
	bi := 0
	for i := range ratio {
		ratio[i] /= float64(pairs)
		row += fmt.Sprintf(" %.3f |", ratio[i])
		if ratio[i] > ratio[bi] {
			bi = i
		}
	}
	fmt.Println(row + " | |")
	fmt.Printf("\ndefault by the protocol: α = %g (mean ratio %.3f over %d pairs)\n", Alphas[bi], ratio[bi], pairs)
	return nil
}
