package notebook

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/internal/outfile"
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

// lastFigure is the figure ShowPlot last drew, for SaveFigure.
var lastFigure *plot.Plot

// ShowPlot renders a gonum plot as the reports render their figures
// (report.EncodePlot: margins, legend beside the plot, ticks at 1, 2 or
// 5 × 10^k on axes left with gonum's default ticks), as PNG at the
// reports' figure size, shows it inline and returns it. SaveFigure writes
// it to files.
func ShowPlot(p *plot.Plot) ([]byte, error) {
	b, err := report.EncodePlot(p, "png")
	if err != nil {
		return nil, err
	}
	lastFigure = p
	return show(b), nil
}

// ShowFigure renders a figure of results as the reports do
// (experiments/report), shows it inline with its caption (when it has one:
// error bars, series shifted sideways, a scaling figure left on linear
// axes) and returns the PNG.
func ShowFigure(r *experiments.Results, f experiments.Figure) ([]byte, error) {
	p, err := report.Plot(r, f)
	if err != nil {
		return nil, err
	}
	caption, err := report.Caption(r, f)
	if err != nil {
		return nil, err
	}
	b, err := ShowPlot(p)
	if err != nil {
		return nil, err
	}
	if caption != "" {
		showMarkdown("*" + caption + "*")
	}
	return b, nil
}

// SaveFigure writes the figure last shown (by PlotTrace, a sweep's or an
// experiment's Plot or Figure, ShowFigure or ShowPlot) as name.png,
// name.svg and name.pdf, each at the reports' size, the vector ones for
// papers; name is a path without extension (a trailing .png, .svg or .pdf
// is dropped). Each file is written by the rules of internal/outfile: a
// regular file whole or not at all, a symbolic link through to its target.
// gonb runs every cell as a new program, so call it in the cell that drew
// the figure.
func SaveFigure(name string) error {
	if lastFigure == nil {
		return fmt.Errorf("save figure %q: no figure has been drawn yet (in gonb, draw it in the same cell)", name)
	}
	stem := name
	switch filepath.Ext(name) {
	case ".png", ".svg", ".pdf":
		stem = strings.TrimSuffix(name, filepath.Ext(name))
	}
	if strings.HasSuffix(stem, "/") || filepath.Base(stem) == "." {
		return fmt.Errorf("save figure %q: the name needs a file name, not just a directory", name)
	}
	// A directory in the way of any of the three is found before
	// anything is written, so a failed save leaves no partial set.
	for _, format := range report.Formats {
		if fi, err := os.Stat(stem + "." + format); err == nil && fi.IsDir() {
			return fmt.Errorf("save figure %q: %s is a directory", name, stem+"."+format)
		}
	}
	for _, format := range report.Formats {
		data, err := report.EncodePlot(lastFigure, format)
		if err != nil {
			return fmt.Errorf("save figure %q (%s): %w", name, format, err)
		}
		if err := outfile.Bytes(stem+"."+format, nil, data); err != nil {
			return fmt.Errorf("save figure %q: %w", name, err)
		}
	}
	return nil
}

// PlotTrace draws iteration columns of a fit (e.g. "objective", or an
// objective term, or "sparsity_U") against the iteration, one line each,
// as the reports draw their line figures (report.LinePlot), shows the
// plot inline and returns the PNG.
func PlotTrace(f *FitResult, columns ...string) ([]byte, error) {
	if len(columns) == 0 {
		columns = []string{"objective"}
	}
	head, cols := f.Recorder.Columns()
	index := map[string]int{}
	for i, h := range head {
		index[h] = i
	}
	fig := experiments.Figure{Name: "trace", Title: fmt.Sprintf("%s on %s", f.Family, f.Corpus.Name), Kind: experiments.Line, X: "iteration"}
	if len(columns) == 1 {
		fig.Y = columns[0]
	}
	var data []report.Series
	for _, name := range columns {
		c, ok := index[name]
		if !ok {
			return nil, fmt.Errorf("plot trace: no iteration column %q (have %v)", name, head)
		}
		s := report.Series{Label: name}
		for i, v := range cols[c] {
			if !math.IsNaN(v) {
				s.Points = append(s.Points, report.Point{X: cols[0][i], Mean: v, SD: nan})
			}
		}
		if len(s.Points) == 0 {
			return nil, fmt.Errorf("plot trace: iteration column %q has no value", name)
		}
		data = append(data, s)
	}
	p, err := report.LinePlot(fig, data)
	if err != nil {
		return nil, err
	}
	return ShowPlot(p)
}
