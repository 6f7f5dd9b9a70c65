package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestErrorLine: a long error keeps its explanation (rev-cli #6: the
// reviewer's two lines come out whole), quoted inputs and run ids are
// shortened before the message itself, every line is one line of bounded
// length, and a cancellation reads "interrupted".
func TestErrorLine(t *testing.T) {
	id := "c7ffecda71721571a93d20abaae6284c9ded3fabd4f570c57a66ee233c76b5db"
	noVec := "transform: run /tmp/rev-cli/c/o/runs/" + id + " has no vectorizer.json (fitted on a Matrix Market file, or by an older topicmf): it cannot weight new text"
	noData := `tnmf2013/table1 [sttm-searchsnippets rep 0]: no data directory: none given on the command line, TOPICMF_DATA unset, and the default /home/someone/.cache/topicmf/data does not exist (run "topicmf data fetch" or point TOPICMF_DATA at the data)`
	record := strings.Repeat("lorem ipsum ", 40)
	filler := strings.TrimSpace(strings.Repeat("and then some more words ", 5))
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"no vectorizer", errors.New(noVec), "topicmf: " + noVec},
		{"no data dir", errors.New(noData), "topicmf: " + noData},
		{"quoted input", fmt.Errorf("fit: my.csv: line 3: %q: %s: want an id column", record, filler),
			`topicmf: fit: my.csv: line 3: "lorem ipsum lorem i…m ipsum lorem ipsum ": ` + filler + ": want an id column"},
		{"run id", fmt.Errorf("transform: /some/where/long/enough/runs/%s: %s %s: refitting does not reproduce U.mtx", id, filler, filler[:60]),
			"topicmf: transform: /some/where/long/enough/runs/c7ffecda7172…: " + filler + " " + filler[:60] + ": refitting does not reproduce U.mtx"},
		{"interrupted", fmt.Errorf("fit: %w", context.Canceled), "topicmf: fit: interrupted"},
		{"multi-line", errors.New("fit: a\n\tb   c"), "topicmf: fit: a b c"},
	}
	for _, c := range cases {
		if got := errorLine(c.err); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	// Too long with nothing to shorten: head and tail kept, bounded.
	long := "fit: data.txt: line 9: " + strings.Repeat("x", 500) + " is not a number"
	got := errorLine(errors.New(long))
	if n := utf8.RuneCountInString(got); n > maxErrorRunes+len("topicmf: ") ||
		!strings.HasPrefix(got, "topicmf: fit: data.txt: line 9: xxx") || !strings.HasSuffix(got, "xxx is not a number") || !strings.Contains(got, " … ") {
		t.Errorf("long message (%d runes): %s", n, got)
	}
}
