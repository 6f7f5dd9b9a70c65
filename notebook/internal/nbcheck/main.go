// Command nbcheck checks executed Jupyter notebooks, for
// scripts/run-notebooks.sh:
//
//	nbcheck EXECUTED.ipynb                 checks one executed notebook
//	nbcheck EXECUTED.ipynb COMMITTED.ipynb also compares it with the committed one
//
// An executed notebook fails when a cell has an error output, when a cell
// that draws (its source calls a Plot…, Figure, ShowFigure or ShowPlot, or
// it is tagged "figure" in its metadata) has no inline image, when an image
// carries a long text/plain copy of itself, when the notebook has no image or
// no table at all, or when an output carries the go command's module
// chatter ("go: added …", "go: downloading …").
//
// Compared with the committed notebook, every code cell must have the same
// standard output and error text, and the same displayed outputs in the
// same order (the two are compared apart: the kernel sends them on
// different channels, so how they interleave is not stable): text
// (text/plain, text/markdown, text/html) exactly, and PNG images approximately, as experiments/report
// checks its figures: same size, mean absolute channel difference ≤ 0.01
// and 8-bin luminance histogram L1 distance ≤ 0.02 (fractions of the full
// scale). A cell tagged "timing" in its metadata shows measured times:
// only the kinds of its outputs are compared.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/topicmf/topicmf/internal/linediff"
)

// notebook is the part of nbformat 4 that nbcheck reads.
type notebook struct {
	Cells []cell `json:"cells"`
}

type cell struct {
	Type     string          `json:"cell_type"`
	Source   multiline       `json:"source"`
	Outputs  []output        `json:"outputs"`
	Metadata json.RawMessage `json:"metadata"`
}

type output struct {
	Type  string               `json:"output_type"`
	Name  string               `json:"name"` // stream: stdout or stderr
	Text  multiline            `json:"text"`
	Data  map[string]multiline `json:"data"`
	EName string               `json:"ename"`
	EVal  string               `json:"evalue"`
}

// multiline is nbformat's string-or-list-of-strings.
type multiline string

func (m *multiline) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiline(s)
		return nil
	}
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	*m = multiline(strings.Join(ss, ""))
	return nil
}

func (c cell) tagged(tag string) bool {
	var md struct {
		Tags []string `json:"tags"`
	}
	_ = json.Unmarshal(c.Metadata, &md)
	return slices.Contains(md.Tags, tag)
}

// maxFigureText is the longest text/plain an image output may carry: a
// caption, not a copy of the image (gophernotes' display.PNG stores the
// PNG's bytes as decimal text, some 200 KB a figure).
const maxFigureText = 200

var (
	draws      = regexp.MustCompile(`\bPlot\w*\(|\.Figure\(|\bShowFigure\(|\bShowPlot\(`)
	exitStatus = regexp.MustCompile(`^exit status \d+$`)
	chatter    = regexp.MustCompile(`(?m)^go: (added|downloading|upgraded|finding|found)\b`)
)

func read(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &nb, nil
}

// check returns the problems of one executed notebook.
func check(nb *notebook) []string {
	var probs []string
	images, tables := 0, 0
	for i, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		cellImages := 0
		for _, o := range c.Outputs {
			if o.Type == "error" {
				probs = append(probs, fmt.Sprintf("cell %d: error %s: %s%s", i+1, o.EName, o.EVal, stderrTail(c)))
			}
			if _, ok := o.Data["image/png"]; ok {
				cellImages++
				if t := o.Data["text/plain"]; len(t) > maxFigureText {
					probs = append(probs, fmt.Sprintf("cell %d: a figure stored with a %d-byte text/plain copy (store it once, as PNG)", i+1, len(t)))
				}
			}
			if _, ok := o.Data["image/svg+xml"]; ok {
				cellImages++
			}
			txt := text(o)
			if chatter.MatchString(txt) {
				probs = append(probs, fmt.Sprintf("cell %d: module download chatter in the output: %q", i+1, firstLine(chatter.FindString(txt))))
			}
			if strings.Contains(txt, " rows × ") || strings.Contains(txt, "DataFrame") {
				tables++
			}
		}
		images += cellImages
		if (draws.MatchString(string(c.Source)) || c.tagged("figure")) && cellImages == 0 {
			probs = append(probs, fmt.Sprintf("cell %d draws a figure but shows no image", i+1))
		}
	}
	if images == 0 {
		probs = append(probs, "no inline figure in the whole notebook")
	}
	if tables == 0 {
		probs = append(probs, "no dataframe in the whole notebook")
	}
	return probs
}

// stderrTail is the last line a failing cell wrote to standard error,
// after "; stderr: ", or "": gonb reports a failing cell as "exit status
// 1" (as its error, and again on standard error), and the cause (nb.Check's
// one line) is what the cell printed before.
func stderrTail(c cell) string {
	var last string
	for _, o := range c.Outputs {
		if o.Type != "stream" || o.Name != "stderr" {
			continue
		}
		for _, l := range strings.Split(string(o.Text), "\n") {
			if strings.TrimSpace(l) != "" && !exitStatus.MatchString(l) {
				last = l
			}
		}
	}
	if last == "" {
		return ""
	}
	return "; stderr: " + last
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// text is an output's text: stream text, or its textual MIME data.
func text(o output) string {
	var parts []string
	if o.Text != "" {
		parts = append(parts, string(o.Text))
	}
	for _, mime := range []string{"text/plain", "text/markdown", "text/html"} {
		if v, ok := o.Data[mime]; ok {
			parts = append(parts, mime+":"+string(v))
		}
	}
	return strings.Join(parts, "\n")
}

// kind names an output for comparison: its type, stream name and MIME types.
func kind(o output) string {
	var mimes []string
	for m := range o.Data {
		mimes = append(mimes, m)
	}
	slices.Sort(mimes)
	return o.Type + "/" + o.Name + "/" + strings.Join(mimes, ",")
}

// compare returns how the executed notebook differs from the committed one.
func compare(got, want *notebook) []string {
	var probs []string
	if len(got.Cells) != len(want.Cells) {
		return []string{fmt.Sprintf("%d cells, the committed notebook has %d", len(got.Cells), len(want.Cells))}
	}
	for i := range got.Cells {
		g, w := got.Cells[i], want.Cells[i]
		if g.Type != "code" {
			continue
		}
		if g.Source != w.Source {
			probs = append(probs, fmt.Sprintf("cell %d: source differs from the committed notebook's", i+1))
			continue
		}
		timing := w.tagged("timing")
		gs, gd := split(g.Outputs)
		ws, wd := split(w.Outputs)
		if !timing {
			for _, name := range []string{"stdout", "stderr"} {
				if gs[name] != ws[name] {
					probs = append(probs, fmt.Sprintf("cell %d: %s differs:\n%s", i+1, name, diffLine(gs[name], ws[name])))
				}
			}
		}
		if len(gd) != len(wd) {
			probs = append(probs, fmt.Sprintf("cell %d: %d displayed outputs, committed %d", i+1, len(gd), len(wd)))
			continue
		}
		for j := range gd {
			og, ow := gd[j], wd[j]
			if kind(og) != kind(ow) {
				probs = append(probs, fmt.Sprintf("cell %d display %d: %s, committed %s", i+1, j+1, kind(og), kind(ow)))
				continue
			}
			if timing {
				continue
			}
			if tg, tw := text(og), text(ow); tg != tw {
				probs = append(probs, fmt.Sprintf("cell %d display %d: text differs:\n%s", i+1, j+1, diffLine(tg, tw)))
			}
			if pg, ok := og.Data["image/png"]; ok {
				if err := similarPNG(string(pg), string(ow.Data["image/png"])); err != nil {
					probs = append(probs, fmt.Sprintf("cell %d display %d: image: %v", i+1, j+1, err))
				}
			}
		}
	}
	return probs
}

// split separates a cell's outputs into its stream text (by stream name,
// concatenated: the kernel may cut a stream into any number of chunks, and
// sends it apart from displayed data, so their interleaving is not stable)
// and its other outputs, in order.
func split(outs []output) (map[string]string, []output) {
	streams := map[string]string{}
	var rest []output
	for _, o := range outs {
		if o.Type == "stream" {
			streams[o.Name] += string(o.Text)
		} else {
			rest = append(rest, o)
		}
	}
	return streams, rest
}

// diffLine shows the first differing line of two texts.
func diffLine(got, want string) string {
	if k, g, w, ok := linediff.First(strings.Split(got, "\n"), strings.Split(want, "\n")); ok {
		return fmt.Sprintf("  line %d now:       %q\n  line %d committed: %q", k, g, k, w)
	}
	return "  (no line differs)"
}

func decodePNG(b64 string) (image.Image, error) {
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(b64), ""))
	if err != nil {
		return nil, err
	}
	return png.Decode(bytes.NewReader(b))
}

// Tolerances of the approximate image comparison (as experiments/report's).
const (
	maxMeanDiff = 0.01
	maxHistDist = 0.02
)

// similarPNG compares two base64 PNGs approximately.
func similarPNG(got, want string) error {
	a, err := decodePNG(got)
	if err != nil {
		return fmt.Errorf("executed: %w", err)
	}
	b, err := decodePNG(want)
	if err != nil {
		return fmt.Errorf("committed: %w", err)
	}
	mean, hist := imageDistance(a, b)
	switch {
	case math.IsInf(mean, 1):
		return fmt.Errorf("size %v, committed %v", a.Bounds().Size(), b.Bounds().Size())
	case mean > maxMeanDiff:
		return fmt.Errorf("mean absolute pixel difference %.4f > %.2f", mean, maxMeanDiff)
	case hist > maxHistDist:
		return fmt.Errorf("luminance histogram distance %.4f > %.2f", hist, maxHistDist)
	}
	return nil
}

// imageDistance is the mean absolute difference of the RGB channels and
// the L1 distance of the 8-bin luminance histograms (fractions of pixels);
// +Inf when the sizes differ.
func imageDistance(a, b image.Image) (mean, hist float64) {
	ra, rb := a.Bounds(), b.Bounds()
	if ra.Dx() != rb.Dx() || ra.Dy() != rb.Dy() {
		return math.Inf(1), math.Inf(1)
	}
	var sum float64
	var ha, hb [8]float64
	n := float64(ra.Dx() * ra.Dy())
	for y := 0; y < ra.Dy(); y++ {
		for x := 0; x < ra.Dx(); x++ {
			r1, g1, b1, _ := a.At(ra.Min.X+x, ra.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(rb.Min.X+x, rb.Min.Y+y).RGBA()
			sum += (absDiff(r1, r2) + absDiff(g1, g2) + absDiff(b1, b2)) / (3 * 65535)
			ha[lumaBin(r1, g1, b1)]++
			hb[lumaBin(r2, g2, b2)]++
		}
	}
	for i := range ha {
		hist += math.Abs(ha[i]-hb[i]) / n
	}
	return sum / n, hist
}

func absDiff(a, b uint32) float64 { return math.Abs(float64(a) - float64(b)) }

func lumaBin(r, g, b uint32) int {
	l := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 65535
	return min(int(l*8), 7)
}

func main() {
	if len(os.Args) < 2 || len(os.Args) > 3 {
		fmt.Fprintln(os.Stderr, "usage: nbcheck EXECUTED.ipynb [COMMITTED.ipynb]")
		os.Exit(2)
	}
	got, err := read(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "nbcheck:", err)
		os.Exit(1)
	}
	probs := check(got)
	if len(os.Args) == 3 {
		want, err := read(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, "nbcheck:", err)
			os.Exit(1)
		}
		probs = append(probs, compare(got, want)...)
	}
	for _, p := range probs {
		fmt.Println(p)
	}
	if len(probs) > 0 {
		os.Exit(1)
	}
}
