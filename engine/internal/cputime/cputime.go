// Package cputime measures the process's CPU time for the engine's
// benchmarks, which report it per operation beside the wall time: on a
// shared machine the CPU time of a benchmark varies far less than its wall
// time.
package cputime

import "testing"

// ReportPerOp reports the CPU time since start (a Seconds value) per
// benchmark iteration, in milliseconds, as the metric "cpu-ms/op".
func ReportPerOp(b *testing.B, start float64) {
	b.ReportMetric((Seconds()-start)*1e3/float64(b.N), "cpu-ms/op")
}
