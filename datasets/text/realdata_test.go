package text

import (
	"bufio"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/internal/realdata"
)

// dataDir returns the tests' data directory (internal/realdata) or skips
// the test, naming what is missing.
func dataDir(t *testing.T, need string) string {
	t.Helper()
	return realdata.Dir(t, need)
}

func TestStopListCounts(t *testing.T) {
	dir := dataDir(t, "stopwords")
	// Counts and first/last entries from the data directory's stopwords/SOURCE.md
	// and the files themselves.
	for _, tc := range []struct {
		name         string
		n            int
		first, last  string
		tokenSetSize int
	}{
		{StopSMART, 571, "a", "zero", 541},
		{StopTerrier, 733, "x", "", 0},
		{StopCACM, 429, "a", "", 0},
		{StopNLTK, 179, "i", "wouldn't", 0},
	} {
		words, err := ReadStopList(dir, tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// The embedded copy is the data directory's list.
		if IsEmbedded(tc.name) {
			if emb, err := StopList(tc.name); err != nil || !slices.Equal(emb, words) {
				t.Errorf("%s: embedded list differs from %s's (%d vs %d words, %v)", tc.name, dir, len(emb), len(words), err)
			}
		}
		if len(words) != tc.n || words[0] != tc.first || (tc.last != "" && words[len(words)-1] != tc.last) {
			t.Errorf("%s: %d words %q..%q, want %d %q..%q", tc.name, len(words), words[0], words[len(words)-1], tc.n, tc.first, tc.last)
		}
		// The SMART set after tokenizing its entries: 541 distinct tokens,
		// counted with python (re.findall('[a-z0-9]+') over lines 9-579).
		if tc.tokenSetSize > 0 {
			if got := len(StopSet(words)); got != tc.tokenSetSize {
				t.Errorf("%s: %d stop tokens, want %d", tc.name, got, tc.tokenSetSize)
			}
		}
	}
	smart, _ := ReadStopList(dir, StopSMART)
	set := StopSet(smart)
	for _, w := range []string{"don", "t", "isn", "doesn", "the", "zero"} {
		if _, ok := set[w]; !ok {
			t.Errorf("SMART stop set lacks %q", w)
		}
	}
	if _, err := ReadStopList(t.TempDir(), StopSMART); err == nil {
		t.Errorf("missing file: no error")
	}
}

// cranfieldAbstracts reads the .W fields of cran.all.1400 with a minimal
// parser of its own (the collection reader is someone else's package).
func cranfieldAbstracts(t *testing.T, dir string) *datasets.Collection {
	t.Helper()
	col := &datasets.Collection{Name: "cranfield-abstracts"}
	field := regexp.MustCompile(`^\.[TABW]\s*$`)
	err := datasets.EachTarGzMember(filepath.Join(dir, "cranfield/cran.tar.gz"), func(name string, r io.Reader) error {
		if name != "cran.all.1400" {
			return nil
		}
		sc := bufio.NewScanner(r)
		cur := ""
		var w []string
		flush := func() {
			if len(col.Docs) > 0 {
				col.Docs[len(col.Docs)-1].Text = strings.Join(w, "\n")
			}
			w = nil
		}
		for sc.Scan() {
			l := sc.Text()
			switch {
			case strings.HasPrefix(l, ".I "):
				flush()
				col.Docs = append(col.Docs, datasets.Document{ID: strings.TrimSpace(l[3:])})
				cur = ""
			case field.MatchString(l):
				cur = l[1:2]
			case cur == "W":
				w = append(w, l)
			}
		}
		flush()
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return col
}

func TestCranfieldAbstracts(t *testing.T) {
	dir := dataDir(t, "cranfield/cran.tar.gz")
	col := cranfieldAbstracts(t, dir)
	if len(col.Docs) != 1400 {
		t.Fatalf("parsed %d documents, want 1400", len(col.Docs))
	}
	c, v, rep, err := Fit(col, Bare(Options{StopList: StopSMART, DataDir: dir, MinDF: 2}))
	if err != nil {
		t.Fatal(err)
	}
	// Expected numbers from an independent python implementation of the
	// same rules (re.findall('[a-z0-9]+', text.lower()), drop digit-only,
	// length < 2 and SMART pieces, df >= 2, w = tf·ln(N/df)), run on the
	// same archive: docs 471 and 995 have empty abstracts (SOURCE.md).
	if !reflect.DeepEqual(rep.EmptyDocs, []string{"471", "995"}) || len(rep.PrunedDocs) != 0 {
		t.Errorf("empty %q pruned %q", rep.EmptyDocs, rep.PrunedDocs)
	}
	if c.Terms() != 4019 || c.Docs() != 1398 || c.D.NNZ() != 77696 || rep.Tokens != 114202 || rep.DistinctTerms != 6748 {
		t.Errorf("M %d N %d nnz %d tokens %d distinct %d; want 4019 1398 77696 114202 6748",
			c.Terms(), c.Docs(), c.D.NNZ(), rep.Tokens, rep.DistinctTerms)
	}
	sum := 0.0
	for _, x := range c.D.Val {
		sum += x
	}
	if math.Abs(sum-352492.6404912783) > 1e-6 {
		t.Errorf("sum of weights %.10f, want 352492.6404912783", sum)
	}
	// Document 1 contains "boundary" once; df 459: ln(1398/459) = 1.1137477127332103.
	if got := c.D.At(v.Index("boundary"), 0); math.Abs(got-1.1137477127332103) > 1e-12 {
		t.Errorf("w(boundary, doc 1) = %v", got)
	}
	if !slices.IsSorted(c.Vocab) || c.Vocab[0] != "000degreek" || c.Vocab[len(c.Vocab)-1] != "zurich" {
		t.Errorf("vocabulary order: %q ... %q", c.Vocab[0], c.Vocab[len(c.Vocab)-1])
	}
	for _, w := range []string{"the", "of", "which"} {
		if v.Index(w) >= 0 {
			t.Errorf("stop word %q in the vocabulary", w)
		}
	}

	if testing.Short() {
		return
	}
	cs, vs, _, err := Fit(col, Bare(Options{StopList: StopSMART, DataDir: dir, MinDF: 2, Stem: true}))
	if err != nil {
		t.Fatal(err)
	}
	if cs.Terms() >= c.Terms() || vs.Index("aerodynam") < 0 || vs.Index("aerodynamics") >= 0 {
		t.Errorf("stemmed vocabulary: %d terms, aerodynam %d", cs.Terms(), vs.Index("aerodynam"))
	}
}

// TestLookupCranfield uses the registered reader when it exists.
func TestLookupCranfield(t *testing.T) {
	dir := dataDir(t, "cranfield/cran.tar.gz")
	src, err := datasets.Lookup("cranfield")
	if err != nil {
		t.Skipf("cranfield reader not registered yet: %v", err)
	}
	col, err := src.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, rep, err := Build(col, Bare(Options{StopList: StopSMART, DataDir: dir, Stem: true, MinDF: 2}))
	if err != nil {
		t.Fatal(err)
	}
	// Documents 471 and 995 have empty .T and .W fields (SOURCE.md): they
	// are the only ones dropped, and they are reported.
	if c.Docs() != 1398 || !reflect.DeepEqual(rep.EmptyDocs, []string{"471", "995"}) {
		t.Errorf("%d documents, empty %q", c.Docs(), rep.EmptyDocs)
	}
}
