// Package report renders an experiment's results: Markdown tables with
// our numbers beside the paper's, claim verdicts, footers, CSV files and
// gonum/plot figures (PNG, SVG and PDF), and assembles them into one
// REPORT.md per paper. The notebooks draw their figures with the same code
// (LinePlot, EncodePlot), so a figure looks the same in both.
//
// # Flow
//
// The runner (package experiments) returns Results read back from the
// results store. Render(res, results/<paper>) then writes, under
// results/<paper>/<experiment name>/:
//
//   - <table>.csv for every Table: the grouping columns, then per metric
//     the unrounded mean, sample standard deviation, n and the paper's value;
//   - <figure>.png, <figure>.svg and <figure>.pdf for every Figure (6 × 4
//     in plus a legend column; PNG at 192 dpi): lines (mean over
//     replicates, error bars ± one sample standard deviation) or grouped
//     bars;
//   - section.md: the experiment's Markdown section — each table with
//     "metric (ours)" as mean ± sd and "metric (paper)" where the paper
//     reports the number, the figures, the claims with verdicts (held, not
//     held, inconclusive) and the evidence numbers, and a footer stating the
//     metric definitions, the data substitutes, the protocol, how many jobs
//     were computed or cached, the fits' stop reasons, every code revision
//     the jobs were computed by (with job counts when there are several)
//     and the root seed, and every warning the tasks recorded;
//   - provenance.json (Provenance): what produced the numbers, aggregated
//     from the run store's per-job provenance.json (which stays in the
//     uncommitted runs/): the distinct code revisions (dirty or not) and
//     machines with their job counts, the SHA-256 of every data file, the
//     span of the computation, the root seed, and per job its label, the
//     SHA-256 of its canonical configuration, revision, seed, wall time,
//     data files, metrics as stored (shortest round-trip text, so equal
//     text means equal bits) and, per per-query metric, the first 16 hex
//     digits of the SHA-256 of its values. One job a line. It is committed with the section: it is what REPORT.md's
//     header is built from, and what report --verify recomputes a sample
//     of and compares against.
//
// Assemble(results/<paper>, experiments) then rebuilds REPORT.md from the
// section files of all of the paper's experiments in registry order, so
// running one experiment refreshes its section and keeps the others; an
// experiment never run gets a line with the command that runs it. Its
// header states, from the sections' provenance.json files alone (so
// `topicmf report PAPER` needs no store), the code revisions, the dates,
// the Go versions and machines (CPUs, memory) and the SHA-256 of every data
// file, and names the sections rendered before provenance was recorded.
//
// A full-run report rendered inside the module's work tree (results/, which
// is committed) must come from a clean tree: CheckCommittable refuses a
// dirty one, and `topicmf run` calls it before computing anything.
//
// # Figures
//
// Every figure has a blank margin, its title set off from the data, room
// around the data so that no marker sits on the frame, ticks at steps of
// 1, 2 or 5 × 10^k with the same decimals along an axis (niceStep), and
// its legend in a column of its own with space between entries. A
// Scaling figure (a cost against a size) is drawn on log–log axes when it
// has more than two sizes. When error bars are drawn and several series
// share an x, the series are shifted sideways so that the bars stand side
// by side; the caption under the figure says so, as it says when a
// scaling figure of a quick run stays on linear axes.
//
// Only rendering rounds (FormatNumber); CSV files and the store keep full
// precision. Every file is written by the rules of internal/outfile: a
// regular file atomically, a symbolic link through to its target.
//
// # Tests
//
// Figures are checked against golden PNGs under testdata by approximate
// comparison (same size, mean absolute pixel difference ≤ 0.01, 8-bin
// luminance histogram L1 distance ≤ 0.02); `go test -update` rewrites the
// goldens after an intended change — look at them before committing.
package report
