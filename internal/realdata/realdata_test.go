package realdata

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResolveRelative: a relative TOPICMF_DATA is taken relative to the
// module root (two folders above this package), not to the package folder.
func TestResolveRelative(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(filepath.Dir(wd))
	for _, tc := range []struct{ env, want string }{
		{"", ""},
		{"../shared/datasets", filepath.Join(root, "..", "shared", "datasets")},
		{"/abs/data", "/abs/data"},
	} {
		t.Setenv(Env, tc.env)
		got, err := Resolve()
		if err != nil || got != tc.want {
			t.Errorf("Resolve with %s=%q = %q, %v; want %q", Env, tc.env, got, err, tc.want)
		}
	}
}

// TestDirSetsAbsolute: Dir returns the resolved directory and leaves
// TOPICMF_DATA absolute for code that reads it.
func TestDirSetsAbsolute(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, dir)
	if got := Dir(t, "f"); got != dir || os.Getenv(Env) != dir {
		t.Fatalf("Dir = %q, env %q; want %q", got, os.Getenv(Env), dir)
	}
}

// TestMissingFailsUnderCI runs Missing in a fake TB: it skips normally and
// fails under CI=true.
func TestMissingFailsUnderCI(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		f := &fakeTB{}
		func() {
			defer func() { _ = recover() }()
			Missing(f, "x is absent")
		}()
		if wantFail := ci == "true"; f.failed != wantFail || f.skipped == wantFail {
			t.Errorf("CI=%q: failed %v skipped %v", ci, f.failed, f.skipped)
		}
	}
}

type fakeTB struct {
	testing.TB
	failed, skipped bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true; panic("fatal") }
func (f *fakeTB) Skip(...any)           { f.skipped = true; panic("skip") }
