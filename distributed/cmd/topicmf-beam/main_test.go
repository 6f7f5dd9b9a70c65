package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mainArgsEnv, when set, makes the test binary run main with these
// (newline-separated) arguments instead of the tests, so that a test can
// run the command as a user does.
const mainArgsEnv = "TOPICMF_BEAM_TEST_MAIN_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(mainArgsEnv); ok {
		os.Args = append([]string{"topicmf-beam"}, strings.Split(args, "\n")...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runMain runs the command with args in a child process and returns what
// it printed (standard output and error) and its error.
func runMain(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+strings.Join(args, "\n"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestHelp: --help (and -h, and fit -h, which parses Beam's flags) print
// the tool's usage and every command's flags before Beam's flags, and exit 0.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"fit", "-h"}} {
		out, err := runMain(t, args...)
		if err != nil {
			t.Fatalf("%q: %v\n%s", args, err, out)
		}
		var at []int
		for _, want := range []string{
			"topicmf-beam convert --data", "topicmf-beam export --run",
			"convert flags:", "\n  -mtx", "fit flags:", "\n  -lambda-scale", "export flags:", "\n  -run string",
			"Beam flags", "\n  -environment_type",
		} {
			i := strings.Index(out, want)
			if i < 0 {
				t.Fatalf("%q: help lacks %q:\n%s", args, want, out)
			}
			at = append(at, i)
		}
		for i := 1; i < len(at); i++ {
			if at[i] < at[i-1] {
				t.Errorf("%q: help is out of order (usage, convert, fit, export, Beam):\n%s", args, out)
			}
		}
		// fit's flags are not listed a second time among Beam's.
		if beam := out[strings.Index(out, "Beam flags"):]; strings.Contains(beam, "\n  -lambda-scale") {
			t.Errorf("%q: fit's flags listed among Beam's:\n%s", args, beam)
		}
	}
	var b bytes.Buffer
	if err := run(context.Background(), "help", nil, &b); err != nil || !strings.Contains(b.String(), "convert flags:") {
		t.Errorf("help command: %v\n%s", err, b.String())
	}
	// convert -h and export -h: the usage and that command's flags, exit 0.
	for _, c := range []struct{ cmd, flag string }{{"convert", "\n  -mtx"}, {"export", "\n  -run string"}} {
		out, err := runMain(t, c.cmd, "-h")
		if err != nil || !strings.Contains(out, "topicmf-beam convert --data") || !strings.Contains(out, c.cmd+" flags:") ||
			!strings.Contains(out, c.flag) || strings.Contains(out, "help requested") {
			t.Errorf("%s -h: %v\n%s", c.cmd, err, out)
		}
	}
}

// TestExportRemoteOut: export writes locally too; a URL as export --out or
// fit --export fails at once with one line, fit's before any fitting.
func TestExportRemoteOut(t *testing.T) {
	var b bytes.Buffer
	err := run(context.Background(), "export", []string{"--run", filepath.Join(t.TempDir(), "missing"), "--out", "gs://bucket/factors"}, &b)
	if err == nil || !strings.Contains(err.Error(), "gs://bucket/factors") || !strings.Contains(err.Error(), "local directory") || strings.Contains(err.Error(), "\n") {
		t.Errorf("export --out gs://: err = %v, want one line saying export writes locally", err)
	}
	out, err := runMain(t, "fit", "--corpus", filepath.Join(t.TempDir(), "missing"), "--out", t.TempDir(), "--export", "s3://bucket/factors")
	if err == nil || !strings.Contains(out, "fit --export s3://bucket/factors") || !strings.Contains(out, "local directory") {
		t.Errorf("fit --export s3://: err = %v, want the local-directory error before the fit:\n%s", err, out)
	}
}

// TestConvertRemoteOut: convert writes locally; a URL as --out fails at
// once with one line saying so, before any data is read.
func TestConvertRemoteOut(t *testing.T) {
	for _, dst := range []string{"gs://bucket/corpus", "s3://bucket/corpus"} {
		var b bytes.Buffer
		err := run(context.Background(), "convert", []string{"--data", filepath.Join(t.TempDir(), "missing.jsonl"), "--out", dst}, &b)
		if err == nil || !strings.Contains(err.Error(), dst) || !strings.Contains(err.Error(), "local directory") ||
			!strings.Contains(err.Error(), "upload") || strings.Contains(err.Error(), "\n") {
			t.Errorf("--out %s: err = %v, want one line saying convert writes locally and the directory must be uploaded", dst, err)
		}
	}
}

// TestConvertData: a TSV of one's own converts with no data directory (as
// topicmf fit --data reads it), and a registered collection whose file is
// not the registered one (here ADI's archive recompressed: the same
// documents, other bytes) is refused with the file named, as topicmf fit
// refuses it.
func TestConvertData(t *testing.T) {
	tmp := t.TempDir()
	registered := os.Getenv("TOPICMF_DATA") // the staged collections, for the second half
	t.Setenv("TOPICMF_DATA", filepath.Join(tmp, "no-such-dir"))
	tsv := filepath.Join(tmp, "my.tsv")
	if err := os.WriteFile(tsv, []byte("id\ttext\nd1\tapple banana apple\nd2\tbanana cherry\nd3\tcherry apple\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := run(context.Background(), "convert", []string{"--data", tsv, "--out", filepath.Join(tmp, "corpus")}, &b); err != nil {
		t.Fatalf("convert --data my.tsv without a data directory: %v", err)
	}
	if !strings.Contains(b.String(), "× 3 documents") {
		t.Errorf("convert printed %q, want 3 documents", b.String())
	}

	if registered == "" {
		t.Skip("TOPICMF_DATA is not set: skipping the registered-collection half")
	}
	raw, err := os.ReadFile(filepath.Join(registered, "adi", "adi.tar.gz"))
	if err != nil {
		t.Skipf("ADI is not staged in %s: %v", registered, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var re bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&re, gzip.BestSpeed)
	if _, err := io.Copy(zw, zr); err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	data := filepath.Join(tmp, "data")
	os.MkdirAll(filepath.Join(data, "adi"), 0o755)
	if err := os.WriteFile(filepath.Join(data, "adi", "adi.tar.gz"), re.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), "convert", []string{"--data", "adi", "--data-dir", data, "--out", filepath.Join(tmp, "adi")}, &b)
	if err == nil || !strings.Contains(err.Error(), "adi/adi.tar.gz: size mismatch") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("convert --data adi with a recompressed archive: err = %v, want one line naming the file's mismatch", err)
	}
	if _, serr := os.Stat(filepath.Join(tmp, "adi")); serr == nil {
		t.Error("convert wrote the corpus of an unverified collection")
	}
}
