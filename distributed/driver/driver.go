// Package driver runs Distributed RLSI and Group RLSI as MapReduce RLSI
// does (RLSI §4.4): one Beam pipeline per outer iteration, each reading the
// previous iteration's factor shards and writing the next. Every completed
// iteration is recorded by a manifest written after its pipeline
// succeeded, so a run that is interrupted (killed, a runner failure)
// resumes from its last complete iteration with the same bits it would
// have had uninterrupted.
//
// Layout of a run directory:
//
//	run.json          the configuration (a different one is refused)
//	iter-0000/        V⁽⁰⁾ (drawn by the driver) and its manifest
//	iter-NNNN/        U⁽ᴺ⁾ and V⁽ᴺ⁾ shards and manifest.json (package shards)
package driver

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/topicmf/topicmf/distributed/pipeline"
	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rlsi"
)

// Models run by the driver.
const (
	RLSI      = "rlsi"      // RLSI (Uℓ1-Vℓ2), RLSI §4.4
	GroupRLSI = "grouprlsi" // Group RLSI, GMF §4
)

// Config is a run's configuration (run.json). The λs, sweeps and tolerance
// mean what they mean in engine/rlsi and engine/grouprlsi; every run does
// exactly Iters iterations (the objective-based stopping rule of the
// in-memory engine is not evaluated).
type Config struct {
	Model       string  `json:"model"`
	Corpus      string  `json:"corpus"` // corpus directory (shards.CorpusManifest)
	K           int     `json:"k,omitempty"`
	Ks          int     `json:"ks,omitempty"` // Group RLSI: shared topics
	Kc          int     `json:"kc,omitempty"` // Group RLSI: topics per class
	Lambda1     float64 `json:"lambda1"`
	Lambda2     float64 `json:"lambda2"`
	InnerSweeps int     `json:"inner_sweeps"`
	InnerTol    float64 `json:"inner_tol"`
	Seed        uint64  `json:"seed"`
	Iters       int     `json:"iters"`
	Shards      int     `json:"shards"` // output shards per factor
	// RLSI only, as rlsi.Options.RelativeLambda and BalancedInit (the
	// defaults of topicmf fit): λ1·ŝ^{3/2} and λ2·ŝ, and V⁽⁰⁾ entries
	// N(0, ŝ/N), with ŝ = ‖D‖_F/√N from corpus.json.
	RelativeLambda bool `json:"relative_lambda,omitempty"`
	BalancedInit   bool `json:"balanced_init,omitempty"`
}

// Defaults fills unset fields with the defaults of engine/rlsi (K = 20,
// λ1 = 0.5, λ2 = 1, 100 sweeps, tolerance 1e-5) and 16 shards.
func (c *Config) Defaults() {
	if c.Model == "" {
		c.Model = RLSI
	}
	if c.Model == RLSI && c.K == 0 {
		c.K = rlsi.DefaultK
	}
	if c.InnerSweeps == 0 {
		c.InnerSweeps = rlsi.DefaultInnerSweeps
	}
	if c.Shards == 0 {
		c.Shards = 16
	}
}

// lambdas are λ1 and λ2 as used: for RLSI with RelativeLambda, λ1·ŝ^{3/2}
// and λ2·ŝ with ŝ the corpus's data scale, as rlsi.Options.RelativeLambda
// scales them for Uℓ1-Vℓ2; otherwise as given.
func (c *Config) lambdas(man *shards.CorpusManifest) (l1, l2 float64) {
	l1, l2 = c.Lambda1, c.Lambda2
	if c.Model == RLSI && c.RelativeLambda {
		sc := man.DataScale
		l1, l2 = l1*sc*math.Sqrt(sc), l2*sc
	}
	return l1, l2
}

// validate checks the configuration against the corpus.
func (c *Config) validate(man *shards.CorpusManifest) error {
	bad := func(format string, a ...any) error { return fmt.Errorf("fit: "+format, a...) }
	if c.Iters < 1 {
		return bad("iters = %d, want ≥ 1", c.Iters)
	}
	if !(c.Lambda1 >= 0) || math.IsInf(c.Lambda1, 0) || !(c.Lambda2 > 0) || math.IsInf(c.Lambda2, 0) {
		return bad("λ1 = %v, λ2 = %v: want λ1 ≥ 0 and λ2 > 0, finite", c.Lambda1, c.Lambda2)
	}
	if c.InnerSweeps < 1 || c.Shards < 1 {
		return bad("inner sweeps %d and shards %d: want ≥ 1", c.InnerSweeps, c.Shards)
	}
	switch c.Model {
	case RLSI:
		if c.K < 1 || c.K > min(man.Terms, man.Documents) {
			return bad("K = %d: want 1..min(M, N) = %d", c.K, min(man.Terms, man.Documents))
		}
		if c.Ks != 0 || c.Kc != 0 {
			return bad("--ks and --kc are for grouprlsi")
		}
		if (c.RelativeLambda || c.BalancedInit) && (!(man.DataScale > 0) || math.IsInf(man.DataScale, 0)) {
			return bad("relative λ and the balanced V⁽⁰⁾ need the corpus's data scale ‖D‖_F/√N (data_scale in %s/corpus.json, written by convert), have %v", c.Corpus, man.DataScale)
		}
	case GroupRLSI:
		if len(man.Classes) == 0 {
			return bad("corpus %s has no classes; Group RLSI needs the class of every document (GMF §3.1)", c.Corpus)
		}
		if c.K != 0 || c.Ks < 0 || c.Kc < 0 || c.Ks+c.Kc < 1 {
			return bad("grouprlsi takes --ks and --kc (Ks + Kc ≥ 1), not --k")
		}
		if c.Ks > min(man.Terms, man.Documents) || c.Kc > min(man.Terms, man.Documents)-c.Ks {
			return bad("Ks = %d, Kc = %d: want Ks + Kc ≤ min(M, N) = %d, the topics a document sees", c.Ks, c.Kc, min(man.Terms, man.Documents))
		}
		if c.RelativeLambda || c.BalancedInit {
			return bad("grouprlsi takes λ as given and V⁽⁰⁾ ~ N(0, 1), as engine/grouprlsi: use --lambda-scale absolute --init-scale unit")
		}
	default:
		return bad("model %q: want %s or %s", c.Model, RLSI, GroupRLSI)
	}
	return nil
}

// digest identifies the configuration in iteration manifests; the number
// of iterations is not part of it, so a finished run can be continued.
func (c *Config) digest() string {
	d := *c
	d.Iters = 0
	b, _ := json.Marshal(d)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// cols returns the widths of U and of V's rows.
func (c *Config) cols(man *shards.CorpusManifest) (ucols, vcols int) {
	if c.Model == GroupRLSI {
		return c.Ks + len(man.Classes)*c.Kc, c.Ks + c.Kc
	}
	return c.K, c.K
}

// fsys is Beam's file system for a path, as shards.FS.
type fsys struct{ filesystem.Interface }

func open(ctx context.Context, p string) (fsys, error) {
	fs, err := filesystem.New(ctx, p)
	return fsys{fs}, err
}

// Runner runs a pipeline (beam.Run with a runner name, or a test's).
type Runner func(ctx context.Context, p *beam.Pipeline) error

// BeamRunner runs pipelines on the named Beam runner (prism, flink, spark,
// dataflow, universal), configured by Beam's own flags.
func BeamRunner(name string) Runner {
	return func(ctx context.Context, p *beam.Pipeline) error {
		_, err := beam.Run(ctx, name, p)
		return err
	}
}

// Fit runs (or resumes) the run in dir until cfg.Iters iterations are
// complete, logging one line per iteration to log. It returns the manifest
// of the last iteration.
func Fit(ctx context.Context, cfg Config, dir string, run Runner, log io.Writer) (*shards.IterManifest, error) {
	cfg.Defaults()
	fs, err := open(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	man, err := shards.ReadCorpus(ctx, fs, cfg.Corpus)
	if err != nil {
		return nil, fmt.Errorf("fit: corpus: %w", err)
	}
	if err := cfg.validate(man); err != nil {
		return nil, err
	}
	if err := claim(ctx, fs, dir, cfg); err != nil {
		return nil, err
	}
	last, err := LastComplete(ctx, dir, cfg, man)
	if err != nil {
		return nil, err
	}
	if last == nil {
		if last, err = writeInit(ctx, fs, dir, cfg, man); err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "iteration 0: V⁽⁰⁾ written (%d documents × %d)\n", man.Documents, last.VCols)
	} else {
		fmt.Fprintf(log, "resuming after iteration %d\n", last.Iteration)
	}
	for t := last.Iteration + 1; t <= cfg.Iters; t++ {
		if last, err = iterate(ctx, fs, dir, cfg, man, last, run); err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "iteration %d: %.2f s\n", t, last.Seconds)
	}
	return last, nil
}

// claim writes run.json, after checking that a run already in dir has
// the same configuration up to the number of iterations.
func claim(ctx context.Context, fs fsys, dir string, cfg Config) error {
	name := shards.Join(dir, "run.json")
	var have Config
	err := shards.ReadJSON(ctx, fs, name, &have)
	if err == nil {
		if have.digest() != cfg.digest() {
			return fmt.Errorf("fit: %s holds a run of another configuration (%+v); use another --out", dir, have)
		}
	} else if list, lerr := fs.List(ctx, name); lerr == nil && len(list) > 0 {
		return err // exists but unreadable
	}
	return shards.WriteJSON(ctx, fs, name, cfg)
}

// IterDir is the directory of iteration t.
func IterDir(dir string, t int) string { return shards.Join(dir, fmt.Sprintf("iter-%04d", t)) }

// LastComplete returns the manifest of the last complete iteration of the
// run in dir of configuration cfg on the corpus man (nil when there is
// none): iterations are complete from 0 up to the first whose manifest is
// missing or unreadable or belongs to another configuration. A manifest of
// this configuration that disagrees with it or with the corpus (checkIter)
// is an error, not an incomplete iteration: it was written last, after
// its shards, so it is damaged, not interrupted.
func LastComplete(ctx context.Context, dir string, cfg Config, man *shards.CorpusManifest) (*shards.IterManifest, error) {
	fs, err := open(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	var last *shards.IterManifest
	for t := 0; ; t++ {
		var m shards.IterManifest
		name := shards.Join(IterDir(dir, t), "manifest.json")
		if err := shards.ReadJSON(ctx, fs, name, &m); err != nil || m.Config != cfg.digest() {
			return last, nil
		}
		if err := checkIter(name, &m, t, cfg, man); err != nil {
			return nil, err
		}
		last = &m
	}
}

// checkIter checks the manifest m of iteration t, read from name, against
// the run's configuration and corpus, so that no reader sizes a matrix or
// picks a file by a number it has not checked: the format, the iteration,
// the model, M, N and the factors' widths must be the run's, the shard
// lists exactly shardNames (no U at iteration 0), each with its SHA-256
// (shards.IterManifest.Validate).
func checkIter(name string, m *shards.IterManifest, t int, cfg Config, man *shards.CorpusManifest) error {
	ucols, vcols := cfg.cols(man)
	var wantU []string
	if t > 0 {
		wantU = shardNames("U", cfg.Shards)
	}
	if m.Format != shards.FactorsFormat {
		return fmt.Errorf("%s: format %q, want %q: a run of another topicmf-beam version; fit into a new --out", name, m.Format, shards.FactorsFormat)
	}
	for _, f := range []struct {
		field      string
		have, want any
	}{
		{"iteration", m.Iteration, t},
		{"model", m.Model, cfg.Model},
		{"terms", m.Terms, man.Terms},
		{"documents", m.Documents, man.Documents},
		{"u_cols", m.UCols, ucols},
		{"v_cols", m.VCols, vcols},
	} {
		if f.have != f.want {
			return fmt.Errorf("%s: %s %#v, want %#v (from run.json and %s)", name, f.field, f.have, f.want, shards.Join(cfg.Corpus, "corpus.json"))
		}
	}
	for _, f := range []struct {
		field      string
		have, want []string
	}{{"u", m.U, wantU}, {"v", m.V, shardNames("V", cfg.Shards)}} {
		if !slices.Equal(f.have, f.want) {
			return fmt.Errorf("%s: %s lists %s, want %s", name, f.field, listed(f.have), listed(f.want))
		}
	}
	if err := m.Validate(); err != nil { // the checksums, once the rest is the run's
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// shardNames are the names of the n shards of factor.
func shardNames(factor string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = shards.ShardName(factor, i, n)
	}
	return out
}

// listed describes a list of shard files in a line: its length, first and
// last name.
func listed(files []string) string {
	switch len(files) {
	case 0:
		return "no files"
	case 1:
		return files[0]
	}
	return fmt.Sprintf("%d files %s … %s", len(files), files[0], files[len(files)-1])
}

// writeInit draws V⁽⁰⁾ as the in-memory engines do — N(0, 1) entries from
// engine.NewRand(Seed), document by document in corpus order (RLSI
// Algorithm 1 line 1; GMF Algorithm 1 line 3, Ks then Kc per document) —
// and writes it as iteration 0.
func writeInit(ctx context.Context, fs fsys, dir string, cfg Config, man *shards.CorpusManifest) (*shards.IterManifest, error) {
	ucols, vcols := cfg.cols(man)
	out := IterDir(dir, 0)
	rnd := engine.NewRand(cfg.Seed)
	sigma := 1.0
	if cfg.BalancedInit {
		sigma = math.Sqrt(man.DataScale / float64(man.Documents)) // as rlsi.Options.BalancedInit
	}
	ws := make([]io.WriteCloser, cfg.Shards)
	bs := make([]*bufio.Writer, cfg.Shards)
	it := &shards.IterManifest{Format: shards.FactorsFormat, Iteration: 0, Model: cfg.Model, Config: cfg.digest(),
		Terms: man.Terms, Documents: man.Documents, UCols: ucols, VCols: vcols}
	for i := range ws {
		name := shards.ShardName("V", i, cfg.Shards)
		w, err := fs.OpenWrite(ctx, shards.Join(out, name))
		if err != nil {
			return nil, err
		}
		ws[i], bs[i] = w, bufio.NewWriterSize(w, 1<<16)
		it.V = append(it.V, name)
	}
	row := shards.Row{Vals: make([]float64, vcols)}
	var line []byte
	for n := 0; n < man.Documents; n++ {
		for j := range row.Vals {
			row.Vals[j] = sigma * rnd.NormFloat64() // σ = 1 leaves the draw's bits unchanged
		}
		row.Index = int64(n)
		line = shards.AppendRow(line[:0], row)
		bs[n%cfg.Shards].Write(line)
	}
	for i, w := range ws {
		err := bs[i].Flush()
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("fit: writing V⁽⁰⁾: %w", err)
		}
	}
	if err := recordDigests(ctx, fs, out, it); err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	return it, shards.WriteJSON(ctx, fs, shards.Join(out, "manifest.json"), it)
}

// iterate runs iteration prev.Iteration+1 as one pipeline and records it.
func iterate(ctx context.Context, fs fsys, dir string, cfg Config, man *shards.CorpusManifest, prev *shards.IterManifest, run Runner) (*shards.IterManifest, error) {
	t := prev.Iteration + 1
	out := IterDir(dir, t)
	// Shards left by an interrupted attempt are rewritten; stale ones that
	// this attempt might not rewrite (an empty shard) are removed first.
	if rm, ok := fs.Interface.(filesystem.Remover); ok {
		old, _ := fs.List(ctx, shards.Join(out, "*.tsv"))
		for _, f := range old {
			if err := rm.Remove(ctx, f); err != nil {
				return nil, err
			}
		}
	}
	pdir := IterDir(dir, prev.Iteration)
	it := pipeline.Iteration{CorpusDir: cfg.Corpus, Corpus: man, OutDir: out, Shards: cfg.Shards,
		PrevU: joinAll(pdir, prev.U), PrevV: joinAll(pdir, prev.V),
		PrevUSHA256: digests(prev, prev.U), PrevVSHA256: digests(prev, prev.V)}
	p, s := beam.NewPipelineWithRoot()
	var err error
	switch cfg.Model {
	case RLSI:
		l1, l2 := cfg.lambdas(man)
		err = pipeline.BuildRLSI(s, it, pipeline.RLSI{K: cfg.K, Lambda1: l1, Lambda2: l2, InnerSweeps: cfg.InnerSweeps, InnerTol: cfg.InnerTol})
	case GroupRLSI:
		err = pipeline.BuildGroupRLSI(s, it, pipeline.GroupRLSI{Ks: cfg.Ks, Kc: cfg.Kc, Lambda1: cfg.Lambda1, Lambda2: cfg.Lambda2, InnerSweeps: cfg.InnerSweeps, InnerTol: cfg.InnerTol})
	}
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := run(ctx, p); err != nil {
		return nil, fmt.Errorf("iteration %d: %s", t, OneLine(err))
	}
	secs := time.Since(start).Seconds()
	ucols, vcols := cfg.cols(man)
	m := &shards.IterManifest{Format: shards.FactorsFormat, Iteration: t, Model: cfg.Model, Config: cfg.digest(),
		Terms: man.Terms, Documents: man.Documents, UCols: ucols, VCols: vcols, Seconds: secs}
	for _, f := range []struct {
		name string
		dst  *[]string
	}{{"U", &m.U}, {"V", &m.V}} {
		list, err := fs.List(ctx, shards.Join(out, f.name+"-*.tsv"))
		if err != nil {
			return nil, err
		}
		for _, l := range list {
			*f.dst = append(*f.dst, path.Base(l))
		}
		slices.Sort(*f.dst)
	}
	if err := recordDigests(ctx, fs, out, m); err != nil {
		return nil, fmt.Errorf("iteration %d: %w", t, err)
	}
	name := shards.Join(out, "manifest.json")
	if err := checkIter(name, m, t, cfg, man); err != nil {
		return nil, fmt.Errorf("iteration %d: the pipeline's shards do not match: %w", t, err)
	}
	return m, shards.WriteJSON(ctx, fs, name, m)
}

// recordDigests hashes every shard the manifest m of the iteration in
// directory out lists into m.SHA256. The driver reads the shards back once
// for this, after the pipeline wrote them (a runner's workers return no
// digests); from then on every reader checks them.
func recordDigests(ctx context.Context, fs fsys, out string, m *shards.IterManifest) error {
	m.SHA256 = map[string]string{}
	for _, name := range slices.Concat(m.U, m.V) {
		sum, err := shards.HashFile(ctx, fs, shards.Join(out, name))
		if err != nil {
			return err
		}
		m.SHA256[name] = sum
	}
	return nil
}

// digests are the SHA-256s of the shards names, from the manifest m.
func digests(m *shards.IterManifest, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = m.SHA256[n]
	}
	return out
}

func joinAll(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = shards.Join(dir, n)
	}
	return out
}

// OneLine reduces a runner's failure report to the data error a step
// returned (the line starting with pipeline.ErrPrefix), or else to its first
// line.
func OneLine(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, pipeline.ErrPrefix); i >= 0 {
		rest := msg[i+len(pipeline.ErrPrefix):]
		if j := strings.IndexAny(rest, "\n\t"); j >= 0 {
			rest = rest[:j]
		}
		return strings.TrimSpace(rest)
	}
	if j := strings.IndexByte(msg, '\n'); j >= 0 {
		msg = msg[:j]
	}
	return msg
}

// errNoIteration is returned by Export for a run without a complete
// iteration.
var errNoIteration = errors.New("the run has no complete iteration")
