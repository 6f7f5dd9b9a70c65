package ir

import "testing"

func TestCoverage(t *testing.T) {
	qrels := Qrels{"1": {"d1": 1, "d9": 1}, "2": {"d2": 0}, "7": {"d3": 1}}
	if w := Coverage(qrels, []string{"1", "2", "7"}, []string{"d1", "d2", "d3", "d9"}); w != "" {
		t.Errorf("all covered: %q", w)
	}
	got := Coverage(qrels, []string{"1", "2", "3"}, []string{"d1", "d2", "d3"})
	want := "qrels: 1 of the 4 judged documents is not in the collection (the first: d9); 1 of the 3 queries has no judgments (the first: 3); 1 judged query is not among the queries (the first: 7)"
	if got != want {
		t.Errorf("Coverage =\n%q\nwant\n%q", got, want)
	}
	// Without query ids, only the documents are checked.
	if got, want := Coverage(qrels, nil, []string{"d1", "d2", "d3"}), "qrels: 1 of the 4 judged documents is not in the collection (the first: d9)"; got != want {
		t.Errorf("Coverage without queries = %q, want %q", got, want)
	}
	// Judgments naming documents by position: nothing matches.
	got = Coverage(Qrels{"1": {"1": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1}}, []string{"1"}, []string{"AP-1", "AP-2"})
	want = "qrels: 6 of the 6 judged documents are not in the collection (the first: 1, 2, 3, 4, 5, …); no judged document is in the collection: do the qrels name documents by the collection's ids?"
	if got != want {
		t.Errorf("Coverage =\n%q\nwant\n%q", got, want)
	}
}
