// Package engine is the shared parallel engine of topicmf: the one worker pool,
// the corpus a model fits, the model contract (Method, Model, Status), the
// Recorder that captures every iteration, the stopping rule, and seeding.
//
// Dependencies point down: model families (engine/nmf, engine/rlsi, ...) import
// engine and engine/sparse; engine imports nothing else of ours but
// engine/sparse.
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
