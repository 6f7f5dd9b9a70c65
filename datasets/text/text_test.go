package text

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine/sparse"
)

func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  ,.;  ", nil},
		{"a", []string{"a"}},
		{"Don't stop-believing, O'Neil's 1984 B52s", []string{"don", "t", "stop", "believing", "o", "neil", "s", "1984", "b52s"}},
		{"ÉCOLE naïve\tcafé’s x_y", []string{"école", "naïve", "café", "s", "x", "y"}},
		{"line1\nline2\r\n", []string{"line1", "line2"}},
	} {
		if got := Tokenize(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want bool
	}{{"", false}, {"1984", true}, {"b52", false}, {"٣", true}} {
		if got := IsNumber(tc.in); got != tc.want {
			t.Errorf("IsNumber(%q) = %v", tc.in, got)
		}
	}
}

func TestAnalyzer(t *testing.T) {
	a, err := NewAnalyzer(Bare(Options{ExtraStopWords: []string{"won't", "The"}}))
	if err != nil {
		t.Fatal(err)
	}
	got := a.Tokens("The 42 x-rays won't WON 3d a")
	// "the" stop; "42" number; "x" too short; "won"/"t" are pieces of won't.
	want := []string{"rays", "3d"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokens = %q, want %q", got, want)
	}
	a, err = NewAnalyzer(Bare(Options{KeepNumbers: true, MinTokenLen: 1, Stem: true}))
	if err != nil {
		t.Fatal(err)
	}
	// Porter2: running → run, generalizations → general, a stays.
	got = a.Tokens("Running generalizations 42 a")
	want = []string{"run", "general", "42", "a"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stemmed Tokens = %q, want %q", got, want)
	}
}

// toy is the 3-document corpus of the hand computations below.
func toy() *datasets.Collection {
	return &datasets.Collection{Name: "toy", Docs: []datasets.Document{
		{ID: "d1", Text: "Apple banana apple", Class: "fruit"},
		{ID: "d2", Text: "banana, cherry!", Class: ""},
		{ID: "d3", Text: "cherry cherry date", Class: "berry"},
	}}
}

// dense returns the M×N matrix as rows.
func dense(m *sparse.CSR) [][]float64 {
	out := make([][]float64, m.Rows)
	for i := range out {
		out[i] = make([]float64, m.Cols)
		idx, val := m.Row(i)
		for k, j := range idx {
			out[i][j] = val[k]
		}
	}
	return out
}

func TestToyWeightings(t *testing.T) {
	// N = 3; df: apple 1, banana 2, cherry 2, date 1.
	// ln 3 = 1.0986122886681098, ln 1.5 = 0.4054651081081644 (python math.log).
	const l3, l15 = 1.0986122886681098, 0.4054651081081644
	// (1+ln 2)·ln 3 = 1.860112299086919 (python).
	const logtf2 = 1.860112299086919
	for _, tc := range []struct {
		weighting string
		want      [][]float64 // rows apple, banana, cherry, date; columns d1 d2 d3
	}{
		{"tf", [][]float64{{2, 0, 0}, {1, 1, 0}, {0, 1, 2}, {0, 0, 1}}},
		{"boolean", [][]float64{{1, 0, 0}, {1, 1, 0}, {0, 1, 1}, {0, 0, 1}}},
		{"", [][]float64{{2 * l3, 0, 0}, {l15, l15, 0}, {0, l15, 2 * l15}, {0, 0, l3}}},
		{"tfidf", [][]float64{{2.1972245773362196, 0, 0}, {l15, l15, 0}, {0, l15, 0.8109302162163288}, {0, 0, l3}}},
		{"logtf-idf", [][]float64{{logtf2, 0, 0}, {l15, l15, 0}, {0, l15, 0.686512104608772}, {0, 0, l3}}},
	} {
		c, rep, err := Build(toy(), Bare(Options{Weighting: tc.weighting}))
		if err != nil {
			t.Fatalf("%s: %v", tc.weighting, err)
		}
		if !reflect.DeepEqual(c.Vocab, []string{"apple", "banana", "cherry", "date"}) {
			t.Fatalf("vocab %q", c.Vocab)
		}
		got := dense(c.D)
		for i := range got {
			for j := range got[i] {
				if math.Abs(got[i][j]-tc.want[i][j]) > 1e-15 {
					t.Errorf("%s: D[%s,%d] = %v, want %v", tc.weighting, c.Vocab[i], j, got[i][j], tc.want[i][j])
				}
			}
		}
		if !reflect.DeepEqual(c.DocIDs, []string{"d1", "d2", "d3"}) {
			t.Errorf("doc ids %q", c.DocIDs)
		}
		if !reflect.DeepEqual(c.ClassNames, []string{"berry", "fruit"}) || !reflect.DeepEqual(c.Labels, []int{1, -1, 0}) {
			t.Errorf("classes %q labels %v", c.ClassNames, c.Labels)
		}
		if rep.Kept != 3 || rep.Tokens != 8 || len(rep.Warnings) != 1 { // the unlabeled-document warning
			t.Errorf("report %+v", rep)
		}
		if !reflect.DeepEqual(dense(c.DT), dense(c.D.T())) {
			t.Errorf("DT is not the transpose of D")
		}
	}
}

func TestPruning(t *testing.T) {
	col := toy()
	col.Docs = append(col.Docs, datasets.Document{ID: "d4", Text: "kiwi"}, datasets.Document{ID: "d5", Text: "apple banana elder"})
	// df: apple 2, banana 3, cherry 2, date 1, kiwi 1, elder 1; N0 = 5.
	c, rep, err := Build(col, Bare(Options{MinDF: 2, Weighting: "tf"}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Vocab, []string{"apple", "banana", "cherry"}) {
		t.Errorf("MinDF 2 vocab %q", c.Vocab)
	}
	if rep.PrunedMinDF != 3 || !reflect.DeepEqual(rep.PrunedDocs, []string{"d4"}) || rep.Kept != 4 {
		t.Errorf("MinDF 2 report %+v", rep)
	}
	if !reflect.DeepEqual(c.DocIDs, []string{"d1", "d2", "d3", "d5"}) || !reflect.DeepEqual(c.Labels, []int{1, -1, 0, -1}) {
		t.Errorf("ids %q labels %v", c.DocIDs, c.Labels)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "d4") {
		t.Errorf("dropped document d4 not named in warnings %q", rep.Warnings)
	}

	// MaxDF 0.5: banana (3/5 > 0.5) goes; df 2/5 stays.
	c, rep, err = Build(col, Bare(Options{MaxDF: 0.5, Weighting: "tf"}))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(c.Vocab, "banana") || len(c.Vocab) != 5 || rep.PrunedMaxDF != 1 {
		t.Errorf("MaxDF vocab %q report %+v", c.Vocab, rep)
	}

	// MaxVocab 2: banana (3), then apple and cherry tie at 2 → apple.
	c, rep, err = Build(col, Bare(Options{MaxVocab: 2, Weighting: "tf"}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Vocab, []string{"apple", "banana"}) || rep.PrunedMaxVocab != 4 {
		t.Errorf("MaxVocab vocab %q report %+v", c.Vocab, rep)
	}
	if !reflect.DeepEqual(rep.PrunedDocs, []string{"d3", "d4"}) {
		t.Errorf("MaxVocab pruned docs %q", rep.PrunedDocs)
	}
}

func TestEmptyDocuments(t *testing.T) {
	// Size 0.
	if _, _, err := Build(&datasets.Collection{Name: "none"}, Options{}); err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("empty collection: err = %v", err)
	}
	if _, _, err := Build(nil, Options{}); err == nil {
		t.Errorf("nil collection: no error")
	}
	col := &datasets.Collection{Name: "e", Docs: []datasets.Document{
		{ID: "a", Text: "the 1999 , a"},
		{ID: "b", Text: "alpha beta"},
		{ID: "c", Text: ""},
		{ID: "d", Text: "beta gamma"},
	}}
	c, rep, err := Build(col, Bare(Options{ExtraStopWords: []string{"the"}}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.EmptyDocs, []string{"a", "c"}) || rep.Kept != 2 || c.Docs() != 2 {
		t.Errorf("report %+v", rep)
	}
	if len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[0], "a, c") {
		t.Errorf("warnings %q do not name the dropped documents", rep.Warnings)
	}
	// beta is in both documents: idf 0, an empty row, named in the report.
	if !reflect.DeepEqual(rep.ZeroIDFTerms, []string{"beta"}) || c.D.RowPtr[2]-c.D.RowPtr[1] != 0 {
		t.Errorf("zero-idf terms %q", rep.ZeroIDFTerms)
	}
	if c.Labels != nil || c.ClassNames != nil {
		t.Errorf("unlabeled collection got labels %v %q", c.Labels, c.ClassNames)
	}

	// Size 1: every term has idf ln(1/1) = 0, so the only column is empty.
	c, rep, err = Build(&datasets.Collection{Name: "one", Docs: []datasets.Document{{ID: "x", Text: "solo text"}}}, Bare(Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Docs() != 1 || c.Terms() != 2 || c.D.NNZ() != 0 || !reflect.DeepEqual(rep.ZeroWeightDocs, []string{"x"}) {
		t.Errorf("single document: %d×%d nnz %d report %+v", c.Terms(), c.Docs(), c.D.NNZ(), rep)
	}

	// All empty: a clear error.
	_, _, err = Build(&datasets.Collection{Name: "allempty", Docs: []datasets.Document{{ID: "x", Text: "42"}}}, Options{})
	if err == nil || !strings.Contains(err.Error(), "allempty") {
		t.Errorf("all-empty collection: err = %v", err)
	}
}

func TestVectorizer(t *testing.T) {
	c, v, _, err := Fit(toy(), Bare(Options{}))
	if err != nil {
		t.Fatal(err)
	}
	const l3, l15 = 1.0986122886681098, 0.4054651081081644
	q := Vectorize([]string{"Apple apple CHERRY unknown", "", "nothing known"}, v)
	if q.Rows != 3 || q.Cols != 4 {
		t.Fatalf("query matrix %d×%d", q.Rows, q.Cols)
	}
	want := []float64{2 * l3, 0, l15, 0}
	for m, w := range want {
		if got := q.At(0, m); math.Abs(got-w) > 1e-15 {
			t.Errorf("query weight of %s = %v, want %v", v.Vocab[m], got, w)
		}
	}
	if q.RowPtr[3] != 2 {
		t.Errorf("empty queries got %d entries", q.RowPtr[3]-q.RowPtr[1])
	}
	// The training texts give back Dᵀ exactly.
	texts := []string{}
	for _, d := range toy().Docs {
		texts = append(texts, d.Text)
	}
	if got := v.Transform(texts); !reflect.DeepEqual(got, c.DT) {
		t.Errorf("Transform(training texts) differs from Dᵀ")
	}
	// A vectorizer rebuilt from the corpus alone is the same.
	v2, err := VectorizerFromCorpus(c, Bare(Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v2.DF, []int{1, 2, 2, 1}) || v2.N != 3 || !reflect.DeepEqual(v2.IDF(), v.IDF()) {
		t.Errorf("rebuilt vectorizer df %v N %d", v2.DF, v2.N)
	}
	// Zero-idf rows are recovered as df = N.
	ce, _, err := Build(&datasets.Collection{Name: "z", Docs: []datasets.Document{{ID: "1", Text: "aa bb"}, {ID: "2", Text: "aa cc"}}}, Bare(Options{}))
	if err != nil {
		t.Fatal(err)
	}
	ve, err := VectorizerFromCorpus(ce, Bare(Options{}))
	if err != nil || !reflect.DeepEqual(ve.DF, []int{2, 1, 1}) {
		t.Errorf("zero-idf rebuild: df %v err %v", ve.DF, err)
	}
	if _, err := NewVectorizer([]string{"b", "a"}, []int{1, 1}, 2, Options{}); err == nil {
		t.Errorf("unsorted vocabulary accepted")
	}
	if _, err := NewVectorizer([]string{"a"}, []int{3}, 2, Options{}); err == nil {
		t.Errorf("df > N accepted")
	}
}

func TestOptions(t *testing.T) {
	zero := Options{}.Canonical()
	explicit := Options{MinTokenLen: 2, MaxTokenLen: 25, StopList: "smart", MinDF: 2, MaxDF: 0.95, Weighting: "tfidf", Norm: "l2", DataDir: "/elsewhere"}.Canonical()
	if zero != explicit || Default().Canonical() != zero {
		t.Errorf("defaults not canonical:\n%s\n%s\n%s", zero, explicit, Default().Canonical())
	}
	want := `{"pipeline":"text/2","min_token_len":2,"max_token_len":25,"keep_numbers":false,"keep_mixed":false,"strip":null,"stop_list":"smart","extra_stop_words":[],"stem":"none","min_df":2,"max_df":0.95,"max_vocab":0,"weighting":"tfidf","norm":"l2"}`
	if zero != want {
		t.Errorf("Canonical() = %s\nwant          %s", zero, want)
	}
	// Bare: every filter off, as the text/1 zero value was.
	bare := Bare(Options{}).Canonical()
	wantBare := `{"pipeline":"text/2","min_token_len":2,"max_token_len":-1,"keep_numbers":false,"keep_mixed":true,"strip":null,"stop_list":"none","extra_stop_words":[],"stem":"none","min_df":1,"max_df":1,"max_vocab":0,"weighting":"tfidf","norm":"none"}`
	if bare != wantBare {
		t.Errorf("Bare canonical = %s\nwant            %s", bare, wantBare)
	}
	a := Options{ExtraStopWords: []string{"Foo", "bar", "foo"}}.Canonical()
	b := Options{ExtraStopWords: []string{"bar", "foo"}}.Canonical()
	if a != b {
		t.Errorf("extra stop words not canonical: %s vs %s", a, b)
	}
	if a, b := (Options{Strip: []string{"quotes", "headers"}}).Canonical(), (Options{Strip: []string{"headers", "quotes", "headers"}}).Canonical(); a != b {
		t.Errorf("strip parts not canonical: %s vs %s", a, b)
	}
	seen := map[string]bool{zero: true}
	for _, o := range []Options{{MinTokenLen: 3}, {MaxTokenLen: 10}, {MaxTokenLen: -1}, {KeepNumbers: true}, {KeepMixed: true},
		{Strip: []string{"headers"}}, {StopList: "none"}, {Stem: true}, {MinDF: 1},
		{MaxDF: 0.5}, {MaxVocab: 10}, {Weighting: "tf"}, {Norm: "none"}, {ExtraStopWords: []string{"x"}}} {
		s := o.Canonical()
		if seen[s] {
			t.Errorf("%+v shares a canonical string: %s", o, s)
		}
		seen[s] = true
	}
	for _, tc := range []struct {
		o     Options
		field string
	}{
		{Options{MinTokenLen: -1}, "MinTokenLen"},
		{Options{MinTokenLen: 5, MaxTokenLen: 4}, "MaxTokenLen"},
		{Options{Strip: []string{"signature"}}, "Strip"},
		{Options{StopList: "klingon"}, "StopList"},
		{Options{MinDF: -2}, "MinDF"},
		{Options{MaxDF: 1.5}, "MaxDF"},
		{Options{MaxDF: math.NaN()}, "MaxDF"},
		{Options{MaxVocab: -1}, "MaxVocab"},
		{Options{Weighting: "bm25"}, "Weighting"},
		{Options{Norm: "l1"}, "Norm"},
	} {
		err := tc.o.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%+v: err = %v, want one naming %s", tc.o, err, tc.field)
		}
		if _, _, err := Build(toy(), tc.o); err == nil {
			t.Errorf("Build accepted %+v", tc.o)
		}
	}
	if err := (Options{}).Validate(); err != nil {
		t.Errorf("zero Options invalid: %v", err)
	}
	// The embedded lists need no data directory; cacm (not embedded) does,
	// and says so.
	t.Setenv("TOPICMF_DATA", "")
	for _, name := range []string{"", "smart", "terrier", "nltk"} {
		if _, err := NewAnalyzer(Options{StopList: name}); err != nil {
			t.Errorf("stop list %q without a data directory: %v", name, err)
		}
	}
	if _, err := NewAnalyzer(Options{StopList: "cacm"}); err == nil || !strings.Contains(err.Error(), "TOPICMF_DATA") {
		t.Errorf("cacm without a data directory: err = %v", err)
	}
}

// TestEmbeddedStopLists: sizes and first/last entries of the embedded
// lists (counts from stopwords/SOURCE.md: SMART 571, Terrier 733, NLTK 179).
func TestEmbeddedStopLists(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n           int
		first, last string
	}{
		{"smart", 571, "a", "zero"},
		{"terrier", 733, "x", "enough"},
		{"nltk", 179, "i", "wouldn't"},
	} {
		l, err := StopList(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(l) != tc.n || l[0] != tc.first || l[len(l)-1] != tc.last {
			t.Errorf("%s: %d words, %q … %q; want %d, %q … %q", tc.name, len(l), l[0], l[len(l)-1], tc.n, tc.first, tc.last)
		}
	}
	if _, err := StopList("cacm"); err == nil {
		t.Error("cacm reported as embedded")
	}
}

// TestDefaultPipeline: the zero Options drop stop words, numbers, tokens
// mixing digits and letters and tokens over 25 runes, prune by document
// frequency and scale every column to unit length.
func TestDefaultPipeline(t *testing.T) {
	a, err := NewAnalyzer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 26)
	got := a.Tokens("The B52 flew 1984 over z6ei4 and " + long + " " + strings.Repeat("y", 25))
	want := []string{"flew", strings.Repeat("y", 25)}
	if !slices.Equal(got, want) {
		t.Errorf("Tokens = %q, want %q", got, want)
	}
	// df: apple 4 of 4 (above 0.95·4), banana 2, date 2, cherry 1 (below MinDF 2).
	col := &datasets.Collection{Name: "d", Docs: []datasets.Document{
		{ID: "1", Text: "apple banana banana"}, {ID: "2", Text: "apple banana cherry"}, {ID: "3", Text: "apple date date"}, {ID: "4", Text: "apple date"}}}
	c, rep, err := Build(col, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Vocab, []string{"banana", "date"}) || rep.PrunedMinDF != 1 || rep.PrunedMaxDF != 1 {
		t.Errorf("vocab %q, pruned min %d max %d", c.Vocab, rep.PrunedMinDF, rep.PrunedMaxDF)
	}
	// Every column has unit length: banana and date are each the only
	// term of their documents, so every weight is 1.
	for _, v := range c.D.Val {
		if math.Abs(v-1) > 1e-15 {
			t.Errorf("weights %v, want all 1 (unit columns)", c.D.Val)
			break
		}
	}
}

// TestStripPost follows scikit-learn's strip_newsgroup_* on a small post.
func TestStripPost(t *testing.T) {
	post := "From: a@b.c\nSubject: hi\n\nIn article <1@x> b@c.d writes:\n> quoted line\nmy own words\n| also quoted\nmore words\n--\nsignature here"
	for _, tc := range []struct {
		parts []string
		want  string
	}{
		{nil, post},
		{[]string{"headers"}, "In article <1@x> b@c.d writes:\n> quoted line\nmy own words\n| also quoted\nmore words\n--\nsignature here"},
		{[]string{"footers"}, "From: a@b.c\nSubject: hi\n\nIn article <1@x> b@c.d writes:\n> quoted line\nmy own words\n| also quoted\nmore words"},
		{[]string{"quotes"}, "From: a@b.c\nSubject: hi\n\nmy own words\nmore words\n--\nsignature here"},
		{[]string{"headers", "footers", "quotes"}, "my own words\nmore words"},
		{[]string{"headers"}, ""},
	} {
		in := post
		if tc.want == "" {
			in = "no blank line"
		}
		if got := StripPost(in, tc.parts...); got != tc.want {
			t.Errorf("StripPost(%v) = %q, want %q", tc.parts, got, tc.want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	var docs []datasets.Document
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu")
	for i := 0; i < 1000; i++ {
		var b strings.Builder
		for k := 0; k < 1+i%7; k++ {
			b.WriteString(words[(i*7+k*k)%len(words)] + " ")
		}
		docs = append(docs, datasets.Document{ID: strings.Repeat("x", 1+i%3) + string(rune('a'+i%26)), Text: b.String(), Class: words[i%3]})
	}
	col := &datasets.Collection{Name: "det", Docs: docs}
	c1, r1, err := Build(col, Bare(Options{Stem: true}))
	if err != nil {
		t.Fatal(err)
	}
	c2, r2, _ := Build(col, Bare(Options{Stem: true}))
	if !reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(r1, r2) {
		t.Errorf("two builds differ")
	}
	if len(r1.Warnings) == 0 || !strings.Contains(strings.Join(r1.Warnings, " "), "more than once") {
		t.Errorf("duplicate ids not reported: %q", r1.Warnings)
	}
}

// TestValidateSaysWhatZeroMeans: the message for a field whose 0 means a
// default names that default, and it is the one 0 builds with.
func TestValidateSaysWhatZeroMeans(t *testing.T) {
	for _, tc := range []struct {
		bad, zero, def Options
		want           string
	}{
		{Options{MinDF: -5}, Options{MinDF: 0}, Options{MinDF: DefaultMinDF}, `("0" for the default 2)`},
		{Options{MaxDF: -0.5}, Options{MaxDF: 0}, Options{MaxDF: DefaultMaxDF}, `("0" for the default 0.95)`},
		{Options{MinTokenLen: -1}, Options{MinTokenLen: 0}, Options{MinTokenLen: DefaultMinTokenLen}, "0 means the default, 2)"},
	} {
		err := tc.bad.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want it to say %q", tc.bad, err, tc.want)
		}
		if tc.zero.Canonical() != tc.def.Canonical() {
			t.Errorf("%+v does not build as %+v", tc.zero, tc.def)
		}
	}
}
