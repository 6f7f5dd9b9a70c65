// Package store keeps the results of runs on disk, one directory per run,
// content-addressed so that a finished run is never recomputed.
//
// # Layout
//
// Under a results root:
//
//	<root>/runs/<id>/config.json      the canonical configuration (sorted keys)
//	<root>/runs/<id>/provenance.json  code version, Go, GOMAXPROCS, CPU, memory, data checksums, seed,
//	                                   wall and CPU seconds
//	<root>/runs/<id>/...              files the run wrote: iterations.csv, metrics.csv,
//	                                   per-query.csv, factors (.mtx), top terms, ...
//	<root>/runs/<id>/done             written last: the run is complete; holds the run id and
//	                                   the manifest, one "sha256 size name" line per file
//	<root>/runs/<id>/failed           instead of done: the task ended in a Failure (message)
//	<root>/runs/.locks/<id>.lock      flock(2) lock serialising writers of one id
//	<root>/runs/.tmp-<id>-*           a run being written (never a finished run)
//
// runs/ is not committed. What a committed report needs of it — every
// job's code revision, machine, data checksums, seed, wall time and
// metrics — is aggregated by package report into the committed
// <results>/<paper>/<experiment>/provenance.json, which REPORT.md's header
// and `topicmf report --verify` read.
//
// # Identity
//
// The run id is the hex SHA-256 of the canonical configuration (Canonical:
// JSON with sorted keys, no insignificant space), the data sets' checksums
// (sorted by name) and the code version (CodeVersion.Key). Two runs with the
// same id are interchangeable, so Store.Do returns a finished run instead of
// running again.
//
// # Code version policy
//
// The code version is: the module path and version; the VCS revision; the
// dirty flag; when the tree is dirty, a digest of the uncommitted changes;
// and the experiment's own Version string, which an experiment bumps by hand
// when it changes what its task computes. The revision and dirty flag come
// from runtime/debug.ReadBuildInfo (vcs.revision, vcs.modified) when the
// binary was stamped; this machine builds with GOFLAGS=-buildvcs=false, so
// otherwise they come from `git rev-parse HEAD` and `git status --porcelain`
// run in the module root (found from the source path compiled into this
// package, else by walking up from the working directory). Which source was
// used is recorded (CodeVersion.Source: "buildinfo", "git" or "none").
//
// A dirty tree is never conflated with its clean revision, nor with another
// dirty state: the key then includes a digest of the changes — from git, the
// SHA-256 of `git diff HEAD --binary` plus the names and contents of
// untracked files; from build info (which carries no diff), the SHA-256 of
// the running executable. Files that cannot change what a run computes are
// left out of the dirty test and digest: Markdown (*.md), notebooks/,
// results/ and the store's own root when it lies inside the module, so that
// writing results does not itself invalidate them. The code version is
// computed once per process (per excluded root). The git fallback reads
// the work tree when the process starts, which is the code it runs only
// when the binary was built from that tree just before (go run, go test, a
// script that builds first); an installed binary should be built with
// -buildvcs=true (go install -buildvcs=true ./cmd/topicmf — the flag
// overrides GOFLAGS) so that its revision is stamped into it. With source
// "none" (no build info, no git),
// the revision is "unknown" and runs are keyed by module version and
// experiment Version only — the provenance says so.
//
// # Crash and concurrency safety
//
// Store.Do takes an exclusive flock on the id's lock file (waiting, and
// honouring context cancellation, while another goroutine or process holds
// it), re-checks for a finished run, then writes into a fresh temporary
// directory in the same runs/ directory. Every file is written atomically
// (temporary file, fsync, rename). When the task succeeds the provenance and
// then the done marker are written, the directory is fsynced and renamed
// into place, and runs/ is fsynced. When it fails or the context is
// cancelled, the temporary directory is removed. A process killed mid-run
// (kill -9) leaves a .tmp- directory until the next command that opens the
// store: Open removes every .tmp- directory whose lock no process holds
// (and the next writer of the same id removes its own). A visible run
// directory is therefore always complete.
//
// # Integrity and failures
//
// A run is served as finished (Finished, Check, Do) only while its done
// marker names its id and every file of the manifest exists with the
// recorded size and SHA-256. The quick check that runs every time a run or
// experiment job is served hashes every file except the factor files
// (Matrix Market, ".mtx") larger than FactorHashThreshold (1 MiB): config,
// provenance, metrics, tables, status, iteration traces and every other
// file are re-hashed each time, so that one changed digit in a job's
// metrics.csv is caught; the large factors are checked by size there and
// hashed in full whenever they are read, through OpenRunFile, which every
// reader of a run's factors uses (it returns a *DamagedError naming the
// file). CheckAll, DoVerified and ListVerified hash every file, the large
// factors included (topicmf fit, whose product is the factors, and topicmf
// runs use them); Verify lists every difference, files not in the manifest
// too. A run that fails the check is computed again by the next Do, which
// reports why in Run.Replaced (and to the task in Writer.Replaced), so that
// the caller can say so. A task that returns a Failure (e.g. a fit that
// ended in a numerical failure) keeps its files for inspection under a
// failed marker instead of done: it is recorded, never finished, and the
// next Do computes it again.
//
// The quick check therefore costs one read of a run's small files per
// serve, proportional to the bytes stored (docs/reliability.md gives a
// measurement).
package store
