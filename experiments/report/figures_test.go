package report

import (
	"bytes"
	"context"
	"fmt"
	"gonum.org/v1/plot/vg/draw"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
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

// metricExperiment is a toy experiment over grid, with replicates, whose
// task gives metric y the value value(job parameters, replicate), drawn
// as figure f.
func metricExperiment(grid map[string][]string, replicates int, value func(p map[string]float64, replicate int) float64, f experiments.Figure) *experiments.Experiment {
	var params []string
	for name := range grid {
		params = append(params, name)
	}
	slices.Sort(params)
	return &experiments.Experiment{
		ID: "toy/" + f.Name, Title: f.Title, Version: "1", Datasets: []string{"toy"},
		Checksums: func(*experiments.Job) ([]store.Checksum, error) {
			return []store.Checksum{{Name: "toy", SHA256: "00"}}, nil
		},
		Grid: grid, TaskParams: params, Replicates: replicates,
		Task: func(ctx context.Context, j *experiments.Job) (*experiments.Result, error) {
			p := map[string]float64{}
			for _, name := range params {
				v, err := strconv.ParseFloat(j.Param(name, ""), 64)
				if err != nil {
					v = float64(slices.Index(grid[name], j.Param(name, "")))
				}
				p[name] = v
			}
			res := &experiments.Result{}
			res.AddMetric(f.Y, value(p, j.Replicate))
			return res, nil
		},
		Metrics: []experiments.MetricDef{{Name: f.Y, Definition: "toy"}},
		Figures: []experiments.Figure{f},
	}
}

// sharedKExperiment is the shape of rlsi2011's Figures 3–5 in a quick run:
// four variants at a single K, each mean ± sd over three replicates, the
// means close enough that the error bars would stack on one vertical.
func sharedKExperiment(ks ...string) *experiments.Experiment {
	return metricExperiment(map[string][]string{"k": ks, "variant": {"Uℓ1-Vℓ2", "Uℓ2-Vℓ1", "Uℓ1-Vℓ1", "Uℓ2-Vℓ2"}}, 3,
		func(p map[string]float64, r int) float64 {
			return 0.52 + 0.01*p["variant"] + 0.0005*p["k"] + 0.01*float64(r-1)
		},
		experiments.Figure{Name: "shared-k", Title: "MAP at each variant's best α, by K", Kind: experiments.Line, Source: experiments.FromMetrics,
			X: "k", Y: "map", Series: []string{"variant"}, ErrorBars: true, XLabel: "K", YLabel: "MAP"})
}

// Series at one K with error bars are drawn side by side: four distinct
// x positions around K = 10, symmetric, inside the axis, and the caption
// says so; the golden image shows four separate error bars.
func TestSharedXErrorBarsOffset(t *testing.T) {
	e := sharedKExperiment("10")
	res := runToy(t, e)
	f := e.Figures[0]
	data, _, _, err := figureData(res, f)
	if err != nil {
		t.Fatal(err)
	}
	l := planLines(f, data)
	// One K: the axis is 10 ± 2.5; the shifts are (i − 1.5)·(0.4·2.5)/4.
	want := []float64{-0.375, -0.125, 0.125, 0.375}
	for i, s := range l.shifts {
		if math.Abs(s-want[i]) > 1e-12 {
			t.Errorf("shift of series %d = %v, want %v", i, s, want[i])
		}
	}
	p, err := Plot(res, f)
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min > 10-0.375 || p.X.Max < 10+0.375 {
		t.Errorf("x range [%v, %v] cuts the shifted series", p.X.Min, p.X.Max)
	}
	caption, err := Caption(res, f)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(caption, "side by side") || !strings.Contains(caption, "±0.375") {
		t.Errorf("caption %q does not say the series are shifted by ±0.375", caption)
	}
	goldenFigure(t, e, "shared-k")

	// Without error bars nothing is shifted; nor is a series alone.
	f.ErrorBars = false
	if l := planLines(f, data); l.maxShift() != 0 {
		t.Errorf("shifts %v without error bars", l.shifts)
	}
	f.ErrorBars = true
	if l := planLines(f, data[:1]); l.maxShift() != 0 {
		t.Errorf("shifts %v of a single series", l.shifts)
	}
	// Several K: the shifts are tenths of the smallest gap (10).
	res = runToy(t, sharedKExperiment("10", "20", "50"))
	data, _, _, err = figureData(res, f)
	if err != nil {
		t.Fatal(err)
	}
	if got := planLines(f, data).maxShift(); math.Abs(got-1.5) > 1e-12 {
		t.Errorf("largest shift over K = 10, 20, 50: %v, want 1.5", got)
	}
}

// scalingExperiment is a time-against-size figure over the sizes given,
// seconds = 2·10⁻⁶ · N^1.2 (a power law, straight on log–log axes), for
// two methods.
func scalingExperiment(sizes ...string) *experiments.Experiment {
	return metricExperiment(map[string][]string{"docs": sizes, "variant": {"RLSI", "LSI"}}, 1,
		func(p map[string]float64, r int) float64 {
			return (2 + 3*p["variant"]) * 1e-6 * math.Pow(p["docs"], 1.2)
		},
		experiments.Figure{Name: "scaling", Title: "Seconds per iteration against N", Kind: experiments.Line, Source: experiments.FromMetrics,
			X: "docs", Y: "sec_per_iter", Series: []string{"variant"}, XLabel: "documents N", YLabel: "seconds per iteration", Scaling: true})
}

// A scaling figure with more than two sizes is drawn on log–log axes; with
// two (a quick run), on linear ones, and its caption says so.
func TestScalingAxes(t *testing.T) {
	e := scalingExperiment("1000", "2000", "4000", "8000", "16000", "32000", "64000", "128000", "256000", "512000")
	res := runToy(t, e)
	p, err := Plot(res, e.Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	// Axes of decimal logarithms, labelled with the powers of ten.
	if got := tickLabels(p.X); got != "1000 10000 100000" {
		t.Errorf("10 sizes: x ticks %q, want 1000 10000 100000", got)
	}
	if got := tickLabels(p.Y); got != "0.01 0.1 1 10" {
		t.Errorf("10 sizes: y ticks %q, want 0.01 0.1 1 10", got)
	}
	if caption, _ := Caption(res, e.Figures[0]); strings.Contains(caption, "linear") {
		t.Errorf("caption %q of a log–log figure speaks of linear axes", caption)
	}
	goldenFigure(t, e, "scaling")

	quick := scalingExperiment("1000", "2000")
	res = runToy(t, quick)
	p, err = Plot(res, quick.Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := tickLabels(p.X); got != "1000 2000" {
		t.Errorf("2 sizes: x ticks %q, want 1000 2000", got)
	}
	if p.Y.Min > 0.0079 || p.Y.Max < 0.0458 || p.Y.Max > 0.05 {
		t.Errorf("2 sizes: y range [%v, %v] is not linear seconds around 0.0080–0.0458", p.Y.Min, p.Y.Max)
	}
	caption, err := Caption(res, quick.Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := "2 x value(s) only, as in a quick run: linear axes"; !strings.Contains(caption, want) {
		t.Errorf("caption %q lacks %q", caption, want)
	}
}

// A long single trace (the notebooks' PlotTrace of a 30-iteration fit):
// no legend, ticks at round steps, the first and highest point off the
// frame.
func TestTraceFigure(t *testing.T) {
	var s Series
	for it := 1; it <= 30; it++ {
		s.Points = append(s.Points, Point{X: float64(it), Mean: 1232 + 148/math.Pow(float64(it), 1.5), SD: math.NaN()})
	}
	f := experiments.Figure{Name: "trace", Title: "rlsi on cranfield", Kind: experiments.Line, X: "iteration", Y: "objective"}
	p, err := LinePlot(f, []Series{s})
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min >= 1 || p.Y.Max <= 1380 {
		t.Errorf("range x ≥ %v, y ≤ %v: the first point is on the frame", p.X.Min, p.Y.Max)
	}
	if got := tickLabels(p.X); got != "0 5 10 15 20 25 30" {
		t.Errorf("x ticks %q, want 0 5 10 15 20 25 30", got)
	}
	data, err := EncodePlot(p, "png")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "trace", data)
}

// Every format renders: PNG, SVG and PDF, the PDF the same bytes twice
// (no creation time in it); an unknown format is an error naming it.
func TestEncodeFormats(t *testing.T) {
	res := runToy(t, toyExperiment("toy/a"))
	p, err := Plot(res, res.Experiment.Figures[0])
	if err != nil {
		t.Fatal(err)
	}
	magic := map[string]string{"png": "\x89PNG", "svg": "<?xml", "pdf": "%PDF-"}
	for _, format := range Formats {
		data, err := EncodePlot(p, format)
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if !strings.HasPrefix(string(data), magic[format]) {
			t.Errorf("%s starts with %q", format, data[:min(len(data), 8)])
		}
	}
	a, _ := EncodePlot(p, "pdf")
	b, _ := EncodePlot(p, "pdf")
	if !bytes.Equal(a, b) {
		t.Error("two renderings of one figure as PDF differ")
	}
	if _, err := EncodePlot(p, "jpeg"); err == nil || !strings.Contains(err.Error(), `"jpeg"`) {
		t.Errorf("jpeg: %v", err)
	}
}

// tickLabels are the labels of the axis' labelled ticks, space-separated.
func tickLabels(a plot.Axis) string {
	var labels []string
	for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	return strings.Join(labels, " ")
}

// Every figure has a blank margin: no drawn pixel within 10 points (26
// pixels at 192 dpi) of the image's edges, so the title is not flush with
// the top edge nor the axis label with the left one.
func TestFigureMargins(t *testing.T) {
	res := runToy(t, toyExperiment("toy/a"))
	crowded := crowdedExperiment([]string{"100", "200", "300"})
	for _, c := range []struct {
		res *experiments.Results
		f   experiments.Figure
	}{{res, res.Experiment.Figures[0]}, {res, res.Experiment.Figures[1]}, {runToy(t, crowded), crowded.Figures[0]}} {
		_, data := plotPNG(t, c.res, c.f)
		img := decodePNG(t, c.f.Name, data)
		b := img.Bounds()
		const edge = 25 // 10 pt at 192 dpi is 26.7 pixels
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if y >= b.Min.Y+edge && y < b.Max.Y-edge && x >= b.Min.X+edge && x < b.Max.X-edge {
					continue
				}
				if r, g, bl, _ := img.At(x, y).RGBA(); r != 0xffff || g != 0xffff || bl != 0xffff {
					t.Fatalf("%s: pixel (%d, %d) within %d pixels of the edge is drawn", c.f.Name, x, y, edge)
				}
			}
		}
	}
}

// Legend entries are legendPadding apart when the column has room, closer
// when it has less, and in smaller type when they do not fit even
// touching; the legend then fits its column.
func TestLegendSpacing(t *testing.T) {
	legend := func(n int) plot.Legend {
		l := plot.NewLegend()
		l.TextStyle.Font.Size = vg.Points(10)
		for i := range n {
			l.Add(fmt.Sprintf("alpha=%d", i))
		}
		return l
	}
	height := func(l plot.Legend) vg.Length { return l.Rectangle(draw.Canvas{}).Size().Y }

	l := legend(3)
	fitLegend(&l, FigureHeight)
	if l.Padding != legendPadding {
		t.Errorf("3 entries in %v: padding %v, want %v", FigureHeight, l.Padding, legendPadding)
	}
	l = legend(16)
	tight := height(l)
	room := tight + 15*vg.Points(2)
	fitLegend(&l, room)
	if math.Abs(float64(l.Padding-vg.Points(2))) > 1e-9 || height(l) > room+1e-9 {
		t.Errorf("16 entries with 2 pt of room between each: padding %v, height %v of %v", l.Padding, height(l), room)
	}
	l = legend(40)
	fitLegend(&l, FigureHeight)
	if l.Padding != 0 || l.TextStyle.Font.Size >= vg.Points(10) || height(l) > FigureHeight+1e-9 {
		t.Errorf("40 entries: padding %v, font %v, height %v of %v", l.Padding, l.TextStyle.Font.Size, height(l), FigureHeight)
	}
}
