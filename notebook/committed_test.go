package notebook

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/store"
)

const committedID = "foundation/nmf-synthetic"

// TestCommittedReadsTheSection loads the committed section of
// foundation/nmf-synthetic from the checkout's results/ and checks it
// against the files themselves: every number of the dataframe is the
// CSV's, the section's rounded Markdown table shows the same means, the
// claims are the registered experiment's, the figures are its PNGs.
func TestCommittedReadsTheSection(t *testing.T) {
	t.Setenv("TOPICMF_RESULTS", t.TempDir()) // a store for new runs is not where the committed reports are
	c, err := Committed(committedID)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(store.ModuleRoot(), "results", "foundation", "nmf-synthetic")
	if c.Dir != want {
		t.Errorf("Dir = %s, want %s", c.Dir, want)
	}
	if c.Quick {
		t.Error("the committed section is marked quick")
	}
	if !strings.HasPrefix(c.Label(), "Full run, committed at revision ") {
		t.Errorf("Label = %q", c.Label())
	}
	if got := c.TableNames(); len(got) != 1 || got[0] != "recovery" {
		t.Fatalf("TableNames = %v", got)
	}
	df, err := c.Table("recovery")
	if err != nil {
		t.Fatal(err)
	}
	raw := readCSV(t, filepath.Join(c.Dir, "recovery.csv"))
	if df.Nrow() != len(raw)-1 || df.Ncol() != len(raw[0]) {
		t.Fatalf("dataframe %d×%d, CSV %d×%d", df.Nrow(), df.Ncol(), len(raw)-1, len(raw[0]))
	}
	section, err := os.ReadFile(filepath.Join(c.Dir, "section.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range raw[1:] {
		if k := df.Col("k").Records()[i]; k != r[0] {
			t.Errorf("row %d: k %s, CSV %s", i, k, r[0])
		}
		want, _ := strconv.ParseFloat(r[1], 64)
		got := df.Col("recovery_mean").Float()[i]
		if got != want {
			t.Errorf("row %d: recovery_mean %v, CSV %v", i, got, want)
		}
		// The section rounds the mean to 3 digits in the row of its k.
		row := fmt.Sprintf("| %s | %s ± ", r[0], report.FormatNumber(got, 3))
		if !bytes.Contains(section, []byte(row)) {
			t.Errorf("section.md has no row %q", row)
		}
		if n := df.Col("recovery_n").Records()[i]; n != r[3] {
			t.Errorf("row %d: recovery_n %s, CSV %s", i, n, r[3])
		}
	}
	if p := df.Col("recovery_paper").Float()[0]; p == p {
		t.Errorf("an empty paper cell reads %v, want NaN", p)
	}
	exps, _ := experiments.Get(committedID)
	v := c.Verdicts()
	if v.Nrow() != len(exps[0].Claims) {
		t.Fatalf("%d verdicts, %d claims", v.Nrow(), len(exps[0].Claims))
	}
	for i, cl := range exps[0].Claims {
		if got := v.Col("claim").Records()[i]; got != cl.Statement {
			t.Errorf("claim %d: %q, registered %q", i, got, cl.Statement)
		}
		switch out := v.Col("verdict").Records()[i]; out {
		case "held", "not held", "inconclusive":
		default:
			t.Errorf("claim %d: verdict %q", i, out)
		}
	}
	if _, err := c.Verdict("never increases"); err != nil {
		t.Error(err)
	}
	if _, err := c.Verdict("no such claim"); err == nil {
		t.Error("Verdict of no claim: no error")
	}
	if got := c.FigureNames(); len(got) != 2 || got[0] != "objective" || got[1] != "recovery" {
		t.Errorf("FigureNames = %v", got)
	}

	var md []string
	var imgs [][]byte
	DisplayMarkdown = func(s string) { md = append(md, s) }
	Display = func(b []byte) { imgs = append(imgs, b) }
	defer func() { Display, DisplayMarkdown = nil, nil }()
	png, err := c.Figure("recovery")
	if err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(filepath.Join(c.Dir, "recovery.png"))
	if !bytes.Equal(png, file) || len(imgs) != 1 {
		t.Errorf("Figure: %d bytes shown %d times, the file has %d bytes", len(png), len(imgs), len(file))
	}
	if _, err := c.Figure("nope"); err == nil {
		t.Error("missing figure: no error")
	}
	imgs, md = nil, nil
	if err := c.Show(); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(md, "\n")
	if len(imgs) != 2 || !strings.Contains(md[0], "**"+c.Label()+"**") ||
		!strings.Contains(all, "`results/foundation/nmf-synthetic/recovery.csv`") ||
		!strings.Contains(all, "#### Claims") || strings.Contains(all, "](") {
		t.Errorf("Show: %d images, Markdown %q", len(imgs), md)
	}
}

// copySection copies the committed foundation/nmf-synthetic folder to a
// temporary results folder, which it returns.
func copySection(t *testing.T) (root, dir string) {
	t.Helper()
	src := filepath.Join(store.ModuleRoot(), "results", "foundation", "nmf-synthetic")
	root = t.TempDir()
	dir = filepath.Join(root, "foundation", "nmf-synthetic")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == report.ProvenanceFile {
			continue // the tests write their own
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, dir
}

// TestCommittedProvenance: without provenance.json the revision is the
// section's Runs line and the date is not recorded; with it, its code
// revisions and end date.
func TestCommittedProvenance(t *testing.T) {
	root, dir := copySection(t)
	c, err := readCommitted(root, committedID)
	if err != nil {
		t.Fatal(err)
	}
	section, _ := os.ReadFile(filepath.Join(dir, "section.md"))
	rev := runsRev.FindSubmatch(section)
	if want := "Full run, committed at revision " + string(rev[1]) + " (date not recorded)"; c.Label() != want {
		t.Errorf("Label = %q, want %q", c.Label(), want)
	}
	p := &report.Provenance{Experiment: committedID, ExperimentVersion: "1", End: "2026-11-27T21:03:00Z",
		Code: []report.CodeCount{{Revision: "0123456789abcdef0123", Jobs: 6}, {Revision: "fedcba9876543210", Dirty: true, Jobs: 3}}}
	if err := report.WriteProvenance(dir, p); err != nil {
		t.Fatal(err)
	}
	if c, err = readCommitted(root, committedID); err != nil {
		t.Fatal(err)
	}
	if want := "Full run, committed at revisions 0123456789ab (6 jobs), fedcba987654 with uncommitted changes (3 jobs) (2026-11-27)"; c.Label() != want {
		t.Errorf("Label = %q, want %q", c.Label(), want)
	}
	p.Quick = true
	if err := report.WriteProvenance(dir, p); err != nil {
		t.Fatal(err)
	}
	if c, err = readCommitted(root, committedID); err != nil || !strings.HasPrefix(c.Label(), "Quick run, committed at") {
		t.Errorf("a quick provenance: %v, label %q", err, c.Label())
	}
}

// TestCommittedDamaged: a missing folder and each kind of damage is one
// line naming the file (and line) at fault.
func TestCommittedDamaged(t *testing.T) {
	if _, err := readCommitted(t.TempDir(), committedID); err == nil || !strings.Contains(err.Error(), "no committed results for foundation/nmf-synthetic") {
		t.Errorf("missing folder: %v", err)
	}
	if _, err := readCommitted(t.TempDir(), "nope/nope"); err == nil {
		t.Error("unknown experiment: no error")
	}
	for _, tc := range []struct {
		name, file string
		damage     func(string) string // new content from old; "" removes the file
		want       string
	}{
		{"truncated row", "recovery.csv", func(s string) string { return s[:strings.LastIndex(strings.TrimSuffix(s, "\n"), ",")] + "\n" },
			"recovery.csv: record on line 4: wrong number of fields"},
		{"not a number", "recovery.csv", func(s string) string {
			lines := strings.Split(s, "\n")
			f := strings.Split(lines[2], ",")
			f[1] = "0.93x"
			lines[2] = strings.Join(f, ",")
			return strings.Join(lines, "\n")
		}, `recovery.csv:3: column recovery_mean: "0.93x" is not a number`},
		{"csv missing", "recovery.csv", func(string) string { return "" }, "recovery.csv: no such file"},
		{"figure missing", "objective.png", func(string) string { return "" }, "objective.png: no such file"},
		{"figure not a PNG", "recovery.png", func(string) string { return "<svg/>" }, "recovery.png: not a PNG image"},
		{"section missing", "section.md", func(string) string { return "" }, "section.md: no such file"},
		{"claims row", "section.md", func(s string) string {
			return strings.Replace(s, "| --- | --- | --- | --- |\n| ", "| --- | --- | --- | --- |\n| extra | ", 1)
		},
			"a claims row with 5 cells"},
		{"no title", "section.md", func(s string) string { return "\n" + s }, `line 1 is not the section's "## " title`},
		{"provenance", report.ProvenanceFile, func(string) string { return "{\"experiment\": " }, "provenance.json: unexpected end of JSON input"},
		{"provenance of another", report.ProvenanceFile, func(string) string { return `{"experiment": "rlsi2011/figure9"}` },
			`records experiment "rlsi2011/figure9", not "foundation/nmf-synthetic"`},
	} {
		root, dir := copySection(t)
		path := filepath.Join(dir, tc.file)
		old, _ := os.ReadFile(path)
		var err error
		if s := tc.damage(string(old)); s == "" {
			err = os.Remove(path)
		} else {
			err = os.WriteFile(path, []byte(s), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, err = readCommitted(root, committedID)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", tc.name, err, tc.want)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestEveryCommittedSectionReads: every experiment section committed under
// results/ reads back whole (tables, figures, claims, revision) and is a full run, so that
// the paper notebooks' full() cells can show it.
func TestEveryCommittedSectionReads(t *testing.T) {
	root, err := CommittedResultsDir()
	if err != nil {
		t.Fatal(err)
	}
	sections, err := filepath.Glob(filepath.Join(root, "*", "*", report.SectionFile))
	if err != nil || len(sections) == 0 {
		t.Fatalf("no committed sections under %s (%v)", root, err)
	}
	for _, s := range sections {
		dir := filepath.Dir(s)
		id := filepath.Base(filepath.Dir(dir)) + "/" + filepath.Base(dir)
		if _, err := experiments.Get(id); err != nil {
			continue // a folder of an experiment no longer registered
		}
		c, err := Committed(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if len(c.TableNames())+len(c.FigureNames()) == 0 {
			t.Errorf("%s: no table and no figure", id)
		}
		// Every CSV of the folder that the section names is a table.
		section, _ := os.ReadFile(s)
		csvs, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
		for _, f := range csvs {
			if !bytes.Contains(section, []byte("/"+filepath.Base(f)+")")) {
				continue // left from an earlier rendering
			}
			if _, err := c.Table(strings.TrimSuffix(filepath.Base(f), ".csv")); err != nil {
				t.Error(err)
			}
		}
		if c.Quick {
			t.Errorf("%s: the committed section is a quick run", id)
		}
	}
}
