package report

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"github.com/topicmf/topicmf/experiments"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure size: 6 × 4 inches, plus the legend's width to the right when
// there is one (so that the legend never covers data). PNGs are drawn at
// PNGDPI: 1152 × 768 pixels, sharp on high-density screens and in print.
var (
	FigureWidth  = 6 * vg.Inch
	FigureHeight = 4 * vg.Inch
)

// PNGDPI is the resolution of the PNG figures, twice vg's 96.
const PNGDPI = 192

// Formats are the files every figure is written as: PNG for viewing, SVG
// and PDF (vector) for papers; the PDF embeds its fonts, the SVG names
// them (Liberation Serif).
var Formats = []string{"png", "svg", "pdf"}

// The spacing of a figure's layout.
var (
	margin        = vg.Points(10) // blank border around the figure
	titlePadding  = vg.Points(10) // between the title and the data area
	labelPadding  = vg.Points(4)  // between an axis' tick labels and its label
	legendPadding = vg.Points(5)  // between legend entries
	legendGap     = vg.Points(8)  // between the data area and the legend column
)

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

// newPlot is an empty plot with f's title and axis labels (the column
// names when f gives no label), a grid, and the legend at the top.
func newPlot(f experiments.Figure) *plot.Plot {
	p := plot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = firstNonEmpty(f.XLabel, f.X)
	p.Y.Label.Text = firstNonEmpty(f.YLabel, f.Y)
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Add(plotter.NewGrid())
	return p
}

// The PDFs carry a fixed creation date, and their catalogs are sorted, so
// that a figure's PDF depends only on the figure (re-rendering an
// unchanged report changes no file).
func init() {
	fpdf.SetDefaultCreationDate(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	fpdf.SetDefaultModificationDate(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	fpdf.SetDefaultCatalogSort(true)
}

// EncodePlot renders p in a format ("png", "svg" or "pdf"): the plot at
// the figure size inside a blank margin, its title wrapped to the plot's
// width and set off from the data, its legend (if any) in a column of its
// own to the right, where it covers no data, with room between entries.
// An axis left with gonum's default ticks gets ticks at steps of 1, 2 or
// 5 × 10^k (niceTicks, or logTicks on a log scale). PNGs are drawn at
// PNGDPI. p itself is not changed.
func EncodePlot(p *plot.Plot, format string) ([]byte, error) {
	q := *p // drawn with the layout below; p keeps its own settings
	legend := q.Legend
	q.Legend = plot.NewLegend() // drawn beside the plot below, not inside it
	q.Title.Text = wrapText(q.Title.TextStyle, q.Title.Text, FigureWidth-2*margin)
	q.Title.Padding = max(q.Title.Padding, titlePadding)
	q.X.Label.Padding = max(q.X.Label.Padding, labelPadding)
	q.Y.Label.Padding = max(q.Y.Label.Padding, labelPadding)
	for _, a := range []*plot.Axis{&q.X, &q.Y} {
		if _, ok := a.Tick.Marker.(plot.DefaultTicks); ok {
			a.Tick.Marker = niceTicks{}
			if _, log := a.Scale.(plot.LogScale); log {
				a.Tick.Marker = logTicks{}
			}
		}
	}

	// The legend's top level with the top of the data area.
	legendTop := margin
	if q.Title.Text != "" {
		legendTop += q.Title.TextStyle.Rectangle(q.Title.Text).Size().Y + q.Title.Padding
	}
	legend.Top, legend.Left = true, true
	fitLegend(&legend, FigureHeight-legendTop-margin)
	var legendW vg.Length
	if r := legend.Rectangle(draw.Canvas{}); r.Size().X > 0 {
		legendW = r.Size().X + legendGap + margin
	}
	w, h := FigureWidth+legendW, FigureHeight
	var cw vg.CanvasWriterTo
	switch format {
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI))}
	case "svg":
		cw = vgsvg.New(w, h)
	case "pdf":
		cw = vgpdf.New(w, h)
	default:
		return nil, fmt.Errorf("unknown figure format %q (want %s)", format, strings.Join(Formats, ", "))
	}
	dc := draw.New(cw)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	q.Draw(draw.Crop(dc, margin, -legendW-margin, margin, -margin))
	if legendW > 0 {
		legend.Draw(draw.Crop(dc, FigureWidth+legendGap, -margin, 0, -legendTop))
	}
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// fitLegend spaces the entries of l by legendPadding when they fit in the
// height available, else by what room there is; when the entries do not
// fit even touching, their text is made smaller until they do.
func fitLegend(l *plot.Legend, available vg.Length) {
	l.Padding = 0
	tight := l.Rectangle(draw.Canvas{}).Size().Y
	if tight > available {
		l.TextStyle.Font.Size *= available / tight
		return
	}
	// gonum does not say how many entries a legend has; one point of
	// padding adds one point per gap between entries.
	l.Padding = vg.Points(1)
	gaps := (l.Rectangle(draw.Canvas{}).Size().Y - tight) / vg.Points(1)
	l.Padding = 0
	if gaps >= 0.5 {
		l.Padding = min(legendPadding, (available-tight)/gaps)
	}
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
