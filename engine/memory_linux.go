package engine

import "syscall"

// Memory is the memory a fit may use, in bytes: the machine's physical
// memory (sysinfo(2)), or the process's address-space limit (RLIMIT_AS,
// ulimit -v) when it is lower; 0 when unknown.
func Memory() uint64 {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 0
	}
	mem := uint64(info.Totalram) * uint64(info.Unit)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err == nil && lim.Cur != ^uint64(0) && lim.Cur < mem {
		mem = lim.Cur
	}
	return mem
}
