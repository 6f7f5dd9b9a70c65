// Package experiments is the reproducibility harness: a registry of
// experiments described as data, and a runner that expands them into jobs
// and computes each job once, through the results store.
//
// # Describing an experiment
//
// An Experiment names one paper artifact ("rlsi2011/figure6") and says,
// as data: which data sets and model families (catalog names with fixed
// parameters) it uses, a parameter Grid, the number of Replicates, the
// root Seed, the Tables and Figures to render, the paper's own numbers
// (PaperValues) and the Claims to judge, with Quick overrides for a run
// that finishes in minutes. The corpus is data too (Corpus returns a
// CorpusSpec: a registered collection with text options and transforms,
// or a synthetic configuration). What is code is the scoring: a FitTask
// receives the job's fitted model, its corpus and the recorder, and
// returns the metrics, per-query values, notes and artifact files; a Task
// (from one Job to a Result) is for experiments whose jobs are not one
// fit of a catalog model. Per-paper packages (experiments/foundation, ...)
// build their experiments and call Register from init; experiments/all
// imports them all, one line each, for the CLI and notebooks.
//
// # Adding a paper experiment
//
// The smallest real experiment, foundation/nmf-synthetic
// (experiments/foundation/nmf_synthetic.go; Example in this package is a
// self-contained miniature of it), shows every part. To add one:
//
//  1. Package. One package per paper, experiments/<paper> (the part of the
//     ID before the slash names its report directory), with a doc.go that
//     says what the paper claims, which public data stand in for its own
//     and every reading of the paper we had to make. Add one blank import
//     line to experiments/all/all.go.
//
//  2. Corpus. Write a func(*Job) (CorpusSpec, error): foundation's corpus
//     returns synthetic.Default() as CorpusSpec{Synthetic: &c, Name:
//     "synthetic/default"}. For a collection, name it and set Text (stop
//     list, MinDF, MaxVocab, weighting) and the transforms (Split,
//     SingleLabel, Subsample/SubsampleN with SubsampleSeed and InOrder,
//     MinTotalFreq, UnitDocs); the spec may depend on the job (its data
//     set, a task parameter, Quick). The runner builds each distinct spec once per
//     process (BuildCorpus) and puts the spec's digest (a synthetic
//     configuration, or a collection's text options and transforms) in
//     the store key beside the collection's file digests from the
//     datasets registry. Do not cache corpora yourself: a task that looks at the
//     data under several specs calls BuildCorpus for each and declares
//     them with Checksums: CorpusChecksums(specs) (tnmf2013/table1), and a
//     retrieval task gets its queries, judgments and term-model index over
//     the same corpus from PrepareRetrieval. What a task derives beyond a
//     spec (candidate sets, a translation table) goes into the key as a
//     DescribedChecksum.
//
//  3. Methods and grid. MethodSpecs name catalog families (engine/catalog)
//     with fixed parameters and a Label for tables; Grid and Quick.Grid
//     vary them (foundation: k ∈ {10, 15, 20}, 200 iterations with the
//     tolerance test off; --quick: the planted K, 60 iterations). A grid
//     name the families do not declare must be listed in TaskParams. The
//     seed is derived per job: never set "seed".
//
//  4. Scoring. Write a FitTask: foundation's nmfSyntheticTask matches
//     Fit.Model's topics with Fit.Corpus.Truth and reads the objective
//     trace from Fit.Recorder. The runner has already fitted Job.Method on
//     the corpus, turned a cancelled fit into ctx.Err(), and will add the
//     recorder, the Status and a note on a numerical failure to the Result:
//     return only what is specific to the paper. When a job's method
//     parameters must be derived (gmf2012's ktotal → ks, kc), keep a Task
//     and call Job.FitCorpus, which is the same fit.
//
//  5. Rendering and claims. Tables and Figures name metrics and job
//     columns; PaperValues put the paper's numbers beside ours. A Claim's
//     Judge reads the stored Results; use the helpers for the common
//     shapes — BeatsAtEvery (A beats B on a measure at every K), InBand (a
//     mean inside a band: foundation's judgeRecovery), SlopeAtMost and
//     LogLogFit (a trend with a fitted log–log slope) — and Judged or
//     Undecided for the rest (foundation's judgeMonotone). Fix every
//     threshold before the first run and say so in Protocol.
//
//  6. Tests. Use experiments/exptest: NeedData skips (naming the missing
//     file) when a collection is absent, RunQuick runs the quick variant
//     end to end (foundation's TestQuickRun); test the judges on
//     hand-made Results whose verdicts you know.
//
// Bump Version whenever what the scoring computes changes, so that stored
// runs are not reused; run `topicmf run <paper>/* --quick` and read
// results/quick/<paper>/REPORT.md.
//
// # From experiment to jobs
//
// Experiment.Jobs expands data sets × methods × grid points × replicates,
// in that nesting order; grid names are sorted and the last varies
// fastest, so the order is stable. A grid name goes to a method when the
// method's catalog family declares it, and to the task when listed in
// TaskParams; anything else is an error (a typo never falls back to a
// default). Jobs whose configuration coincides (a grid name that does not
// apply to one method) are kept once. Each job's seed is
// engine.DeriveSeed(root seed, experiment ID, canonical job configuration
// without replicate and seeds, replicate), so it does not depend on the
// order or concurrency in which jobs run. An experiment with SeedScheme
// SeedPerReplicate (the notebook's sweeps) gives every configuration the
// root seed for its first replicate instead, so that a job equals a
// single fit with that seed whatever the experiment's name.
// ReplicatesAt, when set, gives each configuration its own number of
// replicates: the retrieval experiments fit their one-seed grid and five
// seeds only at the settings the grid selected, whose replicate 0 is the
// grid's own job.
//
// # Running
//
// Runner.Run computes, for each job, its store key: the canonical JobConfig,
// the data checksums (from the datasets registry, the digest of the
// declared corpus spec, and Experiment.Checksums for anything else the
// task derives, e.g. a translation table) and the code version with the
// experiment's Version. Then:
//
//   - cache hit: a job whose run directory is finished is not run; its
//     stored files are read back and an EventCached progress event is sent;
//   - otherwise the job runs inside Pool.Do on the shared pool (so jobs and
//     the parallel loops inside the models share the same GOMAXPROCS slots)
//     and inside store.Do, which serialises writers of the same run across
//     goroutines and processes and makes the run visible only when
//     complete;
//   - resume: an interrupted run (cancelled context, killed process) leaves
//     no visible run, so running the experiment again computes exactly the
//     jobs that had not finished, and reads back the others;
//   - the first failing job cancels the rest; the error names the job.
//
// Results are always read back from the run directories (StoredRun), so a
// rendered table shows exactly the stored numbers, computed now or earlier.
// Results offers grouping (Groups, Curves), claims' verdicts and go-gota
// dataframes (MetricsFrame, IterationsFrame, PerQueryFrame) for
// experiments/report and notebooks.
//
// # Files of a job's run
//
// metrics.csv (metric,value), per-query.csv (query,metric,value) when the
// task has per-query values, iterations.csv (engine.Recorder columns),
// status.json (the fit's engine.Status), notes.txt (warnings), and the
// task's artifacts, beside the store's config.json and provenance.json.
// Numbers are written in full precision; only rendered tables round.
package experiments
