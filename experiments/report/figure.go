package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/experiments"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// maxErrorBars bounds the error bars drawn along one line.
const maxErrorBars = 20

// maxMarkers bounds the points of a line that get a marker each; longer
// lines (iteration traces) are drawn as lines only.
const maxMarkers = 30

// Room around the data, as a fraction of the data's range on each side,
// so that no marker or error bar is drawn on the frame.
const dataPad = 0.05

// Series is one line of a figure: its label and its points in increasing
// x.
type Series struct {
	Label  string
	Points []Point
}

// Point is one plotted mean with the sample standard deviation of the
// replicates behind it (NaN or 0 when there is no spread to show).
type Point struct {
	X, Mean, SD float64
}

// spread is the half-height of p's error bar: its SD, or 0 when unknown.
func (p Point) spread() float64 {
	if math.IsNaN(p.SD) {
		return 0
	}
	return p.SD
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

// figureData collects the series of f from the results, whether their x
// values are numbers (else they are categories, drawn as bars) and, for
// each series, the x value of each point as written (its category).
func figureData(res *experiments.Results, f experiments.Figure) ([]Series, [][]string, bool, error) {
	var out []Series
	var cats [][]string
	switch f.Source {
	case experiments.FromIterations:
		if f.Kind != experiments.Line {
			return nil, nil, false, fmt.Errorf("figure %s: iteration traces can only be drawn as lines", f.Name)
		}
		for _, c := range res.Curves(f.X, f.Y, f.Series, f.Where) {
			s := Series{Label: seriesLabel(f.Series, c.Key)}
			for i := range c.X {
				s.Points = append(s.Points, Point{X: c.X[i], Mean: c.Mean[i], SD: c.SD[i]})
			}
			out = append(out, s)
		}
		return out, nil, true, nil
	case experiments.FromMetrics:
		by := append(append([]string(nil), f.Series...), f.X)
		groups := res.Groups(f.Y, by, f.Where)
		numeric := f.Kind != experiments.Bar
		for _, g := range groups {
			if _, err := strconv.ParseFloat(g.Key[len(g.Key)-1], 64); err != nil {
				numeric = false
			}
		}
		index := map[string]int{}
		for _, g := range groups {
			if g.N == 0 {
				continue
			}
			label := seriesLabel(f.Series, g.Key[:len(g.Key)-1])
			i, ok := index[label]
			if !ok {
				i = len(out)
				index[label] = i
				out = append(out, Series{Label: label})
				cats = append(cats, nil)
			}
			xv := g.Key[len(g.Key)-1]
			x := math.NaN()
			if numeric {
				x, _ = strconv.ParseFloat(xv, 64)
			}
			out[i].Points = append(out[i].Points, Point{X: x, Mean: g.Mean, SD: g.SD})
			cats[i] = append(cats[i], xv)
		}
		if numeric {
			for i := range out {
				sort.SliceStable(out[i].Points, func(a, b int) bool { return out[i].Points[a].X < out[i].Points[b].X })
			}
		}
		return out, cats, numeric, nil
	}
	return nil, nil, false, fmt.Errorf("figure %s: unknown source %q", f.Name, f.Source)
}

type xyErrs struct {
	plotter.XYs
	plotter.YErrors
}

// Plot draws figure f from the results: lines when f is a Line over
// numeric x values (LinePlot), grouped bars otherwise.
func Plot(res *experiments.Results, f experiments.Figure) (*plot.Plot, error) {
	data, cats, numeric, err := figureData(res, f)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("figure %s: no data for %s against %s", f.Name, f.Y, f.X)
	}
	if f.Kind == experiments.Line && numeric {
		return LinePlot(f, data)
	}
	return barPlot(f, data, cats)
}

// Caption is what the report writes under figure f: what its error bars
// are, whether its series are shifted sideways, and, for a scaling figure
// with too few sizes for log axes, that it is drawn on linear axes.
func Caption(res *experiments.Results, f experiments.Figure) (string, error) {
	data, _, numeric, err := figureData(res, f)
	if err != nil {
		return "", err
	}
	var notes []string
	if f.ErrorBars {
		notes = append(notes, "error bars: ± one sample standard deviation over replicates")
	}
	if f.Kind == experiments.Line && numeric && len(data) > 0 {
		l := planLines(f, data)
		if shift := l.maxShift(); shift > 0 {
			if l.logX {
				notes = append(notes, fmt.Sprintf("series drawn side by side so that their error bars do not overlap (x shifted by at most ×%.3g)", math.Pow(10, shift)))
			} else {
				notes = append(notes, fmt.Sprintf("series drawn side by side so that their error bars do not overlap (x shifted by at most ±%.3g)", shift))
			}
		}
		if f.Scaling && !l.logX {
			notes = append(notes, fmt.Sprintf("%d x value(s) only, as in a quick run: linear axes; with more than two, this figure is drawn on log–log axes", len(l.xs)))
		}
	}
	return strings.Join(notes, " · "), nil
}

// lineLayout is how a line figure places its data: on which scales, and
// how far each series is shifted sideways.
type lineLayout struct {
	xs         []float64 // the distinct x values, increasing
	logX, logY bool
	// shifts[i] moves series i sideways, in axis units (decades on a log
	// axis), so that error bars at a shared x stand side by side.
	shifts []float64
}

// planLines lays out the lines of f. A Scaling figure with more than two
// x values gets log–log axes (power laws become straight lines); with two
// or fewer (a quick run) it stays linear. When f has error bars and
// several series share an x, the series are shifted symmetrically, by
// steps of 40 % of the smallest gap between x values divided by the
// number of series (for a single x, of a fifth of the axis' half-width),
// so that their error bars do not stack.
func planLines(f experiments.Figure, data []Series) lineLayout {
	l := lineLayout{xs: distinctX(data)}
	l.logX = f.Scaling && len(l.xs) > 2
	l.logY = f.LogY || l.logX
	l.shifts = make([]float64, len(data))
	if !f.ErrorBars || len(data) < 2 || !sharedX(data) {
		return l
	}
	us := l.xs
	if l.logX {
		us = log10s(l.xs)
	}
	var width float64
	if len(us) == 1 {
		width = 0.4 * singleHalfWidth(us[0])
	} else {
		gap := math.Inf(1)
		for i := 1; i < len(us); i++ {
			gap = math.Min(gap, us[i]-us[i-1])
		}
		width = 0.4 * gap
	}
	n := float64(len(data))
	for i := range data {
		l.shifts[i] = (float64(i) - (n-1)/2) * width / n
	}
	return l
}

// maxShift is the largest sideways shift of a series, 0 when none moves.
func (l lineLayout) maxShift() float64 {
	m := 0.0
	for _, s := range l.shifts {
		m = math.Max(m, math.Abs(s))
	}
	return m
}

// Line figures draw a log axis as a linear axis of decimal logarithms
// (labelled with the values, see logUnitTicks): gonum's own log scale
// places an axis label by the arithmetic midpoint of the axis range,
// which on a log axis lies near the top, and shrinks the data area to
// make room for a label it then draws elsewhere.

// xUnit and yUnit map a value to axis units: its decimal logarithm on a
// log axis.
func (l lineLayout) xUnit(x float64) float64 { return unit(l.logX, x) }
func (l lineLayout) yUnit(y float64) float64 { return unit(l.logY, y) }

func unit(log bool, v float64) float64 {
	if log {
		return math.Log10(v)
	}
	return v
}

// logUnitTicks are logTicks for an axis of decimal logarithms: placed at
// the logarithms of the ticks, labelled with the values.
type logUnitTicks struct{}

func (logUnitTicks) Ticks(min, max float64) []plot.Tick {
	ticks := logTicks{}.Ticks(math.Pow(10, min), math.Pow(10, max))
	for i := range ticks {
		ticks[i].Value = math.Log10(ticks[i].Value)
	}
	return ticks
}

func distinctX(data []Series) []float64 {
	var xs []float64
	for _, s := range data {
		for _, p := range s.Points {
			xs = append(xs, p.X)
		}
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// sharedX reports whether two series have a point at the same x.
func sharedX(data []Series) bool {
	seen := map[float64]int{}
	for i, s := range data {
		for _, p := range s.Points {
			if j, ok := seen[p.X]; ok && j != i {
				return true
			}
			seen[p.X] = i
		}
	}
	return false
}

func log10s(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log10(x)
	}
	return out
}

// singleHalfWidth is the half-width of the x axis around a single value x:
// gonum would draw x ± 1 (19–21 for K = 20), too narrow to read as "one K".
func singleHalfWidth(x float64) float64 {
	return math.Max(math.Abs(x)*0.25, 0.5)
}

// LinePlot draws the series as lines of f's style (the report's and the
// notebooks' line figures alike): a marker at each point of short lines,
// mean ± one standard deviation as error bars when f.ErrorBars, a legend
// when there is more than one series, room around the data, and ticks at
// steps of 1, 2 or 5 × 10^k (see planLines for the scales and the
// sideways shifts).
func LinePlot(f experiments.Figure, data []Series) (*plot.Plot, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("figure %s: no data for %s against %s", f.Name, f.Y, f.X)
	}
	l := planLines(f, data)
	if len(l.xs) == 0 {
		return nil, fmt.Errorf("figure %s: no data for %s against %s", f.Name, f.Y, f.X)
	}
	for _, s := range data {
		for _, pt := range s.Points {
			if l.logX && !(pt.X > 0) {
				return nil, fmt.Errorf("figure %s: %s = %v at %s: a log scale needs positive values", f.Name, f.X, pt.X, s.Label)
			}
			if l.logY && !(pt.Mean > 0) {
				return nil, fmt.Errorf("figure %s: %s = %v at %s: a log scale needs positive values", f.Name, f.Y, pt.Mean, s.Label)
			}
		}
	}
	p := newPlot(f)
	yMin, yMax := yRange(f, l, data)
	for i, s := range data {
		xys := make(plotter.XYs, len(s.Points))
		errs := make(plotter.YErrors, len(s.Points))
		for k, pt := range s.Points {
			y := l.yUnit(pt.Mean)
			xys[k] = plotter.XY{X: l.xUnit(pt.X) + l.shifts[i], Y: y}
			// On a log axis the bar is asymmetric, and one reaching zero
			// or below is cut at the bottom of the axis.
			low := yMin
			if pt.Mean-pt.spread() > 0 || !l.logY {
				low = math.Max(yMin, l.yUnit(pt.Mean-pt.spread()))
			}
			errs[k].Low, errs[k].High = y-low, l.yUnit(pt.Mean+pt.spread())-y
		}
		col, shape, dashes := seriesStyle(i)
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("figure %s, series %s: %w", f.Name, s.Label, err)
		}
		line.Color, line.Dashes, line.Width = col, dashes, vg.Points(1.5)
		p.Add(line)
		entry := []plot.Thumbnailer{line}
		if len(xys) <= maxMarkers {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = col, shape, vg.Points(2.5)
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
			p.Legend.Add(s.Label, entry...)
		}
	}
	xAxis(p, l)
	p.Y.Min, p.Y.Max = yMin, yMax
	p.Y.Tick.Marker = niceTicks{}
	if l.logY {
		p.Y.Tick.Marker = logUnitTicks{}
	}
	return p, nil
}

// yRange is the y axis of a line figure, in axis units: the means (and
// error bars) with dataPad of room above and below; a constant gets ±10 %
// around it.
func yRange(f experiments.Figure, l lineLayout, data []Series) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range data {
		for _, pt := range s.Points {
			sd := 0.0
			if f.ErrorBars {
				sd = pt.spread()
			}
			low := pt.Mean - sd
			if l.logY && !(low > 0) {
				low = pt.Mean
			}
			lo, hi = math.Min(lo, low), math.Max(hi, pt.Mean+sd)
		}
	}
	if l.logY {
		ulo, uhi := math.Log10(lo), math.Log10(hi)
		pad := dataPad * (uhi - ulo)
		if pad == 0 {
			pad = math.Log10(1.1)
		}
		return ulo - pad, uhi + pad
	}
	pad := dataPad * (hi - lo)
	if pad == 0 {
		pad = math.Max(0.1*math.Abs(lo), 1e-9)
	}
	return lo - pad, hi + pad
}

// xAxis sets the x range and ticks of a line plot, in axis units: dataPad
// of room on either side beyond the series' sideways shifts; a single
// value gets a range around it (singleHalfWidth) and one tick; up to eight
// values spread out enough get a tick each (the grid of K, say) instead of
// round numbers; otherwise ticks at steps of 1, 2 or 5 × 10^k (or powers
// of ten on a log axis).
func xAxis(p *plot.Plot, l lineLayout) {
	us := l.xs
	if l.logX {
		us = log10s(l.xs)
	}
	lo, hi := us[0], us[len(us)-1]
	var pad float64
	if lo == hi {
		pad = singleHalfWidth(lo)
	} else {
		pad = dataPad*(hi-lo) + l.maxShift()
	}
	p.X.Min, p.X.Max = lo-pad, hi+pad
	spread := len(us) <= 8
	for i := 1; i < len(us); i++ {
		if us[i]-us[i-1] < (hi-lo)/10 {
			spread = false // labels would run into each other
		}
	}
	switch {
	case spread:
		p.X.Tick.Marker = valueTicks{values: l.xs, log: l.logX}
	case l.logX:
		p.X.Tick.Marker = logUnitTicks{}
	default:
		p.X.Tick.Marker = niceTicks{}
	}
}

// barPlot draws grouped bars (or a line over non-numeric x, drawn as bars
// too): one group per category, one bar per series, in the order the
// categories first appear.
func barPlot(f experiments.Figure, data []Series, cats [][]string) (*plot.Plot, error) {
	p := newPlot(f)
	if f.LogY {
		for _, s := range data {
			for _, pt := range s.Points {
				if !(pt.Mean > 0) {
					return nil, fmt.Errorf("figure %s: %s = %v at %s: a log scale needs positive values", f.Name, f.Y, pt.Mean, s.Label)
				}
			}
		}
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	var names []string
	catIndex := map[string]int{}
	for _, cs := range cats {
		for _, c := range cs {
			if _, ok := catIndex[c]; !ok {
				catIndex[c] = len(names)
				names = append(names, c)
			}
		}
	}
	n := len(data)
	groupWidth := 0.8
	barWidth := FigureWidth * 0.75 / vg.Length(len(names)) * vg.Length(groupWidth) / vg.Length(n)
	top := 0.0
	for i, s := range data {
		vals := make(plotter.Values, len(names))
		xys := make(plotter.XYs, len(names))
		errs := make(plotter.YErrors, len(names))
		shift := -groupWidth/2 + groupWidth*(float64(i)+0.5)/float64(n)
		for c := range names {
			xys[c].X = float64(c) + shift
		}
		for k, pt := range s.Points {
			c := catIndex[cats[i][k]]
			vals[c], xys[c].Y = pt.Mean, pt.Mean
			errs[c].Low, errs[c].High = pt.spread(), pt.spread()
			top = math.Max(top, pt.Mean+pt.spread())
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
			p.Legend.Add(s.Label, bars)
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
	p.NominalX(names...)
	// Room on both sides for the outer bars, and above the tallest bar
	// (with its error bar).
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	if !f.LogY {
		p.Y.Min = math.Min(p.Y.Min, 0)
		if top > 0 {
			p.Y.Max = top * (1 + 2*dataPad)
		}
		p.Y.Tick.Marker = niceTicks{}
	}
	return p, nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
