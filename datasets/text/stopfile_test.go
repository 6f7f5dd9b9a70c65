package text

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
)

// TestStopSpec: a list name, a file, and LIST+FILE; the file's words are
// removed by the pipeline as the list's are.
func TestStopSpec(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mystop.txt")
	os.WriteFile(file, []byte("quot\nhref\n"), 0o644)
	for _, tc := range []struct {
		spec, list string
		extra      []string
	}{
		{"smart", "smart", nil},
		{"none", "none", nil},
		{file, StopNone, []string{"quot", "href"}},
		{"smart+" + file, StopSMART, []string{"quot", "href"}},
	} {
		list, extra, err := StopSpec(tc.spec)
		if err != nil || list != tc.list || !reflect.DeepEqual(extra, tc.extra) {
			t.Errorf("StopSpec(%q) = %q %q %v; want %q %q", tc.spec, list, extra, err, tc.list, tc.extra)
		}
	}
	if _, _, err := StopSpec("klingon"); err == nil || !strings.Contains(err.Error(), "neither a stop list") {
		t.Errorf("unknown: %v", err)
	}
	list, extra, _ := StopSpec("smart+" + file)
	col := &datasets.Collection{Name: "c", Docs: []datasets.Document{
		{ID: "1", Text: "the quot rocket href launch"}, {ID: "2", Text: "a quot rocket orbit"}}}
	c, _, err := Build(col, Options{StopList: list, ExtraStopWords: extra, MinDF: 1, MaxDF: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"launch", "orbit", "rocket"}; !reflect.DeepEqual(c.Vocab, want) {
		t.Errorf("vocabulary %q, want %q (SMART's \"the\", \"a\" and the file's words removed)", c.Vocab, want)
	}
}

// TestVocabularyWarningOnlyWhenItMatters: pruning the terms of one
// document (MinDF 2) is a warning only when the pruned terms held more
// than PrunedTokensWarn of the tokens; the counts are in the report
// either way.
func TestVocabularyWarningOnlyWhenItMatters(t *testing.T) {
	// 10 documents of "rocket orbit" and one rare term: 1 of 21 tokens pruned.
	var docs []datasets.Document
	for i := range 10 {
		docs = append(docs, datasets.Document{ID: string(rune('a' + i)), Text: "rocket orbit"})
	}
	docs[0].Text += " zeppelin"
	_, rep, err := Build(&datasets.Collection{Name: "c", Docs: docs}, Options{MaxDF: 1, Weighting: WeightTF})
	if err != nil {
		t.Fatal(err)
	}
	if rep.PrunedMinDF != 1 || rep.PrunedTokens != 1 || len(rep.Warnings) != 0 {
		t.Errorf("1 of 21 tokens pruned: PrunedMinDF %d, PrunedTokens %d, warnings %q; want 1, 1, none", rep.PrunedMinDF, rep.PrunedTokens, rep.Warnings)
	}
	// Half the tokens in single-document terms: a warning.
	docs[1].Text += " blimp dirigible airship kite balloon glider"
	_, rep, err = Build(&datasets.Collection{Name: "c", Docs: docs}, Options{MaxDF: 1, Weighting: WeightTF})
	if err != nil {
		t.Fatal(err)
	}
	want := "vocabulary: 2 of 9 terms kept, 26% of the tokens pruned (7 terms below MinDF 2, 0 above MaxDF 1, 0 beyond MaxVocab 0)"
	if len(rep.Warnings) != 1 || rep.Warnings[0] != want {
		t.Errorf("7 of 27 tokens pruned: warnings %q, want %q", rep.Warnings, want)
	}
}
