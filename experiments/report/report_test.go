package report

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

var update = flag.Bool("update", false, "rewrite the golden images under testdata")

// toyExperiment's task turns its parameters into known numbers: score =
// k/10 + replicate/100, and an objective trace 100/(k·it) + replicate.
func toyExperiment(id string) *experiments.Experiment {
	return &experiments.Experiment{
		ID:       id,
		Title:    "Toy " + id,
		Paper:    experiments.PaperRef{Cite: "Doe 2020", Where: "Table 1"},
		Version:  "1",
		Datasets: []string{"toy"},
		Checksums: func(*experiments.Job) ([]store.Checksum, error) {
			return []store.Checksum{{Name: "toy", SHA256: "00"}}, nil
		},
		Grid:       map[string][]string{"k": {"5", "10"}, "variant": {"A", "B"}},
		TaskParams: []string{"k", "variant"},
		Replicates: 2,
		Task: func(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
			k, _ := j.IntParam("k", 0)
			bonus := 0.0
			if j.Param("variant", "") == "B" {
				bonus = 0.25
			}
			rec := engine.NewRecorder()
			for it := 1; it <= 10; it++ {
				rec.Record(engine.Iteration{Iter: it, Seconds: 0.1, Objective: 100/float64(k*it) + float64(j.Replicate)})
			}
			res := &experiments.Result{Iterations: rec}
			res.AddMetric("score", float64(k)/10+bonus+float64(j.Replicate)/100)
			if k == 5 {
				res.Notes = []string{"k=5 is small"}
			}
			return res, nil
		},
		Metrics: []experiments.MetricDef{{Name: "score", Definition: "k/10 plus a bonus"}},
		Tables:  []experiments.Table{{Name: "scores", Title: "Scores", Rows: []string{"variant", "k"}, Metrics: []string{"score"}, Digits: 3}},
		Figures: []experiments.Figure{
			{Name: "objective", Title: "Objective", Kind: experiments.Line, Source: experiments.FromIterations, X: "iter", Y: "objective", Series: []string{"k"}, Where: map[string]string{"variant": "A"}, ErrorBars: true},
			{Name: "scores", Title: "Scores", Kind: experiments.Bar, Source: experiments.FromMetrics, X: "k", Y: "score", Series: []string{"variant"}, ErrorBars: true},
		},
		PaperValues: []experiments.PaperValue{{Where: map[string]string{"variant": "A", "k": "10"}, Metric: "score", Value: 0.98, Note: "Table 1"}},
		Claims: []experiments.Claim{{
			Statement: "B beats A",
			Source:    "§5",
			Judge: func(r *experiments.Results) experiments.Verdict {
				a := experiments.Summarize(r.Values("score", map[string]string{"variant": "A"})).Mean
				b := experiments.Summarize(r.Values("score", map[string]string{"variant": "B"})).Mean
				v := experiments.Verdict{Outcome: experiments.NotHeld, Detail: fmt.Sprintf("A %.3f, B %.3f", a, b)}
				if b > a {
					v.Outcome = experiments.Held
				}
				return v
			},
		}},
		Substitutes: "Toy data stand in for the paper's.",
		Protocol:    "Two replicates per configuration.",
	}
}

func runToy(t *testing.T, e *experiments.Experiment) *experiments.Results {
	t.Helper()
	s, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&experiments.Runner{Store: s, Pool: parallel.NewPool(1)}).Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestTableMarkdownAndCSV(t *testing.T) {
	res := runToy(t, toyExperiment("toy/a"))
	td := BuildTable(res, res.Experiment.Tables[0])
	// score(A,5) = 0.5 + {0, 0.01}: mean 0.505, sd 0.00707...; the paper
	// value 0.98 only for A, k=10.
	// Rows are in order of first appearance: grid names sorted (k, then
	// variant fastest), so k=5 A, k=5 B, k=10 A, k=10 B.
	want := "| variant | k | score (ours) | score (paper) | n |\n" +
		"| --- | --- | ---: | ---: | ---: |\n" +
		"| A | 5 | 0.505 ± 0.007 | – | 2 |\n" +
		"| B | 5 | 0.755 ± 0.007 | – | 2 |\n" +
		"| A | 10 | 1.005 ± 0.007 | 0.980 | 2 |\n" +
		"| B | 10 | 1.255 ± 0.007 | – | 2 |\n"
	if got := td.Markdown(); got != want {
		t.Fatalf("markdown:\n%s\nwant:\n%s", got, want)
	}
	head, rows := td.CSV()
	if strings.Join(head, ",") != "variant,k,score_mean,score_sd,score_n,score_paper" {
		t.Fatalf("csv header %v", head)
	}
	// Unrounded: sd of {0.5, 0.51} is 0.01/√2.
	sd, _ := strconv.ParseFloat(rows[0][3], 64)
	if math.Abs(sd-0.01/math.Sqrt2) > 1e-12 || rows[2][5] != "0.98" || rows[0][5] != "" {
		t.Fatalf("csv rows %v", rows)
	}
}

func TestFormatNumber(t *testing.T) {
	for _, c := range []struct {
		v      float64
		digits int
		want   string
	}{
		{0, 3, "0.000"}, {1.23456, 3, "1.235"}, {-2.5, 1, "-2.5"}, {1234567.891, 2, "1234567.89"},
		{0.00001234, 3, "1.23e-05"}, {math.NaN(), 3, "–"}, {math.Inf(1), 3, "+Inf"},
	} {
		if got := FormatNumber(c.v, c.digits); got != c.want {
			t.Errorf("FormatNumber(%v, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
}

func TestRenderAndAssemble(t *testing.T) {
	e1, e2 := toyExperiment("toy/a"), toyExperiment("toy/b")
	res := runToy(t, e1)
	root := t.TempDir()
	dir := PaperDir(root, e1)
	md, err := Render(res, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## Toy toy/a", "Experiment `toy/a` — Doe 2020, Table 1.", "### Scores",
		"| A | 10 | 1.005 ± 0.007 | 0.980 | 2 |", "[scores.csv](a/scores.csv)", "Paper values: Table 1.",
		"![Objective](a/objective.png)", "[SVG](a/objective.svg) · [PDF](a/objective.pdf) · error bars: ± one sample standard deviation over replicates · series drawn side by side",
		"| B beats A | §5 | held | A 0.755, B 1.005 |",
		"*score*: k/10 plus a bonus.", "**Data.** Toy data", "**Protocol.** Two replicates",
		"8 jobs (8 computed now, 0 from the results store)", "- k=5 is small",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("section lacks %q", want)
		}
	}
	for _, f := range []string{"section.md", "scores.csv", "objective.png", "objective.svg", "objective.pdf", "scores.png", "scores.svg", "scores.pdf"} {
		if _, err := os.Stat(filepath.Join(dir, "a", f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if err := Assemble(dir, []*experiments.Experiment{e1, e2}, false); err != nil {
		t.Fatal(err)
	}
	rep, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Reproduction report: toy", "- [Toy toy/a](#toy-toya)", "- Toy toy/b — not run yet: `topicmf run toy/b`", "## Toy toy/a"} {
		if !strings.Contains(string(rep), want) {
			t.Errorf("REPORT.md lacks %q:\n%s", want, rep)
		}
	}
	if strings.Count(string(rep), "## Toy") != 1 {
		t.Fatal("REPORT.md should hold exactly one section")
	}
}

// TestFigures renders both figure kinds and compares them with golden PNGs
// approximately: same size, mean absolute pixel difference and a coarse
// luminance histogram within tolerances (fonts and anti-aliasing may
// differ slightly between versions). Run with -update to rewrite them.
func TestFigures(t *testing.T) {
	res := runToy(t, toyExperiment("toy/a"))
	for _, f := range res.Experiment.Figures {
		p, data := plotPNG(t, res, f)
		checkGolden(t, f.Kind, data)
		svg, err := EncodePlot(p, "svg")
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Fatalf("svg: %v", err)
		}
	}
}

func TestFigureErrors(t *testing.T) {
	res := runToy(t, toyExperiment("toy/a"))
	bad := experiments.Figure{Name: "x", Kind: experiments.Bar, Source: experiments.FromIterations, X: "iter", Y: "objective"}
	if _, err := Plot(res, bad); err == nil {
		t.Fatal("bar chart of iterations accepted")
	}
	none := experiments.Figure{Name: "x", Kind: experiments.Line, Source: experiments.FromMetrics, X: "k", Y: "no-such-metric"}
	if _, err := Plot(res, none); err == nil || !strings.Contains(err.Error(), "no data") {
		t.Fatalf("missing metric: %v", err)
	}
}

func decodePNG(t *testing.T, name string, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return img
}

// histogram is the fraction of pixels in each of 8 luminance bins.
func histogram(img image.Image) [8]float64 {
	var h [8]float64
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			lum := (299*r + 587*g + 114*bl) / 1000 // 0..65535
			h[min(int(lum>>13), 7)]++
		}
	}
	n := float64(b.Dx() * b.Dy())
	for i := range h {
		h[i] /= n
	}
	return h
}

// imageDistance returns the mean absolute pixel difference (0..1) and the
// L1 distance of the luminance histograms of two PNGs of the same size.
func imageDistance(t *testing.T, name string, got, want []byte) (mean, hist float64) {
	t.Helper()
	a, b := decodePNG(t, name, got), decodePNG(t, name+" golden", want)
	// Images of different sizes are compared over the larger area, the
	// smaller one taken as white beyond its edge (a figure's background).
	bd := a.Bounds().Union(b.Bounds())
	at := func(img image.Image, x, y int) (r, g, b uint32) {
		if !(image.Point{x, y}).In(img.Bounds()) {
			return 0xffff, 0xffff, 0xffff
		}
		r, g, b, _ = img.At(x, y).RGBA()
		return r, g, b
	}
	var diff float64
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r1, g1, b1 := at(a, x, y)
			r2, g2, b2 := at(b, x, y)
			diff += math.Abs(float64(r1)-float64(r2)) + math.Abs(float64(g1)-float64(g2)) + math.Abs(float64(b1)-float64(b2))
		}
	}
	mean = diff / float64(3*bd.Dx()*bd.Dy()) / 65535
	ha, hb := histogram(a), histogram(b)
	for i := range ha {
		hist += math.Abs(ha[i] - hb[i])
	}
	return mean, hist
}

// Tolerances of the approximate comparison.
const (
	maxMeanDiff = 0.01
	maxHistDist = 0.02
)

func compareImages(t *testing.T, name string, got, want []byte) {
	t.Helper()
	img := decodePNG(t, name, got)
	// 6×4 inches (plus the legend's column) at 192 dpi.
	if img.Bounds().Dx() < 1152 || img.Bounds().Dy() != 768 {
		t.Fatalf("%s: size %v, want 768 pixels high and at least 1152 wide", name, img.Bounds())
	}
	if w := decodePNG(t, name+" golden", want); w.Bounds() != img.Bounds() {
		t.Fatalf("%s: size %v, golden %v", name, img.Bounds(), w.Bounds())
	}
	mean, hist := imageDistance(t, name, got, want)
	if mean > maxMeanDiff {
		t.Errorf("%s: mean pixel difference %.4f > %v", name, mean, maxMeanDiff)
	}
	if hist > maxHistDist {
		t.Errorf("%s: histogram distance %.4f > %v", name, hist, maxHistDist)
	}
	// Not blank: at least 2% of the pixels are not white.
	if h := histogram(img); h[7] > 0.98 {
		t.Errorf("%s: %.1f%% white, the figure looks empty", name, 100*h[7])
	}
}

// TestImageComparisonDiscriminates: the comparison is not so loose that a
// different figure passes.
func TestImageComparisonDiscriminates(t *testing.T) {
	line, err := os.ReadFile(filepath.Join("testdata", "line.png"))
	if err != nil {
		t.Skip("no golden yet")
	}
	bar, err := os.ReadFile(filepath.Join("testdata", "bar.png"))
	if err != nil {
		t.Skip("no golden yet")
	}
	if mean, hist := imageDistance(t, "line/bar", line, bar); mean <= maxMeanDiff && hist <= maxHistDist {
		t.Fatalf("line and bar figures compare equal (mean %.4f, hist %.4f)", mean, hist)
	}
	// A smaller change: the toy objective figure with one series dropped.
	res := runToy(t, toyExperiment("toy/a"))
	f := res.Experiment.Figures[0]
	f.Where = map[string]string{"variant": "A", "k": "5"}
	_, data := plotPNG(t, res, f)
	if mean, hist := imageDistance(t, "one series", data, line); mean <= maxMeanDiff && hist <= maxHistDist {
		t.Fatalf("dropping a series went unnoticed (mean %.4f, hist %.4f)", mean, hist)
	}
}

func TestFormatSummary(t *testing.T) {
	for _, c := range []struct {
		vals []float64
		want string
	}{
		{nil, "–"},
		{[]float64{3}, "3"},
		{[]float64{0, 0, 0}, "0"},
		{[]float64{2, 4}, "3.000 ± 1.414"},
		{[]float64{0.5}, "0.500"},
		{[]float64{1.25, 1.25}, "1.250 ± 0.000"},
	} {
		if got := formatSummary(experiments.Summarize(c.vals), 3); got != c.want {
			t.Errorf("%v: %q, want %q", c.vals, got, c.want)
		}
	}
}

func TestLogYFigure(t *testing.T) {
	res := runToy(t, toyExperiment("toy/a"))
	f := res.Experiment.Figures[0]
	f.LogY = true
	if _, err := Plot(res, f); err != nil {
		t.Fatal(err)
	}
	f.Y = "seconds" // 0.1 everywhere: positive, fine
	if _, err := Plot(res, f); err != nil {
		t.Fatal(err)
	}
}

// TestReportWritesThroughLinks: REPORT.md and a figure that are symbolic
// links (into a documentation tree, say) stay links, and their targets
// get the new content (issue 23: an atomic rename replaced the link by a
// file and left the target stale); a REPORT.md that is a FIFO is written
// to its reader, not renamed over.
func TestReportWritesThroughLinks(t *testing.T) {
	e1 := toyExperiment("toy/a")
	res := runToy(t, e1)
	dir := PaperDir(t.TempDir(), e1)
	docs := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		filepath.Join(dir, ReportFile):           filepath.Join(docs, "report.md"),
		filepath.Join(dir, "a", "objective.svg"): filepath.Join(docs, "objective.svg"),
	}
	for link, target := range links {
		if err := os.WriteFile(target, []byte("stale"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Render(res, dir); err != nil {
		t.Fatal(err)
	}
	if err := Assemble(dir, []*experiments.Experiment{e1}, false); err != nil {
		t.Fatal(err)
	}
	for link, target := range links {
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", link)
		}
		if b, _ := os.ReadFile(target); string(b) == "stale" || len(b) == 0 {
			t.Errorf("%s was not written through the link", target)
		}
	}
	// A FIFO as REPORT.md is written to its reader.
	report := filepath.Join(dir, ReportFile)
	os.Remove(report)
	if err := syscall.Mkfifo(report, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(report)
		got <- string(b)
	}()
	if err := Assemble(dir, []*experiments.Experiment{e1}, false); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if !strings.Contains(s, "# Reproduction report: toy") {
			t.Errorf("the FIFO's reader got %q", s)
		}
	case <-time.After(30 * time.Second):
		t.Error("the FIFO's reader got nothing")
	}
	if fi, err := os.Lstat(report); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("REPORT.md is no longer a FIFO")
	}
}

// TestRenderTextTable renders a table of text: Markdown in the section
// (a "|" in a cell escaped), the CSV beside it unescaped, and the error of
// a failing Build naming the table.
func TestRenderTextTable(t *testing.T) {
	e := toyExperiment("toy/words")
	e.TextTables = []experiments.TextTable{{Name: "words", Title: "Top words", Build: func(r *experiments.Results) ([]string, [][]string, error) {
		return []string{"variant", "word 1"}, [][]string{{"A", "apple"}, {"B", "pipe|line"}}, nil
	}}}
	res := runToy(t, e)
	dir := PaperDir(t.TempDir(), e)
	md, err := Render(res, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := "### Top words\n\n| variant | word 1 |\n| --- | --- |\n| A | apple |\n| B | pipe\\|line |\n\nAs CSV: [words.csv](words/words.csv)."
	if !strings.Contains(md, want) {
		t.Errorf("section lacks\n%s\nin\n%s", want, md)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "words", "words.csv")); err != nil || string(b) != "variant,word 1\nA,apple\nB,pipe|line\n" {
		t.Errorf("words.csv = %q, %v", b, err)
	}
	e.TextTables[0].Build = func(*experiments.Results) ([]string, [][]string, error) { return nil, nil, os.ErrNotExist }
	if _, err := Render(res, dir); err == nil || !strings.Contains(err.Error(), "table words") {
		t.Errorf("failing Build: err = %v, want one naming table words", err)
	}
}
