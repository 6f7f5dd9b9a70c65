package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// TestMovieReviewCounts checks movie_review_polarity/SOURCE.md: 2,000
// reviews, 1,000 pos and 1,000 neg, and 100 of each class per
// cross-validation fold (cv0xx..cv9xx, counted with python3 zipfile).
func TestMovieReviewCounts(t *testing.T) {
	c := readReal(t, ReadMovieReviews, MovieReviewFile)
	if c.Name != "movie-review" || len(c.Docs) != 2000 || strings.Join(c.Classes, ",") != "neg,pos" {
		t.Fatalf("%s: %d docs, classes %v", c.Name, len(c.Docs), c.Classes)
	}
	n := map[[2]string]int{}
	for _, d := range c.Docs {
		n[[2]string{d.Class, d.Split}]++
		if !strings.HasPrefix(d.ID, d.Class+"/cv"+d.Split) {
			t.Fatalf("doc %s: class %s fold %s", d.ID, d.Class, d.Split)
		}
	}
	for _, class := range []string{"neg", "pos"} {
		for f := '0'; f <= '9'; f++ {
			if got := n[[2]string{class, string(f)}]; got != 100 {
				t.Errorf("%s fold %c: %d reviews, want 100", class, f, got)
			}
		}
	}
	first := c.Docs[0]
	if first.ID != "neg/cv000_29416" || first.Class != "neg" || first.Split != "0" ||
		!strings.HasPrefix(first.Text, "plot : two teen couples go to a church party , drink and then drive . \nthey get into an accident . \n") {
		t.Errorf("first doc %s %s %s %q", first.ID, first.Class, first.Split, first.Text[:80])
	}
	if last := c.Docs[len(c.Docs)-1]; last.ID != "pos/cv999_13106" || last.Split != "9" {
		t.Errorf("last doc %s fold %s", last.ID, last.Split)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %v", c.Warnings)
	}
}

func TestMovieReviewSynthetic(t *testing.T) {
	dir := t.TempDir()
	writeTextZip(t, filepath.Join(dir, MovieReviewFile), []textMember{
		{"movie_reviews/", ""},
		{"movie_reviews/README", "read me"},
		{"movie_reviews/pos/", ""},
		{"movie_reviews/pos/cv123_456.txt", "good film .\n"},
		{"movie_reviews/neg/cv907_1.txt", "caf\xe9 scene .\n"},
	})
	c, err := ReadMovieReviews(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Document{
		{ID: "neg/cv907_1", Class: "neg", Split: "9", Text: "café scene .\n"},
		{ID: "pos/cv123_456", Class: "pos", Split: "1", Text: "good film .\n"},
	}
	if len(c.Docs) != 2 {
		t.Fatalf("docs %+v", c.Docs)
	}
	for i, w := range want {
		d := c.Docs[i]
		if d.ID != w.ID || d.Class != w.Class || d.Split != w.Split || d.Text != w.Text {
			t.Errorf("doc %d = %+v, want %+v", i, d, w)
		}
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "Latin-1") {
		t.Errorf("warnings %v", c.Warnings)
	}
}

func TestMovieReviewErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadMovieReviews(dir)
	wantErr(t, err, filepath.Join(dir, MovieReviewFile))

	for _, c := range []struct{ member, want string }{
		{"movie_reviews/unsup/cv000_1.txt", "neither pos nor neg"},
		{"movie_reviews/pos/cv000_1.html", "not a .txt"},
		{"movie_reviews/pos/review1.txt", "cvNNN_"},
		{"movie_reviews/pos/cvabc_1.txt", "cvNNN_"},
		{"movie_reviews/LICENSE", "three path elements"},
	} {
		p := filepath.Join(t.TempDir(), "m.zip")
		writeTextZip(t, p, []textMember{{c.member, "x"}})
		_, err := ReadMovieReviewArchive(p)
		wantErr(t, err, p, c.member, c.want)
	}

	p := filepath.Join(t.TempDir(), "m.zip")
	writeTextZip(t, p, []textMember{{"movie_reviews/README", "x"}})
	_, err = ReadMovieReviewArchive(p)
	wantErr(t, err, p, "no reviews")

	// A truncated copy: synthetic always, the real archive with the data.
	var members []textMember
	for i := 0; i < 30; i++ {
		members = append(members, textMember{"movie_reviews/pos/cv" + string(rune('0'+i%10)) + "00_" + strings.Repeat("1", i+1) + ".txt", strings.Repeat("a fine film . ", 300)})
	}
	full := filepath.Join(t.TempDir(), "full.zip")
	b := writeTextZip(t, full, members)
	cuts := []string{truncatedCopy(t, full, int64(len(b)/2))}
	if d, _ := realdata.Resolve(); d != "" {
		if fi, err := os.Stat(dataFilePath(d, MovieReviewFile)); err == nil {
			cuts = append(cuts, truncatedCopy(t, dataFilePath(d, MovieReviewFile), fi.Size()-100))
		}
	}
	for _, cut := range cuts {
		got, err := ReadMovieReviewArchive(cut)
		if got != nil {
			t.Errorf("%s: got a collection from a truncated archive", cut)
		}
		wantErr(t, err, cut, "zip")
	}
}
