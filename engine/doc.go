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
// Dependencies point down: model families (engine/nmf, engine/rlsi, ...) import
// engine and its kernel packages; engine imports nothing else of ours but
// engine/sparse, and no dataframe library (experiments/frame turns a
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
