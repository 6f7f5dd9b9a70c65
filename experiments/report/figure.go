package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/experiments"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// maxErrorBars bounds the error bars drawn along one line.
const maxErrorBars = 20

// Figure size: 6 × 4 inches, plus the legend's width to the right when
// there is one (so that the legend never covers data). PNGs are drawn at
// PNGDPI: 1152 × 768 pixels, sharp on high-density screens and in print.
var (
	FigureWidth  = 6 * vg.Inch
	FigureHeight = 4 * vg.Inch
)

// PNGDPI is the resolution of the PNG figures, twice vg's 96.
const PNGDPI = 192

// palette are the series colours: Tableau's ten (matplotlib's tab10),
// distinct from one another, where gonum's default has seven.
var palette = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xff, 0x7f, 0x0e, 0xff},
	color.RGBA{0x2c, 0xa0, 0x2c, 0xff}, color.RGBA{0xd6, 0x27, 0x28, 0xff},
	color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
	color.RGBA{0xe3, 0x77, 0xc2, 0xff}, color.RGBA{0x7f, 0x7f, 0x7f, 0xff},
	color.RGBA{0xbc, 0xbd, 0x22, 0xff}, color.RGBA{0x17, 0xbe, 0xcf, 0xff},
}

// seriesStyle is the colour, marker and dashes of series i: the colour
// cycles through the palette, the marker through gonum's eight shapes, and
// the dashes change with each round of colours, so that no two of the
// first 60 series look alike.
func seriesStyle(i int) (color.Color, draw.GlyphDrawer, []vg.Length) {
	return palette[i%len(palette)], plotutil.Shape(i), plotutil.Dashes(i / len(palette))
}

// point is one plotted value with its spread.
type point struct {
	x, mean, sd float64
	n           int
}

// series is one line or bar colour.
type seriesData struct {
	label  string
	points []point
	cats   []string // for bars: category of each point
}

// seriesLabel names a series by its grouping columns, e.g. "k=10" or
// "method=NMF, k=10"; a single "method" column shows just the method.
func seriesLabel(cols, key []string) string {
	if len(cols) == 1 && cols[0] == experiments.ColMethod {
		return key[0]
	}
	parts := make([]string, len(cols))
	for i := range cols {
		parts[i] = cols[i] + "=" + key[i]
	}
	return strings.Join(parts, ", ")
}

// figureData collects the series of f from the results.
func figureData(res *experiments.Results, f experiments.Figure) ([]seriesData, bool, error) {
	var out []seriesData
	switch f.Source {
	case experiments.FromIterations:
		if f.Kind != experiments.Line {
			return nil, false, fmt.Errorf("figure %s: iteration traces can only be drawn as lines", f.Name)
		}
		for _, c := range res.Curves(f.X, f.Y, f.Series, f.Where) {
			s := seriesData{label: seriesLabel(f.Series, c.Key)}
			for i := range c.X {
				s.points = append(s.points, point{x: c.X[i], mean: c.Mean[i], sd: c.SD[i], n: c.N[i]})
			}
			out = append(out, s)
		}
		return out, true, nil
	case experiments.FromMetrics:
		by := append(append([]string(nil), f.Series...), f.X)
		groups := res.Groups(f.Y, by, f.Where)
		numeric := true
		for _, g := range groups {
			if _, err := strconv.ParseFloat(g.Key[len(g.Key)-1], 64); err != nil {
				numeric = false
			}
		}
		if f.Kind == experiments.Bar {
			numeric = false
		}
		index := map[string]int{}
		for _, g := range groups {
			if g.N == 0 {
				continue
			}
			skey := g.Key[:len(g.Key)-1]
			label := seriesLabel(f.Series, skey)
			i, ok := index[label]
			if !ok {
				i = len(out)
				index[label] = i
				out = append(out, seriesData{label: label})
			}
			xv := g.Key[len(g.Key)-1]
			x := math.NaN()
			if numeric {
				x, _ = strconv.ParseFloat(xv, 64)
			}
			out[i].points = append(out[i].points, point{x: x, mean: g.Mean, sd: g.SD, n: g.N})
			out[i].cats = append(out[i].cats, xv)
		}
		if numeric {
			for i := range out {
				sort.SliceStable(out[i].points, func(a, b int) bool { return out[i].points[a].x < out[i].points[b].x })
			}
		}
		return out, numeric, nil
	}
	return nil, false, fmt.Errorf("figure %s: unknown source %q", f.Name, f.Source)
}

type xyErrs struct {
	plotter.XYs
	plotter.YErrors
}

// Plot draws figure f from the results.
func Plot(res *experiments.Results, f experiments.Figure) (*plot.Plot, error) {
	data, numeric, err := figureData(res, f)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("figure %s: no data for %s against %s", f.Name, f.Y, f.X)
	}
	p := plot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = firstNonEmpty(f.XLabel, f.X)
	p.Y.Label.Text = firstNonEmpty(f.YLabel, f.Y)
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	if f.LogY {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range data {
			for _, pt := range s.points {
				if pt.mean <= 0 {
					return nil, fmt.Errorf("figure %s: %s = %v at %s: a log scale needs positive values", f.Name, f.Y, pt.mean, s.label)
				}
				lo, hi = math.Min(lo, pt.mean), math.Max(hi, pt.mean)
			}
		}
		p.Y.Scale = plot.LogScale{}
		// Power-of-ten ticks only label a range of two decades or more;
		// below that, ordinary ticks placed on the log scale.
		if hi/lo >= 100 {
			p.Y.Tick.Marker = powerTicks{}
		}
	}
	if f.Kind == experiments.Line && numeric {
		for i, s := range data {
			xys := make(plotter.XYs, len(s.points))
			errs := make(plotter.YErrors, len(s.points))
			for k, pt := range s.points {
				xys[k] = plotter.XY{X: pt.x, Y: pt.mean}
				sd := pt.sd
				if math.IsNaN(sd) {
					sd = 0
				}
				errs[k].Low, errs[k].High = sd, sd
			}
			line, err := plotter.NewLine(xys)
			if err != nil {
				return nil, fmt.Errorf("figure %s, series %s: %w", f.Name, s.label, err)
			}
			col, shape, dashes := seriesStyle(i)
			line.Color = col
			line.Dashes = dashes
			line.Width = vg.Points(1.5)
			p.Add(line)
			entry := []plot.Thumbnailer{line}
			if len(xys) <= 30 {
				sc, err := plotter.NewScatter(xys)
				if err != nil {
					return nil, err
				}
				sc.GlyphStyle.Color = col
				sc.GlyphStyle.Shape = shape
				sc.GlyphStyle.Radius = vg.Points(2.5)
				p.Add(sc)
				entry = append(entry, sc)
			}
			if f.ErrorBars {
				// Long traces get error bars at about maxErrorBars evenly
				// spaced points (and the last), so they stay readable.
				step := (len(xys) + maxErrorBars - 1) / maxErrorBars
				var exy plotter.XYs
				var eerr plotter.YErrors
				for k := range xys {
					if k%step == 0 || k == len(xys)-1 {
						exy, eerr = append(exy, xys[k]), append(eerr, errs[k])
					}
				}
				eb, err := plotter.NewYErrorBars(xyErrs{XYs: exy, YErrors: eerr})
				if err != nil {
					return nil, err
				}
				eb.LineStyle.Color = col
				eb.CapWidth = vg.Points(4)
				p.Add(eb)
			}
			if len(data) > 1 {
				p.Legend.Add(s.label, entry...)
			}
		}
		// A little room left and right so that end points and their error
		// bars are not drawn on the frame.
		var xs []float64
		for _, s := range data {
			for _, pt := range s.points {
				xs = append(xs, pt.x)
			}
		}
		xAxis(p, xs)
		if !f.LogY {
			// Room above and below, so markers at the extremes are not cut
			// by the frame.
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, s := range data {
				for _, pt := range s.points {
					sd := 0.0
					if f.ErrorBars && !math.IsNaN(pt.sd) {
						sd = pt.sd
					}
					lo, hi = math.Min(lo, pt.mean-sd), math.Max(hi, pt.mean+sd)
				}
			}
			if pad := 0.04 * (hi - lo); pad > 0 {
				p.Y.Min, p.Y.Max = lo-pad, hi+pad
			}
		}
		return p, nil
	}
	// Bars (or a line over non-numeric x, drawn as bars too): one group
	// per category, one bar per series.
	var cats []string
	catIndex := map[string]int{}
	for _, s := range data {
		for _, c := range s.cats {
			if _, ok := catIndex[c]; !ok {
				catIndex[c] = len(cats)
				cats = append(cats, c)
			}
		}
	}
	n := len(data)
	groupWidth := 0.8
	barWidth := FigureWidth * 0.75 / vg.Length(len(cats)) * vg.Length(groupWidth) / vg.Length(n)
	for i, s := range data {
		vals := make(plotter.Values, len(cats))
		xys := make(plotter.XYs, len(cats))
		errs := make(plotter.YErrors, len(cats))
		shift := -groupWidth/2 + groupWidth*(float64(i)+0.5)/float64(n)
		for c := range cats {
			xys[c].X = float64(c) + shift
		}
		for k, pt := range s.points {
			c := catIndex[s.cats[k]]
			vals[c] = pt.mean
			xys[c].Y = pt.mean
			sd := pt.sd
			if math.IsNaN(sd) {
				sd = 0
			}
			errs[c].Low, errs[c].High = sd, sd
		}
		bars, err := plotter.NewBarChart(vals, barWidth)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", f.Name, err)
		}
		bars.XMin = shift
		bars.Color, _, _ = seriesStyle(i)
		bars.LineStyle.Width = vg.Points(0.5)
		p.Add(bars)
		if n > 1 {
			p.Legend.Add(s.label, bars)
		}
		if f.ErrorBars {
			eb, err := plotter.NewYErrorBars(xyErrs{XYs: xys, YErrors: errs})
			if err != nil {
				return nil, err
			}
			eb.CapWidth = vg.Points(4)
			p.Add(eb)
		}
	}
	p.NominalX(cats...)
	// Room on both sides for the outer bars, and a little above the
	// tallest bar (with its error bar).
	p.X.Min, p.X.Max = -0.5, float64(len(cats))-0.5
	if !f.LogY {
		top := 0.0
		for _, s := range data {
			for _, pt := range s.points {
				sd := pt.sd
				if math.IsNaN(sd) {
					sd = 0
				}
				top = math.Max(top, pt.mean+sd)
			}
		}
		p.Y.Min = math.Min(p.Y.Min, 0)
		if top > 0 {
			p.Y.Max = top * 1.05
		}
	}
	return p, nil
}

// xAxis sets the x range of a line plot over the values xs: 3 % of room on
// either side; a single value gets a range around it (gonum would draw
// x ± 1, as 19–21 for K = 20) and one tick, and a few values spread out
// enough get a tick each (the grid of K, say) instead of round numbers.
func xAxis(p *plot.Plot, xs []float64) {
	slices.Sort(xs)
	xs = slices.Compact(xs)
	if len(xs) == 0 {
		return
	}
	lo, hi := xs[0], xs[len(xs)-1]
	if lo == hi {
		half := math.Max(math.Abs(lo)*0.25, 0.5)
		p.X.Min, p.X.Max = lo-half, hi+half
		p.X.Tick.Marker = valueTicks(xs)
		return
	}
	pad := 0.03 * (hi - lo)
	p.X.Min, p.X.Max = lo-pad, hi+pad
	if len(xs) > 12 || p.X.Scale != nil && p.X.Scale != (plot.LinearScale{}) {
		return
	}
	for i := 1; i < len(xs); i++ {
		if xs[i]-xs[i-1] < (hi-lo)/12 {
			return // labels would run into each other
		}
	}
	p.X.Tick.Marker = valueTicks(xs)
}

// valueTicks are labelled ticks at exactly the given values.
type valueTicks []float64

func (v valueTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for _, x := range v {
		if x >= min && x <= max {
			ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', 6, 64)})
		}
	}
	return ticks
}

// EncodePlot renders p in a format ("png" or "svg"): the plot at the
// figure size, its title wrapped to the plot's width, and its legend (if
// any) in a column of its own to the right, where it covers no data. PNGs
// are drawn at PNGDPI.
func EncodePlot(p *plot.Plot, format string) ([]byte, error) {
	legend := p.Legend
	defer func() { p.Legend = legend }()
	p.Legend = plot.NewLegend() // drawn beside the plot below, not inside it
	title := p.Title.Text
	defer func() { p.Title.Text = title }()
	p.Title.Text = wrapText(p.Title.TextStyle, title, FigureWidth-vg.Points(20))

	var legendW vg.Length
	pad := vg.Points(8)
	legend.Top, legend.Left = true, true
	if r := legend.Rectangle(draw.Canvas{}); r.Size().X > 0 {
		legendW = r.Size().X + 2*pad
	}
	w, h := FigureWidth+legendW, FigureHeight
	var cw vg.CanvasWriterTo
	switch format {
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI))}
	case "svg":
		cw = vgsvg.New(w, h)
	default:
		return nil, fmt.Errorf("unknown figure format %q (want png or svg)", format)
	}
	dc := draw.New(cw)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	p.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	if legendW > 0 {
		// The legend's top level with the top of the data area.
		top := vg.Length(0)
		if p.Title.Text != "" {
			top = p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
		}
		legend.Draw(draw.Crop(dc, FigureWidth+pad, -pad, 0, -top-pad))
	}
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// wrapText breaks s at spaces into lines no wider than width in style sty.
func wrapText(sty text.Style, s string, width vg.Length) string {
	return strings.Join(WrapWords(s, func(line string) bool { return sty.Width(line) <= width }), "\n")
}

// WrapWords breaks s at spaces into lines, greedily: the next word joins
// the line (after one space) while fits holds for the longer line; a word
// that does not fit starts a new line, which it has to itself when it does
// not fit alone.
func WrapWords(s string, fits func(line string) bool) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case fits(line + " " + word):
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// powerTicks are gonum's power-of-ten ticks with labels rounded to six
// significant digits: gonum computes the powers by repeated multiplication,
// so its shortest-representation labels read "9.999999999999999e-05" for
// 10⁻⁴.
type powerTicks struct{}

func (powerTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'g', 6, 64)
		}
	}
	return ticks
}
