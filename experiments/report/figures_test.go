package report

import (
	"context"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// crowdedExperiment is the shape of rlsi2011's best-alpha-map-by-k: 16
// series over K, crossing one another over the whole plot, under a title
// too long for one line.
func crowdedExperiment(ks []string) *experiments.Experiment {
	var alphas []string
	for i := 1; i <= 16; i++ {
		alphas = append(alphas, strconv.FormatFloat(float64(i)/20, 'f', 2, 64))
	}
	return &experiments.Experiment{
		ID: "toy/crowded", Title: "Crowded", Version: "1", Datasets: []string{"toy"},
		Checksums: func(*experiments.Job) ([]store.Checksum, error) {
			return []store.Checksum{{Name: "toy", SHA256: "00"}}, nil
		},
		Grid:       map[string][]string{"k": ks, "alpha": alphas},
		TaskParams: []string{"k", "alpha"},
		Task: func(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
			k, _ := strconv.ParseFloat(j.Param("k", ""), 64)
			a, _ := strconv.ParseFloat(j.Param("alpha", ""), 64)
			res := &experiments.Result{}
			res.AddMetric("map", 0.3+0.1*math.Sin(k/100+6*a)+0.05*a)
			return res, nil
		},
		Metrics: []experiments.MetricDef{{Name: "map", Definition: "toy"}},
		Figures: []experiments.Figure{{
			Name: "crowded", Kind: experiments.Line, Source: experiments.FromMetrics, X: "k", Y: "map", Series: []string{"alpha"},
			Title: "Best MAP against the number of topics K for every interpolation weight alpha of the topic score with BM25, on Cranfield, MED, CISI and NPL",
		}},
	}
}

// plotPNG renders figure f of res, as a plot and as PNG; an error fails
// the test.
func plotPNG(t *testing.T, res *experiments.Results, f experiments.Figure) (*plot.Plot, []byte) {
	t.Helper()
	p, err := Plot(res, f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := EncodePlot(p, "png")
	if err != nil {
		t.Fatal(err)
	}
	return p, data
}

// checkGolden compares the PNG data with testdata/<name>.png (with
// -update, rewrites it first).
func checkGolden(t *testing.T, name string, data []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name+".png")
	if *update {
		if err := os.WriteFile(golden, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	compareImages(t, name, data, want)
}

// goldenFigure renders figure 0 of e, checks it against
// testdata/<name>.png (with -update, rewrites it) and returns the figure's
// size in pixels.
func goldenFigure(t *testing.T, e *experiments.Experiment, name string) (w, h int) {
	t.Helper()
	_, data := plotPNG(t, runToy(t, e), e.Figures[0])
	checkGolden(t, name, data)
	img := decodePNG(t, name, data)
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// The legend of many series sits in a column right of the plot, so the
// data area keeps its full 6 × 4 inches; the figure is twice vg's
// resolution; the long title is wrapped (the golden image shows both).
func TestFigureLegendOutside(t *testing.T) {
	w, h := goldenFigure(t, crowdedExperiment([]string{"100", "200", "300", "400", "500"}), "crowded")
	if h != 768 || w <= 1152+100 {
		t.Errorf("size %d×%d: want 768 high and a legend column beyond 1152", w, h)
	}
}

// The 16 series differ: no two share colour and dashes, the first ten
// have ten colours.
func TestSeriesStylesDistinct(t *testing.T) {
	type style struct {
		c      color.RGBA
		dashes string
	}
	seen := map[style]int{}
	colours := map[color.RGBA]bool{}
	for i := range 40 {
		c, shape, dashes := seriesStyle(i)
		if shape == nil {
			t.Fatalf("series %d: no marker", i)
		}
		r, g, b, a := c.RGBA()
		s := style{color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}, strings.Trim(strings.Join(strings.Fields(strings.Trim(fmtLengths(dashes), "[]")), ","), ",")}
		if j, dup := seen[s]; dup {
			t.Errorf("series %d looks like series %d", i, j)
		}
		seen[s] = i
		if i < 10 {
			colours[s.c] = true
		}
	}
	if len(colours) != 10 {
		t.Errorf("%d colours among the first 10 series", len(colours))
	}
}

func fmtLengths(ls []vg.Length) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, strconv.FormatFloat(float64(l), 'g', -1, 64))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// A quick run with a single K draws an axis around it with one tick at
// K, not gonum's K ± 1 (19–21 for K = 20).
func TestSinglePointAxis(t *testing.T) {
	e := crowdedExperiment([]string{"20"})
	res := runToy(t, e)
	p, err := Plot(res, e.Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min > 15.5 || p.X.Max < 24.5 {
		t.Errorf("x range [%v, %v] for the single K = 20, want at least [15, 25]", p.X.Min, p.X.Max)
	}
	var labels []string
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if strings.Join(labels, " ") != "20" {
		t.Errorf("x tick labels %q, want just 20", labels)
	}
	goldenFigure(t, e, "single")
}

// A few well-spread x values (a grid of K) get a tick each.
func TestGridTicks(t *testing.T) {
	res := runToy(t, crowdedExperiment([]string{"50", "100", "200", "300", "500"}))
	p, err := Plot(res, res.Experiment.Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, " "); got != "50 100 200 300 500" {
		t.Errorf("ticks %q, want one at each K", got)
	}
}

func TestTitleWraps(t *testing.T) {
	p, err := Plot(runToy(t, crowdedExperiment([]string{"100", "200"})), crowdedExperiment(nil).Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	width := FigureWidth - vg.Points(20)
	got := wrapText(p.Title.TextStyle, p.Title.Text, width)
	lines := strings.Split(got, "\n")
	if len(lines) < 2 || strings.Join(lines, " ") != p.Title.Text {
		t.Fatalf("wrapped title %q", got)
	}
	for _, l := range lines {
		if w := p.Title.TextStyle.Width(l); w > width {
			t.Errorf("title line %q is %v wide, more than %v", l, w, width)
		}
	}
}
