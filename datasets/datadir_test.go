package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDataDir(t *testing.T) {
	existing := t.TempDir()
	missing := filepath.Join(existing, "nope")
	file := filepath.Join(existing, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	envDir := t.TempDir()

	tests := []struct {
		name, flag, env string
		want            string
		errHas          []string
	}{
		{name: "flag wins over env", flag: existing, env: envDir, want: existing},
		{name: "env when no flag", env: envDir, want: envDir},
		{name: "flag missing", flag: missing, env: envDir, errHas: []string{missing, "--data", "does not exist"}},
		{name: "env missing", env: missing, errHas: []string{missing, "TOPICMF_DATA", "does not exist"}},
		{name: "not a directory", flag: file, errHas: []string{file, "not a directory"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvDataDir, tc.env)
			got, err := DataDir(tc.flag)
			if tc.errHas != nil {
				if err == nil {
					t.Fatalf("DataDir(%q) = %q, want error", tc.flag, got)
				}
				wantErr(t, err, tc.errHas...)
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("DataDir(%q) = %q, %v; want %q", tc.flag, got, err, tc.want)
			}
		})
	}
}

func TestDataDirDefault(t *testing.T) {
	t.Setenv(EnvDataDir, "")
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Unix
	t.Setenv("HOME", cache)           // and on macOS
	dir, origin, err := LocateDataDir("")
	if err != nil {
		t.Fatal(err)
	}
	if origin != "default" || !strings.HasSuffix(dir, filepath.Join("topicmf", "data")) {
		t.Fatalf("LocateDataDir() = %q, %q; want the per-user default", dir, origin)
	}
	_, err = DataDir("")
	if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "TOPICMF_DATA") {
		t.Fatalf("DataDir with absent default: err = %v; want one naming %s and TOPICMF_DATA", err, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := DataDir(""); err != nil || got != dir {
		t.Fatalf("DataDir(\"\") = %q, %v; want %q", got, err, dir)
	}
}
