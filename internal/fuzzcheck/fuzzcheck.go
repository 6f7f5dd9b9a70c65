// Package fuzzcheck holds the properties the fuzz targets of the readers
// assert beyond "no panic": that a reader returns within a time bound (the
// native fuzzer has no per-input timeout, so a hang would otherwise stall a
// worker until the test binary's -timeout), and that an error says where
// the input went wrong.
package fuzzcheck

import (
	"regexp"
	"testing"
	"time"
)

// Bound is the time one fuzz input may take. Every input the seeds and the
// fuzzer generate is at most a few kilobytes and is read in well under a
// millisecond; 10 s leaves room for a loaded 2-core machine.
const Bound = 10 * time.Second

// Within runs f and fails t if it has not returned after Bound. A panic in
// f is re-raised in the caller's goroutine, so the fuzzer records it as a
// crash of this input.
func Within(t testing.TB, f func()) {
	t.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	select {
	case p := <-done:
		if p != nil {
			panic(p)
		}
	case <-time.After(Bound):
		t.Fatalf("did not return within %v (a hang)", Bound)
	}
}

// position matches a 1-based location in an error message: "line 12",
// "record 3", "entry 7", "byte 40", "offset 40", "member x", or "file:12:".
var position = regexp.MustCompile(`\b(line|lines|record|entry|byte|offset|member|document|query|question|row)s? [^ ]|:[0-9]+:`)

// HasPosition fails t unless err's message names a position in the input.
func HasPosition(t testing.TB, err error) {
	t.Helper()
	if err != nil && !position.MatchString(err.Error()) {
		t.Fatalf("error names no position in the input: %v", err)
	}
}

// OneLine fails t if err's message spans several lines: a reader's error
// is one line naming what and where.
func OneLine(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	for _, c := range err.Error() {
		if c == '\n' {
			t.Fatalf("error message spans several lines: %q", err.Error())
		}
	}
}
