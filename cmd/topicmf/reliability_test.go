package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments/store"
)

// writeOverflowMatrix writes a 3×3 matrix whose entries (1e160) are
// finite but whose squared norm overflows: NMF_E starts from finite factors
// and fails numerically in its first iteration (the objective is NaN).
// (An all-zero matrix, the old fixture, is now refused before any run.)
func writeOverflowMatrix(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "overflow.mtx")
	body := "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 1e160\n2 2 2e160\n3 3 1e160\n1 2 3e160\n3 1 1e160\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFitNumericalFailureFails is failure 5 of issue 11: a fit that ends in
// a numerical failure exits with an error naming the status, records it in
// the run directory, and is computed again (never "cached:") on a rerun.
func TestFitNumericalFailureFails(t *testing.T) {
	dir := t.TempDir()
	mtx := writeOverflowMatrix(t, dir)
	out := filepath.Join(dir, "res")
	args := []string{"fit", "--model", "nmfe", "--mtx", mtx, "--k", "2", "--out", out}
	for attempt := 1; attempt <= 2; attempt++ {
		stdout, _, err := runTopicmf(context.Background(), args...)
		if err == nil {
			t.Fatalf("attempt %d: fit of an overflowing matrix succeeded: %s", attempt, stdout)
		}
		msg := err.Error()
		if !strings.Contains(msg, "numerical failure after") || !strings.Contains(msg, "not cached") {
			t.Fatalf("attempt %d: error %q does not name the numerical failure", attempt, msg)
		}
		if strings.Contains(stdout, "cached:") {
			t.Fatalf("attempt %d: a failed fit was served from the cache: %s", attempt, stdout)
		}
	}
	st, err := store.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	list, err := st.List()
	if err != nil || len(list) != 1 || list[0].State != store.StateFailed {
		t.Fatalf("store after two failed fits: %+v, %v", list, err)
	}
	if _, err := os.Stat(filepath.Join(list[0].Dir, "status.json")); err != nil {
		t.Fatal("status.json of the failed fit not recorded:", err)
	}
	if ids, _ := st.Runs(); len(ids) != 0 {
		t.Fatalf("a failed fit is listed as finished: %v", ids)
	}
}

// TestFitDamagedRunIsRecomputed is failure 8 of issue 11: after U.mtx is
// deleted from a finished run, fit computes the run again instead of
// printing "cached:", and says why.
func TestFitDamagedRunIsRecomputed(t *testing.T) {
	model := fitModel(t)
	dir := t.TempDir()
	mtx, vocab := writeTestMatrix(t, dir, 12, 9)
	out := filepath.Join(dir, "res")
	args := []string{"fit", "--model", model, "--mtx", mtx, "--vocab", vocab, "--k", "3", "--iters", "20", "--out", out}
	stdout, _, err := runTopicmf(context.Background(), args...)
	if err != nil {
		t.Fatal(err)
	}
	runDir := strings.TrimSpace(strings.TrimPrefix(stdout[strings.Index(stdout, "wrote: "):], "wrote: "))
	u, err := os.ReadFile(filepath.Join(runDir, "U.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(runDir, "U.mtx")); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := runTopicmf(context.Background(), args...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout, "cached:") || !strings.Contains(stderr, "U.mtx: missing") {
		t.Fatalf("damaged run: stdout %q stderr %q", stdout, stderr)
	}
	u2, err := os.ReadFile(filepath.Join(runDir, "U.mtx"))
	if err != nil || !bytes.Equal(u, u2) {
		t.Fatalf("recomputed U.mtx differs or is missing: %v", err)
	}
	if stdout, _, err := runTopicmf(context.Background(), args...); err != nil || !strings.HasPrefix(stdout, "cached: ") {
		t.Fatalf("third fit: %q %v", stdout, err)
	}
}

// TestFitCorpusCacheChecksArchive is failure 7 of issue 11 from the CLI: with
// the corpus in the cache, a fit whose archive was since removed or
// damaged fails naming the file instead of fitting the cached corpus.
func TestFitCorpusCacheChecksArchive(t *testing.T) {
	real := realDataDir(t)
	src := mustLookup(t, "adi")
	for _, damage := range []string{"missing", "checksum mismatch"} {
		data := copySource(t, real, src)
		archive := filepath.Join(data, "adi", "adi.tar.gz")
		out, corpusCache := t.TempDir(), t.TempDir()
		args := func(k string) []string {
			return []string{"fit", "--model", "nmf", "--k", k, "--iters", "3", "--data", "adi",
				"--data-dir", data, "--out", out, "--corpus-cache", corpusCache, "--stop", "none"}
		}
		if _, errOut, err := runTopicmf(context.Background(), args("2")...); err != nil {
			t.Fatalf("first fit: %v\n%s", err, errOut)
		}
		if damage == "missing" {
			os.Remove(archive)
		} else {
			b, _ := os.ReadFile(archive)
			b[len(b)/2] ^= 0xff
			os.WriteFile(archive, b, 0o644)
		}
		_, _, err := runTopicmf(context.Background(), args("3")...)
		if err == nil || !strings.Contains(err.Error(), "adi/adi.tar.gz: "+damage) {
			t.Fatalf("%s archive: err = %v", damage, err)
		}
	}
}
