// Command topicmf-beam runs Distributed RLSI and Group RLSI on Apache Beam
// (RLSI §4.4; GMF §4): one pipeline per iteration on any Beam runner —
// prism (local), Flink or Spark through their portable job service, or
// Google Cloud Dataflow.
//
//	topicmf-beam convert --data NAME|PATH [--data-dir DIR] --out CORPUS [--shards N] [--mtx]
//	topicmf-beam fit --corpus CORPUS --out RUN [--model rlsi|grouprlsi] [--k N | --ks N --kc N]
//	                 [--lambda1 X] [--lambda2 X] [--iters N] [--seed N] [--shards N]
//	                 [--runner prism|flink|spark|dataflow|universal] [--endpoint HOST:PORT]
//	                 [--export DIR] [Beam runner flags…]
//	topicmf-beam export --run RUN --out DIR
//
// fit resumes a run directory from its last complete iteration. Beam's own
// flags (--endpoint, --environment_type, --environment_config,
// --job_name, --project, --region, --staging_location, --temp_location,
// --worker_binary, …) are accepted as for any Beam Go program.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/distributed/driver"
	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine/sparse"
)

const usage = `usage:
  topicmf-beam convert --data NAME|PATH [--data-dir DIR] --out CORPUS [--shards N] [--mtx]
  topicmf-beam fit --corpus CORPUS --out RUN [--model rlsi|grouprlsi] [--k N | --ks N --kc N]
                   [--lambda1 X] [--lambda2 X] [--iters N] [--seed N] [--shards N]
                   [--runner prism|flink|spark|dataflow|universal] [--endpoint HOST:PORT]
                   [--export DIR] [Beam runner flags...]
  topicmf-beam export --run RUN --out DIR
Run "topicmf-beam COMMAND -h" for a command's flags.`

func main() {
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		// A Beam worker (remote runners start this binary with worker
		// flags and no command): beam.Init runs the harness and never
		// returns; otherwise the usage.
		flag.Parse()
		beam.Init()
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err := run(context.Background(), os.Args[1], os.Args[2:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "topicmf-beam:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cmd string, args []string, out io.Writer) error {
	switch cmd {
	case "convert":
		return convert(args, out)
	case "fit":
		return fit(ctx, args, out)
	case "export":
		return export(ctx, args, out)
	case "help", "-h", "--help":
		fmt.Fprintln(out, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", cmd, usage)
}

func convert(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	data := fs.String("data", "", "a registered collection (topicmf data list) or a collection of one's own: folder, .csv/.tsv, .jsonl or SMART file")
	dataDir := fs.String("data-dir", "", "data directory of the registered collections (default $TOPICMF_DATA)")
	dst := fs.String("out", "", "corpus directory to write")
	nshards := fs.Int("shards", 8, "number of document shards")
	mtx := fs.Bool("mtx", false, "also write D.mtx, the weighted term-document matrix (for topicmf fit --mtx)")
	var uopt datasets.UserOptions
	fs.StringVar(&uopt.TextCol, "text-col", "", "CSV/TSV text column (default text)")
	fs.StringVar(&uopt.IDCol, "id-col", "", "CSV/TSV id column (default id)")
	fs.StringVar(&uopt.LabelCol, "label-col", "", "CSV/TSV class column (default label)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *data == "" || *dst == "" {
		return fmt.Errorf("convert: --data and --out are required")
	}
	dir, err := datasets.DataDir(*dataDir)
	if err != nil {
		return err
	}
	var col *datasets.Collection
	if _, statErr := os.Stat(*data); statErr == nil {
		col, err = datasets.ReadUser(*data, uopt)
	} else {
		src, lerr := datasets.Lookup(*data)
		if lerr != nil {
			return fmt.Errorf("convert: %q is neither a file nor a registered collection: %v", *data, lerr)
		}
		col, err = src.Read(dir)
	}
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	opt := text.Default()
	opt.DataDir = dir
	c, vec, _, err := text.Fit(col, opt)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	// The raw counts of the same tokens, terms and documents (as topicmf
	// fit stores them in a run's counts.mtx).
	copt := opt
	copt.Weighting, copt.Norm = text.WeightTF, text.NormNone
	counts, _, err := text.Build(col, copt)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	if !slices.Equal(counts.Vocab, c.Vocab) || !slices.Equal(counts.DocIDs, c.DocIDs) {
		return fmt.Errorf("convert: the raw counts have other terms or documents than the weighted corpus")
	}
	man, err := shards.WriteCorpus(*dst, c, min(*nshards, max(c.D.Cols, 1)))
	if err != nil {
		return err
	}
	if err := shards.WriteText(*dst, vec, counts.D); err != nil {
		return err
	}
	if *mtx {
		if err := sparse.WriteMMFile(shards.Join(*dst, "D.mtx"), c.D); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "%s: %d terms × %d documents, %d entries, %d classes, %d shards, vectorizer.json, counts.mtx\n", *dst, man.Terms, man.Documents, man.Nonzeros, len(man.Classes), len(man.Shards))
	return nil
}

func fit(ctx context.Context, args []string, out io.Writer) error {
	// Beam's flags live on flag.CommandLine; ours join them there so that
	// one parse reads both.
	fs := flag.CommandLine
	var cfg driver.Config
	fs.StringVar(&cfg.Corpus, "corpus", "", "corpus directory written by convert (a local path or gs://…)")
	dir := fs.String("out", "", "run directory (resumed when it exists)")
	fs.StringVar(&cfg.Model, "model", driver.RLSI, "rlsi (Uℓ1-Vℓ2, RLSI §4.4) or grouprlsi (GMF §4)")
	fs.IntVar(&cfg.K, "k", 0, "rlsi: number of topics K (default 20)")
	fs.IntVar(&cfg.Ks, "ks", 0, "grouprlsi: shared topics Ks")
	fs.IntVar(&cfg.Kc, "kc", 0, "grouprlsi: topics per class Kc")
	fs.Float64Var(&cfg.Lambda1, "lambda1", -1, "λ1, weight of the ℓ1 norm of U (default 0.05 for rlsi, as topicmf fit; 0.01 for grouprlsi, as engine/grouprlsi)")
	fs.Float64Var(&cfg.Lambda2, "lambda2", 1, "λ2, weight of the squared ℓ2 norm of V")
	lscale := fs.String("lambda-scale", "", "rlsi: relative (default, as topicmf fit: λ stated for documents of unit RMS length) or absolute; grouprlsi: absolute")
	iscale := fs.String("init-scale", "", "rlsi: balanced (default, as topicmf fit: V⁽⁰⁾ entries N(0, ŝ/N)) or unit (N(0, 1)); grouprlsi: unit")
	fs.IntVar(&cfg.Iters, "iters", 10, "outer iterations (one pipeline each)")
	fs.IntVar(&cfg.InnerSweeps, "inner-sweeps", 100, "maximum coordinate-descent sweeps per lasso row")
	fs.Float64Var(&cfg.InnerTol, "inner-tol", 1e-5, "a row's sweeps stop when its largest change ≤ inner-tol × its largest magnitude; 0 runs all")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed of V⁽⁰⁾")
	fs.IntVar(&cfg.Shards, "shards", 16, "output shards per factor")
	exportDir := fs.String("export", "", "after the fit, write U.mtx, V.mtx, vocab.txt, doc_ids.txt and factors.json here, for topicmf transform/rank --factors (needs U and V to fit in memory)")
	runner := fs.String("runner", "prism", "Beam runner: prism (local), flink, spark, dataflow or universal")
	if err := fs.Parse(args); err != nil {
		return err
	}
	beam.Init()
	if cfg.Corpus == "" || *dir == "" {
		return fmt.Errorf("fit: --corpus and --out are required")
	}
	rlsi := cfg.Model == driver.RLSI
	if cfg.Lambda1 < 0 && rlsi {
		cfg.Lambda1 = 0.05 // topicmf fit's RLSI default
	} else if cfg.Lambda1 < 0 {
		cfg.Lambda1 = 0.01 // engine/grouprlsi's default (GMF §7.1)
	}
	for _, f := range []struct {
		val, on, off string
		dst          *bool
	}{{*lscale, "relative", "absolute", &cfg.RelativeLambda}, {*iscale, "balanced", "unit", &cfg.BalancedInit}} {
		switch f.val {
		case "":
			*f.dst = rlsi
		case f.on, f.off:
			*f.dst = f.val == f.on
		default:
			return fmt.Errorf("fit: %q: want %s or %s", f.val, f.on, f.off)
		}
	}
	if _, err := driver.Fit(ctx, cfg, *dir, driver.BeamRunner(*runner), out); err != nil {
		return err
	}
	if *exportDir != "" {
		return exportTo(ctx, *dir, *exportDir, out)
	}
	return nil
}

func export(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	run := fs.String("run", "", "run directory")
	dst := fs.String("out", "", "directory to write U.mtx, V.mtx, vocab.txt, doc_ids.txt and factors.json to (with the corpus's vectorizer.json and counts.mtx)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *run == "" || *dst == "" {
		return fmt.Errorf("export: --run and --out are required")
	}
	return exportTo(ctx, *run, *dst, out)
}

func exportTo(ctx context.Context, run, dst string, out io.Writer) error {
	f, err := driver.Export(ctx, run, dst)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	m, k := f.U.Dims()
	fmt.Fprintf(out, "%s: U.mtx (%d×%d), V.mtx, vocab.txt, doc_ids.txt, factors.json from iteration %d\n", dst, m, k, f.Iter.Iteration)
	return nil
}
