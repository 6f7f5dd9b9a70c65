//go:build unix

package cputime

import "syscall"

// Seconds is the user + system CPU time of the process so far, in
// seconds (all threads).
func Seconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
