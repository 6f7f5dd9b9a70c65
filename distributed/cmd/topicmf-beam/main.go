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
// convert writes CORPUS to a local directory (a URL is refused); for a
// remote runner, upload that directory and give fit --corpus its URL. fit
// resumes a run directory from its last complete iteration. Beam's own
// flags (--endpoint, --environment_type, --environment_config,
// --job_name, --project, --region, --staging_location, --temp_location,
// --worker_binary, …) are accepted as for any Beam Go program; --help lists
// every command's flags, then Beam's.
package main

import (
	"context"
	"errors"
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
	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/distributed/driver"
	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/internal/outfile"
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
	// -h and -help on the command line, with or without a command, print
	// help (usage) instead of Beam's flags alone.
	flag.CommandLine.Usage = func() { help(flag.CommandLine.Output()) }
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		// A Beam worker (remote runners start this binary with worker
		// flags and no command): beam.Init runs the harness and never
		// returns; otherwise the usage.
		flag.Parse()
		beam.Init()
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err := run(context.Background(), os.Args[1], os.Args[2:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
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
		help(out)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", cmd, usage)
}

// help writes the usage, each command's flags, then the flags of Beam
// (flag.CommandLine, less the fit flags registered there when fit parses).
func help(w io.Writer) {
	fmt.Fprintln(w, usage)
	for _, c := range []struct {
		name     string
		register func(*flag.FlagSet)
	}{
		{"convert", func(fs *flag.FlagSet) { convertFlags(fs) }},
		{"fit", func(fs *flag.FlagSet) { fitFlags(fs) }},
		{"export", func(fs *flag.FlagSet) { exportFlags(fs) }},
	} {
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.register(fs)
		fmt.Fprintf(w, "\n%s flags:\n", c.name)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	own := flag.NewFlagSet("fit", flag.ContinueOnError)
	fitFlags(own)
	beamFlags := flag.NewFlagSet("beam", flag.ContinueOnError)
	flag.CommandLine.VisitAll(func(f *flag.Flag) {
		if own.Lookup(f.Name) == nil {
			beamFlags.Var(f.Value, f.Name, f.Usage)
			beamFlags.Lookup(f.Name).DefValue = f.DefValue // the default, not a value parsed already
		}
	})
	fmt.Fprintln(w, "\nBeam flags (fit, and the workers remote runners start):")
	beamFlags.SetOutput(w)
	beamFlags.PrintDefaults()
}

// commandFlags is the flag set of convert or export: its -h prints the
// usage and the command's flags, and Parse then returns flag.ErrHelp, which
// main reads as success.
func commandFlags(cmd string) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\n%s flags:\n", usage, cmd)
		fs.PrintDefaults()
	}
	return fs
}

// localDir refuses a URL (anything with "://", Beam's own test for a
// file system scheme) as the directory that flag of cmd names: convert
// and export write with the local file system only.
func localDir(cmd, flagName, dir string) error {
	if strings.Contains(dir, "://") {
		return fmt.Errorf("%s: %s %s: %s writes to a local directory; write it there, then upload the directory (e.g. gsutil -m cp -r DIR gs://BUCKET/DIR)", cmd, flagName, dir, cmd)
	}
	return nil
}

// convertArgs are convert's flags.
type convertArgs struct {
	data, dataDir, dst string
	nshards            int
	mtx                bool
	uopt               datasets.UserOptions
}

func convertFlags(fs *flag.FlagSet) *convertArgs {
	a := &convertArgs{}
	fs.StringVar(&a.data, "data", "", "a registered collection (topicmf data list) or a collection of one's own: folder, .csv/.tsv, .jsonl or SMART file")
	fs.StringVar(&a.dataDir, "data-dir", "", "data directory of the registered collections (default $TOPICMF_DATA)")
	fs.StringVar(&a.dst, "out", "", "corpus directory to write (a local path: upload it for a remote runner)")
	fs.IntVar(&a.nshards, "shards", 8, "number of document shards")
	fs.BoolVar(&a.mtx, "mtx", false, "also write D.mtx, the weighted term-document matrix (for topicmf fit --mtx)")
	fs.StringVar(&a.uopt.TextCol, "text-col", "", "CSV/TSV text column (default text)")
	fs.StringVar(&a.uopt.IDCol, "id-col", "", "CSV/TSV id column (default id)")
	fs.StringVar(&a.uopt.LabelCol, "label-col", "", "CSV/TSV class column (default label)")
	return a
}

func convert(args []string, out io.Writer) error {
	fs := commandFlags("convert")
	a := convertFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if a.data == "" || a.dst == "" {
		return fmt.Errorf("convert: --data and --out are required")
	}
	if err := localDir("convert", "--out", a.dst); err != nil {
		return fmt.Errorf("%w and give fit --corpus the uploaded path", err)
	}
	col, opt, err := readCollection(a)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
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
	man, err := shards.WriteCorpus(a.dst, c, min(a.nshards, max(c.D.Cols, 1)))
	if err != nil {
		return err
	}
	if err := shards.WriteText(a.dst, vec, counts.D); err != nil {
		return err
	}
	if a.mtx {
		if err := outfile.Write(shards.Join(a.dst, "D.mtx"), nil, func(w io.Writer) error { return sparse.WriteMM(w, c.D) }); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "%s: %d terms × %d documents, %d entries, %d classes, %d shards, vectorizer.json, counts.mtx\n", a.dst, man.Terms, man.Documents, man.Nonzeros, len(man.Classes), len(man.Shards))
	return nil
}

// readCollection reads --data as topicmf fit does: a file or folder of
// one's own needs no data directory (the text options' DataDir stays
// --data-dir, "" meaning $TOPICMF_DATA, read only for a stop list that is
// not embedded); a registered collection is read from the data directory
// after every file it and its stop list read is verified against its
// registered checksum (corpora.Files, datasets.VerifyFile).
func readCollection(a *convertArgs) (*datasets.Collection, text.Options, error) {
	opt := text.Default()
	if _, err := os.Stat(a.data); err == nil {
		opt.DataDir = a.dataDir
		col, err := datasets.ReadUser(a.data, a.uopt)
		return col, opt, err
	}
	src, err := datasets.Lookup(a.data)
	if err != nil {
		return nil, opt, fmt.Errorf("%q is neither a file nor a registered collection: %v", a.data, err)
	}
	if opt.DataDir, err = datasets.DataDir(a.dataDir); err != nil {
		return nil, opt, err
	}
	files, err := corpora.Files(src, opt)
	if err != nil {
		return nil, opt, err
	}
	for _, f := range files {
		if st := datasets.VerifyFile(opt.DataDir, f); !st.OK() {
			return nil, opt, fmt.Errorf("data set %s: %s", src.Name, st)
		}
	}
	col, err := src.Read(opt.DataDir)
	return col, opt, err
}

// fitArgs are fit's own flags.
type fitArgs struct {
	cfg                                    driver.Config
	dir, lscale, iscale, exportDir, runner string
}

func fitFlags(fs *flag.FlagSet) *fitArgs {
	a := &fitArgs{}
	cfg := &a.cfg
	fs.StringVar(&cfg.Corpus, "corpus", "", "corpus directory written by convert (a local path or gs://…)")
	fs.StringVar(&a.dir, "out", "", "run directory (resumed when it exists)")
	fs.StringVar(&cfg.Model, "model", driver.RLSI, "rlsi (Uℓ1-Vℓ2, RLSI §4.4) or grouprlsi (GMF §4)")
	fs.IntVar(&cfg.K, "k", 0, "rlsi: number of topics K (default 20)")
	fs.IntVar(&cfg.Ks, "ks", 0, "grouprlsi: shared topics Ks")
	fs.IntVar(&cfg.Kc, "kc", 0, "grouprlsi: topics per class Kc")
	fs.Float64Var(&cfg.Lambda1, "lambda1", -1, "λ1, weight of the ℓ1 norm of U (default 0.05 for rlsi, as topicmf fit; 0.01 for grouprlsi, as engine/grouprlsi)")
	fs.Float64Var(&cfg.Lambda2, "lambda2", 1, "λ2, weight of the squared ℓ2 norm of V")
	fs.StringVar(&a.lscale, "lambda-scale", "", "rlsi: relative (default, as topicmf fit: λ stated for documents of unit RMS length) or absolute; grouprlsi: absolute")
	fs.StringVar(&a.iscale, "init-scale", "", "rlsi: balanced (default, as topicmf fit: V⁽⁰⁾ entries N(0, ŝ/N)) or unit (N(0, 1)); grouprlsi: unit")
	fs.IntVar(&cfg.Iters, "iters", 10, "outer iterations (one pipeline each)")
	fs.IntVar(&cfg.InnerSweeps, "inner-sweeps", 100, "maximum coordinate-descent sweeps per lasso row")
	fs.Float64Var(&cfg.InnerTol, "inner-tol", 1e-5, "a row's sweeps stop when its largest change ≤ inner-tol × its largest magnitude; 0 runs all")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed of V⁽⁰⁾")
	fs.IntVar(&cfg.Shards, "shards", 16, "output shards per factor")
	fs.StringVar(&a.exportDir, "export", "", "after the fit, write U.mtx, V.mtx, vocab.txt, doc_ids.txt and factors.json here, for topicmf transform/rank --factors (needs U and V to fit in memory)")
	fs.StringVar(&a.runner, "runner", "prism", "Beam runner: prism (local), flink, spark, dataflow or universal")
	return a
}

func fit(ctx context.Context, args []string, out io.Writer) error {
	// Beam's flags live on flag.CommandLine; ours join them there so that
	// one parse reads both.
	fs := flag.CommandLine
	a := fitFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	beam.Init()
	cfg := a.cfg
	if cfg.Corpus == "" || a.dir == "" {
		return fmt.Errorf("fit: --corpus and --out are required")
	}
	if a.exportDir != "" {
		// Checked before the fit, not after it has run.
		if err := localDir("export", "fit --export", a.exportDir); err != nil {
			return err
		}
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
	}{{a.lscale, "relative", "absolute", &cfg.RelativeLambda}, {a.iscale, "balanced", "unit", &cfg.BalancedInit}} {
		switch f.val {
		case "":
			*f.dst = rlsi
		case f.on, f.off:
			*f.dst = f.val == f.on
		default:
			return fmt.Errorf("fit: %q: want %s or %s", f.val, f.on, f.off)
		}
	}
	if _, err := driver.Fit(ctx, cfg, a.dir, driver.BeamRunner(a.runner), out); err != nil {
		return err
	}
	if a.exportDir != "" {
		return exportTo(ctx, a.dir, a.exportDir, out)
	}
	return nil
}

// exportArgs are export's flags.
type exportArgs struct{ run, dst string }

func exportFlags(fs *flag.FlagSet) *exportArgs {
	a := &exportArgs{}
	fs.StringVar(&a.run, "run", "", "run directory")
	fs.StringVar(&a.dst, "out", "", "directory to write U.mtx, V.mtx, vocab.txt, doc_ids.txt and factors.json to (with the corpus's vectorizer.json and counts.mtx)")
	return a
}

func export(ctx context.Context, args []string, out io.Writer) error {
	fs := commandFlags("export")
	a := exportFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if a.run == "" || a.dst == "" {
		return fmt.Errorf("export: --run and --out are required")
	}
	if err := localDir("export", "--out", a.dst); err != nil {
		return err
	}
	return exportTo(ctx, a.run, a.dst, out)
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
