package notebook

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/report"
	"github.com/topicmf/topicmf/experiments/store"
)

// CommittedRun is the committed run of a registered experiment, read back
// from the files `topicmf report` wrote under results/<paper>/<experiment>/
// of the checkout, not recomputed: its section (section.md), its tables
// (the unrounded CSVs the section links), its figures (the PNGs the section
// shows), the verdicts of its claims (the section's claims table) and, when
// present, provenance.json (the code revisions and dates of its jobs).
//
// It is what a paper's REPORT.md shows, so a notebook's text can quote it
// and stay true when the full runs are recomputed and committed again.
type CommittedRun struct {
	ID    string
	Title string
	// Dir is the experiment's folder, results/<paper>/<experiment>.
	Dir string
	// Quick is set when the committed section is a quick run (the
	// section says "Quick mode"), which a committed report should not be.
	Quick bool
	// Provenance is provenance.json, nil when the section was rendered
	// before it was recorded (Revisions then come from the section's Runs
	// line, and Date is empty).
	Provenance *report.Provenance

	paperDir string
	section  string // section.md
	tables   []committedTable
	figures  []committedFigure
	verdicts dataframe.DataFrame
	runsRev  string // the revision named in the section's Runs line
}

type committedTable struct {
	name, title string
	df          dataframe.DataFrame
}

type committedFigure struct {
	name, title string
	png         []byte
}

// CommittedResultsDir is the results/ folder of the topicmf checkout whose
// committed reports Committed reads: the module root this package was
// compiled from (the checkout a notebook's kernel builds, whatever folder
// the notebook runs in), else $TOPICMF_ROOT or $TOPICMF_CHECKOUT (the
// checkout the notebook tools record in the kernels). It is not
// ResultsDir: $TOPICMF_RESULTS names a results store for new runs (a
// temporary one when scripts/run-notebooks.sh checks the notebooks), not
// the committed reports.
func CommittedResultsDir() (string, error) {
	var tried []string
	for _, root := range []string{store.ModuleRoot(), os.Getenv("TOPICMF_ROOT"), os.Getenv("TOPICMF_CHECKOUT")} {
		if root == "" {
			continue
		}
		dir := filepath.Join(root, "results")
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir, nil
		}
		tried = append(tried, dir)
	}
	if len(tried) == 0 {
		return "", errors.New("committed results: no topicmf checkout found (set TOPICMF_ROOT to the checkout)")
	}
	return "", fmt.Errorf("committed results: no results folder at %s", strings.Join(tried, ", "))
}

// Committed reads the committed run of the registered experiment id from
// CommittedResultsDir. A missing or damaged folder (no section.md, a CSV
// or figure the section links that is missing or does not parse, a
// provenance.json that does not parse or names another experiment) is an
// error naming the file.
func Committed(id string) (*CommittedRun, error) {
	root, err := CommittedResultsDir()
	if err != nil {
		return nil, err
	}
	return readCommitted(root, id)
}

// readCommitted is Committed reading from the results folder root.
func readCommitted(root, id string) (*CommittedRun, error) {
	exps, err := experiments.Get(id)
	if err != nil {
		return nil, err
	}
	if len(exps) != 1 {
		return nil, fmt.Errorf("experiment %q matches %d experiments, want one id", id, len(exps))
	}
	e := exps[0]
	c := &CommittedRun{ID: e.ID, paperDir: filepath.Join(root, e.PaperKey())}
	c.Dir = filepath.Join(c.paperDir, e.Name())
	if st, err := os.Stat(c.Dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("no committed results for %s: %s is not a folder (run `topicmf run %s` and `topicmf report %s`)", id, c.Dir, id, e.PaperKey())
	}
	sectionPath := filepath.Join(c.Dir, report.SectionFile)
	b, err := os.ReadFile(sectionPath)
	if err != nil {
		return nil, fmt.Errorf("committed results for %s: %w", id, err)
	}
	c.section = string(b)
	if err := c.parseSection(sectionPath); err != nil {
		return nil, err
	}
	p, err := report.ReadProvenance(c.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case p.Experiment != id:
		return nil, fmt.Errorf("%s: records experiment %q, not %q", filepath.Join(c.Dir, report.ProvenanceFile), p.Experiment, id)
	default:
		c.Provenance = p
		c.Quick = c.Quick || p.Quick
	}
	if c.Provenance == nil && c.runsRev == "" {
		return nil, fmt.Errorf("%s: no Runs line naming a revision, and no %s", sectionPath, report.ProvenanceFile)
	}
	return c, nil
}

var (
	// A section's links are relative to its paper's folder:
	// "[recovery.csv](nmf-synthetic/recovery.csv)", "![title](nmf-synthetic/recovery.png)".
	csvLink   = regexp.MustCompile(`\[[^\]]*\]\(([^)]+\.csv)\)`)
	imageLine = regexp.MustCompile(`^!\[([^\]]*)\]\(([^)]+\.png)\)$`)
	link      = regexp.MustCompile(`\[[^\]]*\]\(([^)]+)\)`)
	runsRev   = regexp.MustCompile(`revision ([0-9a-f]{7,40})( with uncommitted changes)?`)
	pngMagic  = []byte("\x89PNG\r\n\x1a\n")
)

// parseSection reads the title, the linked tables and figures, the claims
// table and the Runs line of the section at path.
func (c *CommittedRun) parseSection(path string) error {
	lines := strings.Split(c.section, "\n")
	if !strings.HasPrefix(lines[0], "## ") {
		return fmt.Errorf("%s: line 1 is not the section's \"## \" title", path)
	}
	c.Title = strings.TrimPrefix(lines[0], "## ")
	var claims [][]string
	heading, inClaims := "", false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "> Quick mode"):
			c.Quick = true
		case strings.HasPrefix(l, "### "):
			heading = strings.TrimPrefix(l, "### ")
			inClaims = heading == "Claims"
		case inClaims && strings.HasPrefix(l, "| "):
			cells := splitRow(l)
			if len(cells) != 4 {
				return fmt.Errorf("%s:%d: a claims row with %d cells, want 4 (claim, source, verdict, evidence)", path, i+1, len(cells))
			}
			if cells[0] != "claim" && cells[0] != "---" {
				claims = append(claims, cells)
			}
		case csvLink.MatchString(l): // "Unrounded: [t.csv](…)", "As CSV: [top-words.csv](…)"
			for _, m := range csvLink.FindAllStringSubmatch(l, -1) {
				file, err := c.linked(path, i, m[1])
				if err != nil {
					return err
				}
				df, err := readCommittedCSV(file)
				if err != nil {
					return err
				}
				c.tables = append(c.tables, committedTable{strings.TrimSuffix(filepath.Base(file), ".csv"), heading, df})
			}
		case imageLine.MatchString(l):
			m := imageLine.FindStringSubmatch(l)
			file, err := c.linked(path, i, m[2])
			if err != nil {
				return err
			}
			png, err := os.ReadFile(file)
			if err != nil {
				return fmt.Errorf("%s:%d: figure %w", path, i+1, err)
			}
			if !bytes.HasPrefix(png, pngMagic) {
				return fmt.Errorf("%s: not a PNG image", file)
			}
			c.figures = append(c.figures, committedFigure{strings.TrimSuffix(filepath.Base(file), ".png"), heading, png})
		case strings.HasPrefix(l, "**Runs.** "):
			if m := runsRev.FindStringSubmatch(l); m != nil {
				c.runsRev = m[1] + m[2]
			}
		}
	}
	var claim, source, verdict, evidence []string
	for _, r := range claims {
		claim, source = append(claim, r[0]), append(source, r[1])
		verdict, evidence = append(verdict, strings.Trim(r[2], "*")), append(evidence, r[3])
	}
	c.verdicts = dataframe.New(series.New(claim, series.String, "claim"), series.New(source, series.String, "source"),
		series.New(verdict, series.String, "verdict"), series.New(evidence, series.String, "evidence"))
	return nil
}

// linked is the file a link of the section at path (line i) points to,
// which must lie inside the experiment's folder.
func (c *CommittedRun) linked(path string, i int, target string) (string, error) {
	file := filepath.Join(c.paperDir, filepath.FromSlash(target))
	if rel, err := filepath.Rel(c.Dir, file); err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s:%d: link %q points outside %s", path, i+1, target, c.Dir)
	}
	return file, nil
}

// splitRow splits a Markdown table row at its unescaped pipes and
// unescapes "\|" in the cells.
func splitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			cur.WriteByte('|')
			i++
		case l[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(l[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// readCommittedCSV reads a CSV the section links as a dataframe. A report
// table's CSV (report.TableData.CSV: the grouping columns, then per metric
// <m>_mean, <m>_sd, <m>_n and <m>_paper) has its metric columns as numbers
// (an empty cell is NaN) and its grouping columns as text; the columns of
// any other CSV (top words) are text. A ragged row or a
// metric cell that is not a number is an error naming the file and line.
func readCommittedCSV(path string) (dataframe.DataFrame, error) {
	f, err := os.Open(path)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(records) == 0 {
		return dataframe.DataFrame{}, fmt.Errorf("%s: empty (no header)", path)
	}
	types := map[string]series.Type{}
	for j, name := range records[0] {
		t := series.String
		for _, suffix := range []string{"_mean", "_sd", "_paper"} {
			if strings.HasSuffix(name, suffix) {
				t = series.Float
			}
		}
		if strings.HasSuffix(name, "_n") {
			t = series.Int
		}
		types[name] = t
		if t == series.String {
			continue
		}
		for i, r := range records[1:] {
			if r[j] == "" && t == series.Float {
				continue
			}
			if _, err := strconv.ParseFloat(r[j], 64); err != nil {
				return dataframe.DataFrame{}, fmt.Errorf("%s:%d: column %s: %q is not a number", path, i+2, name, r[j])
			}
		}
	}
	df := dataframe.LoadRecords(records, dataframe.DetectTypes(false), dataframe.DefaultType(series.String), dataframe.WithTypes(types))
	if df.Err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("%s: %w", path, df.Err)
	}
	return df, nil
}

// Revisions are the code revisions that computed the committed jobs, each
// followed by " with uncommitted changes" when its tree was dirty and, when
// there are several, by its number of jobs.
func (c *CommittedRun) Revisions() []string {
	if c.Provenance == nil {
		return []string{c.runsRev}
	}
	var out []string
	for _, code := range c.Provenance.Code {
		s := code.Revision
		if len(s) > 12 {
			s = s[:12]
		}
		if code.Dirty {
			s += " with uncommitted changes"
		}
		if len(c.Provenance.Code) > 1 {
			s += fmt.Sprintf(" (%d jobs)", code.Jobs)
		}
		out = append(out, s)
	}
	return out
}

// Date is the UTC date (YYYY-MM-DD) the last committed job finished, ""
// without provenance.json.
func (c *CommittedRun) Date() string {
	if c.Provenance == nil || len(c.Provenance.End) < 10 {
		return ""
	}
	return c.Provenance.End[:10]
}

// Label is one line saying what the numbers are: "Full run, committed at
// revision 0123456789ab (2026-11-27)" (or "Quick run, …" for a quick
// section, and "date not recorded" without provenance.json).
func (c *CommittedRun) Label() string {
	mode := "Full run"
	if c.Quick {
		mode = "Quick run"
	}
	revs := c.Revisions()
	word := "revision"
	if len(revs) > 1 {
		word = "revisions"
	}
	date := c.Date()
	if date == "" {
		date = "date not recorded"
	}
	return fmt.Sprintf("%s, committed at %s %s (%s)", mode, word, strings.Join(revs, ", "), date)
}

// TableNames are the names of the committed tables (the CSV files the
// section links, without ".csv"), in the section's order.
func (c *CommittedRun) TableNames() []string {
	var out []string
	for _, t := range c.tables {
		out = append(out, t.name)
	}
	return out
}

// Table is the named committed table, unrounded: the grouping columns as
// text, then per metric <m>_mean, <m>_sd, <m>_paper (numbers, NaN where
// empty) and <m>_n.
func (c *CommittedRun) Table(name string) (dataframe.DataFrame, error) {
	for _, t := range c.tables {
		if t.name == name {
			return t.df, nil
		}
	}
	return dataframe.DataFrame{}, fmt.Errorf("committed %s has no table %q (tables: %s)", c.ID, name, strings.Join(c.TableNames(), ", "))
}

// FigureNames are the names of the committed figures, in the section's
// order.
func (c *CommittedRun) FigureNames() []string {
	var out []string
	for _, f := range c.figures {
		out = append(out, f.name)
	}
	return out
}

// Figure shows the named committed figure inline and returns its PNG.
func (c *CommittedRun) Figure(name string) ([]byte, error) {
	for _, f := range c.figures {
		if f.name == name {
			return show(f.png), nil
		}
	}
	return nil, fmt.Errorf("committed %s has no figure %q (figures: %s)", c.ID, name, strings.Join(c.FigureNames(), ", "))
}

// Verdicts is a dataframe of the committed claims: claim, source, verdict
// (held, not held, inconclusive) and the evidence.
func (c *CommittedRun) Verdicts() dataframe.DataFrame { return c.verdicts }

// Verdict is the committed verdict of the claim whose statement contains
// text, or an error when none or several do.
func (c *CommittedRun) Verdict(text string) (string, error) {
	var found []string
	claims, verdicts := c.verdicts.Col("claim").Records(), c.verdicts.Col("verdict").Records()
	for i, s := range claims {
		if strings.Contains(s, text) {
			found = append(found, verdicts[i])
		}
	}
	if len(found) != 1 {
		return "", fmt.Errorf("committed %s: %d claims contain %q, want one", c.ID, len(found), text)
	}
	return found[0], nil
}

// Show displays the committed section as REPORT.md does, under its Label:
// the tables beside the paper's numbers, the figures inline, the claims
// with their verdicts, and the section's notes (metrics, data, protocol,
// runs). Links to the section's files are shown as their paths in the
// checkout.
func (c *CommittedRun) Show() error {
	rel := filepath.ToSlash(filepath.Join("results", filepath.Base(c.paperDir)))
	var md strings.Builder
	fmt.Fprintf(&md, "### %s — %s\n\n**%s** — read from `%s/%s/`, not recomputed.\n", c.ID, c.Title, c.Label(), rel, filepath.Base(c.Dir))
	figure := 0
	lines := strings.Split(c.section, "\n")[1:]
	for _, l := range lines {
		if imageLine.MatchString(l) {
			showMarkdown(md.String())
			md.Reset()
			show(c.figures[figure].png)
			figure++
			continue
		}
		if strings.HasPrefix(l, "> Quick mode") {
			continue // said by the label
		}
		if strings.HasPrefix(l, "### ") {
			l = "#" + l // under the section's own "###" heading
		}
		md.WriteString(link.ReplaceAllString(l, "`"+rel+"/$1`") + "\n")
	}
	if s := strings.TrimSpace(md.String()); s != "" {
		showMarkdown(s)
	}
	return nil
}
