package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func testKey(cfg any) Key {
	return Key{
		Config:   cfg,
		Datasets: []Checksum{{Name: "b", SHA256: "02"}, {Name: "a", SHA256: "01"}},
		Code:     CodeVersion{Module: ModulePath, Version: "(devel)", Revision: "abc", Source: SourceGit, Experiment: "1"},
		Seed:     7,
	}
}

func TestCanonical(t *testing.T) {
	type S struct {
		Z int               `json:"z"`
		A string            `json:"a"`
		M map[string]string `json:"m"`
	}
	got, err := Canonical(S{Z: 1, A: "x<y", M: map[string]string{"q": "1", "b": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":"x<y","m":{"b":"2","q":"1"},"z":1}`
	if string(got) != want {
		t.Fatalf("Canonical = %s, want %s", got, want)
	}
	// A map with the same content in any insertion order, and the
	// equivalent struct, give the same bytes.
	m := map[string]any{"z": 1, "m": map[string]any{"q": "1", "b": "2"}, "a": "x<y"}
	got2, err := Canonical(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, got2) {
		t.Fatalf("map gives %s, struct %s", got2, got)
	}
	// Floats keep full precision.
	a, b := 0.1, 0.2
	f, _ := Canonical(map[string]float64{"x": a + b})
	if string(f) != `{"x":0.30000000000000004}` {
		t.Fatalf("float: %s", f)
	}
	ind, _ := CanonicalIndent(map[string]int{"b": 1, "a": 2})
	if string(ind) != "{\n  \"a\": 2,\n  \"b\": 1\n}\n" {
		t.Fatalf("indent: %q", ind)
	}
}

func TestKeyID(t *testing.T) {
	k := testKey(map[string]any{"k": "5"})
	id, err := k.ID()
	if err != nil {
		t.Fatal(err)
	}
	// The documented hash input, written out by hand.
	h := sha256.New()
	io.WriteString(h, "topicmf run v1\nconfig {\"k\":\"5\"}\n"+
		"dataset \"a\" 01\ndataset \"b\" 02\n"+
		"code github.com/topicmf/topicmf@(devel) rev abc experiment 1\nseed 7\n")
	if want := hex.EncodeToString(h.Sum(nil)); id != want {
		t.Fatalf("ID = %s, want %s", id, want)
	}
	// Dataset order does not matter; every other part does.
	k2 := k
	k2.Datasets = []Checksum{k.Datasets[1], k.Datasets[0]}
	if id2, _ := k2.ID(); id2 != id {
		t.Fatal("dataset order changed the id")
	}
	change := map[string]func(*Key){
		"config":  func(k *Key) { k.Config = map[string]any{"k": "6"} },
		"dataset": func(k *Key) { k.Datasets = []Checksum{{Name: "a", SHA256: "03"}} },
		"rev":     func(k *Key) { k.Code.Revision = "abd" },
		"dirty":   func(k *Key) { k.Code.Dirty, k.Code.DirtyDigest = true, "git:1" },
		"exp":     func(k *Key) { k.Code.Experiment = "2" },
		"seed":    func(k *Key) { k.Seed = 8 },
	}
	for name, f := range change {
		k3 := testKey(map[string]any{"k": "5"})
		f(&k3)
		if id3, _ := k3.ID(); id3 == id {
			t.Errorf("changing %s kept the id", name)
		}
	}
	// Two dirty states differ.
	a, b := testKey(1), testKey(1)
	a.Code.Dirty, a.Code.DirtyDigest = true, "git:1"
	b.Code.Dirty, b.Code.DirtyDigest = true, "git:2"
	ia, _ := a.ID()
	ib, _ := b.ID()
	if ia == ib {
		t.Fatal("different dirty digests gave one id")
	}
	if _, err := testKey(func() {}).ID(); err == nil {
		t.Fatal("unencodable config gave no error")
	}
}

// listRuns returns every entry of runs/ except the locks directory.
func listRuns(t *testing.T, s *Store) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(s.Root(), runsDir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.Name() != locksDir {
			names = append(names, e.Name())
		}
	}
	return names
}

func TestDoWritesAndCaches(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	k := testKey(map[string]any{"method": "nmf", "k": 5})
	calls := 0
	task := func(ctx context.Context, w *Writer) error {
		calls++
		if err := w.WriteCSV("metrics.csv", []string{"metric", "value"}, [][]string{{"x", "1.5"}}); err != nil {
			return err
		}
		return w.WriteBytes("sub/U.mtx", []byte("%%MatrixMarket\n"))
	}
	r1, err := s.Do(context.Background(), k, task)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Cached || calls != 1 {
		t.Fatalf("first Do: cached=%v calls=%d", r1.Cached, calls)
	}
	for _, f := range []string{ConfigFile, ProvenanceFile, DoneFile, "metrics.csv", "sub/U.mtx"} {
		if _, err := os.Stat(filepath.Join(r1.Dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	cfg, _ := os.ReadFile(filepath.Join(r1.Dir, ConfigFile))
	if string(cfg) != "{\n  \"k\": 5,\n  \"method\": \"nmf\"\n}\n" {
		t.Errorf("config.json = %q", cfg)
	}
	p, err := ReadProvenance(r1.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.RunID != r1.ID || p.Seed != 7 || len(p.Datasets) != 2 || p.Datasets[0].Name != "a" || p.GOMAXPROCS < 1 || p.GoVersion == "" || p.Start == "" || p.End == "" || p.Code.Revision != "abc" {
		t.Errorf("provenance = %+v", p)
	}
	h, rows, err := ReadCSV(filepath.Join(r1.Dir, "metrics.csv"))
	if err != nil || len(h) != 2 || len(rows) != 1 || rows[0][1] != "1.5" {
		t.Errorf("metrics.csv: %v %v %v", h, rows, err)
	}
	r2, err := s.Do(context.Background(), k, task)
	if err != nil {
		t.Fatal(err)
	}
	if !r2.Cached || calls != 1 || r2.Dir != r1.Dir {
		t.Fatalf("second Do: %+v calls=%d", r2, calls)
	}
	ids, _ := s.Runs()
	if len(ids) != 1 || ids[0] != r1.ID {
		t.Fatalf("Runs = %v", ids)
	}
	// Reopening finds it too.
	s2, err := Open(s.Root())
	if err != nil {
		t.Fatal(err)
	}
	if !s2.Finished(r1.ID) {
		t.Fatal("finished run not found after reopening")
	}
}

func TestDoFailureLeavesNothing(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	_, err = s.Do(context.Background(), testKey(1), func(ctx context.Context, w *Writer) error {
		w.WriteBytes("a.txt", []byte("partial"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if n := listRuns(t, s); len(n) != 0 {
		t.Fatalf("left %v", n)
	}

	// Cancelled mid-task: the task sees the cancellation and returns it.
	ctx, cancel := context.WithCancel(context.Background())
	_, err = s.Do(ctx, testKey(2), func(ctx context.Context, w *Writer) error {
		w.WriteBytes("a.txt", []byte("partial"))
		cancel()
		<-ctx.Done()
		return ctx.Err()
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	// A task that ignores cancellation and returns nil is not stored either.
	ctx, cancel = context.WithCancel(context.Background())
	_, err = s.Do(ctx, testKey(3), func(ctx context.Context, w *Writer) error {
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if n := listRuns(t, s); len(n) != 0 {
		t.Fatalf("left %v", n)
	}
	// The same key then runs to completion.
	r, err := s.Do(context.Background(), testKey(2), func(ctx context.Context, w *Writer) error { return nil })
	if err != nil || r.Cached {
		t.Fatalf("rerun: %+v %v", r, err)
	}

	// A panicking task leaves nothing either.
	func() {
		defer func() { recover() }()
		s.Do(context.Background(), testKey(4), func(ctx context.Context, w *Writer) error {
			w.WriteBytes("a.txt", []byte("partial"))
			panic("task bug")
		})
	}()
	if n := listRuns(t, s); len(n) != 1 {
		t.Fatalf("after panic: %v", n)
	}
}

func TestWriterNames(t *testing.T) {
	w := &Writer{dir: t.TempDir()}
	for _, bad := range []string{"", ".", "..", "../x", "/abs", ConfigFile, DoneFile, ProvenanceFile, "a/../../x"} {
		if err := w.WriteBytes(bad, nil); err == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
	if err := w.WriteBytes("a/b/c.txt", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteCSV("bad.csv", []string{"a", "b"}, [][]string{{"1"}}); err == nil || !strings.Contains(err.Error(), "row 1") {
		t.Fatalf("short row: %v", err)
	}
}

func TestWriteFileAtomicKeepsOldOnError(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := WriteBytesAtomic(p, []byte("old")); err != nil {
		t.Fatal(err)
	}
	err := WriteFileAtomic(p, func(w io.Writer) error {
		io.WriteString(w, "new but")
		return errors.New("disk full")
	})
	if err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("err = %v", err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "old" {
		t.Fatalf("file = %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("left temp files: %v", ents)
	}
}

func TestStaleTempCleanup(t *testing.T) {
	root := t.TempDir()
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	idA := strings.Repeat("a", 64)
	idB := strings.Repeat("b", 64)
	for _, name := range []string{tmpPrefix + idA + "-123", tmpPrefix + idB + "-456"} {
		if err := os.MkdirAll(filepath.Join(root, runsDir, name, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// B is being written by someone holding its lock: it must survive.
	l, ok, err := tryLock(s.lockPath(idB))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, err := Open(root); err != nil {
		t.Fatal(err)
	}
	got := listRuns(t, s)
	if len(got) != 1 || got[0] != tmpPrefix+idB+"-456" {
		t.Fatalf("after Open: %v", got)
	}
	l.unlock()
	if _, err := Open(root); err != nil {
		t.Fatal(err)
	}
	if got := listRuns(t, s); len(got) != 0 {
		t.Fatalf("after unlock: %v", got)
	}
}

// TestDoTwoGoroutines: two writers of one key compute once; the second
// waits for the lock and returns the finished run.
func TestDoTwoGoroutines(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	var wg sync.WaitGroup
	runs := make([]Run, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i], errs[i] = s.Do(context.Background(), testKey("shared"), func(ctx context.Context, w *Writer) error {
				calls.Add(1)
				time.Sleep(100 * time.Millisecond)
				return w.WriteBytes("out.txt", []byte("result"))
			})
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			t.Fatal(e)
		}
	}
	if calls.Load() != 1 {
		t.Fatalf("task ran %d times", calls.Load())
	}
	if runs[0].Cached == runs[1].Cached || runs[0].Dir != runs[1].Dir {
		t.Fatalf("runs = %+v", runs)
	}
}

// TestDoWaitHonoursCancel: a writer waiting for a held lock gives up when
// its context ends.
func TestDoWaitHonoursCancel(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id, _ := testKey("x").ID()
	l, ok, err := tryLock(s.lockPath(id))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	defer l.unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = s.Do(ctx, testKey("x"), func(ctx context.Context, w *Writer) error {
		t.Error("task ran while the lock was held")
		return nil
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
}

const helperEnv = "TOPICMF_STORE_HELPER_ROOT"

// TestHelperProcess is not a test: run by TestDoTwoProcesses as a child
// process, it calls Do on the shared root and prints the outcome.
func TestHelperProcess(t *testing.T) {
	root := os.Getenv(helperEnv)
	if root == "" {
		t.Skip("helper process only")
	}
	s, err := Open(root)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	r, err := s.Do(context.Background(), testKey("proc"), func(ctx context.Context, w *Writer) error {
		f, err := os.OpenFile(filepath.Join(root, "calls"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		fmt.Fprintln(f, os.Getpid())
		f.Close()
		time.Sleep(300 * time.Millisecond)
		return w.WriteBytes("out.txt", []byte("result"))
	})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	fmt.Printf("cached=%v dir=%s\n", r.Cached, r.Dir)
	os.Exit(0)
}

// TestDoTwoProcesses runs two copies of the test binary on one root at the
// same time: the task runs once, both see the same finished run.
func TestDoTwoProcesses(t *testing.T) {
	root := t.TempDir()
	var outs [2]bytes.Buffer
	var cmds [2]*exec.Cmd
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmds[i].Env = append(os.Environ(), helperEnv+"="+root)
		cmds[i].Stdout = &outs[i]
		cmds[i].Stderr = &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i].String())
		}
	}
	calls, err := os.ReadFile(filepath.Join(root, "calls"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(calls), "\n"); n != 1 {
		t.Fatalf("task ran %d times", n)
	}
	a, b := outs[0].String(), outs[1].String()
	if strings.Contains(a, "cached=true") == strings.Contains(b, "cached=true") {
		t.Fatalf("want one computed and one cached:\n%s\n%s", a, b)
	}
	dirOf := func(s string) string { _, d, _ := strings.Cut(s, "dir="); return strings.Fields(d)[0] }
	if dirOf(a) != dirOf(b) {
		t.Fatalf("different dirs:\n%s\n%s", a, b)
	}
	got, err := os.ReadFile(filepath.Join(dirOf(a), "out.txt"))
	if err != nil || string(got) != "result" {
		t.Fatalf("out.txt = %q, %v", got, err)
	}
}
