package notebook

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/report"
)

// Display shows a PNG image inline; the notebooks set it to gonb's
// gonbui.DisplayPng. Nil shows nothing (the plotting functions still
// return the PNG).
var Display func(png []byte)

// DisplayMarkdown shows Markdown inline; the notebooks set it to gonb's
// gonbui.DisplayMarkdown. Nil prints the Markdown to standard output.
var DisplayMarkdown func(md string)

var nan = math.NaN()

// show hands png to Display and returns it.
func show(png []byte) []byte {
	if Display != nil {
		Display(png)
	}
	return png
}

func showMarkdown(md string) {
	if DisplayMarkdown != nil {
		DisplayMarkdown(md)
		return
	}
	fmt.Println(md)
}

// ShowPlot renders a gonum plot as PNG at the reports' figure size, shows
// it inline and returns it.
func ShowPlot(p *plot.Plot) ([]byte, error) {
	b, err := report.EncodePlot(p, "png")
	if err != nil {
		return nil, err
	}
	return show(b), nil
}

// ShowFigure renders a figure of results as the reports do
// (experiments/report), shows it inline and returns the PNG.
func ShowFigure(r *experiments.Results, f experiments.Figure) ([]byte, error) {
	p, err := report.Plot(r, f)
	if err != nil {
		return nil, err
	}
	return ShowPlot(p)
}

// PlotTrace draws iteration columns of a fit (e.g. "objective", or an
// objective term, or "sparsity_U") against the iteration, one line each,
// shows the plot inline and returns the PNG.
func PlotTrace(f *FitResult, columns ...string) ([]byte, error) {
	if len(columns) == 0 {
		columns = []string{"objective"}
	}
	head, cols := f.Recorder.Columns()
	index := map[string]int{}
	for i, h := range head {
		index[h] = i
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s on %s", f.Family, f.Corpus.Name)
	p.X.Label.Text = "iteration"
	if len(columns) == 1 {
		p.Y.Label.Text = columns[0]
	}
	p.Add(plotter.NewGrid())
	var lines []any
	for _, name := range columns {
		c, ok := index[name]
		if !ok {
			return nil, fmt.Errorf("plot trace: no iteration column %q (have %v)", name, head)
		}
		var pts plotter.XYs
		for i, v := range cols[c] {
			if !math.IsNaN(v) {
				pts = append(pts, plotter.XY{X: cols[0][i], Y: v})
			}
		}
		lines = append(lines, name, pts)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	return ShowPlot(p)
}
