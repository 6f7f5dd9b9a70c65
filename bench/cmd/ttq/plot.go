package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// curve is one model's (seconds, quality) points in checkpoint order.
type curve struct {
	label string
	nmf   bool
	pts   plotter.XYs
}

// readCurves reads score's output; labels starting with "nmf" or
// "sklearn-nmf" are NMF objectives, the others perplexities.
func readCurves(path string) ([]*curve, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cs []*curve
	byLabel := map[string]*curve{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fl := strings.Split(sc.Text(), "\t")
		if len(fl) != 4 {
			return nil, fmt.Errorf("%s: line %q: want 4 fields", path, sc.Text())
		}
		secs, err1 := strconv.ParseFloat(fl[2], 64)
		q, err2 := strconv.ParseFloat(fl[3], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: line %q: seconds and quality must be numbers", path, sc.Text())
		}
		c := byLabel[fl[0]]
		if c == nil {
			c = &curve{label: fl[0], nmf: strings.Contains(fl[0], "nmf")}
			byLabel[fl[0]] = c
			cs = append(cs, c)
		}
		c.pts = append(c.pts, plotter.XY{X: secs, Y: q})
	}
	return cs, sc.Err()
}

func plotAll(args []string) error {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	in := fs.String("in", "", "score's output")
	out := fs.String("out", "", "output directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cs, err := readCurves(*in)
	if err != nil {
		return err
	}
	best := math.Inf(1)
	for _, c := range cs {
		for _, p := range c.pts {
			if c.nmf {
				best = math.Min(best, p.Y)
			}
		}
	}
	lda, nmf := plot.New(), plot.New()
	lda.Title.Text = "LDA: held-out perplexity (document completion) against time"
	lda.X.Label.Text, lda.Y.Label.Text = "seconds (whole fit, 2 threads)", "perplexity"
	nmf.Title.Text = "NMF: objective above the best found against time"
	nmf.X.Label.Text, nmf.Y.Label.Text = "seconds (whole fit, 2 threads)", "‖D − UVᵀ‖² / best − 1"
	for _, p := range []*plot.Plot{lda, nmf} {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
		p.Legend.Top = true
	}
	nmf.Y.Scale, nmf.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
	var ldaArgs, nmfArgs []any
	for _, c := range cs {
		// In checkpoint order (rising iterations): each point is its own
		// fit, so on a loaded machine (or with a first fit that pays a
		// warm-up) the seconds need not rise along a line.
		pts := append(plotter.XYs(nil), c.pts...)
		if c.nmf {
			for i := range pts {
				pts[i].Y = math.Max(pts[i].Y/best-1, 1e-6)
			}
			nmfArgs = append(nmfArgs, c.label, pts)
		} else {
			ldaArgs = append(ldaArgs, c.label, pts)
		}
	}
	if err := plotutil.AddLinePoints(lda, ldaArgs...); err != nil {
		return err
	}
	if err := plotutil.AddLinePoints(nmf, nmfArgs...); err != nil {
		return err
	}
	if err := lda.Save(7*vg.Inch, 5*vg.Inch, filepath.Join(*out, "lda.png")); err != nil {
		return err
	}
	return nmf.Save(7*vg.Inch, 5*vg.Inch, filepath.Join(*out, "nmf.png"))
}
