package main

import (
	"flag"
	"fmt"
	"math"
	"strings"
)

// levels are the qualities of report's tables: within these fractions of
// the best value found by any model (perplexity or NMF objective).
var levels = []float64{0.50, 0.30, 0.20, 0.10, 0.05, 0.02, 0.01}

// report prints Markdown tables of score's output: every checkpoint, and
// for each model the seconds of its fastest fit within each level of the
// best found (lower is better for both qualities). Fastest, not first: each
// checkpoint is a separate fit, and on a loaded machine a longer fit can take
// less time than a shorter one.
func report(args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	in := fs.String("in", "", "score's output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cs, err := readCurves(*in)
	if err != nil {
		return err
	}
	for _, nmf := range []bool{false, true} {
		what := "held-out perplexity (document completion)"
		if nmf {
			what = "‖D − UVᵀ‖²_F"
		}
		best := math.Inf(1)
		for _, c := range cs {
			if c.nmf == nmf {
				for _, p := range c.pts {
					best = math.Min(best, p.Y)
				}
			}
		}
		fmt.Printf("\n### %s: seconds to reach within x %% of the best found (%.6g)\n\n", map[bool]string{false: "LDA", true: "NMF"}[nmf], best)
		head := "| model |"
		rule := "|---|"
		for _, l := range levels {
			head += fmt.Sprintf(" %g %% |", 100*l)
			rule += "---:|"
		}
		fmt.Println(head + " best of the model |")
		fmt.Println(rule + "---:|")
		for _, c := range cs {
			if c.nmf != nmf {
				continue
			}
			row := "| " + c.label + " |"
			own := math.Inf(1)
			for _, p := range c.pts {
				own = math.Min(own, p.Y)
			}
			for _, l := range levels {
				secs := math.Inf(1)
				for _, p := range c.pts {
					if p.Y <= (1+l)*best {
						secs = math.Min(secs, p.X)
					}
				}
				if math.IsInf(secs, 1) {
					row += " — |"
				} else {
					row += fmt.Sprintf(" %.2f |", secs)
				}
			}
			fmt.Printf("%s %.6g |\n", row, own)
		}
		fmt.Printf("\nEvery checkpoint (%s):\n\n| model | seconds → quality |\n|---|---|\n", what)
		for _, c := range cs {
			if c.nmf != nmf {
				continue
			}
			var ps []string
			for _, p := range c.pts {
				ps = append(ps, fmt.Sprintf("%.2f s → %.6g", p.X, p.Y))
			}
			fmt.Printf("| %s | %s |\n", c.label, strings.Join(ps, "; "))
		}
	}
	return nil
}
