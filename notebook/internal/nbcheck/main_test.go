package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

// pngB64 is a w×h white PNG with a black horizontal line of the given
// length at row y.
func pngB64(t *testing.T, w, h, y, length int) string {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for x := 0; x < length; x++ {
		img.Set(x, y, color.Black)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

func parse(t *testing.T, s string) *notebook {
	var nb notebook
	if err := json.Unmarshal([]byte(s), &nb); err != nil {
		t.Fatal(err)
	}
	return &nb
}

// nb is a notebook with one drawing cell (an image output) and one table
// cell (Markdown output).
func nb(t *testing.T, img, table string, tags string) *notebook {
	tj, _ := json.Marshal(table)
	return parse(t, `{"cells": [
 {"cell_type": "markdown", "source": "# t", "metadata": {}},
 {"cell_type": "code", "source": ["_, err := nb.PlotTrace(f)"], "metadata": {"tags": [`+tags+`]},
  "outputs": [{"output_type": "display_data", "data": {"image/png": "`+img+`"}}]},
 {"cell_type": "code", "source": "nb.ShowTable(df)", "metadata": {},
  "outputs": [{"output_type": "display_data", "data": {"text/markdown": ["| a |\n", `+string(tj)+`]}}]}
]}`)
}

func TestCheckAndCompare(t *testing.T) {
	base := pngB64(t, 100, 100, 50, 100)
	ok := nb(t, base, "| 1 |\n\n1 rows × 1 columns\n", "")
	if p := check(ok); len(p) != 0 {
		t.Errorf("check of a good notebook: %v", p)
	}
	if p := compare(ok, ok); len(p) != 0 {
		t.Errorf("compare with itself: %v", p)
	}
	// 100 of 10,000 pixels changed fully: mean difference 0.01, at the
	// tolerance; 20 changed pixels are well inside it.
	near := nb(t, pngB64(t, 100, 100, 50, 80), "| 1 |\n\n1 rows × 1 columns\n", "")
	if p := compare(near, ok); len(p) != 0 {
		t.Errorf("a slightly different image: %v", p)
	}
	far := nb(t, pngB64(t, 100, 100, 50, 0), "| 1 |\n\n1 rows × 1 columns\n", "")
	img := image.NewRGBA(image.Rect(0, 0, 100, 100)) // all black: far from white
	var b bytes.Buffer
	png.Encode(&b, img)
	black := nb(t, base64.StdEncoding.EncodeToString(b.Bytes()), "| 1 |\n\n1 rows × 1 columns\n", "")
	if p := compare(black, ok); len(p) != 1 || !strings.Contains(p[0], "mean absolute pixel difference") {
		t.Errorf("a black image: %v", p)
	}
	if p := compare(far, ok); len(p) != 0 {
		t.Errorf("a line of 100 pixels removed (mean 0.01): %v", p)
	}
	small := nb(t, pngB64(t, 90, 100, 50, 90), "| 1 |\n\n1 rows × 1 columns\n", "")
	if p := compare(small, ok); len(p) != 1 || !strings.Contains(p[0], "size") {
		t.Errorf("another size: %v", p)
	}
	num := nb(t, base, "| 2 |\n\n1 rows × 1 columns\n", "")
	if p := compare(num, ok); len(p) != 1 || !strings.Contains(p[0], "text differs") {
		t.Errorf("a changed number: %v", p)
	}
	// A cell tagged timing compares only the kinds of its outputs.
	timedOK := nb(t, base, "| 1 |\n\n1 rows × 1 columns\n", `"timing"`)
	timedBlack := nb(t, base64.StdEncoding.EncodeToString(b.Bytes()), "| 1 |\n\n1 rows × 1 columns\n", `"timing"`)
	if p := compare(timedBlack, timedOK); len(p) != 0 {
		t.Errorf("timing cell: %v", p)
	}
}

func TestCheckFindsProblems(t *testing.T) {
	bad := parse(t, `{"cells": [
 {"cell_type": "code", "source": "r.Show()", "metadata": {"tags": ["figure"]},
  "outputs": [{"output_type": "stream", "name": "stdout", "text": "go: added gonum.org/v1/gonum v0.16.0\n"}]},
 {"cell_type": "code", "source": "x", "metadata": {},
  "outputs": [{"output_type": "error", "ename": "panic", "evalue": "boom"}]}
]}`)
	want := []string{"module download chatter", "draws a figure but shows no image", "error panic: boom", "no inline figure", "no dataframe"}
	p := strings.Join(check(bad), "\n")
	for _, w := range want {
		if !strings.Contains(p, w) {
			t.Errorf("check misses %q in:\n%s", w, p)
		}
	}
}

// TestStreamsApartFromDisplays: standard output cut into other chunks and
// interleaved otherwise with the displayed outputs compares equal; other
// text does not.
func TestStreamsApartFromDisplays(t *testing.T) {
	a := parse(t, `{"cells": [{"cell_type": "code", "source": "x", "metadata": {}, "outputs": [
 {"output_type": "stream", "name": "stdout", "text": "one\ntwo\n"},
 {"output_type": "display_data", "data": {"text/markdown": "| t |"}}]}]}`)
	b := parse(t, `{"cells": [{"cell_type": "code", "source": "x", "metadata": {}, "outputs": [
 {"output_type": "display_data", "data": {"text/markdown": "| t |"}},
 {"output_type": "stream", "name": "stdout", "text": "one\n"},
 {"output_type": "stream", "name": "stdout", "text": "two\n"}]}]}`)
	if p := compare(a, b); len(p) != 0 {
		t.Errorf("same outputs, other interleaving: %v", p)
	}
	c := parse(t, `{"cells": [{"cell_type": "code", "source": "x", "metadata": {}, "outputs": [
 {"output_type": "stream", "name": "stdout", "text": "one\nthree\n"},
 {"output_type": "display_data", "data": {"text/markdown": "| t |"}}]}]}`)
	if p := compare(c, a); len(p) != 1 || !strings.Contains(p[0], "stdout differs") {
		t.Errorf("changed stdout: %v", p)
	}
}

// TestFigureWithTextCopy: a figure stored with a decimal text/plain copy of
// its bytes (gophernotes' display.PNG) fails; a short caption does not.
func TestFigureWithTextCopy(t *testing.T) {
	img := pngB64(t, 100, 100, 50, 100)
	for _, tc := range []struct {
		plain string
		fails bool
	}{{"figure", false}, {strings.Repeat("137 80 78 71 ", 100), true}} {
		nb := parse(t, `{"cells": [
 {"cell_type": "code", "source": "nb.PlotTrace(f)", "metadata": {},
  "outputs": [{"output_type": "display_data", "data": {"image/png": "`+img+`", "text/plain": "`+tc.plain+`"}}]},
 {"cell_type": "code", "source": "nb.ShowTable(df)", "metadata": {},
  "outputs": [{"output_type": "display_data", "data": {"text/markdown": "| 1 |\n\n1 rows × 1 columns\n"}}]}
]}`)
		p := check(nb)
		if got := len(p) > 0 && strings.Contains(p[0], "text/plain copy"); got != tc.fails || len(p) > 1 || (!tc.fails && len(p) > 0) {
			t.Errorf("text/plain of %d bytes: problems %v", len(tc.plain), p)
		}
	}
}

// TestErrorShowsStderr: a failing gonb cell's error is "exit status 1";
// the problem nbcheck reports carries the line the cell wrote to standard
// error (nb.Check's), so a headless run says why it failed.
func TestErrorShowsStderr(t *testing.T) {
	nb := parse(t, `{"cells": [{"cell_type": "code", "source": "nb.Check(err)", "metadata": {}, "outputs": [
 {"output_type": "stream", "name": "stderr", "text": ["topicmf: fit: unknown family \"nfm\" (known: lda, nmf)\n", "exit status 1\n"]},
 {"output_type": "error", "ename": "ERROR", "evalue": "exit status 1", "traceback": ["exit status 1"]}]}]}`)
	p := check(nb)
	want := `cell 1: error ERROR: exit status 1; stderr: topicmf: fit: unknown family "nfm" (known: lda, nmf)`
	if len(p) == 0 || p[0] != want {
		t.Errorf("problems %q, want first %q", p, want)
	}
}
