package notebook

import (
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/internal/realdata"
)

// emptyTopics counts the columns of u without a non-zero entry.
func emptyTopics(u *mat.Dense) int {
	_, k := u.Dims()
	n := 0
	for j := range k {
		if mat.Norm(u.ColView(j), 1) == 0 {
			n++
		}
	}
	return n
}

func TestSessionExampleGivesTopics(t *testing.T) {
	// The package example (doc.go) must give real topics on Cranfield: the
	// front-end defaults of RLSI and every point of its sweep grid leave no
	// topic empty. The family's paper defaults empty every topic, and Fit
	// must say so rather than let "converged" stand alone.
	realdata.Dir(t, "cranfield/cran.tar.gz")
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		`f, err := notebook.Fit(c, "rlsi", notebook.Params{"k": "20"})`,
		`Grid: map[string][]string{"k": {"10", "20"}, "lambda1": {"0.02", "0.05"}}})`,
	} {
		if !strings.Contains(string(doc), line) {
			t.Fatalf("doc.go no longer has the example line %s: update this test with it", line)
		}
	}
	c, err := Load("cranfield")
	if err != nil {
		t.Fatal(err)
	}
	var md []string
	DisplayMarkdown = func(s string) { md = append(md, s) }
	defer func() { DisplayMarkdown = nil }()
	for _, k := range []string{"10", "20"} {
		for _, l1 := range []string{"0.02", "0.05"} {
			f, err := Fit(c, "rlsi", Params{"k": k, "lambda1": l1})
			if err != nil {
				t.Fatal(err)
			}
			if e := emptyTopics(f.Model.TermTopics()); e != 0 || len(f.Notes) != 0 {
				t.Errorf("k=%s lambda1=%s: %d empty topics, notes %q", k, l1, e, f.Notes)
			}
			if k == "20" && l1 == "0.05" {
				if r, err := Rank(f, "what similarity laws apply to hypersonic flow", 10); err != nil || r.Nrow() != 10 || r.Elem(0, 2).Float() <= 0 {
					t.Errorf("the example's Rank: %v, %v", r, err)
				}
			}
		}
	}
	if len(md) != 0 {
		t.Errorf("fits with topics showed %q", md)
	}
	f, err := Fit(c, "rlsi", Params{"k": "20", "lambda1": "0.5", "lambda-scale": "absolute", "init-scale": "unit"})
	if err != nil {
		t.Fatal(err)
	}
	if e := emptyTopics(f.Model.TermTopics()); e != 20 {
		t.Fatalf("the paper's defaults: %d of 20 topics empty; this test expects all (update it if the defaults changed)", e)
	}
	if len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "every topic of this rlsi fit is empty") ||
		len(md) != 1 || !strings.Contains(md[0], f.Notes[0]) || !strings.Contains(f.Summary(), f.Notes[0]) {
		t.Errorf("all topics empty: notes %q, shown %q, summary %q", f.Notes, md, f.Summary())
	}
}
