//go:build !unix

package lsi

func cpuSeconds() float64 { return 0 }
