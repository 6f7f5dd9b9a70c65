package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// maxTicks is the most labelled ticks an axis gets: enough to read values
// off, few enough that labels of six characters do not run into each
// other along a 6-inch axis.
const maxTicks = 7

// niceStep is the tick step for the range [lo, hi]: the smallest step of
// the form 1, 2 or 5 × 10^k whose multiples in [lo, hi] number at most
// most. It is 0 when the range is empty or not finite.
//
// gonum's default ticks step by any multiple of a power of ten (4, 16, 28;
// 0.004, 0.008, 0.012), which a reader cannot interpolate at a glance;
// steps of 1, 2 and 5 are the ones a reader can.
func niceStep(lo, hi float64, most int) float64 {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || most < 1 {
		return 0
	}
	// The step cannot be below (hi − lo)/most; start one decade lower so
	// that rounding in the logarithm never skips the right step.
	exp := math.Floor(math.Log10((hi-lo)/float64(most))) - 1
	for {
		for _, m := range []float64{1, 2, 5} {
			step := m * math.Pow(10, exp)
			if multiples(lo, hi, step) <= most {
				return step
			}
		}
		exp++
	}
}

// multiples is the number of integer multiples of step in [lo, hi], with a
// tolerance of a millionth of a step at either end for rounding.
func multiples(lo, hi, step float64) int {
	first := math.Ceil(lo/step - 1e-6)
	last := math.Floor(hi/step + 1e-6)
	return int(last-first) + 1
}

// minorStep is the step of the unlabelled ticks between labelled ones:
// fifths of a step of 1 or 5 × 10^k, quarters of a step of 2 × 10^k.
func minorStep(step float64) float64 {
	mantissa := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9))
	if math.Abs(mantissa-2) < 1e-6 {
		return step / 4
	}
	return step / 5
}

// stepDecimals is the number of decimals that shows every multiple of
// step exactly (0.05 → 2, 0.2 → 1, 5 → 0), so that all labels of an axis
// have the same number of decimals (0.20, 0.25, 0.30).
func stepDecimals(step float64) int {
	return max(0, int(-math.Floor(math.Log10(step)+1e-9)))
}

// niceTicks labels the multiples of niceStep(min, max, maxTicks), with
// unlabelled minor ticks between them.
type niceTicks struct{}

func (niceTicks) Ticks(min, max float64) []plot.Tick {
	step := niceStep(min, max, maxTicks)
	if step == 0 {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	decimals := stepDecimals(step)
	minor := minorStep(step)
	perMajor := int(math.Round(step / minor))
	var ticks []plot.Tick
	for i := math.Ceil(min/minor - 1e-6); i <= math.Floor(max/minor+1e-6); i++ {
		v := i * minor
		if int(i)%perMajor != 0 {
			ticks = append(ticks, plot.Tick{Value: v})
			continue
		}
		label := strconv.FormatFloat(v, 'f', decimals, 64)
		if v == 0 {
			label = strconv.FormatFloat(0, 'f', decimals, 64) // never "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// logTicks are the ticks of a log axis: over two decades or more, the
// powers of ten (powerTicks); over less, labels at 1, 2 and 5 × 10^k with
// unlabelled ticks at the other integers × 10^k, or, when that labels
// fewer than two values, niceTicks.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	if max/min >= 100 {
		return powerTicks{}.Ticks(min, max)
	}
	var ticks []plot.Tick
	labelled := 0
	for exp := math.Floor(math.Log10(min)); exp <= math.Ceil(math.Log10(max)); exp++ {
		unit := math.Pow(10, exp)
		for m := 1; m <= 9; m++ {
			v := float64(m) * unit
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', 6, 64)
				labelled++
			}
			ticks = append(ticks, t)
		}
	}
	if labelled < 2 {
		return niceTicks{}.Ticks(min, max)
	}
	return ticks
}

// powerTicks are gonum's power-of-ten ticks inside [min, max], with labels
// rounded to six significant digits: gonum computes the powers by repeated
// multiplication, so its shortest-representation labels read
// "9.999999999999999e-05" for 10⁻⁴; and it returns ticks out to the
// enclosing powers of ten, whose labels gonum then reserves room for
// above and below the data although it does not draw them.
type powerTicks struct{}

func (powerTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for _, t := range (plot.LogTicks{Prec: -1}).Ticks(min, max) {
		if t.Value < min*(1-1e-9) || t.Value > max*(1+1e-9) {
			continue
		}
		if t.Label != "" {
			t.Label = strconv.FormatFloat(t.Value, 'g', 6, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// valueTicks are labelled ticks at exactly the given values (at their
// decimal logarithms on an axis of logarithms).
type valueTicks struct {
	values []float64
	log    bool
}

func (v valueTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for _, x := range v.values {
		u := x
		if v.log {
			u = math.Log10(x)
		}
		if u >= min && u <= max {
			ticks = append(ticks, plot.Tick{Value: u, Label: strconv.FormatFloat(x, 'g', 6, 64)})
		}
	}
	return ticks
}
