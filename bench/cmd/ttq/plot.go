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

// family is a group of models scored by one quality (lower is better).
type family struct {
	name    string    // LDA, NMF, LSI; the plot is <lower-case name>.png
	quality string    // what the quality is
	excess  bool      // plot quality / best − 1 (objectives), not the quality
	levels  []float64 // report's levels: within these fractions of the best
}

var (
	ldaFamily = &family{name: "LDA", quality: "held-out perplexity (document completion)",
		levels: []float64{0.50, 0.30, 0.20, 0.10, 0.05, 0.02, 0.01}}
	nmfFamily = &family{name: "NMF", quality: "‖D − UVᵀ‖²_F", excess: true,
		levels: []float64{0.50, 0.30, 0.20, 0.10, 0.05, 0.02, 0.01}}
	lsiFamily = &family{name: "LSI", quality: "‖D − U Uᵀ D‖²_F", excess: true,
		levels: []float64{1e-2, 1e-3, 1e-4, 1e-5}}
	families = []*family{ldaFamily, nmfFamily, lsiFamily}
)

// familyOf tells a curve's family by its label: NMF labels contain "nmf",
// LSI labels "lsi" or "tsvd" (TruncatedSVD), the others are LDA.
func familyOf(label string) *family {
	switch {
	case strings.Contains(label, "nmf"):
		return nmfFamily
	case strings.Contains(label, "lsi"), strings.Contains(label, "tsvd"):
		return lsiFamily
	}
	return ldaFamily
}

// curve is one model's (seconds, quality) points in checkpoint order.
type curve struct {
	label string
	fam   *family
	pts   plotter.XYs
}

// readCurves reads score's output, the curves in the order of their first
// line.
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
			c = &curve{label: fl[0], fam: familyOf(fl[0])}
			byLabel[fl[0]] = c
			cs = append(cs, c)
		}
		c.pts = append(c.pts, plotter.XY{X: secs, Y: q})
	}
	return cs, sc.Err()
}

// best is the lowest quality any curve of fam reached (+Inf for none).
func best(cs []*curve, fam *family) float64 {
	b := math.Inf(1)
	for _, c := range cs {
		if c.fam == fam {
			for _, p := range c.pts {
				b = math.Min(b, p.Y)
			}
		}
	}
	return b
}

// plotAll draws one plot per family that has curves, DIR/lda.png,
// DIR/nmf.png, DIR/lsi.png; a family without curves gets no file.
func plotAll(args []string) error {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	in := fs.String("in", "", "score's output")
	out := fs.String("out", "", "output directory")
	title := fs.String("title", "", "data set, appended to every plot's title")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cs, err := readCurves(*in)
	if err != nil {
		return err
	}
	for _, fam := range families {
		b := best(cs, fam)
		if math.IsInf(b, 1) {
			continue
		}
		p := plot.New()
		p.X.Label.Text = "seconds (whole fit, 2 threads)"
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, secondsTicks{}
		// Top right for the objectives above the best, which fall to the
		// floor; bottom right for perplexities, which fall from the top.
		p.Legend.Top = fam.excess
		if fam.excess {
			p.Title.Text = fam.name + ": objective above the best found against time"
			p.Y.Label.Text = fam.quality + " / best − 1"
			p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
		} else {
			p.Title.Text = fam.name + ": " + fam.quality + " against time"
			p.Y.Label.Text = "perplexity"
		}
		if *title != "" {
			p.Title.Text += " (" + *title + ")"
		}
		var lines []any
		for _, c := range cs {
			if c.fam != fam {
				continue
			}
			// In checkpoint order (rising iterations): each point is its
			// own fit, so on a loaded machine (or with a first fit that
			// pays a warm-up) the seconds need not rise along a line.
			pts := append(plotter.XYs(nil), c.pts...)
			if fam.excess {
				// The best point itself (0) is drawn at the floor, a
				// hundredth of the finest level.
				floor := fam.levels[len(fam.levels)-1] / 100
				for i := range pts {
					pts[i].Y = math.Max(pts[i].Y/b-1, floor)
				}
			}
			lines = append(lines, c.label, pts)
		}
		if err := plotutil.AddLinePoints(p, lines...); err != nil {
			return err
		}
		if err := p.Save(7*vg.Inch, 5*vg.Inch, filepath.Join(*out, strings.ToLower(fam.name)+".png")); err != nil {
			return err
		}
	}
	return nil
}

// secondsTicks mark 1, 2, …, 9 times every power of ten in the range and
// label 1, 2 and 5 (plot.LogTicks labels only the powers of ten, and a run
// of a few seconds may span less than one decade).
type secondsTicks struct{}

func (secondsTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, e)
			if v < lo/1.0001 || v > hi*1.0001 {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', 3, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
