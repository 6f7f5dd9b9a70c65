// Package notebook is the notebook-facing API of topicmf: one call each to
// load a corpus, fit a model, sweep a grid, run a registered experiment,
// and turn what comes back into go-gota dataframes and inline figures.
//
// It is written for Jupyter with the gonb and gophernotes Go kernels
// (scripts/install-notebook-tools.sh installs both). Its exported surface
// has no type parameters, because gophernotes' interpreter cannot import
// generic identifiers. A failing call returns its error, which Check turns
// into one line that ends the cell, in either kernel.
//
// # A session
//
//	c, err := notebook.Load("cranfield")            // a registered collection, default pipeline
//	f, err := notebook.Fit(c, "rlsi", notebook.Params{"k": "20"})
//	f.Summary()                                      // status, and a note if every topic came out empty
//	notebook.TopTerms(f, 10)                         // dataframe: topic, rank, term, weight
//	notebook.Quality(f)                              // dataframe: topic, NPMI, C_V, UMass, UCI, words; TD@25
//	notebook.Iterations(f)                           // dataframe: iter, seconds, objective, ...
//	notebook.PlotTrace(f, "objective")               // inline PNG
//	notebook.SaveFigure("rlsi-objective")            // rlsi-objective.png, .svg, .pdf
//	notebook.Rank(f, "what similarity laws apply to hypersonic flow", 10)
//	s, err := notebook.Sweep(c, notebook.SweepSpec{Name: "cranfield-rlsi", Family: "rlsi",
//		Grid: map[string][]string{"k": {"10", "20"}, "lambda1": {"0.02", "0.05"}}})
//	s.Table()                                        // one row per job, one column per metric
//	s.Plot("k", "map", "lambda1")                    // inline PNG
//	s.Plot("k", "npmi")                              // coherence against K
//	c, err := notebook.Committed("rlsi2011/table6-7") // the committed full run, from results/
//	c.Show()                                         // tables, figures and verdicts, under "Full run, committed at …"
//	c.Table("avgcomp")                               // an unrounded CSV as a dataframe
//	r, err := notebook.RunExperiment("rlsi2011/table6-7", true) // a quick re-run
//	r.Show()                                         // the same, under "Quick run (reduced grid) — …"
//
// Params absent from a fit or a sweep take the defaults of every front end
// (package experiments/workflow), so that a notebook, "topicmf fit" and a Go
// program give the same bits: the family's declared defaults (FamilyParams
// lists them, the papers' settings) with its front-end defaults on top,
// which `topicmf models` marks. RLSI's are such: its paper's λ1 = 0.5, read
// on the data's own scale, empties every topic of the default pipeline's
// unit-length documents (Fit says so in the result's Notes when it
// happens), so the front ends give RLSI λ1 = 0.05 relative to the data's
// scale (rlsi.Options.RelativeLambda), with V⁽⁰⁾ drawn at that scale:
// sparse topics, none empty.
//
// # Inline output
//
// Figures are PNG bytes handed to Display, and Markdown (tables beside the
// paper's numbers, verdicts) to DisplayMarkdown. The notebooks set both to
// gonb's display functions once, in an init_ function that gonb runs
// before every cell, each followed by gonbui.Sync (gonb sends display data
// through a pipe, and what is still in it when the cell's program ends is
// lost):
//
//	func init_display() {
//		notebook.Display = func(png []byte) { gonbui.DisplayPng(png); gonbui.Sync() }
//		notebook.DisplayMarkdown = func(md string) { gonbui.DisplayMarkdown(md); gonbui.Sync() }
//	}
//
// Without them, figures are not shown (the functions still return their
// PNG bytes) and Markdown is printed to standard output.
//
// Figures are drawn by the reports' code (experiments/report: LinePlot,
// Plot, EncodePlot), so they look the same inline and in a paper's
// report; a figure's caption (error bars, series shifted side by side, a
// scaling figure on linear axes in a quick run) is shown as Markdown under
// it. SaveFigure writes the figure last drawn as PNG, SVG and PDF.
//
// # Committed results
//
// Committed reads a registered experiment's committed run from
// results/<paper>/<experiment>/ of the checkout (CommittedResultsDir), the
// files REPORT.md is assembled from, without recomputing anything, so that
// a paper notebook shows the numbers its text and the report quote. A
// missing or damaged folder is an error naming the file at fault.
//
// # Results store
//
// Sweeps and registered experiments run through the experiments runner
// and its results store, the same one `topicmf run` uses: ResultsDir is
// $TOPICMF_RESULTS when set, else results/ at the root of the topicmf
// checkout. A finished job is never recomputed, so a sweep interrupted in a
// notebook resumes where it stopped, and a notebook and the command line
// share their runs (`topicmf runs` lists the notebook's sweeps under the
// experiment id "notebook/<name>").
package notebook
