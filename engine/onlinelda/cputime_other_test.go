//go:build !unix

package onlinelda

func cpuSeconds() float64 { return 0 }
