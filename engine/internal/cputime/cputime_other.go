//go:build !unix

package cputime

// Seconds is unavailable here; benchmarks then report 0 CPU time.
func Seconds() float64 { return 0 }
