package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// TestNewsgroupsCounts checks the staged 20news-bydate archive against the
// counts in 20newsgroups/SOURCE.md (which match Rennie's bydate release).
func TestNewsgroupsCounts(t *testing.T) {
	c := readReal(t, ReadNewsgroups, NewsgroupsFile)
	if c.Name != "20newsgroups" {
		t.Errorf("Name = %q", c.Name)
	}
	split := map[string]int{}
	perClass := map[[2]string]int{}
	for _, d := range c.Docs {
		split[d.Split]++
		perClass[[2]string{d.Class, d.Split}]++
		if want := d.Split + "/" + d.Class + "/"; !strings.HasPrefix(d.ID, want) {
			t.Fatalf("doc %s: ID does not start with %s", d.ID, want)
		}
	}
	if len(c.Docs) != 18846 || split["train"] != 11314 || split["test"] != 7532 || len(split) != 2 {
		t.Errorf("docs %d, splits %v; want 18,846 = 11,314 train + 7,532 test", len(c.Docs), split)
	}
	if len(c.Classes) != 20 {
		t.Errorf("%d classes, want 20: %v", len(c.Classes), c.Classes)
	}
	for _, w := range []struct {
		class       string
		train, test int
	}{
		{"alt.atheism", 480, 319},
		{"comp.graphics", 584, 389},
		{"soc.religion.christian", 599, 398},
		{"talk.religion.misc", 377, 251},
	} {
		tr, te := perClass[[2]string{w.class, "train"}], perClass[[2]string{w.class, "test"}]
		if tr != w.train || te != w.test {
			t.Errorf("%s: %d train / %d test, want %d / %d", w.class, tr, te, w.train, w.test)
		}
	}
	// Sorted: train before test, then newsgroup, then message number.
	first := c.Docs[0]
	if first.ID != "train/alt.atheism/49960" || first.Class != "alt.atheism" || first.Split != "train" {
		t.Errorf("first doc %s (%s, %s), want train/alt.atheism/49960", first.ID, first.Class, first.Split)
	}
	if first.Title != "Alt.Atheism FAQ: Atheist Resources" {
		t.Errorf("first doc Title %q", first.Title)
	}
	if want := "Alt.Atheism FAQ: Atheist Resources\n\nArchive-name: atheism/resources\n"; !strings.HasPrefix(first.Text, want) {
		t.Errorf("first doc Text starts %q, want %q", first.Text[:min(80, len(first.Text))], want)
	}
	if last := c.Docs[len(c.Docs)-1]; !strings.HasPrefix(last.ID, "test/talk.religion.misc/") {
		t.Errorf("last doc %s, want a test/talk.religion.misc message", last.ID)
	}
	// Headers other than Subject are gone (the bodies quote "From:" lines
	// often, so look only at the text before the blank line).
	for _, d := range c.Docs {
		head, _, _ := strings.Cut(d.Text, "\n\n")
		if strings.HasPrefix(head, "From:") || strings.Contains(head, "\nLines:") || strings.Contains(head, "Organization:") {
			t.Fatalf("doc %s still has headers: %q", d.ID, head)
		}
	}
	// SOURCE.md: every staged file decodes as UTF-8, so no Latin-1 warning.
	for _, w := range c.Warnings {
		if strings.Contains(w, "Latin-1") {
			t.Errorf("unexpected warning %q", w)
		}
	}
}

// TestNewsgroupsTruncatedArchive reads a copy of the real archive cut in
// half: it must fail with an error naming the file, not panic or return a
// partial collection.
func TestNewsgroupsTruncatedArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the truncated copy of the real 20 Newsgroups archive")
	}
	dir := realdata.Dir(t, NewsgroupsFile)
	src := dataFilePath(dir, NewsgroupsFile)
	fi, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	cut := truncatedCopy(t, src, fi.Size()/2)
	c, err := ReadNewsgroupsArchive(cut, NewsgroupsOptions{})
	if c != nil {
		t.Errorf("got a collection of %d docs from a truncated archive", len(c.Docs))
	}
	wantErr(t, err, cut, "truncated")
}

// TestNewsgroupsSynthetic covers the message quirks on a hand-made archive.
func TestNewsgroupsSynthetic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, NewsgroupsFile)
	writeTextTarGz(t, path, []textMember{
		// Test before train in the archive: the reader sorts.
		{"20news-bydate-test/sci.space/10", "From: a@b\nSubject: Orbits\nLines: 2\n\nLow orbit.\n"},
		// Subject continuation line (a stripped References leftover), CRLF
		// header lines, Latin-1 byte in the body.
		{"20news-bydate-train/sci.space/9", "Subject: Re: Mars\r\n <123@host>\r\nFrom: x\r\n\r\nCaf\xe9 on Mars.\n"},
		// Numeric order: 9 before 10 before 100.
		{"20news-bydate-train/sci.space/100", "Subject: Later\n\nBody\n\nwith blank lines.\n"},
		{"20news-bydate-train/sci.space/10", "From: c@d\nSubject:   Spaced subject  \n\nBody ten.\n"},
		// No Subject; an indented first header line.
		{"20news-bydate-train/alt.atheism/5", " host!path\nFrom: e@f\n\nNo subject here.\n"},
		// No blank line at all: headers only.
		{"20news-bydate-train/alt.atheism/6", "Subject: Only headers\nFrom: g@h\n"},
		// Empty message.
		{"20news-bydate-train/alt.atheism/7", ""},
		{"20news-bydate-test/.DS_Store", "junk"},
	})
	c, err := ReadNewsgroups(dir)
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ id, class, split, title, text string }
	wants := []want{
		{"train/alt.atheism/5", "alt.atheism", "train", "", "No subject here.\n"},
		{"train/alt.atheism/6", "alt.atheism", "train", "Only headers", "Only headers\n\n"},
		{"train/alt.atheism/7", "alt.atheism", "train", "", ""},
		{"train/sci.space/9", "sci.space", "train", "Re: Mars", "Re: Mars\n\nCafé on Mars.\n"},
		{"train/sci.space/10", "sci.space", "train", "Spaced subject", "Spaced subject\n\nBody ten.\n"},
		{"train/sci.space/100", "sci.space", "train", "Later", "Later\n\nBody\n\nwith blank lines.\n"},
		{"test/sci.space/10", "sci.space", "test", "Orbits", "Orbits\n\nLow orbit.\n"},
	}
	if len(c.Docs) != len(wants) {
		t.Fatalf("%d docs, want %d", len(c.Docs), len(wants))
	}
	for i, w := range wants {
		d := c.Docs[i]
		if d.ID != w.id || d.Class != w.class || d.Split != w.split || d.Title != w.title || d.Text != w.text {
			t.Errorf("doc %d = %+v, want %+v", i, d, w)
		}
	}
	if strings.Join(c.Classes, ",") != "alt.atheism,sci.space" {
		t.Errorf("Classes %v", c.Classes)
	}
	warn := strings.Join(c.Warnings, "\n")
	for _, w := range []string{"1 messages were not valid UTF-8", "1 hidden files", "2 messages have no Subject", "2 messages have no blank line"} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings %q lack %q", warn, w)
		}
	}

	// KeepHeaders keeps the message whole (decoded).
	k, err := ReadNewsgroupsArchive(path, NewsgroupsOptions{KeepHeaders: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := k.Docs[3].Text; got != "Subject: Re: Mars\r\n <123@host>\r\nFrom: x\r\n\r\nCafé on Mars.\n" {
		t.Errorf("KeepHeaders text %q", got)
	}
	if k.Docs[3].Title != "Re: Mars" {
		t.Errorf("KeepHeaders title %q", k.Docs[3].Title)
	}
}

func TestNewsgroupsErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadNewsgroups(dir)
	wantErr(t, err, filepath.Join(dir, NewsgroupsFile))

	for _, c := range []struct {
		member, want string
	}{
		{"20news-bydate-dev/sci.space/1", "top directory"},
		{"20news-bydate-train/sci.space/1a", "not a number"},
		{"20news-bydate-train/1", "three path elements"},
		{"20news-bydate-train/a/b/1", "three path elements"},
	} {
		p := filepath.Join(t.TempDir(), "ng.tar.gz")
		writeTextTarGz(t, p, []textMember{{c.member, "Subject: x\n\ny\n"}})
		_, err := ReadNewsgroupsArchive(p, NewsgroupsOptions{})
		wantErr(t, err, p, c.member, c.want)
	}

	// An archive with no messages.
	p := filepath.Join(t.TempDir(), "empty.tar.gz")
	writeTextTarGz(t, p, nil)
	_, err = ReadNewsgroupsArchive(p, NewsgroupsOptions{})
	wantErr(t, err, p, "no messages")

	// Not gzip at all.
	p = filepath.Join(t.TempDir(), "plain.tar.gz")
	if err := os.WriteFile(p, []byte("not an archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadNewsgroupsArchive(p, NewsgroupsOptions{})
	wantErr(t, err, p, "gzip")

	// A synthetic archive cut inside its compressed stream.
	members := []textMember{}
	for i := 0; i < 50; i++ {
		members = append(members, textMember{
			"20news-bydate-train/sci.space/" + string(rune('1'+i%9)) + strings.Repeat("0", i/9),
			"Subject: s\n\n" + strings.Repeat("orbit launch ", 200+i),
		})
	}
	full := filepath.Join(t.TempDir(), "full.tar.gz")
	b := writeTextTarGz(t, full, members)
	cut := truncatedCopy(t, full, int64(len(b)*2/3))
	got, err := ReadNewsgroupsArchive(cut, NewsgroupsOptions{})
	if got != nil {
		t.Error("truncated archive gave a collection")
	}
	wantErr(t, err, cut, "truncated")
}

// BenchmarkReadNewsgroups times a full read of the staged archive
// (go test -run - -bench ReadNewsgroups -benchtime 3x).
func BenchmarkReadNewsgroups(b *testing.B) {
	dir := realdata.Dir(b, NewsgroupsFile)
	for b.Loop() {
		if _, err := ReadNewsgroups(dir); err != nil {
			b.Fatal(err)
		}
	}
}
