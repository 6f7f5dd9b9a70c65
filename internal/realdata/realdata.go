// Package realdata locates the data directory for the module's tests.
//
// Tests that read a real collection take it from $TOPICMF_DATA. `go test
// ./...` runs each package in its own folder, so a relative value such as
// the README's ../shared/datasets is resolved against the module root (the
// folder holding go.mod), not against the package folder. A test whose data
// is missing skips with a message naming what is missing; under CI=true it
// fails instead, so that a green CI means the real-data tests ran.
package realdata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Env is the environment variable naming the data directory
// (datasets.EnvDataDir; repeated here so that the datasets package's own
// tests can use this package without an import cycle).
const Env = "TOPICMF_DATA"

// Dir returns the absolute data directory of the tests and checks that each
// of need (paths relative to it, slash-separated) exists. When TOPICMF_DATA
// is unset or a needed file is absent it skips the test — or fails it under
// CI=true — naming what is missing. It also sets TOPICMF_DATA to the
// absolute path for the rest of the test (tb.Setenv), so that code reading
// the variable itself (datasets.DataDir) sees the same directory.
func Dir(tb testing.TB, need ...string) string {
	tb.Helper()
	dir, err := Resolve()
	if err != nil {
		tb.Fatal(err)
	}
	if dir == "" {
		Missing(tb, "%s is not set; this test needs %s", Env, strings.Join(need, ", "))
	}
	for _, rel := range need {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			Missing(tb, "%s is absent from %s=%s", rel, Env, dir)
		}
	}
	if os.Getenv(Env) != dir {
		tb.Setenv(Env, dir)
	}
	return dir
}

// Resolve returns $TOPICMF_DATA as an absolute path, a relative value being
// taken relative to the module root; "" when the variable is unset.
func Resolve() (string, error) {
	dir := os.Getenv(Env)
	if dir == "" || filepath.IsAbs(dir) {
		return dir, nil
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", fmt.Errorf("%s=%s is relative: %w", Env, dir, err)
	}
	return filepath.Join(root, dir), nil
}

// ModuleRoot is the nearest folder at or above the working directory that
// holds a go.mod file.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod in the working directory or above it")
		}
		dir = parent
	}
}

// InCI reports whether the tests run under CI (CI=true), where missing data
// is a failure.
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing skips the test with the formatted message, or fails it under
// CI=true.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("%s (CI=true: real-data tests must not skip)", msg)
	}
	tb.Skip(msg)
}
