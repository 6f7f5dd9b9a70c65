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
// that finishes in minutes. Only the Task — from one Job to a Result of
// metrics, per-query values, the iteration trace and artifact files — is
// code. Per-paper packages (experiments/foundation, ...) build their
// experiments and call Register from init; experiments/all imports them
// all, one line each, for the CLI and notebooks.
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
// order or concurrency in which jobs run.
//
// # Running
//
// Runner.Run computes, for each job, its store key: the canonical JobConfig,
// the data checksums (from the datasets registry, plus
// Experiment.Checksums for generated data) and the code version with the
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
