package main

// The fault-injection suite of issue 11 (deliverable 7): each fault ends
// with one clear message and nothing lost or half-written. The figures in
// docs/reliability.md come from these tests.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

// slowJobs is the size of the "clitest/slow" experiment: 12 K values × 2
// replicates.
const slowJobs = 24

var registerSlow sync.Once

// slowExperiment registers "clitest/slow": jobs that take about 40 ms
// each (so a process can be killed in the middle of a sweep) and write a
// trace and a 64 KiB artifact, with numbers that follow from the job.
func slowExperiment() {
	registerSlow.Do(func() {
		var ks []string
		for k := 1; k <= slowJobs/2; k++ {
			ks = append(ks, strconv.Itoa(k))
		}
		experiments.Register(&experiments.Experiment{
			ID:       "clitest/slow",
			Title:    "CLI slow toy",
			Version:  "1",
			Datasets: []string{"toy"},
			Checksums: func(*experiments.Job) ([]store.Checksum, error) {
				return []store.Checksum{{Name: "toy", SHA256: "00"}}, nil
			},
			Grid:       map[string][]string{"k": ks},
			TaskParams: []string{"k"},
			Replicates: 2,
			Task: func(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
				k, err := j.IntParam("k", 0)
				if err != nil {
					return nil, err
				}
				rec := engine.NewRecorder()
				for it := 1; it <= 4; it++ {
					select {
					case <-ctx.Done():
						return nil, ctx.Err()
					case <-time.After(10 * time.Millisecond):
					}
					rec.Record(engine.Iteration{Iter: it, Objective: float64(k) / float64(it)})
				}
				res := &experiments.Result{Iterations: rec, Artifacts: []experiments.Artifact{{Name: "blob.txt", Write: func(w io.Writer) error {
					_, err := io.WriteString(w, strings.Repeat(fmt.Sprintf("%d\n", k), 64<<10/(len(strconv.Itoa(k))+1)))
					return err
				}}}}
				res.AddMetric("score", float64(10*k+j.Replicate))
				return res, nil
			},
			Tables: []experiments.Table{{Name: "scores", Rows: []string{"k"}, Metrics: []string{"score"}}},
		})
	})
}

// TestFaultHelperProcess is not a test: run as a subprocess by the fault
// tests, it runs the CLI with the arguments in TOPICMF_FAULT_ARGS.
func TestFaultHelperProcess(t *testing.T) {
	args := os.Getenv("TOPICMF_FAULT_ARGS")
	if args == "" {
		return
	}
	slowExperiment()
	err := run(context.Background(), os.Stdout, os.Stderr, strings.Split(args, "\x1f"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "topicmf:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helper starts the CLI in a subprocess with args.
func helper(t *testing.T, args ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultHelperProcess$")
	cmd.Env = append(os.Environ(), "TOPICMF_FAULT_ARGS="+strings.Join(args, "\x1f"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// finishedRuns counts the finished run directories under res.
func finishedRuns(t *testing.T, res string) int {
	t.Helper()
	st, err := store.Open(res)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	return len(ids)
}

// checkStore asserts that every run directory under res is finished and
// matches its manifest byte for byte, and that no temporary directory is
// left; it returns the number of runs.
func checkStore(t *testing.T, res string) int {
	t.Helper()
	st, err := store.Open(res) // Open removes the temporary directories of dead writers
	if err != nil {
		t.Fatal(err)
	}
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range list {
		if in.State != store.StateFinished {
			t.Errorf("run %s is %s: %s", in.ID[:12], in.State, in.Detail)
			continue
		}
		if bad, err := st.Verify(in.ID); err != nil || len(bad) > 0 {
			t.Errorf("run %s does not match its manifest: %v %v", in.ID[:12], bad, err)
		}
	}
	ents, _ := os.ReadDir(filepath.Join(res, "runs"))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	return len(list)
}

var computedRe = regexp.MustCompile(`(\d+) jobs \((\d+) computed, (\d+) cached\)`)

// computed parses run's "N jobs (C computed, D cached)" line.
func computed(t *testing.T, out string) (jobs, comp int) {
	t.Helper()
	m := computedRe.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no job count in the output:\n%s", out)
	}
	jobs, _ = strconv.Atoi(m[1])
	comp, _ = strconv.Atoi(m[2])
	return jobs, comp
}

// referenceScores runs clitest/slow uninterrupted and returns scores.csv.
func referenceScores(t *testing.T) string {
	t.Helper()
	slowExperiment()
	res := t.TempDir()
	if _, _, err := runTopicmf(context.Background(), "run", "clitest/slow", "--results", res); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(res, "clitest", "slow", "scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFaultKill9DuringRun kills `run` with SIGKILL at several points of a
// 24-job sweep: after each kill every visible run is complete and intact,
// and the final resumed run computes exactly the missing jobs and renders
// the same table as an uninterrupted run.
func TestFaultKill9DuringRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: subprocess test")
	}
	want := referenceScores(t)
	res := t.TempDir()
	kills := 0
	for _, at := range []int{0, 5, 11, 17} {
		cmd, out := helper(t, "run", "clitest/slow", "--results", res)
		deadline := time.Now().Add(60 * time.Second)
		for at > 0 && finishedRuns(t, res) < at && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if at == 0 {
			time.Sleep(20 * time.Millisecond) // inside the first jobs
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err == nil {
			t.Logf("the process finished before the kill at %d runs:\n%s", at, out)
			continue
		}
		kills++
		checkStore(t, res)
	}
	before := finishedRuns(t, res)
	stdout, _, err := runTopicmf(context.Background(), "run", "clitest/slow", "--results", res)
	if err != nil {
		t.Fatal(err)
	}
	jobs, comp := computed(t, stdout)
	if jobs != slowJobs || comp != slowJobs-before {
		t.Errorf("resume: %d jobs, %d computed; %d were finished before", jobs, comp, before)
	}
	if n := checkStore(t, res); n != slowJobs {
		t.Errorf("%d runs after resuming, want %d", n, slowJobs)
	}
	got, _ := os.ReadFile(filepath.Join(res, "clitest", "slow", "scores.csv"))
	if string(got) != want {
		t.Errorf("scores after %d kills differ from an uninterrupted run:\n%s\nwant\n%s", kills, got, want)
	}
	t.Logf("survived %d kill -9 of run (%d jobs finished before the resume)", kills, before)
}

// TestFaultConcurrentRuns runs the same sweep in three processes at once on
// one store, killing one of them midway: every job is computed exactly once
// (the others find it finished), and nothing is lost.
func TestFaultConcurrentRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: subprocess test")
	}
	want := referenceScores(t)
	res := t.TempDir()
	const procs = 3
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for range procs {
		c, o := helper(t, "run", "clitest/slow", "--results", res, "--workers", "2")
		cmds, outs = append(cmds, c), append(outs, o)
	}
	deadline := time.Now().Add(60 * time.Second)
	for finishedRuns(t, res) < slowJobs/3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cmds[0].Process.Signal(syscall.SIGKILL)
	cmds[0].Wait()
	total := 0
	for i := 1; i < procs; i++ {
		if err := cmds[i].Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i])
		}
		jobs, comp := computed(t, outs[i].String())
		if jobs != slowJobs {
			t.Errorf("process %d saw %d jobs", i, jobs)
		}
		total += comp
	}
	if n := checkStore(t, res); n != slowJobs {
		t.Fatalf("%d runs, want %d", n, slowJobs)
	}
	// The jobs the killed process finished, plus those the survivors
	// computed, are every job once: a fresh run computes none.
	stdout, _, err := runTopicmf(context.Background(), "run", "clitest/slow", "--results", res)
	if err != nil {
		t.Fatal(err)
	}
	if _, comp := computed(t, stdout); comp != 0 {
		t.Errorf("a run after the concurrent ones computed %d jobs", comp)
	}
	if total > slowJobs {
		t.Errorf("the surviving processes computed %d jobs of %d: some twice", total, slowJobs)
	}
	got, _ := os.ReadFile(filepath.Join(res, "clitest", "slow", "scores.csv"))
	if string(got) != want {
		t.Errorf("scores differ from an uninterrupted run:\n%s\nwant\n%s", got, want)
	}
	t.Logf("%d concurrent processes, one killed: survivors computed %d of %d jobs, none twice", procs, total, slowJobs)
}

// mountTmpfs mounts a tmpfs of the given size (bytes) for the test, or
// skips when this process may not mount (not root, or no capability).
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// remount changes the options of the tmpfs at dir.
func remount(t *testing.T, dir, opts string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+opts, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s: %v %s", opts, err, out)
	}
}

// bigMatrix writes a 20000×20 term-document matrix whose U.mtx (K = 5)
// takes about 2 MB.
func bigMatrix(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate real general\n20000 20 20000\n")
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&b, "%d %d %d\n", i, 1+i%20, 1+i%7)
	}
	p := filepath.Join(t.TempDir(), "big.mtx")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFaultDiskFull fits into a 1 MiB tmpfs: the fit fails with one line
// naming the file and "no space left on device", leaves no partial run,
// and succeeds once there is room.
func TestFaultDiskFull(t *testing.T) {
	mnt := mountTmpfs(t, 1<<20)
	mtx := bigMatrix(t)
	res := filepath.Join(mnt, "res")
	args := []string{"fit", "--model", fitModel(t), "--mtx", mtx, "--k", "5", "--iters", "2", "--out", res}
	_, _, err := runTopicmf(context.Background(), args...)
	if err == nil || !strings.Contains(err.Error(), "no space left on device") || strings.Count(err.Error(), "\n") > 0 {
		t.Fatalf("disk full: err = %v", err)
	}
	if n := checkStore(t, res); n != 0 {
		t.Fatalf("%d runs after a failed write", n)
	}
	remount(t, mnt, "size=16m")
	if _, _, err := runTopicmf(context.Background(), args...); err != nil {
		t.Fatalf("with room: %v", err)
	}
	if n := checkStore(t, res); n != 1 {
		t.Fatalf("%d runs, want 1", n)
	}
	t.Logf("disk full: %v", err)
}

// TestFaultReadOnlyResults makes the results directory read-only: a new fit
// fails with one line saying so and writes nothing; a finished run is still
// served, listed and verified.
func TestFaultReadOnlyResults(t *testing.T) {
	model := fitModel(t)
	mnt := mountTmpfs(t, 16<<20)
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 9)
	res := filepath.Join(mnt, "res")
	fit := func(k string) (string, error) {
		out, _, err := runTopicmf(context.Background(), "fit", "--model", model, "--mtx", mtx, "--vocab", vocab, "--k", k, "--iters", "5", "--out", res)
		return out, err
	}
	if _, err := fit("3"); err != nil {
		t.Fatal(err)
	}
	remount(t, mnt, "ro")
	_, err := fit("4")
	if err == nil || !strings.Contains(err.Error(), "read-only file system") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("new fit on a read-only store: err = %v", err)
	}
	if out, err := fit("3"); err != nil || !strings.HasPrefix(out, "cached: ") {
		t.Fatalf("finished fit on a read-only store: %q %v", out, err)
	}
	if out, _, err := runTopicmf(context.Background(), "runs", "verify", "--results", res); err != nil || !strings.Contains(out, "1 runs verified") {
		t.Fatalf("runs verify on a read-only store: %q %v", out, err)
	}
	remount(t, mnt, "rw")
	if n := checkStore(t, res); n != 1 {
		t.Fatalf("%d runs, want 1", n)
	}
	t.Logf("read-only: %v", err)
}

// TestFaultInterruptedFetch serves the files from 127.0.0.1, dropping the
// connection halfway through the first response: fetch fails naming the
// file, leaves no partial file, and a second fetch completes and verifies.
func TestFaultInterruptedFetch(t *testing.T) {
	real := realDataDir(t)
	src := mustLookup(t, "stopwords")
	files := http.FileServer(http.Dir(real))
	var mu sync.Mutex
	cut := 0
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		first := cut == 0
		if first {
			cut++
		}
		mu.Unlock()
		if !first {
			files.ServeHTTP(w, r)
			return
		}
		b, err := os.ReadFile(filepath.Join(real, filepath.FromSlash(strings.TrimPrefix(r.URL.Path, "/"))))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n", len(b))
		buf.Write(b[:len(b)/2])
		buf.Flush()
		conn.Close()
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	dir := t.TempDir()
	out, _, err := runCmd(t, "data", "fetch", "--data", dir, "--mirror", srv.URL, "stopwords")
	if err == nil || !strings.Contains(err.Error(), "1 of ") {
		t.Fatalf("interrupted fetch: err = %v\n%s", err, out)
	}
	var failed []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if l := sc.Text(); strings.Contains(l, "EOF") {
			failed = append(failed, l)
		}
	}
	if len(failed) != 1 {
		t.Fatalf("want one line naming the cut file, got %q in\n%s", failed, out)
	}
	for _, f := range src.Files {
		st := datasets.VerifyFile(dir, f)
		if st.Status != datasets.StatusOK && st.Status != datasets.StatusMissing {
			t.Errorf("after the cut: %s", st)
		}
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".part-") {
			t.Errorf("partial download left: %s", p)
		}
		return nil
	})
	if out, _, err := runCmd(t, "data", "fetch", "--data", dir, "--mirror", srv.URL, "stopwords"); err != nil {
		t.Fatalf("second fetch: %v\n%s", err, out)
	}
	if out, _, err := runCmd(t, "data", "verify", "--data", dir, "stopwords"); err != nil {
		t.Fatalf("verify after the second fetch: %v\n%s", err, out)
	}
	t.Logf("interrupted fetch: %s", failed[0])
}
