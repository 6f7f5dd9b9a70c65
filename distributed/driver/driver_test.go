package driver

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/grouprlsi"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/sparse"
)

func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

var prism = BeamRunner("prism")

// synthetic is a deterministic M×N corpus with P classes (labels
// interleaved, so class-major order differs from corpus order), one empty
// document and one term that no document uses.
func synthetic(t testing.TB, m, n, p int) *engine.Corpus {
	t.Helper()
	rnd := engine.NewRand(7)
	var ts []sparse.Triplet
	labels := make([]int, n)
	for j := 0; j < n; j++ {
		labels[j] = (j * 7) % p
		if j == 3 {
			continue // empty document
		}
		for i := 0; i < m-1; i++ { // term m−1 unused
			if rnd.Float64() < 0.15 || i%p == labels[j] && rnd.Float64() < 0.5 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: 0.1 + rnd.Float64()})
			}
		}
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	vocab := make([]string, m)
	for i := range vocab {
		vocab[i] = "t" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
	}
	names := make([]string, p)
	for i := range names {
		names[i] = "class" + string(rune('A'+i))
	}
	c, err := engine.NewCorpus("synthetic", vocab, d, nil, labels, names)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cranfield is Cranfield 1400 through the default text pipeline, or skips
// (fails under CI=true, where a missing collection is an error).
func cranfield(t testing.TB) *engine.Corpus {
	t.Helper()
	missing := t.Skipf
	if os.Getenv("CI") == "true" {
		missing = t.Fatalf
	}
	dir := os.Getenv("TOPICMF_DATA")
	if dir == "" {
		missing("TOPICMF_DATA is not set: skipping the Cranfield test")
	}
	src, err := datasets.Lookup("cranfield")
	if err != nil {
		t.Fatal(err)
	}
	col, err := src.Read(dir)
	if err != nil {
		missing("Cranfield is not in %s: %v", dir, err)
	}
	opt := text.Default()
	opt.DataDir = dir
	c, _, _, err := text.Fit(col, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fitDistributed converts c into nshards shards and runs cfg on prism; it
// returns the factors and the run directory.
func fitDistributed(t *testing.T, c *engine.Corpus, nshards int, cfg Config) (*Factors, string) {
	t.Helper()
	tmp := t.TempDir()
	cfg.Corpus = filepath.Join(tmp, "corpus")
	if _, err := shards.WriteCorpus(cfg.Corpus, c, nshards); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(tmp, "run")
	if _, err := Fit(context.Background(), cfg, run, prism, io.Discard); err != nil {
		t.Fatal(err)
	}
	f, err := Load(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	return f, run
}

// sameBits fails unless a and b are equal entry by entry, bit for bit.
func sameBits(t *testing.T, what string, a, b *mat.Dense) {
	t.Helper()
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		t.Fatalf("%s: %d×%d, in-memory %d×%d", what, ar, ac, br, bc)
	}
	diff, maxd := 0, 0.0
	for i := 0; i < ar; i++ {
		for j := 0; j < ac; j++ {
			if x, y := a.At(i, j), b.At(i, j); x != y {
				diff++
				maxd = max(maxd, abs(x-y))
			}
		}
	}
	if diff > 0 {
		t.Fatalf("%s: %d of %d entries differ from the in-memory engine (largest difference %g)", what, diff, ar*ac, maxd)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func rlsiInMemory(t *testing.T, c *engine.Corpus, cfg Config) engine.Model {
	t.Helper()
	o := rlsi.Options{K: cfg.K, Lambda1: cfg.Lambda1, Lambda2: cfg.Lambda2, InnerSweeps: cfg.InnerSweeps, InnerTol: cfg.InnerTol,
		Seed: cfg.Seed, Stopping: engine.Stopping{MaxIter: cfg.Iters, RelTol: 0},
		RelativeLambda: cfg.RelativeLambda, BalancedInit: cfg.BalancedInit}
	m, st, err := o.Fit(context.Background(), c, nil)
	if err != nil || st.Iterations != cfg.Iters {
		t.Fatalf("in-memory RLSI: %v, status %+v", err, st)
	}
	return m
}

func TestRLSISyntheticBitIdentical(t *testing.T) {
	c := synthetic(t, 60, 90, 3)
	cfg := Config{Model: RLSI, K: 6, Lambda1: 0.5, Lambda2: 1, InnerSweeps: 100, InnerTol: 1e-5, Seed: 3, Iters: 3, Shards: 4}
	f, run := fitDistributed(t, c, 3, cfg)
	m := rlsiInMemory(t, c, cfg)
	sameBits(t, "U", f.U, m.TermTopics())
	sameBits(t, "V", f.V, m.DocTopics())
	if z := mat.Sum(f.U); z == 0 {
		t.Fatal("U is all zero: the test would not see a wrong reduction")
	}
	checkExport(t, run, c, m)
}

// checkExport exports the run and restores an RLSI model from the files
// and factors.json alone (rlsi.Options.Restore): its fold-in of the
// training documents is the in-memory model's, bit for bit, which is its
// fitted V.
func checkExport(t *testing.T, run string, c *engine.Corpus, m engine.Model) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "export")
	if _, err := Export(context.Background(), run, out); err != nil {
		t.Fatal(err)
	}
	var em ExportManifest
	if err := shards.ReadJSON(context.Background(), shards.LocalFS{}, filepath.Join(out, "factors.json"), &em); err != nil {
		t.Fatal(err)
	}
	l1, l2 := m.(*rlsi.Model).Lambdas()
	if em.Format != ExportFormat || em.Model != RLSI || em.Variant != "u1v2" || em.Lambda1 != l1 || em.Lambda2 != l2 ||
		em.Terms != c.D.Rows || em.Documents != c.D.Cols || em.Vectorizer != "" || em.Counts != "" {
		t.Errorf("factors.json = %+v; want rlsi u1v2, λ = (%v, %v) as used, %d×%d, no vectorizer or counts", em, l1, l2, c.D.Rows, c.D.Cols)
	}
	u, err := sparse.ReadDenseMMFile(filepath.Join(out, "U.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	vt, err := sparse.ReadDenseMMFile(filepath.Join(out, "V.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	v := mat.DenseCopyOf(vt.T())
	o := rlsi.Options{Lambda1: em.Lambda1, Lambda2: em.Lambda2, InnerSweeps: em.InnerSweeps, InnerTol: em.InnerTol}
	r, err := o.Restore(u, v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.FoldIn(context.Background(), c.DT)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.FoldIn(context.Background(), c.DT)
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, "fold-in of the exported factors", got, want)
	sameBits(t, "fold-in of the training documents against V", got, m.DocTopics())
}

// TestRLSICranfieldBitIdentical fits Cranfield (default text pipeline:
// unit-length tf-idf documents) with topicmf fit's RLSI defaults: λ1 =
// 0.05 and λ2 = 1 relative to the data scale, balanced V⁽⁰⁾, K = 20.
func TestRLSICranfieldBitIdentical(t *testing.T) {
	c := cranfield(t)
	cfg := Config{Model: RLSI, K: 20, Lambda1: 0.05, Lambda2: 1, InnerSweeps: 100, InnerTol: 1e-5, Seed: 1, Iters: 3, Shards: 3,
		RelativeLambda: true, BalancedInit: true}
	f, _ := fitDistributed(t, c, 5, cfg)
	m := rlsiInMemory(t, c, cfg)
	sameBits(t, "U", f.U, m.TermTopics())
	sameBits(t, "V", f.V, m.DocTopics())
	if mat.Sum(f.U) == 0 {
		t.Fatal("U is all zero: the test would not see a wrong reduction")
	}
}

func TestGroupRLSISyntheticBitIdentical(t *testing.T) {
	c := synthetic(t, 50, 2100, 3) // classes of 700 documents: two Gram units each
	cfg := Config{Model: GroupRLSI, Ks: 3, Kc: 2, Lambda1: 0.5, Lambda2: 1, InnerSweeps: 100, InnerTol: 1e-5, Seed: 5, Iters: 3, Shards: 3}
	f, _ := fitDistributed(t, c, 4, cfg)
	o := grouprlsi.Options{Ks: cfg.Ks, Kc: cfg.Kc, Lambda1: cfg.Lambda1, Lambda2: cfg.Lambda2, InnerSweeps: cfg.InnerSweeps, InnerTol: cfg.InnerTol,
		Seed: cfg.Seed, Stopping: engine.Stopping{MaxIter: cfg.Iters, RelTol: 0}}
	m, st, err := o.Fit(context.Background(), c, nil)
	if err != nil || st.Iterations != cfg.Iters {
		t.Fatalf("in-memory Group RLSI: %v, status %+v", err, st)
	}
	sameBits(t, "U", f.U, m.TermTopics())
	sameBits(t, "V", f.V, m.(interface{ Representations() *mat.Dense }).Representations())
}

// TestResume interrupts a run after iteration 2's pipeline wrote its shards
// but before its manifest (and leaves a stray shard), resumes it, and
// expects the factors of an uninterrupted run, bit for bit.
func TestResume(t *testing.T) {
	c := synthetic(t, 40, 70, 2)
	tmp := t.TempDir()
	cfg := Config{Model: RLSI, K: 4, Lambda1: 0.5, Lambda2: 1, InnerSweeps: 100, InnerTol: 1e-5, Seed: 9, Iters: 3, Shards: 2,
		Corpus: filepath.Join(tmp, "corpus")}
	if _, err := shards.WriteCorpus(cfg.Corpus, c, 2); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	whole := filepath.Join(tmp, "whole")
	if _, err := Fit(ctx, cfg, whole, prism, io.Discard); err != nil {
		t.Fatal(err)
	}
	killed := filepath.Join(tmp, "killed")
	calls := 0
	crash := func(ctx context.Context, p *beam.Pipeline) error {
		calls++
		err := prism(ctx, p)
		if calls == 2 {
			os.WriteFile(filepath.Join(IterDir(killed, 2), "V-00007-of-00009.tsv"), []byte("garbage\n"), 0o644)
			return errors.New("killed")
		}
		return err
	}
	if _, err := Fit(ctx, cfg, killed, crash, io.Discard); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("interrupted run: got %v, want the crash", err)
	}
	man, err := shards.ReadCorpus(ctx, shards.LocalFS{}, cfg.Corpus)
	if err != nil {
		t.Fatal(err)
	}
	if it, err := LastComplete(ctx, killed, cfg, man); it == nil || it.Iteration != 1 {
		t.Fatalf("after the crash the last complete iteration is %+v (%v), want 1", it, err)
	}
	if _, err := Fit(ctx, cfg, killed, prism, io.Discard); err != nil {
		t.Fatal(err)
	}
	a, err := Load(ctx, whole)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(ctx, killed)
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, "U", b.U, a.U)
	sameBits(t, "V", b.V, a.V)
	// Another configuration in the same directory is refused.
	other := cfg
	other.K = 5
	if _, err := Fit(ctx, other, killed, prism, io.Discard); err == nil || !strings.Contains(err.Error(), "another configuration") {
		t.Fatalf("other configuration: got %v", err)
	}
}

// changeDigit changes the first non-zero digit of a value in the shard
// file (after a tab): the same size, the same number of rows, parseable.
func changeDigit(file string) func(t *testing.T) {
	return func(t *testing.T) {
		t.Helper()
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		tab := strings.IndexByte(string(b), '\t')
		i := strings.IndexAny(string(b[tab:]), "12345678")
		if tab < 0 || i < 0 {
			t.Fatalf("%s has no value digit to change", file)
		}
		b[tab+i]++
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestShardChecksums is issue 23's Beam case: one digit changed in
// iter-0006/U-00003-of-00016.tsv (the size and the row count unchanged)
// is refused in one line naming the shard by export, by a fit resuming
// after iteration 6, and by a fit continued to more iterations; at
// ca07e62 export exited 0 with a U that differed from the fit's and the fit
// resumed on it.
func TestShardChecksums(t *testing.T) {
	c := synthetic(t, 40, 48, 2)
	tmp := t.TempDir()
	cfg := Config{Model: RLSI, K: 3, Lambda1: 0.1, Lambda2: 1, InnerSweeps: 100, InnerTol: 1e-5, Seed: 5, Iters: 6, Shards: 16,
		Corpus: filepath.Join(tmp, "corpus")}
	if _, err := shards.WriteCorpus(cfg.Corpus, c, 2); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run := filepath.Join(tmp, "run")
	if _, err := Fit(ctx, cfg, run, prism, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := Export(ctx, run, filepath.Join(tmp, "intact")); err != nil {
		t.Fatalf("export of the intact run: %v", err)
	}
	shard := filepath.Join(IterDir(run, 6), "U-00003-of-00016.tsv")
	changeDigit(shard)(t)
	want := shard + ": SHA-256 "
	oneLine := func(what string, err error) {
		t.Helper()
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "the iteration manifest says") {
			t.Errorf("%s: got %v\nwant one line containing %q", what, err, want)
		}
	}
	out := filepath.Join(tmp, "export")
	_, err := Export(ctx, run, out)
	oneLine("export", err)
	if _, serr := os.Stat(filepath.Join(out, "factors.json")); serr == nil {
		t.Error("export of a damaged shard wrote factors.json")
	}
	more := cfg
	more.Iters = 7
	_, err = Fit(ctx, more, run, prism, io.Discard)
	oneLine("fit resuming after iteration 6", err)
	if _, serr := os.Stat(filepath.Join(IterDir(run, 7), "manifest.json")); serr == nil {
		t.Error("the fit recorded iteration 7 computed from a damaged shard")
	}
}

// TestMalformedShards expects one line naming the shard file and line for
// each kind of damage.
func TestMalformedShards(t *testing.T) {
	c := synthetic(t, 30, 20, 2)
	for _, tc := range []struct {
		name, line, want string
	}{
		{"bad weight", "5\tx5\t1\t0:1 3:abc", `docs-00000-of-00002.tsv:6: entry 2 "3:abc": weight "abc" is not a finite number`},
		{"not ascending", "5\tx5\t1\t4:1 3:1", `docs-00000-of-00002.tsv:6: entry 2 "3:1": terms must be strictly ascending (previous 4)`},
		{"term out of range", "5\tx5\t1\t30:1", `docs-00000-of-00002.tsv:6: entry 1 "30:1": term "30" is not in 0..29`},
		{"fields", "5\tx5 1 0:1", `docs-00000-of-00002.tsv:6: want 4 tab-separated fields (n, id, class, entries), got 2`},
		{"wrong column", "6\tx6\t1\t0:1", `docs-00000-of-00002.tsv:6: document column 6, want 5`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			corpus := filepath.Join(tmp, "corpus")
			if _, err := shards.WriteCorpus(corpus, c, 2); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(corpus, "docs-00000-of-00002.tsv")
			b, _ := os.ReadFile(file)
			lines := strings.Split(string(b), "\n")
			lines[5] = tc.line
			os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644)
			cfg := Config{Model: RLSI, K: 2, Lambda1: 0.5, Lambda2: 1, Iters: 1, Shards: 1, Corpus: corpus}
			_, err := Fit(context.Background(), cfg, filepath.Join(tmp, "run"), prism, io.Discard)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, tc.want) {
				t.Fatalf("error %q\nwant one line containing %q", msg, tc.want)
			}
		})
	}
}

// TestDamagedRun damages one file of a finished run or of its corpus at a
// time and expects export (and fit, for the corpus) to fail with one line
// naming the file and what is wrong — never a panic, an out-of-memory
// death or zero-filled output.
func TestDamagedRun(t *testing.T) {
	c := synthetic(t, 12, 30, 2)
	tmp := t.TempDir()
	cfg := Config{Model: RLSI, K: 2, Lambda1: 0.5, Lambda2: 1, InnerSweeps: 100, InnerTol: 1e-5, Seed: 3, Iters: 2, Shards: 2,
		Corpus: filepath.Join(tmp, "corpus")}
	if _, err := shards.WriteCorpus(cfg.Corpus, c, 2); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run := filepath.Join(tmp, "run")
	if _, err := Fit(ctx, cfg, run, prism, io.Discard); err != nil {
		t.Fatal(err)
	}
	pristine := filepath.Join(tmp, "pristine")
	for _, d := range []string{run, cfg.Corpus} {
		if err := os.CopyFS(filepath.Join(pristine, filepath.Base(d)), os.DirFS(d)); err != nil {
			t.Fatal(err)
		}
	}
	u0 := filepath.Join(IterDir(run, 2), "U-00000-of-00002.tsv")
	iman := filepath.Join(IterDir(run, 2), "manifest.json")
	cman := filepath.Join(cfg.Corpus, "corpus.json")
	edit := func(file, old, new string) func(t *testing.T) {
		return func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil || !strings.Contains(string(b), old) {
				t.Fatalf("%s has no %q (%v)", file, old, err)
			}
			os.WriteFile(file, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
		}
	}
	lines := func(file string, keep func([]string) []string) func(t *testing.T) {
		return func(t *testing.T) {
			b, _ := os.ReadFile(file)
			ls := strings.SplitAfter(string(b), "\n")
			os.WriteFile(file, []byte(strings.Join(keep(ls[:len(ls)-1]), "")), 0o644)
		}
	}
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T)
		want   string
		fit    bool // fit on the damaged corpus must fail before writing
	}{
		{"U shard truncated", lines(u0, func(l []string) []string { return l[:2] }), "U-00000-of-00002.tsv: ends before row 4 of 0..11 (shard 0 of 2)", false},
		{"U row repeated", lines(u0, func(l []string) []string { return append(l[:2], l[1:]...) }), "U-00000-of-00002.tsv:3: row 2, want row 4", false},
		{"U row of another shard", lines(u0, func(l []string) []string { return append([]string{"1\t1 1\n"}, l[1:]...) }), "U-00000-of-00002.tsv:1: row 1, want row 0", false},
		{"U row extra", lines(u0, func(l []string) []string { return append(l, "12\t1 1\n") }), `U-00000-of-00002.tsv:7: row index "12" is not in 0..11`, false},
		{"no U shards", edit(iman, `"U-00000-of-00002.tsv",`, ""), "manifest.json: u lists U-00001-of-00002.tsv, want 2 files", false},
		{"terms 0", edit(iman, `"terms": 12`, `"terms": 0`), "manifest.json: terms 0, want 12", false},
		{"terms 20", edit(iman, `"terms": 12`, `"terms": 20`), "manifest.json: terms 20, want 12", false},
		{"u_cols -1", edit(iman, `"u_cols": 2`, `"u_cols": -1`), "manifest.json: u_cols -1, want 2", false},
		{"documents 1e11", edit(iman, `"documents": 30`, `"documents": 100000000000`), "manifest.json: documents 100000000000, want 30", false},
		{"format", edit(iman, shards.FactorsFormat, "topicmf-factors/1"), `manifest.json: format "topicmf-factors/1", want "topicmf-factors/3": a run of another topicmf-beam version; fit into a new --out`, false},
		{"format 2 (no checksums)", edit(iman, shards.FactorsFormat, "topicmf-factors/2"), `manifest.json: format "topicmf-factors/2", want "topicmf-factors/3": a run of another topicmf-beam version; fit into a new --out`, false},
		{"U shard checksum missing", edit(iman, `"U-00000-of-00002.tsv": "`, `"x": "`), `manifest.json: sha256 of U-00000-of-00002.tsv: "", want 64 lower-case hex digits`, false},
		{"U digit changed", changeDigit(u0), "U-00000-of-00002.tsv: SHA-256 ", false},
		{"corpus terms 1e12", edit(cman, `"terms": 12`, `"terms": 1000000000000`), "corpus.json: terms 1000000000000: want 1..2147483647", true},
		{"corpus terms 20", edit(cman, `"terms": 12`, `"terms": 20`), "corpus.json: terms 20, but " + filepath.Join(cfg.Corpus, "vocab.txt") + " has 12 lines", true},
		{"corpus documents 1e10", func(t *testing.T) {
			var m shards.CorpusManifest
			if err := shards.ReadJSON(ctx, shards.LocalFS{}, cman, &m); err != nil {
				t.Fatal(err)
			}
			m.Documents += 1e10 - m.Shards[1].Count
			m.Shards[1].Count = 1e10
			if err := shards.WriteJSON(ctx, shards.LocalFS{}, cman, m); err != nil {
				t.Fatal(err)
			}
		}, "corpus.json: shard 1 (docs-00001-of-00002.tsv) lists 10000000000 documents, but its", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, d := range []string{run, cfg.Corpus} {
				os.RemoveAll(d)
				if err := os.CopyFS(d, os.DirFS(filepath.Join(pristine, filepath.Base(d)))); err != nil {
					t.Fatal(err)
				}
			}
			tc.damage(t)
			out := filepath.Join(t.TempDir(), "export")
			_, err := Export(ctx, run, out)
			if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("export: got %v\nwant one line containing %q", err, tc.want)
			}
			if _, serr := os.Stat(filepath.Join(out, "factors.json")); serr == nil {
				t.Fatal("export wrote factors.json")
			}
			if tc.fit {
				fresh := filepath.Join(t.TempDir(), "run")
				if _, err := Fit(ctx, cfg, fresh, prism, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("fit: got %v, want %q", err, tc.want)
				}
				if _, serr := os.Stat(IterDir(fresh, 0)); serr == nil {
					t.Fatal("fit wrote V⁽⁰⁾")
				}
			}
		})
	}
}
