// Package engine is the shared parallel engine of topicmf: the corpus a model
// fits, the model contract (Method, Model, Status), the one iteration driver
// (Iterate) that owns every family's loop, the Recorder that captures every
// iteration, the stopping rule, and seeding.
//
// # The iteration driver
//
// A family initializes its factors, then hands Iterate its Steps: a trial
// Step that computes a candidate iterate, the Objective at the candidate, and
// Accept, which makes the candidate current. Iterate owns the rest: the
// iteration limit, how often the objective is evaluated (Stopping.EvalEvery),
// the convergence test, recording, NaN/Inf detection (a step reports a
// NonFiniteError; the objective is checked by the driver) and cancellation.
// Because a candidate is accepted only when it is finite, a fit that ends in
// NumericalFailure returns the last finite iterate, never a non-finite one.
//
// # Adding a family
//
// A new family is one package engine/<family> (it imports engine and the
// kernel packages, never a sibling family) and writes exactly:
//
//   - its Options struct, each parameter declared once by its tags
//     (engine/param): `param:"key" default:"…" range:"[lo,hi]" doc:"one
//     line"` (an engine.Stopping field takes `param:"iters,tol"`), with
//     Defaults() returning param.DefaultsOf[Options](), Name() its catalog
//     name and, when parameters constrain each other, Check(); "unset" and
//     zero differ (a key written "0" is 0);
//   - its Fit(ctx, corpus, recorder): Prepare (the corpus checked and
//     transposed by Corpus.Transposed, which refuses an empty D, a NaN or
//     ±Inf entry and a D without a non-zero entry; the options resolved;
//     ResolveK applies the default K and checks it by CheckFactors: K ≤
//     min(M, N) and factors that fit in the memory it may use, CheckMemory;
//     Corpus.CheckNonNegative when the model needs D ≥ 0), the
//     initialization (random starts from
//     engine/solve: RandomStart, HalfNormal; a non-finite start refused with
//     solve.FiniteStart), then one call of Iterate with its Steps — Step
//     into candidate buffers, returning NonFinite (CheckFinite names the
//     first NaN or Inf entry), Stationary or ctx.Err(); Objective with its
//     Terms; Accept — and the model it returns (TermTopics, DocTopics and
//     FoldIn, its input checked by CheckFoldIn);
//   - one declare line in engine/catalog's families(), with its one-line
//     doc and citation: catalog parsing, validation, the CLI's help and
//     model listing and the notebook docs all come from the tags;
//   - one row in the conformance table, members() in
//     engine/factortest/families_test.go (a factortest.Family saying
//     whether it is non-negative and monotone and listing its invalid
//     options); TestEveryCatalogFamilyIsChecked fails until it is there.
//
// The loops a family would otherwise repeat are shared: the per-row
// solvers (lasso, ridge, NNLS, the multiplicative update) in engine/solve,
// dense and sparse kernels in engine/dense and engine/sparse, and the
// layout, block kernels, fold-in and per-class baselines of the group
// models in engine/grouping.
//
// Dependencies point down: model families (engine/nmf, engine/rlsi, ...) import
// engine and its kernel packages; engine imports nothing else of ours but
// its leaf kernels engine/sparse, engine/dense and engine/parallel
// (internal/layering enforces it), and no dataframe library (experiments/frame turns a
// Recorder into a go-gota dataframe).
//
// # Layout of factors
//
// The papers write D ≈ U V with D the M×N term-document matrix, U the M×K
// term-topic matrix and V the K×N topic-document matrix. Factors here are
// row-major gonum matrices with one row per entity, so that rows are contiguous
// and can be updated in parallel: U is stored as M×K and V is stored
// transposed, as N×K (row n is document n's representation).
//
// # Determinism
//
// Parallel loops split work into blocks whose boundaries depend only on the
// problem size, never on the number of workers, and reductions add per-block
// partial results in block order. The same seed therefore gives the same bits
// for any GOMAXPROCS.
package engine
