//go:build unix

package store

import "syscall"

// processCPUSeconds is the user + system CPU time of the process so far,
// all threads (getrusage RUSAGE_SELF); 0 when it cannot be read.
func processCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
