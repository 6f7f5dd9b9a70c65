package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/workflow"
	"github.com/topicmf/topicmf/internal/realdata"
)

// runTopicmf runs the CLI in-process with ctx.
func runTopicmf(ctx context.Context, args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	err = run(ctx, &out, &errb, args)
	return out.String(), errb.String(), err
}

// printedDir is the directory a command printed after prefix ("wrote: ",
// "cached: ", "scores: ").
func printedDir(t *testing.T, stdout, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(stdout, "\n") {
		if dir, ok := strings.CutPrefix(l, prefix); ok {
			return dir
		}
	}
	t.Fatalf("printed no %q line:\n%s", prefix, stdout)
	return ""
}

// cliError is a command line that must fail with an error mentioning want.
type cliError struct {
	args []string
	want string
}

// checkCLIErrors runs each command line and checks that it fails with one
// line of error that mentions its want.
func checkCLIErrors(t *testing.T, cases []cliError) {
	t.Helper()
	for _, c := range cases {
		_, _, err := runTopicmf(context.Background(), c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want it to mention %q", c.args, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error is not one line: %q", c.args, err)
		}
	}
}

// fitModel is the family the fit tests use: NMF, the foundation model.
func fitModel(t *testing.T) string {
	t.Helper()
	if _, err := catalog.Lookup("nmf"); err != nil {
		t.Skip("the nmf family is not in the catalog")
	}
	return "nmf"
}

// writeTestMatrix writes an m×n non-negative term-document matrix with a
// planted rank-3 structure (about 30% non-zeros) and its vocabulary.
func writeTestMatrix(t *testing.T, dir string, m, n int) (mtx, vocab string) {
	t.Helper()
	r := engine.NewRand(99)
	var ts []sparse.Triplet
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			if (i%3) == (j%3) || r.Float64() < 0.1 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: float64(1 + r.IntN(5))})
			}
		}
	}
	d, err := sparse.FromTriplets(m, n, ts)
	if err != nil {
		t.Fatal(err)
	}
	mtx = filepath.Join(dir, "d.mtx")
	if err := sparse.WriteMMFile(mtx, d); err != nil {
		t.Fatal(err)
	}
	var words []string
	for i := 0; i < m; i++ {
		words = append(words, "w"+strconv.Itoa(i))
	}
	vocab = filepath.Join(dir, "vocab.txt")
	if err := os.WriteFile(vocab, []byte(strings.Join(words, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return mtx, vocab
}

// runEntries lists <out>/runs without the lock directory.
func runEntries(t *testing.T, out string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(out, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.Name() != ".locks" {
			names = append(names, e.Name())
		}
	}
	return names
}

func TestFitMTXWritesRunAndCaches(t *testing.T) {
	model := fitModel(t)
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 30, 24)
	out := filepath.Join(dir, "results")
	args := []string{"fit", "--model", model, "--k", "3", "--iters", "15", "--mtx", mtx, "--vocab", vocab, "--out", out, "--seed", "5", "--top", "4"}
	stdout, _, err := runTopicmf(context.Background(), args...)
	if err != nil {
		t.Fatal(err)
	}
	// The fit run, and its scoring (--top 4 is not the fit's 10 terms).
	runDir, scoresDir := printedDir(t, stdout, "wrote: "), printedDir(t, stdout, "scores: ")
	if runs := runEntries(t, out); len(runs) != 2 {
		t.Fatalf("runs: %v", runs)
	}
	for _, f := range []string{"U.mtx", "V.mtx", "topics.txt", "vocab.txt", "iterations.csv", "metrics.csv", "status.json", "config.json", "provenance.json", "done"} {
		if _, err := os.Stat(filepath.Join(runDir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	U, err := sparse.ReadDenseMMFile(filepath.Join(runDir, "U.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	V, err := sparse.ReadDenseMMFile(filepath.Join(runDir, "V.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	if r, c := U.Dims(); r != 30 || c != 3 {
		t.Fatalf("U is %d×%d, want 30×3", r, c)
	}
	if r, c := V.Dims(); r != 3 || c != 24 {
		t.Fatalf("V is %d×%d, want 3×24", r, c)
	}
	for dir, top := range map[string]int{runDir: workflow.TopTerms, scoresDir: 4} {
		topicsTxt, _ := os.ReadFile(filepath.Join(dir, "topics.txt"))
		lines := strings.Split(strings.TrimSpace(string(topicsTxt)), "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "topic 0: w") || len(strings.Fields(lines[0])) != 2+top {
			t.Fatalf("%s/topics.txt, want %d terms a topic:\n%s", dir, top, topicsTxt)
		}
	}
	cfg, _ := os.ReadFile(filepath.Join(runDir, "config.json"))
	for _, want := range []string{`"model": "` + model + `"`, `"k": "3"`, `"kind": "mtx"`, `"seed": 5`} {
		if !strings.Contains(string(cfg), want) {
			t.Errorf("config.json lacks %s:\n%s", want, cfg)
		}
	}
	prov, _ := os.ReadFile(filepath.Join(runDir, "provenance.json"))
	if !strings.Contains(string(prov), `"name": "matrix"`) || !strings.Contains(string(prov), `"source"`) {
		t.Errorf("provenance.json:\n%s", prov)
	}

	// The same fit again is a cache hit naming the same directory.
	stdout, _, err = runTopicmf(context.Background(), args...)
	if err != nil {
		t.Fatal(err)
	}
	if want := "cached: " + runDir + "\nscores: " + scoresDir; strings.TrimSpace(stdout) != want {
		t.Fatalf("second fit: %q, want %q", stdout, want)
	}
	// Another seed is another run.
	args[len(args)-3] = "6"
	if stdout, _, err = runTopicmf(context.Background(), args...); err != nil || !strings.Contains(stdout, "wrote: ") {
		t.Fatalf("seed 6: %q %v", stdout, err)
	}
	if n := len(runEntries(t, out)); n != 4 {
		t.Fatalf("%d runs after a second seed, want 2 fits and their scorings", n)
	}
}

// TestFitCancelLeavesNothing cancels the context in the middle of a fit:
// no run directory (partial or temporary) remains; running again
// completes, and a third run is a cache hit.
func TestFitCancelLeavesNothing(t *testing.T) {
	model := fitModel(t)
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 40, 30)
	out := filepath.Join(dir, "results")
	args := []string{"fit", "--model", model, "--k", "3", "--iters", "50", "--tol", "-1", "--mtx", mtx, "--vocab", vocab, "--out", out}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	iters := 0
	fitIterationHook = func(it engine.Iteration) {
		iters++
		if it.Iter == 3 {
			cancel()
		}
	}
	defer func() { fitIterationHook = nil }()
	_, _, err := runTopicmf(ctx, args...)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled fit: err = %v", err)
	}
	if iters < 3 || iters >= 50 {
		t.Fatalf("the fit ran %d iterations; the cancel should have stopped it early", iters)
	}
	if left := runEntries(t, out); len(left) != 0 {
		t.Fatalf("partial files left after cancel: %v", left)
	}
	fitIterationHook = nil
	stdout, _, err := runTopicmf(context.Background(), args...)
	if err != nil || !strings.Contains(stdout, "wrote: ") {
		t.Fatalf("rerun: %q %v", stdout, err)
	}
	stdout, _, err = runTopicmf(context.Background(), args...)
	if err != nil || !strings.HasPrefix(stdout, "cached: ") {
		t.Fatalf("third run: %q %v", stdout, err)
	}
}

func TestFitErrors(t *testing.T) {
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 10, 8)
	short := filepath.Join(dir, "short.txt")
	os.WriteFile(short, []byte("a\nb\n"), 0o644)
	bad := filepath.Join(dir, "bad.mtx")
	os.WriteFile(bad, []byte("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 x 2\n"), 0o644)
	out := filepath.Join(dir, "results")
	checkCLIErrors(t, []cliError{
		{[]string{"fit", "--mtx", mtx}, "--model is required"},
		{[]string{"fit", "--model", "no-such", "--mtx", mtx}, `unknown family "no-such"`},
		{[]string{"fit", "--model", "nmf", "--mtx", mtx, "--param", "kk=3"}, `unknown parameter "kk"`},
		{[]string{"fit", "--model", "nmf", "--mtx", mtx, "--param", "k"}, "want key=value"},
		{[]string{"fit", "--model", "nmf", "--mtx", mtx, "--param", "seed=3"}, "--seed"},
		{[]string{"fit", "--model", "nmf", "--mtx", mtx, "--k", "3", "--param", "k=4"}, "given both"},
		{[]string{"fit", "--model", "nmf"}, "exactly one of --data NAME and --mtx FILE"},
		{[]string{"fit", "--model", "nmf", "--mtx", mtx, "--data", "cranfield"}, "exactly one"},
		{[]string{"fit", "--model", "nmf", "--data", "no-such-data"}, `--data no-such-data: neither a registered data set`},
		{[]string{"fit", "--model", "nmf", "--k", "3", "--mtx", mtx, "--vocab", short, "--out", out}, "short.txt: 2 terms, but " + mtx + " has 10 term rows"},
		{[]string{"fit", "--model", "nmf", "--k", "3", "--mtx", bad, "--out", out}, bad},
		{[]string{"fit", "--model", "nmf", "--mtx", filepath.Join(dir, "missing.mtx")}, "missing.mtx"},
	})
	_ = vocab
	if _, err := os.Stat(filepath.Join(out, "runs")); err == nil {
		if left := runEntries(t, out); len(left) != 0 {
			t.Fatalf("failed fits left %v", left)
		}
	}
}

// TestFitSameBitsAnyGOMAXPROCS builds the binary and runs one fit with
// GOMAXPROCS=1 and =2: the factor files must be byte-identical.
func TestFitSameBitsAnyGOMAXPROCS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short")
	}
	model := fitModel(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "topicmf")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mtx, vocab := writeTestMatrix(t, dir, 400, 300)
	files := map[string][]byte{}
	for _, procs := range []string{"1", "2"} {
		out := filepath.Join(dir, "out"+procs)
		cmd := exec.Command(bin, "fit", "--model", model, "--k", "8", "--iters", "20", "--tol", "-1", "--mtx", mtx, "--vocab", vocab, "--out", out, "--seed", "11")
		cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("GOMAXPROCS=%s: %v\n%s", procs, err, b)
		}
		runs := runEntries(t, out)
		if len(runs) != 1 {
			t.Fatalf("GOMAXPROCS=%s: runs %v", procs, runs)
		}
		for _, f := range []string{"U.mtx", "V.mtx"} {
			b, err := os.ReadFile(filepath.Join(out, "runs", runs[0], f))
			if err != nil {
				t.Fatal(err)
			}
			if prev, ok := files[f]; ok && !bytes.Equal(prev, b) {
				t.Fatalf("%s differs between GOMAXPROCS=1 and 2", f)
			}
			files[f] = b
		}
		prov, _ := os.ReadFile(filepath.Join(out, "runs", runs[0], "provenance.json"))
		if !strings.Contains(string(prov), `"gomaxprocs": `+procs) {
			t.Errorf("provenance does not record GOMAXPROCS=%s", procs)
		}
	}
}

// TestFitDataUsesCorpusCache fits ADI twice with different K: the second
// fit reads the corpus from the corpus cache instead of tokenizing again,
// and a third fit identical to the first is a run-cache hit.
func TestFitDataUsesCorpusCache(t *testing.T) {
	dir := realdata.Dir(t, "adi/adi.tar.gz")
	out, corpusCache := t.TempDir(), t.TempDir()
	args := func(k string) []string {
		return []string{"fit", "--model", "nmf", "--k", k, "--iters", "5", "--data", "adi",
			"--data-dir", dir, "--out", out, "--corpus-cache", corpusCache, "--coherence", "off"}
	}
	if _, errOut, err := runTopicmf(context.Background(), args("4")...); err != nil {
		t.Fatalf("first fit: %v\n%s", err, errOut)
	} else if strings.Contains(errOut, "read from the cache") {
		t.Fatalf("first fit claims a corpus-cache hit:\n%s", errOut)
	}
	if _, errOut, err := runTopicmf(context.Background(), args("5")...); err != nil {
		t.Fatalf("second fit: %v\n%s", err, errOut)
	} else if !strings.Contains(errOut, "read from the cache") {
		t.Fatalf("second fit did not read the corpus from the cache:\n%s", errOut)
	}
	// The second run's notes.txt keeps the reader's and the pipeline's
	// notes of the first (issue 23: they were lost on a cache hit).
	var notes []string
	for _, e := range runEntries(t, out) {
		notes = append(notes, readFile(t, filepath.Join(out, "runs", e, "notes.txt")))
	}
	if len(notes) != 2 {
		t.Fatalf("%d runs, want 2", len(notes))
	}
	built, cached := notes[0], notes[1]
	if strings.Contains(built, "read from the cache") {
		built, cached = cached, built
	}
	if !strings.Contains(built, "vocabulary: ") || !strings.HasPrefix(cached, built) {
		t.Errorf("notes of the cached corpus:\n%s\ndo not start with those of its build:\n%s", cached, built)
	}
	if stdout, _, err := runTopicmf(context.Background(), args("4")...); err != nil || !strings.HasPrefix(stdout, "cached: ") {
		t.Fatalf("third fit: err %v, stdout %q, want a run-cache hit", err, stdout)
	}
}

// TestFitMTXFromPipe: --mtx, --vocab and --labels may be pipes, which can
// be read only once; the run is the one the same files give.
func TestFitMTXFromPipe(t *testing.T) {
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 10)
	labels := filepath.Join(dir, "labels.txt")
	if err := os.WriteFile(labels, []byte(strings.Repeat("a\nb\n", 5)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	pipe := func(path string) string {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write(b)
			w.Close()
		}()
		return "/dev/fd/" + strconv.Itoa(int(r.Fd()))
	}
	args := func(m, v, l string) []string {
		return []string{"--model", "nmf", "--k", "3", "--iters", "5", "--mtx", m, "--vocab", v, "--labels", l, "--out", out, "--quiet"}
	}
	run := fitRun(t, args(pipe(mtx), pipe(vocab), pipe(labels))...)
	if stdout, _, err := runTopicmf(context.Background(), append([]string{"fit"}, args(mtx, vocab, labels)...)...); err != nil || strings.TrimSpace(stdout) != "cached: "+run {
		t.Errorf("the same files: %q %v, want cached: %s", stdout, err, run)
	}
}
