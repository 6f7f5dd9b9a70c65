package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/outfile"
)

// SectionFile is the name of an experiment's rendered section inside its
// directory.
const SectionFile = "section.md"

// ReportFile is a paper's assembled report.
const ReportFile = "REPORT.md"

// PaperDir is where a paper's report lives under a report root
// (results/<paper>).
func PaperDir(root string, e *experiments.Experiment) string {
	return filepath.Join(root, e.PaperKey())
}

// Render writes one experiment's outputs under paperDir/<name>/: a CSV per
// table, a PNG, an SVG and a PDF per figure, and section.md, the Markdown
// section (tables with the paper's values beside ours, figures with their
// captions, claims with verdicts, footer) that Assemble includes in
// REPORT.md. Every file is written atomically. It returns the section's
// Markdown.
func Render(res *experiments.Results, paperDir string) (string, error) {
	e := res.Experiment
	name := e.Name()
	dir := filepath.Join(paperDir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	prov, err := BuildProvenance(res)
	if err != nil {
		return "", fmt.Errorf("provenance: %w", err)
	}
	if err := WriteProvenance(dir, prov); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", e.Title)
	fmt.Fprintf(&b, "Experiment `%s`", e.ID)
	// The section names where in the paper; REPORT.md cites the paper.
	if ref := e.Paper.String(); ref != "" {
		fmt.Fprintf(&b, " — %s", ref)
	}
	b.WriteString(".\n\n")
	if res.Quick {
		b.WriteString("> Quick mode (`--quick`): reduced grid and replicates; these numbers are a smoke test, not the reproduction.\n\n")
	}
	for _, t := range e.Tables {
		td := BuildTable(res, t)
		fmt.Fprintf(&b, "### %s\n\n", firstNonEmpty(t.Title, t.Name))
		if len(td.Rows) == 0 {
			b.WriteString("*No results.*\n\n")
			continue
		}
		b.WriteString(td.Markdown())
		head, rows := td.CSV()
		csvName := t.Name + ".csv"
		if err := writeCSV(filepath.Join(dir, csvName), head, rows); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\nUnrounded: [%s](%s/%s).", csvName, name, csvName)
		if notes := td.paperNotes(); len(notes) > 0 {
			fmt.Fprintf(&b, " Paper values: %s.", strings.Join(notes, "; "))
		}
		b.WriteString("\n\n")
	}
	for _, t := range e.TextTables {
		head, rows, err := t.Build(res)
		if err != nil {
			return "", fmt.Errorf("table %s: %w", t.Name, err)
		}
		fmt.Fprintf(&b, "### %s\n\n", firstNonEmpty(t.Title, t.Name))
		if len(rows) == 0 {
			b.WriteString("*No results.*\n\n")
			continue
		}
		b.WriteString(TextMarkdown(head, rows))
		csvName := t.Name + ".csv"
		if err := writeCSV(filepath.Join(dir, csvName), head, rows); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\nAs CSV: [%s](%s/%s).\n\n", csvName, name, csvName)
	}
	for _, f := range e.Figures {
		p, err := Plot(res, f)
		if err != nil {
			return "", err
		}
		for _, format := range Formats {
			data, err := EncodePlot(p, format)
			if err != nil {
				return "", fmt.Errorf("figure %s (%s): %w", f.Name, format, err)
			}
			if err := writeFile(filepath.Join(dir, f.Name+"."+format), data); err != nil {
				return "", err
			}
		}
		caption, err := Caption(res, f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "### %s\n\n![%s](%s/%s.png)\n\n[SVG](%s/%s.svg) · [PDF](%s/%s.pdf)", firstNonEmpty(f.Title, f.Name), f.Title, name, f.Name, name, f.Name, name, f.Name)
		if caption != "" {
			b.WriteString(" · " + caption)
		}
		b.WriteString("\n\n")
	}
	if c := ClaimsMarkdown(res); c != "" {
		b.WriteString("### Claims\n\n" + c + "\n")
	}
	b.WriteString(footer(res, prov))
	md := b.String()
	if err := writeFile(filepath.Join(dir, SectionFile), []byte(md)); err != nil {
		return "", err
	}
	return md, nil
}

func writeCSV(path string, head []string, rows [][]string) error {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(head)
	for _, r := range rows {
		w.Write(r)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return writeFile(path, []byte(b.String()))
}

// Assemble writes paperDir/REPORT.md from the sections of the paper's
// experiments (in the order given, normally registry order), so that
// running one experiment refreshes its section while keeping the others.
// An experiment not rendered yet gets a line saying how to run it.
func Assemble(paperDir string, exps []*experiments.Experiment, quick bool) error {
	if len(exps) == 0 {
		return errors.New("assemble: no experiments")
	}
	paper := exps[0].PaperKey()
	var b strings.Builder
	fmt.Fprintf(&b, "# Reproduction report: %s\n\n", paper)
	refs := map[string]bool{}
	var cites []string
	for _, e := range exps {
		ref := Citation(e.Paper)
		if ref != "" && !refs[ref] {
			refs[ref] = true
			cites = append(cites, ref)
		}
	}
	if len(cites) > 0 {
		b.WriteString("Paper: " + strings.TrimSuffix(strings.Join(cites, "; "), ".") + ".\n\n")
	}
	run := "topicmf run " + paper + "/*"
	if quick {
		run += " --quick"
	}
	fmt.Fprintf(&b, "Regenerate with `%s`. Each section is rewritten when its experiment runs; numbers come from the results store (`runs/` under the results root), rounded only here.\n\n", run)
	if quick {
		b.WriteString("> Quick mode: reduced grids and replicates. See the full report for the reproduction.\n\n")
	}
	prov, err := provenanceHeader(paperDir, exps)
	if err != nil {
		return err
	}
	b.WriteString(prov)
	var sections []string
	for _, e := range exps {
		data, err := os.ReadFile(filepath.Join(paperDir, e.Name(), SectionFile))
		switch {
		case err == nil:
			fmt.Fprintf(&b, "- [%s](#%s)\n", e.Title, anchor(e.Title))
			sections = append(sections, string(data))
		case os.IsNotExist(err):
			fmt.Fprintf(&b, "- %s — not run yet: `topicmf run %s`\n", e.Title, e.ID)
		default:
			return err
		}
	}
	b.WriteString("\n")
	for _, s := range sections {
		b.WriteString(strings.TrimRight(s, "\n") + "\n\n")
	}
	return writeFile(filepath.Join(paperDir, ReportFile), []byte(strings.TrimRight(b.String(), "\n")+"\n"))
}

// anchor is GitHub's heading anchor: lower case, spaces to hyphens,
// punctuation other than hyphens and underscores dropped.
func anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// writeFile writes data to path, creating its folder if missing, by the
// rules of internal/outfile: a regular file is replaced atomically, a
// symbolic link (REPORT.md linked into a documentation tree) is written
// through to its target, a FIFO or device is written in place, and a
// directory is an error.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return outfile.Bytes(path, nil, data)
}

// provenanceHeader is REPORT.md's provenance paragraph, aggregated from the
// provenance.json of every experiment whose section is present: the code
// revisions, the dates, the Go versions and machines, and the SHA-256 of
// every data file. Sections without one (rendered before provenance was
// recorded) are named.
func provenanceHeader(paperDir string, exps []*experiments.Experiment) (string, error) {
	var codes []CodeCount
	var machines []MachineCount
	var data []store.Checksum
	seenData := map[store.Checksum]bool{}
	var start, end string
	var without []string
	found := 0
	for _, e := range exps {
		dir := filepath.Join(paperDir, e.Name())
		if _, err := os.Stat(filepath.Join(dir, SectionFile)); err != nil {
			continue // not run yet: listed as such below
		}
		p, err := ReadProvenance(dir)
		if os.IsNotExist(err) {
			without = append(without, e.Name())
			continue
		}
		if err != nil {
			return "", err
		}
		found++
		codes = mergeCodes(codes, p.Code)
		machines = mergeMachines(machines, p.Machines)
		for _, d := range p.Datasets {
			if !seenData[d] {
				seenData[d] = true
				data = append(data, d)
			}
		}
		if p.Start != "" && (start == "" || p.Start < start) {
			start = p.Start
		}
		if p.End > end {
			end = p.End
		}
	}
	var b strings.Builder
	if found == 0 {
		if len(without) > 0 {
			fmt.Fprintf(&b, "**Provenance.** Not recorded: every section was rendered before provenance.json existed. Recompute them from a clean tree to record it.\n\n")
		}
		return b.String(), nil
	}
	fmt.Fprintf(&b, "**Provenance.** Computed by code %s", codeText(codes))
	if len(codes) == 1 && !codes[0].Dirty {
		b.WriteString(" (clean tree)")
	}
	day := func(t string) string { d, _, _ := strings.Cut(t, "T"); return d }
	switch {
	case start == "":
	case day(start) == day(end):
		fmt.Fprintf(&b, " on %s (UTC)", day(start))
	default:
		fmt.Fprintf(&b, " from %s to %s (UTC)", day(start), day(end))
	}
	b.WriteString(", with ")
	for i, m := range machines {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(machineText(m))
		if len(machines) > 1 {
			fmt.Fprintf(&b, " (%d jobs)", m.Jobs)
		}
	}
	fmt.Fprintf(&b, ". Each experiment's jobs, seeds, wall times and metrics are in its `%s`.", ProvenanceFile)
	if len(without) > 0 {
		fmt.Fprintf(&b, " Sections rendered before provenance was recorded: %s.", strings.Join(without, ", "))
	}
	b.WriteString("\n\n")
	files, derived := splitDataChecksums(data)
	if len(files) > 0 {
		b.WriteString("Data files (SHA-256):\n\n")
		for _, d := range files {
			fmt.Fprintf(&b, "- `%s` %s\n", d.Name, d.SHA256)
		}
		b.WriteString("\n")
	}
	if len(derived) > 0 {
		b.WriteString("Derived inputs (SHA-256 of their descriptions: corpus specifications, text pipelines, candidate sets; each one in the experiments' `" + ProvenanceFile + "`): ")
		for i, d := range derived {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "`%s` ×%d", d.name, d.count)
		}
		b.WriteString(".\n\n")
	}
	return b.String(), nil
}

// derivedCount is how many distinct digests a derived input's name has.
type derivedCount struct {
	name  string
	count int
}

// splitDataChecksums separates the data files, whose names are paths under
// the data directory or synthetic data sets ("20newsgroups/…",
// "synthetic/default"), from the digests of what a task derives from them
// (experiments.DescribedChecksum: "corpus", "pipeline", …), which a header
// counts rather than lists: a grid of subsamples has one corpus digest per
// job. Files are sorted by name; derived names by name.
func splitDataChecksums(data []store.Checksum) (files []store.Checksum, derived []derivedCount) {
	for _, d := range data {
		if strings.Contains(d.Name, "/") {
			files = append(files, d)
			continue
		}
		i := slices.IndexFunc(derived, func(c derivedCount) bool { return c.name == d.Name })
		if i < 0 {
			derived = append(derived, derivedCount{name: d.Name})
			i = len(derived) - 1
		}
		derived[i].count++
	}
	slices.SortFunc(files, func(a, b store.Checksum) int {
		return strings.Compare(a.Name+" "+a.SHA256, b.Name+" "+b.SHA256)
	})
	slices.SortFunc(derived, func(a, b derivedCount) int { return strings.Compare(a.name, b.name) })
	return files, derived
}

// mergeCodes adds the job counts of more to codes, by code version.
func mergeCodes(codes, more []CodeCount) []CodeCount {
	for _, c := range more {
		i := slices.IndexFunc(codes, func(x CodeCount) bool {
			return x.Revision == c.Revision && x.Dirty == c.Dirty && x.Source == c.Source
		})
		if i < 0 {
			codes = append(codes, c)
		} else {
			codes[i].Jobs += c.Jobs
		}
	}
	return codes
}

// mergeMachines adds the job counts of more to machines, by machine.
func mergeMachines(machines, more []MachineCount) []MachineCount {
	for _, m := range more {
		key := m
		key.Jobs = 0
		i := slices.IndexFunc(machines, func(x MachineCount) bool { x.Jobs = 0; return x == key })
		if i < 0 {
			machines = append(machines, m)
		} else {
			machines[i].Jobs += m.Jobs
		}
	}
	return machines
}
