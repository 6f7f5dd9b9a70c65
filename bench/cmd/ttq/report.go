package main

import (
	"flag"
	"fmt"
	"math"
	"strings"
)

// report prints Markdown tables of score's output, per family: every
// checkpoint; for each model the seconds of its fastest fit within each of
// the family's levels of the best found (lower is better for every
// quality); and for each topicmf model (label "topicmf-…") against each
// peer (any other label) the ratio of those seconds, topicmf / peer, at
// every level both reached. Fastest, not first: each checkpoint is a
// separate fit, and on a loaded machine a longer fit can take less time
// than a shorter one.
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
	for _, fam := range families {
		b := best(cs, fam)
		if math.IsInf(b, 1) {
			continue
		}
		var own []*curve
		for _, c := range cs {
			if c.fam == fam {
				own = append(own, c)
			}
		}
		fmt.Printf("\n### %s: seconds to reach within x %% of the best found (%.6g)\n\n", fam.name, b)
		fmt.Println(levelHeader("model", fam.levels) + " best of the model |")
		fmt.Println(levelRule(fam.levels) + "---:|")
		for _, c := range own {
			row := "| " + c.label + " |"
			for _, l := range fam.levels {
				if s := secondsTo(c, (1+l)*b); math.IsInf(s, 1) {
					row += " — |"
				} else {
					row += fmt.Sprintf(" %.2f |", s)
				}
			}
			fmt.Printf("%s %.6g |\n", row, best([]*curve{c}, fam))
		}
		var ratios []string
		for _, t := range own {
			if !strings.HasPrefix(t.label, "topicmf-") {
				continue
			}
			for _, peer := range own {
				if strings.HasPrefix(peer.label, "topicmf-") {
					continue
				}
				row := "| " + t.label + " / " + peer.label + " |"
				for _, l := range fam.levels {
					st, sp := secondsTo(t, (1+l)*b), secondsTo(peer, (1+l)*b)
					if math.IsInf(st, 1) || math.IsInf(sp, 1) {
						row += " — |"
					} else {
						row += fmt.Sprintf(" %.2f |", st/sp)
					}
				}
				ratios = append(ratios, row)
			}
		}
		if len(ratios) > 0 {
			fmt.Printf("\nRatio of those seconds, topicmf / peer (below 1: topicmf first; —: one of them never got there):\n\n")
			fmt.Println(levelHeader("models", fam.levels))
			fmt.Println(levelRule(fam.levels))
			fmt.Println(strings.Join(ratios, "\n"))
		}
		fmt.Printf("\nEvery checkpoint (%s):\n\n| model | seconds → quality |\n|---|---|\n", fam.quality)
		for _, c := range own {
			var ps []string
			for _, p := range c.pts {
				ps = append(ps, fmt.Sprintf("%.2f s → %.6g", p.X, p.Y))
			}
			fmt.Printf("| %s | %s |\n", c.label, strings.Join(ps, "; "))
		}
	}
	return nil
}

// secondsTo is the seconds of c's fastest fit with a quality at most
// target, +Inf when none got there.
func secondsTo(c *curve, target float64) float64 {
	s := math.Inf(1)
	for _, p := range c.pts {
		if p.Y <= target {
			s = math.Min(s, p.X)
		}
	}
	return s
}

func levelHeader(first string, levels []float64) string {
	h := "| " + first + " |"
	for _, l := range levels {
		h += fmt.Sprintf(" %g %% |", 100*l)
	}
	return h
}

func levelRule(levels []float64) string {
	return "|---|" + strings.Repeat("---:|", len(levels))
}
