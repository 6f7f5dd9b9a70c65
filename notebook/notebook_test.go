package notebook

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/experiments"
)

// tinyCSV is a labelled corpus small enough to reason about: two themes,
// three documents each.
const tinyCSV = `id,text,label
a1,apple banana fruit orchard apple,fruit
a2,banana fruit orchard harvest,fruit
a3,apple fruit harvest orchard banana,fruit
b1,engine wheel motor road engine,car
b2,motor road wheel garage,car
b3,engine garage road motor wheel,car
`

func userCorpus(t *testing.T) *Corpus {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tiny.csv")
	if err := os.WriteFile(path, []byte(tinyCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadUser(path, datasets.UserOptions{}, text.Options{MinDF: 1, MaxDF: 1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestUserCorpusFitTopTermsRank(t *testing.T) {
	c := userCorpus(t)
	if c.Docs() != 6 || c.Classes() != 2 {
		t.Fatalf("corpus: %d docs %d classes, want 6 and 2", c.Docs(), c.Classes())
	}
	d := Describe(c)
	if got := d.Col("documents").Elem(0).String(); got != "6" {
		t.Errorf("Describe documents = %s, want 6", got)
	}
	f, err := Fit(c, "nmf", Params{"k": "2", "seed": "3", "iters": "200"})
	if err != nil {
		t.Fatal(err)
	}
	tt := TopTerms(f, 3)
	if tt.Nrow() != 6 {
		t.Fatalf("TopTerms rows = %d, want 2 topics × 3", tt.Nrow())
	}
	// The two themes share no term, so each NMF topic's top three terms
	// come from one theme only.
	fruit := map[string]bool{"apple": true, "banana": true, "fruit": true, "orchard": true, "harvest": true}
	for k := 0; k < 2; k++ {
		n := 0
		for r := 0; r < 3; r++ {
			if fruit[tt.Elem(3*k+r, 2).String()] {
				n++
			}
		}
		if n != 0 && n != 3 {
			t.Errorf("topic %d mixes themes: %v", k, tt.Subset([]int{3 * k, 3*k + 1, 3*k + 2}).Col("term").Records())
		}
	}
	it := Iterations(f)
	if it.Nrow() != f.Status.Iterations || it.Col("objective").Len() != f.Status.Iterations {
		t.Errorf("Iterations has %d rows, status says %d iterations", it.Nrow(), f.Status.Iterations)
	}
	ranked, err := Rank(f, "garage motor", 6)
	if err != nil {
		t.Fatal(err)
	}
	// A car query must rank the three car documents first.
	for r := 0; r < 3; r++ {
		if id := ranked.Elem(r, 1).String(); !strings.HasPrefix(id, "b") {
			t.Errorf("rank %d is %s, want a car document: %v", r+1, id, ranked.Col("doc").Records())
		}
	}
	if got := ranked.Col("title").Elem(0).String(); got == "" {
		t.Error("Rank gave no title")
	}
	// A count beyond the documents gives them all; zero or a negative
	// count gives no row (Rank used to panic on n < 0), as TopTerms and
	// Topics give no term.
	if all, err := Rank(f, "garage motor", 100); err != nil || all.Nrow() != 6 {
		t.Errorf("Rank n = 100: %d rows, %v; want the 6 documents", all.Nrow(), err)
	}
	for _, n := range []int{0, -1} {
		if none, err := Rank(f, "garage motor", n); err != nil || none.Nrow() != 0 {
			t.Errorf("Rank n = %d: %d rows, %v; want none", n, none.Nrow(), err)
		}
		if tt := TopTerms(f, n); tt.Nrow() != 0 {
			t.Errorf("TopTerms n = %d: %d rows, want none", n, tt.Nrow())
		}
		if tp := Topics(f, n); tp.Nrow() != 2 || tp.Elem(0, 1).String() != "" {
			t.Errorf("Topics n = %d: %v, want 2 topics without terms", n, tp)
		}
	}
}

func TestFitErrors(t *testing.T) {
	c := userCorpus(t)
	if _, err := Fit(c, "nope", nil); err == nil || !strings.Contains(err.Error(), "nmf") {
		t.Errorf("unknown family: err = %v, want one listing the families", err)
	}
	if _, err := Fit(c, "nmf", Params{"kk": "2"}); err == nil || !strings.Contains(err.Error(), "kk") {
		t.Errorf("unknown parameter: err = %v, want one naming it", err)
	}
}

func isPNG(t *testing.T, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if img.Bounds().Dx() < 100 {
		t.Errorf("PNG %d px wide", img.Bounds().Dx())
	}
}

func TestPlotTraceDisplays(t *testing.T) {
	c := userCorpus(t)
	f, err := Fit(c, "nmf", Params{"k": "2", "iters": "20"})
	if err != nil {
		t.Fatal(err)
	}
	var shown [][]byte
	Display = func(b []byte) { shown = append(shown, b) }
	defer func() { Display = nil }()
	b, err := PlotTrace(f, "objective")
	if err != nil {
		t.Fatal(err)
	}
	isPNG(t, b)
	if len(shown) != 1 || !bytes.Equal(shown[0], b) {
		t.Errorf("Display got %d images, want the returned one", len(shown))
	}
	if _, err := PlotTrace(f, "nope"); err == nil {
		t.Error("PlotTrace of a missing column: no error")
	}

	// SaveFigure writes the figure just shown as PNG (the same image),
	// SVG and PDF; a name with one of those extensions names the same
	// files.
	dir := t.TempDir()
	for _, name := range []string{filepath.Join(dir, "trace"), filepath.Join(dir, "again.pdf")} {
		if err := SaveFigure(name); err != nil {
			t.Fatal(err)
		}
	}
	for _, stem := range []string{"trace", "again"} {
		for format, magic := range map[string]string{"png": "\x89PNG", "svg": "<?xml", "pdf": "%PDF-"} {
			data, err := os.ReadFile(filepath.Join(dir, stem+"."+format))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(data, []byte(magic)) {
				t.Errorf("%s.%s does not start with %q", stem, format, magic)
			}
			if format == "png" && !bytes.Equal(data, b) {
				t.Errorf("%s.png differs from the PNG shown", stem)
			}
		}
	}
	// A symbolic link is written through (it stays a link); a directory
	// where a file would go is an error.
	if err := os.Symlink(filepath.Join(dir, "target.png"), filepath.Join(dir, "linked.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "taken.svg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := SaveFigure(filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "linked.png")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("linked.png is no longer a symbolic link (%v)", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "target.png")); err != nil || !bytes.Equal(data, b) {
		t.Errorf("the link's target does not hold the figure (%v)", err)
	}
	if err := SaveFigure(filepath.Join(dir, "taken")); err == nil || !strings.Contains(err.Error(), "taken.svg is a directory") {
		t.Errorf("SaveFigure over a directory taken.svg: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "taken.png")); err == nil {
		t.Error("a failed SaveFigure wrote taken.png")
	}
	if err := SaveFigure(dir + "/"); err == nil || !strings.Contains(err.Error(), "file name") {
		t.Errorf("SaveFigure of a directory: %v", err)
	}
	lastFigure = nil
	if err := SaveFigure(filepath.Join(dir, "none")); err == nil || !strings.Contains(err.Error(), "no figure") {
		t.Errorf("SaveFigure before any figure: %v", err)
	}
}

// TestSweepResumes runs a 2 × 2 grid on a synthetic corpus into a
// temporary store, then runs it again: the second run computes nothing and
// reads back the same numbers.
func TestSweepResumes(t *testing.T) {
	t.Setenv("TOPICMF_RESULTS", t.TempDir())
	cfg := synthetic.Default()
	c, err := LoadSpec(experiments.CorpusSpec{Synthetic: &cfg, Name: "synthetic/default"})
	if err != nil {
		t.Fatal(err)
	}
	spec := SweepSpec{Name: "test-sweep", Family: "nmf", Params: Params{"iters": "15"},
		Grid: map[string][]string{"k": {"4", "6"}, "init": {"random", "nndsvd"}}}
	s1, err := Sweep(c, spec)
	if err != nil {
		t.Fatal(err)
	}
	tab := s1.Table()
	if tab.Nrow() != 4 {
		t.Fatalf("sweep table has %d rows, want 4", tab.Nrow())
	}
	for _, col := range []string{"k", "init", MetricObjective, MetricAvgComp, MetricNMI, MetricPurity} {
		if tab.Col(col).Err != nil {
			t.Errorf("sweep table lacks %s: %v", col, tab.Names())
		}
	}
	for _, j := range s1.Jobs {
		if j.Cached {
			t.Errorf("first run: job %s cached", j.Job.Label())
		}
	}
	s2, err := Sweep(c, spec)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range s2.Jobs {
		if !j.Cached {
			t.Errorf("second run: job %s recomputed", j.Job.Label())
		}
		a, _ := s1.Jobs[i].Run.Metric(MetricObjective)
		b, _ := j.Run.Metric(MetricObjective)
		if a != b {
			t.Errorf("job %d objective %v then %v", i, a, b)
		}
	}
	b, err := s2.Plot("k", MetricObjective, "init")
	if err != nil {
		t.Fatal(err)
	}
	isPNG(t, b)
	total := 0.0
	for _, v := range s2.Table().Col(MetricIterations).Float() {
		total += v
	}
	if it := s2.Iterations(); float64(it.Nrow()) != total || total == 0 {
		t.Errorf("sweep iterations: %d rows, the jobs report %v iterations", it.Nrow(), total)
	}
	if _, err := Sweep(c, SweepSpec{Name: "a/b", Family: "nmf"}); err == nil {
		t.Error("a name with a slash: no error")
	}
}

func TestRunExperimentQuick(t *testing.T) {
	t.Setenv("TOPICMF_RESULTS", t.TempDir())
	ids := ExperimentIDs("foundation/")
	if len(ids) != 1 || ids[0] != "foundation/nmf-synthetic" {
		t.Fatalf("ExperimentIDs(foundation/) = %v", ids)
	}
	if df := Experiments("foundation/"); df.Nrow() != 1 {
		t.Errorf("Experiments(foundation/) has %d rows", df.Nrow())
	}
	r, err := RunExperiment("foundation/nmf-synthetic", true)
	if err != nil {
		t.Fatal(err)
	}
	var md []string
	var imgs int
	DisplayMarkdown = func(s string) { md = append(md, s) }
	Display = func([]byte) { imgs++ }
	defer func() { Display, DisplayMarkdown = nil, nil }()
	if err := r.Show(); err != nil {
		t.Fatal(err)
	}
	if imgs != len(r.Experiment.Figures) || imgs == 0 {
		t.Errorf("Show displayed %d figures, the experiment has %d", imgs, len(r.Experiment.Figures))
	}
	// The summary and tables, each figure's caption (both figures have
	// error bars), the claims.
	if len(md) != 4 || !strings.Contains(md[0], "**"+QuickLabel+".**") || !strings.Contains(md[0], "quick run") || !strings.Contains(md[1], "error bars") ||
		!strings.Contains(md[2], "error bars") || !strings.Contains(md[3], "held") {
		t.Errorf("Show's Markdown: %q", md)
	}
	for _, name := range r.TableNames() {
		df, err := r.Table(name)
		if err != nil {
			t.Fatal(err)
		}
		if df.Nrow() == 0 {
			t.Errorf("table %s is empty", name)
		}
	}
	if _, err := r.Table("nope"); err == nil {
		t.Error("missing table: no error")
	}
	if v := r.Verdicts(); v.Nrow() != len(r.Experiment.Claims) {
		t.Errorf("Verdicts rows %d, claims %d", v.Nrow(), len(r.Experiment.Claims))
	}
	if _, err := RunExperiment("nope/nope", true); err == nil {
		t.Error("unknown experiment: no error")
	}
}

func TestTableMarkdown(t *testing.T) {
	df := dataframe.New(series.New([]string{"a|b", "c"}, series.String, "name"),
		series.New([]float64{1.0 / 3, math.NaN()}, series.Float, "x"), series.New([]int{1, 2}, series.Int, "n"))
	want := "| name | x | n |\n| --- | ---: | ---: |\n| a\\|b | 0.333333 | 1 |\n| c | – | 2 |\n\n2 rows × 3 columns\n"
	if got := TableMarkdown(df); got != want {
		t.Errorf("TableMarkdown:\n%s\nwant\n%s", got, want)
	}
}

func TestPrintfKeepsItsPlace(t *testing.T) {
	var shown []string
	DisplayMarkdown = func(s string) { shown = append(shown, s) }
	defer func() { DisplayMarkdown = nil }()
	Printf("status: %s\n", "converged")
	ShowTable(dataframe.New(series.New([]int{1}, series.Int, "n")))
	if len(shown) != 2 || shown[0] != "```text\nstatus: converged\n```" || !strings.HasPrefix(shown[1], "| n |") {
		t.Errorf("shown: %q", shown)
	}
}
