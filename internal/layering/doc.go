// Package layering holds the test that keeps the module's dependencies
// pointing down (docs/design.md, "Layers"):
//
//	front ends (cmd/, bench/cmd/, notebook/)
//	  → experiments/
//	    → tasks and metrics (metrics/), data sets (datasets/)
//	      → engine/
//	        → nothing of ours
//
// with internal/ as leaves that import nothing of ours but internal/ and
// that the engine does not use. The core package engine imports only the
// engine's leaf kernels (engine/sparse, engine/dense, engine/parallel) and
// no dataframe library. Tests count: a test file's imports obey the rules
// of its package. The test reads the import graph with `go list -json`, so
// an upward import added anywhere fails it. It has no non-test code.
package layering
