package datasets

import (
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

func semevalPaths() []string {
	var p []string
	for _, f := range semevalFiles {
		p = append(p, f.path)
	}
	return p
}

// semevalStats summarises a collection the way the table of
// semeval2016_task3_cqa_partial/SOURCE.md does.
type semevalStats struct {
	questions, related int
	levels             map[int]int // 2 PerfectMatch, 1 Relevant, 0 Irrelevant
	categories         int
}

func semevalStatsOf(c *Collection) semevalStats {
	cats := map[string]bool{}
	for _, d := range c.Docs {
		cats[d.Class] = true
	}
	return semevalStats{len(c.Queries), len(c.Docs), irLevels(c), len(cats)}
}

// TestSemEvalPerFile reads each file alone and checks the per-file rows of
// SOURCE.md: original questions, related questions (= judged pairs),
// PerfectMatch / Relevant / Irrelevant and categories.
func TestSemEvalPerFile(t *testing.T) {
	dir := realdata.Dir(t, semevalPaths()...)
	want := []semevalStats{
		{103, 613, map[int]int{2: 90, 1: 206, 0: 317}, 24},
		{67, 670, map[int]int{2: 54, 1: 242, 0: 374}, 24},
		{50, 500, map[int]int{2: 59, 1: 155, 0: 286}, 23},
	}
	wantRange := [][2]string{{"Q1", "Q103"}, {"Q201", "Q267"}, {"Q268", "Q317"}}
	for i, f := range semevalFiles {
		c := &Collection{}
		s := &semevalState{c: c, queries: map[string]semevalQuery{}, docs: map[string]string{}, classes: map[string]bool{}}
		if err := s.readFile(filepath.Join(dir, filepath.FromSlash(f.path)), filepath.Base(f.path), f.split); err != nil {
			t.Fatal(err)
		}
		if got := semevalStatsOf(c); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("%s: %+v, want %+v", f.path, got, want[i])
		}
		if first, last := c.Queries[0].ID, c.Queries[len(c.Queries)-1].ID; first != wantRange[i][0] || last != wantRange[i][1] {
			t.Errorf("%s: questions %s..%s, want %s..%s", f.path, first, last, wantRange[i][0], wantRange[i][1])
		}
	}
}

// TestSemEval2016 checks the totals of SOURCE.md (220 questions, 1,783
// related questions and judgments, 203/603/977, 26 categories, the top
// category counts), the splits, gains, and the first and last records.
func TestSemEval2016(t *testing.T) {
	c := readReal(t, ReadSemEval2016, semevalPaths()...)
	want := semevalStats{220, 1783, map[int]int{2: 203, 1: 603, 0: 977}, 26}
	if got := semevalStatsOf(c); !reflect.DeepEqual(got, want) {
		t.Errorf("totals %+v, want %+v", got, want)
	}
	if len(c.Qrels) != 1783 || irJudgedQueries(c) != 220 {
		t.Errorf("%d judgments over %d queries, want 1783 over 220", len(c.Qrels), irJudgedQueries(c))
	}
	if len(c.Classes) != 26 || !sort.StringsAreSorted(c.Classes) {
		t.Errorf("classes %q, want 26 sorted", c.Classes)
	}
	if !reflect.DeepEqual(c.Gains, map[int]float64{2: 2, 1: 1, 0: 0}) || c.GainNote == "" {
		t.Errorf("gains %v %q", c.Gains, c.GainNote)
	}
	cats := map[string]int{}
	for _, d := range c.Docs {
		cats[d.Class]++
	}
	for name, n := range map[string]int{"Qatar Living Lounge": 495, "Family Life in Qatar": 165, "Advice and Help": 164,
		"Socialising": 141, "Visas and Permits": 136, "Moving to Qatar": 125, "Doha Shopping": 81} {
		if cats[name] != n {
			t.Errorf("category %q has %d related questions, want %d", name, cats[name], n)
		}
	}
	splits := map[string]int{}
	qsplit := map[string]string{}
	for _, q := range c.Queries {
		splits["q:"+q.Split]++
		qsplit[q.ID] = q.Split
	}
	for _, d := range c.Docs {
		splits["d:"+d.Split]++
	}
	if want := map[string]int{"q:train": 170, "q:dev": 50, "d:train": 1283, "d:dev": 500}; !reflect.DeepEqual(splits, want) {
		t.Errorf("splits %v, want %v", splits, want)
	}
	// Every document is judged once, for a query of its own split, and the
	// document id extends the query id (Q1_R4 belongs to Q1).
	docSplit := map[string]string{}
	for _, d := range c.Docs {
		docSplit[d.ID] = d.Split
	}
	for _, j := range c.Qrels {
		if docSplit[j.DocID] != qsplit[j.QueryID] || !strings.HasPrefix(j.DocID, j.QueryID+"_R") {
			t.Fatalf("judgment %+v crosses splits or threads", j)
		}
	}
	if q := c.Queries[0]; q != (Query{ID: "Q1", Text: "Good Bank\nWhich is a good bank as per your experience in Doha", Split: "train"}) {
		t.Errorf("first query %+v", q)
	}
	if q := c.Queries[219]; q != (Query{ID: "Q317", Text: "where is the best drinking in qatar for americans?\n" +
		"where is the best drinking in qatar for americans men looking to meet women?", Split: "dev"}) {
		t.Errorf("last query %+v", q)
	}
	d := c.Docs[0]
	if d.ID != "Q1_R4" || d.Title != "Best Bank" || d.Class != "Advice and Help" || d.Split != "train" ||
		!strings.HasPrefix(d.Text, "Best Bank\nHi Guys; I need to open a new bank accoount.") {
		t.Errorf("first document %+v", d)
	}
	if j := c.Qrels[0]; j != (Judgment{"Q1", "Q1_R4", 2}) {
		t.Errorf("first judgment %+v (Q1_R4 is a PerfectMatch)", j)
	}
	d = c.Docs[1782]
	if d.ID != "Q317_R23" || d.Title != "is tap water drinkable after boiling?" || d.Class != "Moving to Qatar" || d.Split != "dev" {
		t.Errorf("last document %+v", d)
	}
	// The empty bodies (9 + 26 + 5) and the repeated forum questions
	// (part 2: 291 threads, dev: 256) are reported.
	joined := strings.Join(c.Warnings, "\n")
	for _, w := range []string{"part1.v2.0.xml.gz: 9 related", "part2.xml.gz: 26 related", "dev.xml.gz: 5 related",
		"part2.xml.gz: 291 threads", "dev.xml.gz: 256 threads"} {
		if !strings.Contains(joined, w) {
			t.Errorf("warnings %q do not mention %q", c.Warnings, w)
		}
	}
}

// TestSemEvalTruncated cuts a copy of the dev file inside the XML and in
// its gzip trailer.
func TestSemEvalTruncated(t *testing.T) {
	dir := realdata.Dir(t, semevalPaths()...)
	for _, keep := range []int{300000, -3} {
		tmp, path := irTruncatedCopy(t, dir, semevalFiles[2].path, keep)
		for _, f := range semevalFiles[:2] {
			irCopyFile(t, dir, tmp, f.path)
		}
		_, err := ReadSemEval2016(tmp)
		wantErr(t, err, path, "truncated")
	}
}

const semevalFixtureHead = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE xml [
<!ELEMENT xml (OrgQuestion*)>
<!ATTLIST OrgQuestion ORGQ_ID CDATA #REQUIRED>
]>
<xml version="1.0">
`

func semevalOrg(id, subj, body string, rels ...string) string {
	s := `<OrgQuestion ORGQ_ID="` + id + `"><OrgQSubject>` + subj + `</OrgQSubject><OrgQBody>` + body + `</OrgQBody>`
	for _, r := range rels {
		s += `<Thread THREAD_SEQUENCE="x">` + r + `<RelComment RELC_ID="c"><RelCText>comment text</RelCText></RelComment></Thread>`
	}
	return s + "</OrgQuestion>\n"
}

func semevalRel(id, cat, rel, subj, body string) string {
	return `<RelQuestion RELQ_ID="` + id + `" RELQ_CATEGORY="` + cat + `" RELQ_RELEVANCE2ORGQ="` + rel + `"><RelQSubject>` +
		subj + `</RelQSubject><RelQBody>` + body + `</RelQBody></RelQuestion>`
}

// semevalFixtureDir writes the three files; part1 is given, the others hold
// no questions.
func semevalFixtureDir(t *testing.T, part1 string) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = writeFile(t, dir, semevalFiles[0].path, gzipText(t, semevalFixtureHead+part1+"</xml>\n"))
	for _, f := range semevalFiles[1:] {
		writeFile(t, dir, f.path, gzipText(t, semevalFixtureHead+"</xml>\n"))
	}
	return dir, path
}

// TestSemEvalFixture checks the mapping on a tiny file: a repeated
// OrgQuestion becomes one query, comments are ignored, entities decoded.
func TestSemEvalFixture(t *testing.T) {
	dir, _ := semevalFixtureDir(t,
		semevalOrg("Q1", "Bank?", "Which bank &amp; why", semevalRel("Q1_R1", "Advice", "PerfectMatch", "Best bank", "Tell me"))+
			semevalOrg("Q1", "Bank?", "Which bank &amp; why", semevalRel("Q1_R2", "Lounge", "Irrelevant", "Cars", ""))+
			semevalOrg("Q2", "Visa", "How long", semevalRel("Q2_R1", "Advice", "Relevant", "Visa time", "days?")))
	c, err := ReadSemEval2016(dir)
	if err != nil {
		t.Fatal(err)
	}
	wantQ := []Query{{ID: "Q1", Text: "Bank?\nWhich bank & why", Split: "train"}, {ID: "Q2", Text: "Visa\nHow long", Split: "train"}}
	wantD := []Document{
		{ID: "Q1_R1", Title: "Best bank", Text: "Best bank\nTell me", Class: "Advice", Split: "train"},
		{ID: "Q1_R2", Title: "Cars", Text: "Cars", Class: "Lounge", Split: "train"},
		{ID: "Q2_R1", Title: "Visa time", Text: "Visa time\ndays?", Class: "Advice", Split: "train"},
	}
	wantJ := []Judgment{{"Q1", "Q1_R1", 2}, {"Q1", "Q1_R2", 0}, {"Q2", "Q2_R1", 1}}
	if !reflect.DeepEqual(c.Queries, wantQ) || !reflect.DeepEqual(c.Docs, wantD) || !reflect.DeepEqual(c.Qrels, wantJ) {
		t.Errorf("got\n%+v\n%+v\n%+v", c.Queries, c.Docs, c.Qrels)
	}
	if !reflect.DeepEqual(c.Classes, []string{"Advice", "Lounge"}) || len(c.Warnings) != 1 {
		t.Errorf("classes %q warnings %q", c.Classes, c.Warnings)
	}
	// No questions at all.
	dir, _ = semevalFixtureDir(t, "")
	c, err = ReadSemEval2016(dir)
	if err != nil || len(c.Docs)+len(c.Queries)+len(c.Qrels) != 0 {
		t.Errorf("empty files: %+v, %v", c, err)
	}
}

// TestSemEvalMalformed checks errors name the file, the line of the
// OrgQuestion and what was expected.
func TestSemEvalMalformed(t *testing.T) {
	rel := semevalRel("Q1_R1", "Advice", "Relevant", "s", "b")
	cases := []struct {
		name, part1 string
		want        []string
	}{
		{"bad relevance", semevalOrg("Q1", "s", "b", semevalRel("Q1_R1", "Advice", "Good", "s", "b")),
			[]string{"line 7", "RELQ_RELEVANCE2ORGQ is \"Good\"", "expected PerfectMatch, Relevant or Irrelevant"}},
		{"inconsistent repeat", semevalOrg("Q1", "s", "b", rel) + semevalOrg("Q1", "s", "other", semevalRel("Q1_R2", "A", "Relevant", "s", "b")),
			[]string{"line 8", "ORGQ_ID Q1 repeats with a different subject or body than at line 7"}},
		{"duplicate RELQ_ID", semevalOrg("Q1", "s", "b", rel) + semevalOrg("Q2", "s", "b", rel),
			[]string{"line 8", "RELQ_ID Q1_R1 already used"}},
		{"missing ORGQ_ID", "<OrgQuestion><OrgQSubject>s</OrgQSubject></OrgQuestion>", []string{"line 7", "expected an ORGQ_ID attribute"}},
		{"missing category", semevalOrg("Q1", "s", "b", semevalRel("Q1_R1", "", "Relevant", "s", "b")), []string{"expected RELQ_ID and RELQ_CATEGORY"}},
		{"no thread", semevalOrg("Q1", "s", "b"), []string{"ORGQ_ID Q1 has no Thread"}},
		{"broken XML", "<OrgQuestion ORGQ_ID=\"Q1\"><OrgQSubject>s</OrgQBody></OrgQuestion>", []string{"line 7", "malformed XML"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, path := semevalFixtureDir(t, tc.part1)
			_, err := ReadSemEval2016(dir)
			wantErr(t, err, append([]string{path}, tc.want...)...)
		})
	}
}

// TestSemEval2016All checks the totals of SOURCE.md with the 2016 test set:
// 290 questions, 2,483 related questions and judgments, 284/755/1,444, 26
// categories, and the official split (70 test questions, Q318–Q387).
func TestSemEval2016All(t *testing.T) {
	c := readReal(t, ReadSemEval2016All, append(semevalPaths(), semevalTestFile.path)...)
	want := semevalStats{290, 2483, map[int]int{2: 284, 1: 755, 0: 1444}, 26}
	if got := semevalStatsOf(c); !reflect.DeepEqual(got, want) {
		t.Errorf("totals %+v, want %+v", got, want)
	}
	test := 0
	for _, q := range c.Queries {
		if q.Split == "test" {
			test++
		}
	}
	if c.Name != "semeval2016-all" || test != 70 || c.Queries[len(c.Queries)-1].ID != "Q387" {
		t.Errorf("%s: %d test questions, last %s; want semeval2016-all, 70, Q387", c.Name, test, c.Queries[len(c.Queries)-1].ID)
	}
}

// TestSemEvalComments reads the question–comment pairs of a tiny file: one
// pair a comment, none for a thread without comments; a truncated file and
// a thread without RELQ_ID are errors naming the file.
func TestSemEvalComments(t *testing.T) {
	const doc = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE root [<!ELEMENT root ANY>]>
<root><OrgQuestion ORGQ_ID="Q1"><OrgQSubject>s</OrgQSubject><OrgQBody>b</OrgQBody>
<Thread THREAD_SEQUENCE="Q1_R1"><RelQuestion RELQ_ID="Q1_R1" RELQ_CATEGORY="C"><RelQSubject> Bank </RelQSubject><RelQBody>which bank</RelQBody></RelQuestion>
<RelComment RELC_ID="Q1_R1_C1"><RelCText>QNB</RelCText></RelComment>
<RelComment RELC_ID="Q1_R1_C2"><RelCText>HSBC</RelCText></RelComment></Thread>
<Thread THREAD_SEQUENCE="Q1_R2"><RelQuestion RELQ_ID="Q1_R2" RELQ_CATEGORY="C"><RelQSubject>x</RelQSubject><RelQBody></RelQBody></RelQuestion></Thread>
</OrgQuestion></root>`
	dir := t.TempDir()
	path := writeFile(t, dir, "t.xml", []byte(doc))
	q, c, err := ReadSemEvalComments(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q, []string{"Bank\nwhich bank", "Bank\nwhich bank"}) || !slices.Equal(c, []string{"QNB", "HSBC"}) {
		t.Errorf("pairs %q, %q", q, c)
	}
	writeFile(t, dir, "t.xml", []byte(doc[:300]))
	_, _, err = ReadSemEvalComments(path)
	wantErr(t, err, path)
	writeFile(t, dir, "t.xml", []byte(strings.Replace(doc, ` RELQ_ID="Q1_R2"`, "", 1)))
	_, _, err = ReadSemEvalComments(path)
	wantErr(t, err, path, "Thread starting at line 7", "RelQuestion without RELQ_ID")
}
