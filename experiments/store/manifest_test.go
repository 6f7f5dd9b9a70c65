package store

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTwo(calls *int) func(context.Context, *Writer) error {
	return func(ctx context.Context, w *Writer) error {
		*calls++
		if err := w.WriteBytes("U.mtx", []byte("%%MatrixMarket matrix array real general\n1 1\n2\n")); err != nil {
			return err
		}
		return w.WriteBytes("sub/topics.txt", []byte("topic 0: a b\n"))
	}
}

// twoFileRun opens a store in a temporary directory and finishes one run
// of writeTwo in it, counting the task's calls in calls.
func twoFileRun(t *testing.T, calls *int) (*Store, Run) {
	t.Helper()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Do(context.Background(), testKey("m"), writeTwo(calls))
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

// TestManifest: the done marker lists every file with its size and SHA-256
// (the SHA-256 of "topic 0: a b\n" is from sha256sum).
func TestManifest(t *testing.T) {
	calls := 0
	s, r := twoFileRun(t, &calls)
	done, _ := os.ReadFile(filepath.Join(r.Dir, DoneFile))
	lines := strings.Split(strings.TrimSpace(string(done)), "\n")
	if lines[0] != r.ID || lines[1] != manifestHeader || len(lines) != 2+4 {
		t.Fatalf("done = %q", done)
	}
	if want := "b4062d1c8eaf612d0f33783521084de7466fc7bed341dd8cf323d11c1497b085 13 sub/topics.txt"; lines[5] != want {
		t.Errorf("manifest line = %q, want %q", lines[5], want)
	}
	var names []string
	for _, l := range lines[2:] {
		f := strings.SplitN(l, " ", 3)
		names = append(names, f[2])
	}
	if strings.Join(names, ",") != "U.mtx,config.json,provenance.json,sub/topics.txt" {
		t.Errorf("manifest names = %v", names)
	}
	if bad, err := s.Verify(r.ID); err != nil || len(bad) != 0 {
		t.Fatalf("Verify of an intact run = %v, %v", bad, err)
	}
	if fi, err := os.Stat(r.Dir); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o755 {
		t.Errorf("run directory mode %v, want 0755 (issue 10: runs were 0700)", fi.Mode().Perm())
	}
}

// TestDamagedRunIsRecomputed is failure 8 of issue 11: a finished run
// whose file was deleted or changed is not served from the store; and
// issue 23: a change that keeps the size ("same size", "flipped factor
// digit") is found by the quick check too, which hashes the small files.
func TestDamagedRunIsRecomputed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(dir string) error
		check  string // what Check says ("" when only Verify can tell)
		verify string
	}{
		{"deleted", func(d string) error { return os.Remove(filepath.Join(d, "U.mtx")) }, "U.mtx: missing", "U.mtx: missing"},
		{"truncated", func(d string) error { return os.Truncate(filepath.Join(d, "U.mtx"), 3) }, "U.mtx: 3 bytes, manifest says", "U.mtx: 3 bytes"},
		{"same size", func(d string) error {
			return os.WriteFile(filepath.Join(d, "sub/topics.txt"), []byte("topic 0: a c\n"), 0o644)
		}, "sub/topics.txt: content changed", "sub/topics.txt: sha256"},
		{"flipped factor digit", func(d string) error {
			return os.WriteFile(filepath.Join(d, "U.mtx"), []byte("%%MatrixMarket matrix array real general\n1 1\n3\n"), 0o644)
		}, "U.mtx: content changed", "U.mtx: sha256"},
		{"extra file", func(d string) error { return os.WriteFile(filepath.Join(d, "x"), nil, 0o644) }, "", "x: not in the manifest"},
		{"old done marker", func(d string) error {
			return os.WriteFile(filepath.Join(d, DoneFile), []byte(filepath.Base(d)+"\n"), 0o644)
		}, "no manifest", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			s, r := twoFileRun(t, &calls)
			if err := tc.damage(r.Dir); err != nil {
				t.Fatal(err)
			}
			err := s.Check(r.ID)
			if tc.check == "" {
				if err != nil {
					t.Fatalf("Check = %v, want nil (only Verify lists extra files)", err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.check) {
				t.Fatalf("Check = %v, want %q", err, tc.check)
			}
			if tc.verify != "" {
				bad, err := s.Verify(r.ID)
				if err != nil || len(bad) != 1 || !strings.Contains(bad[0], tc.verify) {
					t.Fatalf("Verify = %q, %v; want %q", bad, err, tc.verify)
				}
			}
			if tc.check == "" {
				return
			}
			if s.Finished(r.ID) {
				t.Fatal("damaged run reported finished")
			}
			r2, err := s.Do(context.Background(), testKey("m"), writeTwo(&calls))
			if err != nil {
				t.Fatal(err)
			}
			if r2.Cached || calls != 2 || !strings.Contains(r2.Replaced, tc.check) {
				t.Fatalf("rerun: %+v calls=%d", r2, calls)
			}
			if bad, err := s.Verify(r.ID); err != nil || len(bad) != 0 {
				t.Fatalf("after recomputing: %v %v", bad, err)
			}
		})
	}
}

// TestFailureIsRecordedNotFinished is failure 5 of issue 11 at the store:
// a task's Failure leaves its files and a failed marker, is never
// finished, and the next Do computes it again.
func TestFailureIsRecordedNotFinished(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	numerical := errors.New("numerical failure after 3 iterations: NaN in step V")
	task := func(ctx context.Context, w *Writer) error {
		calls++
		if err := w.WriteBytes("status.json", []byte("{}\n")); err != nil {
			return err
		}
		return Fail(numerical)
	}
	r, err := s.Do(context.Background(), testKey("f"), task)
	var f *Failure
	if !errors.As(err, &f) || !errors.Is(err, numerical) || !r.Failed {
		t.Fatalf("Do = %+v, %v; want a Failure", r, err)
	}
	if s.Finished(r.ID) {
		t.Fatal("failed run reported finished")
	}
	if msg, ok := s.FailedMessage(r.ID); !ok || msg != numerical.Error() {
		t.Fatalf("FailedMessage = %q, %v", msg, ok)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "status.json")); err != nil {
		t.Fatal("the failed run's files were not kept:", err)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].State != StateFailed || list[0].Detail != numerical.Error() {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if ids, err := s.Runs(); err != nil || len(ids) != 0 {
		t.Fatalf("Runs = %v, %v; want the failed run left out", ids, err)
	}
	r2, err := s.Do(context.Background(), testKey("f"), task)
	if !errors.As(err, &f) || r2.Cached || calls != 2 || !strings.HasPrefix(r2.Replaced, "failed before: ") {
		t.Fatalf("rerun = %+v, %v, calls=%d; want recomputed", r2, err, calls)
	}
}

// TestCreateStreams: a streamed file appears only on Commit, and an aborted
// one leaves nothing.
func TestCreateStreams(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	r, err := s.Do(context.Background(), testKey("s"), func(ctx context.Context, w *Writer) error {
		f, err := w.Create("iterations.csv")
		if err != nil {
			return err
		}
		f.WriteString("iter\n1\n")
		if _, err := os.Stat(filepath.Join(w.Dir(), "iterations.csv")); err == nil {
			seen = append(seen, "visible before Commit")
		}
		if err := f.Commit(); err != nil {
			return err
		}
		g, err := w.Create("gone.csv")
		if err != nil {
			return err
		}
		g.WriteString("x")
		g.Abort()
		return nil
	})
	if err != nil || len(seen) > 0 {
		t.Fatal(err, seen)
	}
	b, _ := os.ReadFile(filepath.Join(r.Dir, "iterations.csv"))
	ents, _ := os.ReadDir(r.Dir)
	if string(b) != "iter\n1\n" || len(ents) != 4 {
		t.Fatalf("iterations.csv = %q, %d entries", b, len(ents))
	}
}

// bigFactor is a dense Matrix Market file larger than FactorHashThreshold.
func bigFactor(digit byte) []byte {
	b := []byte("%%MatrixMarket matrix array real general\n300000 1\n")
	for range 300000 {
		b = append(b, '0', '.', '2', '5', '\n')
	}
	b[len(b)-2] = digit
	return b
}

// TestLargeFactorHashedOnRead (issue 23): a factor file above
// FactorHashThreshold with one digit changed passes the quick check (sizes
// only for it), but CheckAll, DoVerified, ListVerified and every read
// through OpenRunFile find it, naming the file in one line.
func TestLargeFactorHashedOnRead(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	task := func(ctx context.Context, w *Writer) error {
		calls++
		return w.WriteBytes("V.mtx", bigFactor('5'))
	}
	r, err := s.Do(context.Background(), testKey("big"), task)
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.OpenFile(r.ID, "V.mtx")
	if err != nil {
		t.Fatalf("OpenFile of an intact factor: %v", err)
	}
	head := make([]byte, 14)
	if _, err := io.ReadFull(f, head); err != nil || string(head) != "%%MatrixMarket" {
		t.Fatalf("OpenFile is not positioned at the start: %q %v", head, err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(r.Dir, "V.mtx"), bigFactor('6'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(r.ID); err != nil {
		t.Fatalf("quick Check = %v, want nil (a large factor is hashed when read)", err)
	}
	const want = "V.mtx: content changed"
	if err := s.CheckAll(r.ID); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("CheckAll = %v, want one line with %q", err, want)
	}
	if _, err := s.OpenFile(r.ID, "V.mtx"); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("OpenFile of a damaged factor = %v, want %q", err, want)
	}
	if _, err := s.OpenFile(r.ID, "W.mtx"); err == nil || !strings.Contains(err.Error(), "not in its manifest") {
		t.Fatalf("OpenFile of a file not in the manifest = %v", err)
	}
	list, err := s.ListVerified()
	if err != nil || len(list) != 1 || list[0].State != StateDamaged || !strings.Contains(list[0].Detail, want) {
		t.Fatalf("ListVerified = %+v, %v", list, err)
	}
	r2, err := s.DoVerified(context.Background(), testKey("big"), task)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Cached || calls != 2 || !strings.Contains(r2.Replaced, want) {
		t.Fatalf("DoVerified on a damaged factor: %+v calls=%d", r2, calls)
	}
	if err := s.CheckAll(r.ID); err != nil {
		t.Fatalf("after recomputing: %v", err)
	}
}
