package datasets

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
)

// smartWant holds the counts stated in a collection's SOURCE.md.
type smartWant struct {
	docs, queries, qrels, judged int
	levels                       map[int]int
}

func checkSMARTCounts(t *testing.T, c *Collection, w smartWant) {
	t.Helper()
	if len(c.Docs) != w.docs || len(c.Queries) != w.queries || len(c.Qrels) != w.qrels {
		t.Errorf("%s: %d docs, %d queries, %d judgments; want %d, %d, %d",
			c.Name, len(c.Docs), len(c.Queries), len(c.Qrels), w.docs, w.queries, w.qrels)
	}
	if got := irJudgedQueries(c); got != w.judged {
		t.Errorf("%s: %d judged queries, want %d", c.Name, got, w.judged)
	}
	if got := irLevels(c); !reflect.DeepEqual(got, w.levels) {
		t.Errorf("%s: levels %v, want %v", c.Name, got, w.levels)
	}
	// Document ids are 1..n in file order in all four collections.
	for i, d := range c.Docs {
		if d.ID != strconv.Itoa(i+1) {
			t.Fatalf("%s: document %d has id %q", c.Name, i, d.ID)
		}
		if d.Text != "" && !strings.HasPrefix(d.Text, d.Title) {
			t.Fatalf("%s: document %s text does not start with its title", c.Name, d.ID)
		}
		if strings.Contains(d.Text, "\r") {
			t.Fatalf("%s: document %s keeps a CR", c.Name, d.ID)
		}
	}
	for _, q := range c.Queries {
		if strings.Contains(q.Text, "\r") || q.Text == "" {
			t.Fatalf("%s: query %s is empty or keeps a CR: %q", c.Name, q.ID, q.Text)
		}
	}
	if len(c.Classes) != 0 {
		t.Errorf("%s: classes %v, want none", c.Name, c.Classes)
	}
}

// TestCranfield checks cranfield/SOURCE.md: 1400 docs, 225 queries, 1837
// judgments with codes 1:128 2:387 3:734 4:363 -1:225 (one -1 per query),
// queries numbered by position, the empty documents 471 and 995, and the
// text of the first and last records.
func TestCranfield(t *testing.T) {
	c := readReal(t, ReadCranfield, "cranfield/cran.tar.gz")
	checkSMARTCounts(t, c, smartWant{1400, 225, 1837, 225, map[int]int{1: 128, 2: 387, 3: 734, 4: 363, -1: 225}})
	for i, q := range c.Queries {
		if q.ID != strconv.Itoa(i+1) {
			t.Fatalf("query %d has id %q, want its position %d", i, q.ID, i+1)
		}
	}
	minus := map[string]int{}
	for _, j := range c.Qrels {
		if j.Level == -1 {
			minus[j.QueryID]++
		}
	}
	if len(minus) != 225 {
		t.Errorf("%d queries have a -1 judgment, want all 225", len(minus))
	}
	wantGains := map[int]float64{1: 4, 2: 3, 3: 2, 4: 1, -1: 0}
	if !reflect.DeepEqual(c.Gains, wantGains) || !strings.Contains(c.GainNote, "5 - code") {
		t.Errorf("gains %v (%q), want %v", c.Gains, c.GainNote, wantGains)
	}
	// First and last judgments of cranqrel: "1 184 2" and "225 1188 -1".
	if j := c.Qrels[0]; j != (Judgment{"1", "184", 2}) {
		t.Errorf("first judgment %+v", j)
	}
	if j := c.Qrels[len(c.Qrels)-1]; j != (Judgment{"225", "1188", -1}) {
		t.Errorf("last judgment %+v", j)
	}
	d := c.Docs[0]
	if d.Title != "experimental investigation of the aerodynamics of a wing in a slipstream ." ||
		!strings.HasPrefix(d.Text, d.Title+"\nexperimental investigation of the aerodynamics of a\nwing in a slipstream .\n  an experimental study") {
		t.Errorf("document 1: %q / %q", d.Title, d.Text[:120])
	}
	if strings.Contains(d.Text, "brenckman") || strings.Contains(d.Text, "j. ae. scs.") {
		t.Error("document 1 text includes its author or biblio field")
	}
	last := c.Docs[1399]
	if last.Title != "the buckling shear stress of simply-supported infinitely long plates with transverse stiffeners ." {
		t.Errorf("document 1400 title %q", last.Title)
	}
	for _, id := range []int{471, 995} {
		d := c.Docs[id-1]
		if d.Text != "" || d.Title != "" {
			t.Errorf("document %d: title %q text %q, want both empty", id, d.Title, d.Text)
		}
	}
	// Query 3 is ".I 004" in cran.qry (the .I numbers have gaps).
	if q := c.Queries[2]; !strings.HasPrefix(q.Text, "what problems of heat conduction in composite slabs") {
		t.Errorf("query 3: %q", q.Text)
	}
	if q := c.Queries[224]; q.Text != "what design factors can be used to control lift-drag ratios at mach\nnumbers above 5 ." {
		t.Errorf("query 225: %q", q.Text)
	}
	// Document 240: the stray ".A"/".B" lines inside the abstract stay text.
	if d := c.Docs[239]; !strings.Contains(d.Text, "\napplication to turbulent separations is made for a prandtl number of\nunity in low-speed flow") {
		t.Errorf("document 240 lost the lines after its stray markers: %q", d.Text)
	}
	// Document 578 has two .W fields; both are kept.
	if d := c.Docs[577]; !strings.Contains(d.Text, "stall-naca rm e56b03b, 1956 . chapter xiii\ncompressor operation with one or more blade rows stalled .") {
		t.Errorf("document 578: %q", d.Text)
	}
	wantWarn := []string{".I 240: stray .A", ".I 240: stray .B", ".I 471 (line 13470): empty title and abstract",
		".I 576: second .W", ".I 578: second .W", ".I 995 (line 27712): empty title and abstract"}
	if len(c.Warnings) != len(wantWarn) {
		t.Errorf("warnings %q, want %d", c.Warnings, len(wantWarn))
	}
	for i, w := range wantWarn {
		if i < len(c.Warnings) && !strings.Contains(c.Warnings[i], w) {
			t.Errorf("warning %d = %q, want it to mention %q", i, c.Warnings[i], w)
		}
	}
}

// TestMED checks medline/SOURCE.md: 1033 docs, 30 queries, 696 binary
// judgments from MED.REL, all queries judged.
func TestMED(t *testing.T) {
	c := readReal(t, ReadMED, "medline/med.tar.gz")
	checkSMARTCounts(t, c, smartWant{1033, 30, 696, 30, map[int]int{1: 696}})
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %q", c.Warnings)
	}
	if d := c.Docs[0]; d.Title != "" || !strings.HasPrefix(d.Text, "correlation between maternal and fetal plasma levels of glucose and free\nfatty acids .\n") {
		t.Errorf("document 1: %q", d.Text[:100])
	}
	if d := c.Docs[1032]; !strings.HasPrefix(d.Text, "hemorrhagic episodes in hemophilia: a 5-year prospective study.") {
		t.Errorf("document 1033: %q", d.Text[:80])
	}
	if q := c.Queries[0]; q.ID != "1" || q.Text != "the crystalline lens in vertebrates, including humans." {
		t.Errorf("query 1: %+v", q)
	}
	if j := c.Qrels[0]; j != (Judgment{"1", "13", 1}) {
		t.Errorf("first judgment %+v", j)
	}
	if j := c.Qrels[695]; j != (Judgment{"30", "1033", 1}) {
		t.Errorf("last judgment %+v", j)
	}
	if !reflect.DeepEqual(c.Gains, map[int]float64{1: 1}) {
		t.Errorf("gains %v", c.Gains)
	}
}

// TestCISI checks cisi/SOURCE.md: 1460 docs, 112 queries of which 76 are
// judged, 3114 relevant pairs; the .X cross-references are not text.
func TestCISI(t *testing.T) {
	c := readReal(t, ReadCISI, "cisi/cisi.tar.gz")
	checkSMARTCounts(t, c, smartWant{1460, 112, 3114, 76, map[int]int{1: 3114}})
	d := c.Docs[0]
	if d.Title != "18 Editions of the Dewey Decimal Classifications" ||
		!strings.HasPrefix(d.Text, d.Title+"\nThe present study is a history of the DEWEY Decimal\nClassification.") {
		t.Errorf("document 1: %q", d.Text[:100])
	}
	// .X lines are "<doc>\t<n>\t<doc>" triples; none may reach the text.
	xLine := regexp.MustCompile(`(?m)^\d+\t\d+\t\d+$`)
	for _, d := range c.Docs {
		if xLine.MatchString(d.Text) {
			t.Fatalf("document %s text contains a .X cross-reference line: %q", d.ID, d.Text)
		}
	}
	// Document 321 has .K and .C fields, which are not text.
	if d := c.Docs[320]; strings.Contains(d.Text, "3.42 3.70") || strings.Contains(d.Text, "filed organization") {
		t.Errorf("document 321 text includes its .K or .C field")
	}
	if d := c.Docs[1459]; d.Title != "Modern Integral Information Systems for Chemistry and Chemical Technology" {
		t.Errorf("document 1460 title %q", d.Title)
	}
	// Query 58 has .T, .A, .W, .B: text is title and abstract only.
	if q := c.Queries[57]; !strings.HasPrefix(q.Text, "Directions in Library Networking\nBibliographic control before and after MARC") ||
		strings.Contains(q.Text, "Avram") || strings.Contains(q.Text, "JASIS") {
		t.Errorf("query 58: %q", q.Text)
	}
	if q := c.Queries[0]; !strings.HasPrefix(q.Text, "What problems and concerns are there in making up descriptive titles?") {
		t.Errorf("query 1: %q", q.Text)
	}
	if j := c.Qrels[0]; j != (Judgment{"1", "28", 1}) {
		t.Errorf("first judgment %+v", j)
	}
	if j := c.Qrels[3113]; j != (Judgment{"111", "509", 1}) {
		t.Errorf("last judgment %+v", j)
	}
}

// TestADI checks adi/SOURCE.md: 82 docs, 35 queries, 170 pairs, all
// queries judged; document 67's repeated title appears once.
func TestADI(t *testing.T) {
	c := readReal(t, ReadADI, "adi/adi.tar.gz")
	checkSMARTCounts(t, c, smartWant{82, 35, 170, 35, map[int]int{1: 170}})
	if d := c.Docs[0]; !strings.HasPrefix(d.Title, "the ibm dsd technical information center - a total systems approach") {
		t.Errorf("document 1 title %q", d.Title)
	}
	d := c.Docs[66]
	if d.Title != "a national plan for science abstracting and indexing services ." || strings.Count(d.Text, "a national plan") != 2 {
		t.Errorf("document 67: %q / %q", d.Title, d.Text)
	}
	// Document 38 gives .A before .T.
	if d := c.Docs[37]; d.Title != "microprint as a medium for primary publication ." || strings.Contains(d.Text, "HERMAN") {
		t.Errorf("document 38: %q / %q", d.Title, d.Text)
	}
	if d := c.Docs[81]; d.Title != "machine recognition of linguistic synonymy and logical deducibility ." {
		t.Errorf("document 82 title %q", d.Title)
	}
	if q := c.Queries[34]; q.ID != "35" || q.Text != "Government supported agencies and projects dealing with information dissemination." {
		t.Errorf("query 35: %+v", q)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], ".I 67: .T field repeated") {
		t.Errorf("warnings %q", c.Warnings)
	}
}

// TestSMARTTruncated cuts copies of cran.tar.gz at several points (inside
// the documents, inside a later member, in the gzip trailer) and expects
// an error naming the file.
func TestSMARTTruncated(t *testing.T) {
	dir := realdata.Dir(t, "cranfield/cran.tar.gz")
	for _, tc := range []struct {
		keep int
		want string
	}{{10, "not a gzip archive"}, {200000, "truncated"}, {500000, "truncated"}, {-100, "truncated"}, {-1, "truncated"}} {
		tmp, path := irTruncatedCopy(t, dir, "cranfield/cran.tar.gz", tc.keep)
		_, err := ReadCranfield(tmp)
		wantErr(t, err, path, tc.want)
	}
}

// smartFixture is a tiny Cranfield-layout archive with CRLF lines, gapped
// query .I numbers, an empty document, a stray marker inside an abstract
// and a repeated title.
var smartFixture = []textMember{
	{"cran.all.1400", ".I 1\r\n.T\r\nfirst title\r\nsecond line\r\n.A\r\nauthor, a.\r\n.B\r\nj. biblio 1\r\n.W\r\nfirst title\r\n  abstract one .  \r\n" +
		".I 2\r\n.T\r\n.A\r\n.B\r\n.W\r\n" +
		".I 3\r\n.T\r\nthird\r\n.A\r\nx\r\n.B\r\ny\r\n.W\r\nabstract three\r\n.A\r\nmore abstract\r\n" +
		".I 4\r\n.A\r\nz\r\n.T\r\nfour\r\n.T\r\nfour\r\n.W\r\nw4\r\n"},
	{"cran.qry", ".I 001\r\n.W\r\nquery one\r\n.I 007\r\n.W\r\nquery two\r\n"},
	{"cranqrel", "1 1 2 \n2 3 -1\n\n2 4 1\n"},
}

func TestSMARTFixture(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "cranfield/cran.tar.gz", tarGz(t, smartFixture...))
	c, err := ReadCranfield(dir)
	if err != nil {
		t.Fatal(err)
	}
	wantDocs := []Document{
		{ID: "1", Title: "first title second line", Text: "first title second line\nfirst title\n  abstract one ."},
		{ID: "2"},
		{ID: "3", Title: "third", Text: "third\nabstract three\nmore abstract"},
		{ID: "4", Title: "four", Text: "four\nw4"},
	}
	if !reflect.DeepEqual(c.Docs, wantDocs) {
		t.Errorf("docs\n%q\nwant\n%q", c.Docs, wantDocs)
	}
	wantQ := []Query{{ID: "1", Text: "query one"}, {ID: "2", Text: "query two"}}
	if !reflect.DeepEqual(c.Queries, wantQ) {
		t.Errorf("queries %q, want %q", c.Queries, wantQ)
	}
	wantJ := []Judgment{{"1", "1", 2}, {"2", "3", -1}, {"2", "4", 1}}
	if !reflect.DeepEqual(c.Qrels, wantJ) {
		t.Errorf("qrels %v, want %v", c.Qrels, wantJ)
	}
	if len(c.Warnings) != 3 {
		t.Errorf("warnings %q, want 3 (empty doc 2, stray .A in 3, repeated .T in 4)", c.Warnings)
	}
}

// TestSMARTSizes covers empty input and a single record.
func TestSMARTSizes(t *testing.T) {
	recs, _, err := parseSMART(strings.NewReader(""))
	if err != nil || len(recs) != 0 {
		t.Errorf("empty file: %v, %v", recs, err)
	}
	recs, _, err = parseSMART(strings.NewReader("\n.I 9\n.W\none\n"))
	if err != nil || len(recs) != 1 || recs[0].Num != 9 || recs[0].Line != 2 || len(recs[0].Fields) != 1 ||
		!reflect.DeepEqual(recs[0].Fields[0].Lines, []string{"one"}) {
		t.Errorf("one record: %+v, %v", recs, err)
	}
}

// TestSMARTMalformed checks that bad records give errors naming the
// archive, the member, the line and what was expected.
func TestSMARTMalformed(t *testing.T) {
	base := map[string]string{}
	for _, m := range smartFixture {
		base[m.name] = m.body
	}
	cases := []struct {
		name, member, content string
		want                  []string
	}{
		{"qrels two fields", "cranqrel", "1 1 2\n1 2\n", []string{"member cranqrel", "line 2", `expected 3 fields "<query> <doc> <code>"`}},
		{"qrels non-numeric doc", "cranqrel", "1 x1 2\n", []string{"member cranqrel", "line 1", "integer document id", `"x1"`}},
		{"qrels non-numeric code", "cranqrel", "1 1 2\n\n1 2 high\n", []string{"line 3", "integer relevance level"}},
		{"qrels unknown query", "cranqrel", "3 1 2\n", []string{"cranqrel", "query 3", "not in the query file"}},
		{"qrels unknown doc", "cranqrel", "1 99 2\n", []string{"cranqrel", "document 99"}},
		{"non-numeric .I", "cran.all.1400", ".I 1\n.W\na\n.I two\n.W\nb\n", []string{"member cran.all.1400", "line 4", `expected ".I <record number>"`}},
		{"duplicate .I", "cran.all.1400", ".I 1\n.W\na\n.I 1\n.W\nb\n", []string{"line 4", "duplicate record .I 1", "line 1"}},
		{"text before .I", "cran.all.1400", "hello\n.I 1\n.W\na\n", []string{"line 1", `expected ".I <number>"`}},
		{"text before a field", "cran.qry", ".I 1\nstray\n.W\nq\n", []string{"member cran.qry", "line 2", "before any field marker"}},
		{"marker with text", "cran.qry", ".I 1\n.W text\n", []string{"line 2", "field marker alone"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var members []textMember
			for _, m := range smartFixture {
				content := base[m.name]
				if m.name == tc.member {
					content = tc.content
				}
				members = append(members, textMember{m.name, content})
			}
			dir := t.TempDir()
			path := writeFile(t, dir, "cranfield/cran.tar.gz", tarGz(t, members...))
			_, err := ReadCranfield(dir)
			wantErr(t, err, append([]string{path}, tc.want...)...)
		})
	}
	// A missing member.
	dir := t.TempDir()
	path := writeFile(t, dir, "cranfield/cran.tar.gz", tarGz(t, smartFixture[0], smartFixture[1]))
	_, err := ReadCranfield(dir)
	wantErr(t, err, path, "no member cranqrel")
	// Wrong layouts for the other qrels formats.
	for _, tc := range []struct {
		layout irQrelLayout
		line   string
		want   string
	}{
		{irQrelsTREC, "1 0 13", `expected 4 fields "<query> <iteration> <doc> <level>"`},
		{irQrelsSMART, "1 13 0 zero", "not a number"},
	} {
		_, err := irParseQrels(strings.NewReader("\n"+tc.line+"\n"), tc.layout)
		wantErr(t, err, "line 2", tc.want)
	}
}
