//go:build !unix

package store

// processCPUSeconds is unavailable here: runs record no CPU time
// (Provenance.CPUSeconds stays 0).
func processCPUSeconds() float64 { return 0 }
