package datasets

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// TestStopWordsReal checks the list sizes and first words stated in
// datasets/stopwords/SOURCE.md.
func TestStopWordsReal(t *testing.T) {
	dir := realdata.Dir(t, "stopwords")
	tests := []struct {
		list  string
		n     int
		first []string
	}{
		{StopSMART, 571, []string{"a", "a's", "able"}},
		{StopCACM, 429, []string{"a", "about", "above"}},
		{StopNLTK, 179, []string{"i", "me", "my"}},
		{StopTerrier, 733, []string{"x", "y", "your"}},
	}
	for _, tc := range tests {
		words, err := StopWords(dir, tc.list)
		if err != nil {
			t.Fatalf("%s: %v", tc.list, err)
		}
		if len(words) != tc.n {
			t.Errorf("%s: %d words, want %d", tc.list, len(words), tc.n)
		}
		if len(words) >= 3 && strings.Join(words[:3], " ") != strings.Join(tc.first, " ") {
			t.Errorf("%s: starts %q, want %q", tc.list, words[:3], tc.first)
		}
	}
	c, err := readStopLists(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != 4 || c.Docs[0].ID != StopSMART || len(c.Queries) != 0 || len(c.Qrels) != 0 || len(c.Warnings) == 0 {
		t.Fatalf("stopwords collection: %d docs, first %q, %d warnings", len(c.Docs), c.Docs[0].ID, len(c.Warnings))
	}
	if got := len(strings.Split(c.Docs[0].Text, "\n")); got != 571 {
		t.Errorf("SMART document has %d lines, want 571", got)
	}
}

func TestStopWordsErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := StopWords(dir, "lucene"); err == nil || !strings.Contains(err.Error(), "lucene") {
		t.Errorf("unknown list: err = %v", err)
	}
	if _, err := StopWords(dir, StopTerrier); err == nil || !strings.Contains(err.Error(), "terrier_stopword-list.txt") {
		t.Errorf("missing file: err = %v", err)
	}
	writeFile(t, dir, "stopwords/smart_english.stop.turian", []byte("\na\nabout\n"))
	if _, err := StopWords(dir, StopSMART); err == nil || !strings.Contains(err.Error(), "line 2:") {
		t.Errorf("SMART file without the 8 added lines: err = %v", err)
	}
	writeFile(t, dir, "stopwords/smart_english.stop.turian", []byte("'d\n'll\n'm\n'n\nn't\n're\n's\n've\n\nx\ny\n"))
	if _, err := StopWords(dir, StopSMART); err == nil || !strings.Contains(err.Error(), `line 10: expected the SMART list to start with "a"`) {
		t.Errorf("SMART file whose list does not start with \"a\": err = %v", err)
	}
	writeFile(t, dir, "stopwords/cacm_smart_common_words", []byte("a\ntwo words\n"))
	if _, err := StopWords(dir, StopCACM); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("two words on a line: err = %v", err)
	}
	writeFile(t, dir, "stopwords/nltk_stopwords.zip", zipBytes(t, textMember{"stopwords/french", "le\n"}))
	if _, err := StopWords(dir, StopNLTK); err == nil || !strings.Contains(err.Error(), "stopwords/english") {
		t.Errorf("zip without english: err = %v", err)
	}
	writeFile(t, dir, "stopwords/nltk_stopwords.zip", []byte("PK\x03\x04 truncated"))
	if _, err := StopWords(dir, StopNLTK); err == nil || !strings.Contains(err.Error(), "nltk_stopwords.zip") {
		t.Errorf("corrupt zip: err = %v", err)
	}
	// Sizes 0 and 1.
	writeFile(t, dir, "stopwords/terrier_stopword-list.txt", nil)
	if w, err := StopWords(dir, StopTerrier); err != nil || len(w) != 0 {
		t.Errorf("empty list: %q, %v", w, err)
	}
	writeFile(t, dir, "stopwords/terrier_stopword-list.txt", []byte(" the \r\n"))
	if w, err := StopWords(dir, StopTerrier); err != nil || len(w) != 1 || w[0] != "the" {
		t.Errorf("one-word list: %q, %v", w, err)
	}
}

// StopListFile gives each list its staged file, and an unknown name an
// error listing the known ones.
func TestStopListFile(t *testing.T) {
	want := map[string]string{
		StopSMART:   "stopwords/smart_english.stop.turian",
		StopCACM:    "stopwords/cacm_smart_common_words",
		StopNLTK:    "stopwords/nltk_stopwords.zip",
		StopTerrier: "stopwords/terrier_stopword-list.txt",
	}
	for name, path := range want {
		if f, err := StopListFile(name); err != nil || f.Path != path {
			t.Errorf("StopListFile(%q) = %q, %v; want %q", name, f.Path, err, path)
		}
	}
	if _, err := StopListFile("klingon"); err == nil || !strings.Contains(err.Error(), "smart, cacm, nltk, terrier") {
		t.Errorf("unknown list: %v", err)
	}
}
