package engine

import (
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// The limits Memory() takes the least of, as CheckNeed's message names them.
const (
	physicalMemory = "this machine's memory"
	cgroupLimit    = "the process's cgroup memory limit"
	addressLimit   = "the address-space limit (ulimit -v)"
	dataLimit      = "the data-segment limit (ulimit -d)"
)

// memoryLimit returns Memory() and the name of the limit it is: the
// machine's physical memory (sysinfo(2)), or a lower limit of the process:
// its cgroup's (cgroupMemory of /proc/self/cgroup), RLIMIT_AS or
// RLIMIT_DATA (which counts anonymous mappings, the Go heap, since Linux
// 4.7). It returns 0 and "" when sysinfo fails.
func memoryLimit() (uint64, string) {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 0, ""
	}
	mem, of := uint64(info.Totalram)*uint64(info.Unit), physicalMemory
	lower := func(b uint64, name string) {
		if b > 0 && b < mem {
			mem, of = b, name
		}
	}
	if c, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		lower(cgroupMemory(string(c), os.ReadFile), cgroupLimit)
	}
	for _, r := range []struct {
		resource int
		name     string
	}{{syscall.RLIMIT_AS, addressLimit}, {syscall.RLIMIT_DATA, dataLimit}} {
		var lim syscall.Rlimit
		if syscall.Getrlimit(r.resource, &lim) == nil {
			lower(lim.Cur, r.name) // RLIM_INFINITY is the largest uint64
		}
	}
	return mem, of
}

// cgroupRoot is where the cgroup file systems are mounted.
const cgroupRoot = "/sys/fs/cgroup"

// noLimit is the value from which a cgroup's limit is read as none: v1
// writes its "unlimited" as 2⁶³ − 1 rounded down to a page.
const noLimit = 1 << 62

// cgroupMemory returns the least memory limit, in bytes, of the cgroups
// of a process whose /proc/self/cgroup reads cgroup (0 when none): for
// cgroup v2, the line "0::<path>", memory.max of the directory
// /sys/fs/cgroup/<path> and of each of its parents up to /sys/fs/cgroup;
// for cgroup v1, the line "<id>:<controllers>:<path>" whose controllers
// include memory, memory.limit_in_bytes under /sys/fs/cgroup/memory
// likewise. The limit of every ancestor applies to the process (v2, and
// v1's hierarchy), and walking up also finds a container's limit when its
// mount shows only its own part of the tree. read returns a file's
// contents (os.ReadFile); a file it cannot read (the v2 root has no
// memory.max), or that holds "max", no number or a value of noLimit or
// more, sets no limit.
func cgroupMemory(cgroup string, read func(name string) ([]byte, error)) uint64 {
	least := uint64(0)
	for _, line := range strings.Split(cgroup, "\n") {
		id, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		controllers, p, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		var root, file string
		switch {
		case id == "0" && controllers == "":
			root, file = cgroupRoot, "memory.max"
		case slices.Contains(strings.Split(controllers, ","), "memory"):
			root, file = cgroupRoot+"/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for dir := path.Join(root, p); dir == root || strings.HasPrefix(dir, root+"/"); dir = path.Dir(dir) {
			if b, err := read(dir + "/" + file); err == nil {
				v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
				if err == nil && v > 0 && v < noLimit && (least == 0 || v < least) {
					least = v
				}
			}
			if dir == root {
				break
			}
		}
	}
	return least
}
