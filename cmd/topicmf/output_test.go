package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/topicmf/topicmf/engine"
)

// TestOutputNeverReplaced: rank's and transform's --output write a FIFO
// to its reader, write a symbolic link through to its target, and write a
// device node (made in a temporary folder, as root) in place; none of them
// is renamed over (issue 23: a FIFO became a regular file, its reader got
// nothing, and the command exited 0).
func TestOutputNeverReplaced(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", filepath.Join(dir, "docs.jsonl"), "--out", t.TempDir())
	qry := filepath.Join(dir, "coll.qry")
	for _, command := range []string{"rank", "transform"} {
		input := "--queries"
		if command == "transform" {
			input = "--data"
		}
		args := func(out string) []string { return []string{command, run, input, qry, "--output", out, "--quiet"} }
		want, _, err := runTopicmf(context.Background(), args("-")...)
		if err != nil || want == "" {
			t.Fatalf("%s to stdout: %q, %v", command, want, err)
		}
		out := t.TempDir()

		fifo := filepath.Join(out, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			b, _ := os.ReadFile(fifo)
			got <- string(b)
		}()
		if _, stderr, err := runTopicmf(context.Background(), args(fifo)...); err != nil {
			t.Fatalf("%s --output FIFO: %v\n%s", command, err, stderr)
		}
		select {
		case s := <-got:
			if s != want {
				t.Errorf("%s --output FIFO: the reader got %d bytes, want the %d of stdout", command, len(s), len(want))
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s --output FIFO: the reader got nothing", command)
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("%s --output FIFO: %s is no longer a FIFO", command, fifo)
		}

		target := filepath.Join(out, "target.txt")
		os.WriteFile(target, []byte("old\n"), 0o644)
		link := filepath.Join(out, "link")
		if err := os.Symlink("target.txt", link); err != nil {
			t.Fatal(err)
		}
		if _, stderr, err := runTopicmf(context.Background(), args(link)...); err != nil {
			t.Fatalf("%s --output symlink: %v\n%s", command, err, stderr)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s --output symlink: %s is no longer a symbolic link", command, link)
		}
		if s := readFile(t, target); s != want {
			t.Errorf("%s --output symlink: the target holds %d bytes, want the %d of stdout", command, len(s), len(want))
		}

		dev := filepath.Join(out, "null")
		if err := unix.Mknod(dev, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
			t.Logf("skipping the device case: cannot make a device node in a temporary folder (needs root with CAP_MKNOD): %v", err)
		} else {
			if _, stderr, err := runTopicmf(context.Background(), args(dev)...); err != nil {
				t.Fatalf("%s --output device: %v\n%s", command, err, stderr)
			}
			if fi, err := os.Lstat(dev); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
				t.Errorf("%s --output device: %s is no longer a character device", command, dev)
			}
		}
		ents, _ := os.ReadDir(out)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".tmp-") {
				t.Errorf("%s: temporary file %s left behind", command, e.Name())
			}
		}
	}
}

// TestFitOutMustBeADirectory: fit --out (and run --results) naming a
// regular file or a FIFO is refused in one line before anything is computed, and the file is left
// as it was; a symbolic link to a directory is a results root like the
// directory itself.
func TestFitOutMustBeADirectory(t *testing.T) {
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 10)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("mine\n"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	fit := []string{"fit", "--model", "nmf", "--k", "3", "--iters", "5", "--mtx", mtx, "--vocab", vocab, "--quiet", "--out"}
	checkCLIErrors(t, []cliError{
		{[]string{"run", "gmf2012/tables12-13", "--quick", "--results", fifo}, "run: --results " + fifo + " is not a directory (it is a FIFO); want the results root, a directory"},
		{append(fit, file), "fit: --out " + file + " is not a directory (it is a regular file); want the results root, a directory"},
		{append(fit, fifo), "fit: --out " + fifo + " is not a directory (it is a FIFO); want the results root, a directory"},
	})
	if readFile(t, file) != "mine\n" {
		t.Error("the file named by --out changed")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Error("the FIFO named by --out changed")
	}
	root := filepath.Join(dir, "root")
	os.Mkdir(root, 0o755)
	link := filepath.Join(dir, "link")
	os.Symlink("root", link)
	run := fitRun(t, append(fit[1:], link)...)
	if _, err := os.Stat(filepath.Join(root, "runs", filepath.Base(run), "U.mtx")); err != nil {
		t.Errorf("fit --out symlink: the run is not in the linked directory: %v", err)
	}
}

// TestFaultDiskFullDuringTrace fits into a 256 KiB tmpfs for up to 10⁸
// iterations, so that the iteration trace fills the disk: the fit stops at
// the iteration whose row could not be written (issue 23: it ran every
// remaining iteration and reported the error only at the end), fails with
// one line saying so, and leaves no run and no temporary folder.
func TestFaultDiskFullDuringTrace(t *testing.T) {
	mnt := mountTmpfs(t, 256<<10)
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 10)
	res := filepath.Join(mnt, "res")
	last := 0
	fitIterationHook = func(it engine.Iteration) { last = it.Iter }
	defer func() { fitIterationHook = nil }()
	_, _, err := runTopicmf(context.Background(), "fit", "--model", fitModel(t), "--mtx", mtx, "--vocab", vocab, "--k", "3", "--iters", "100000000", "--tol", "0", "--out", res, "--quiet")
	want := fmt.Sprintf("writing the iteration trace (iterations.csv) at iteration %d: no space left on device", last+1)
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "no space left on device") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line with %q and no space left on device", err, want)
	}
	if last == 0 || last > 100000 {
		t.Errorf("the last iteration written is %d", last)
	}
	if n := checkStore(t, res); n != 0 {
		t.Errorf("%d runs after the trace failed", n)
	}
	ents, _ := os.ReadDir(filepath.Join(res, "runs"))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tmp") {
			t.Errorf("temporary folder %s left behind", e.Name())
		}
	}
	t.Logf("stopped after iteration %d: %v", last, err)
}

// TestDataFIFORefused: fit --data, transform --data and rank --queries
// naming a FIFO with no writer fail at once with one line (issue 23: fit
// hung with no message, and SIGTERM did not end it).
func TestDataFIFORefused(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "nmf", "--k", "3", "--data", filepath.Join(dir, "docs.jsonl"), "--out", t.TempDir())
	fifo := filepath.Join(t.TempDir(), "docs.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	want := fifo + " is a FIFO (named pipe), not a regular file or a folder; save the input to a file first"
	checkCLIErrors(t, []cliError{
		{[]string{"fit", "--model", "nmf", "--k", "3", "--data", fifo, "--out", t.TempDir(), "--quiet"}, want},
		{[]string{"fit", "--model", "nmf", "--k", "3", "--data", fifo, "--format", "jsonl", "--out", t.TempDir(), "--quiet"}, want},
		{[]string{"transform", run, "--data", fifo, "--quiet"}, want},
		{[]string{"rank", run, "--queries", fifo, "--format", "csv", "--quiet"}, want},
	})
}

// TestFitStartedLine: before its first iteration a fit says what it
// started and how big the work is (issue 23: tnmf with K = 3998 printed
// nothing for five minutes).
func TestFitStartedLine(t *testing.T) {
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 10)
	_, stderr, err := runTopicmf(context.Background(), "fit", "--model", "nmf", "--mtx", mtx, "--vocab", vocab, "--k", "3", "--iters", "2", "--out", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// The non-zeros are the third number of the file's size line.
	var nnz string
	for _, l := range strings.Split(readFile(t, mtx), "\n") {
		if !strings.HasPrefix(l, "%") {
			nnz = strings.Fields(l)[2]
			break
		}
	}
	lines := strings.Split(stderr, "\n")
	if want := "started nmf: 12 terms × 10 documents, " + nnz + " non-zeros, K = 3"; lines[0] != want {
		t.Errorf("first line of stderr %q, want %q\n%s", lines[0], want, stderr)
	}
	_, stderr, err = runTopicmf(context.Background(), "fit", "--model", "nmf", "--mtx", mtx, "--vocab", vocab, "--k", "4", "--iters", "2", "--out", t.TempDir(), "--quiet")
	if err != nil || strings.Contains(stderr, "started") {
		t.Errorf("--quiet: %v, stderr %q", err, stderr)
	}
}

// TestVocabDuplicateTerm: a --vocab file naming a term twice is refused
// in one line naming both lines (issue 23: it was accepted, and two rows
// of U shared a name); a line too long for a term is refused in our words.
func TestVocabDuplicateTerm(t *testing.T) {
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 10)
	lines := strings.Split(strings.TrimSpace(readFile(t, vocab)), "\n")
	lines[7] = lines[2]
	dup := filepath.Join(dir, "dup.txt")
	os.WriteFile(dup, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	lines[7] = strings.Repeat("x", 2<<20)
	long := filepath.Join(dir, "long.txt")
	os.WriteFile(long, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out := filepath.Join(dir, "res")
	fit := []string{"fit", "--model", "nmf", "--k", "3", "--mtx", mtx, "--out", out, "--quiet", "--vocab"}
	checkCLIErrors(t, []cliError{
		{append(fit, dup), dup + ": line 8: term " + strconv.Quote(lines[2]) + " is already on line 3; a vocabulary names each term once"},
		{append(fit, long), long + ": line 8 is longer than 1 MiB; want one term per line"},
	})
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused fit created %s", out)
	}
}
