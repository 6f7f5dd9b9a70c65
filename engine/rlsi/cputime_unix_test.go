//go:build unix

package rlsi

import "syscall"

// cpuSeconds is the user + system CPU time of the process so far. Benchmarks
// report it per operation beside wall time because the machine is shared:
// CPU time is much less sensitive to other processes than wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
