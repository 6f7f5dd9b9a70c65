package engine

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestCgroupMemory reads the memory limit of a process's cgroups from
// fixtures of /proc/self/cgroup and the cgroup files: v2 and v1, a
// limit of a parent cgroup, "max" and v1's unlimited value, missing
// files, and a path that would leave the cgroup tree.
func TestCgroupMemory(t *testing.T) {
	const unlimitedV1 = "9223372036854771712\n"
	for _, tc := range []struct {
		name   string
		cgroup string
		files  map[string]string
		want   uint64
	}{
		{"v2", "0::/user.slice/app.scope\n",
			map[string]string{"/sys/fs/cgroup/user.slice/app.scope/memory.max": "4294967296\n"}, 4 << 30},
		{"v2 max", "0::/user.slice/app.scope\n",
			map[string]string{"/sys/fs/cgroup/user.slice/app.scope/memory.max": "max\n"}, 0},
		{"v2 nested: a parent's limit applies", "0::/kubepods/pod1/c2\n",
			map[string]string{
				"/sys/fs/cgroup/kubepods/pod1/c2/memory.max": "max\n",
				"/sys/fs/cgroup/kubepods/pod1/memory.max":    "1073741824\n",
				"/sys/fs/cgroup/kubepods/memory.max":         "8589934592\n",
			}, 1 << 30},
		{"v2 nested: the least", "0::/a/b\n",
			map[string]string{"/sys/fs/cgroup/a/b/memory.max": "1000\n", "/sys/fs/cgroup/a/memory.max": "2000\n"}, 1000},
		{"v2 container namespace", "0::/\n",
			map[string]string{"/sys/fs/cgroup/memory.max": "536870912\n"}, 512 << 20},
		{"v1", "12:pids:/\n4:memory:/docker/abc\n1:cpu:/\n0::/\n",
			map[string]string{"/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "2147483648\n"}, 2 << 30},
		{"v1 joint controllers", "3:cpu,memory:/job\n",
			map[string]string{"/sys/fs/cgroup/memory/job/memory.limit_in_bytes": "300\n"}, 300},
		{"v1 unlimited", "4:memory:/docker/abc\n",
			map[string]string{"/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": unlimitedV1,
				"/sys/fs/cgroup/memory/memory.limit_in_bytes": unlimitedV1}, 0},
		{"v1 mount showing only the container's part", "4:memory:/docker/abc\n",
			map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "700\n"}, 700},
		{"hybrid: v1 memory and v2 both", "4:memory:/a\n0::/b\n",
			map[string]string{"/sys/fs/cgroup/memory/a/memory.limit_in_bytes": "900\n", "/sys/fs/cgroup/b/memory.max": "800\n"}, 800},
		{"memory controller of v1 not mounted", "4:memory:/a\n0::/\n", nil, 0},
		{"no file", "0::/x\n", nil, 0},
		{"no cgroup line", "", nil, 0},
		{"not a number", "0::/x\n", map[string]string{"/sys/fs/cgroup/x/memory.max": "lots\n"}, 0},
		{"a path leaving the tree", "0::/../../etc\n", map[string]string{"/sys/fs/memory.max": "5\n", "/sys/etc/memory.max": "5\n"}, 0},
	} {
		var asked []string
		read := func(name string) ([]byte, error) {
			asked = append(asked, name)
			if s, ok := tc.files[name]; ok {
				return []byte(s), nil
			}
			return nil, fs.ErrNotExist
		}
		if got := cgroupMemory(tc.cgroup, read); got != tc.want {
			t.Errorf("%s: %d, want %d (read %q)", tc.name, got, tc.want, asked)
		}
	}
}

// TestMemoryNamesItsLimit: a data-segment or address-space limit below the
// machine's memory is Memory(), and CheckMemory's message names it.
func TestMemoryNamesItsLimit(t *testing.T) {
	avail, of := memoryLimit()
	if avail == 0 {
		t.Skip("sysinfo failed")
	}
	if of == physicalMemory {
		// The refusal names the machine's memory.
		if err := CheckMemory("m", 1, 0, int(avail/8)+1, 1); err == nil || !strings.HasSuffix(err.Error(), fmt.Sprintf("more than the %d bytes (%s) of this machine's memory", avail, gib(float64(avail)))) {
			t.Errorf("over the machine's memory: %v", err)
		}
	}
	for _, r := range []struct {
		resource int
		status   string // the line of /proc/self/status of what the limit counts
		name     string
	}{{syscall.RLIMIT_DATA, "VmData", "the data-segment limit (ulimit -d)"}, {syscall.RLIMIT_AS, "VmSize", "the address-space limit (ulimit -v)"}} {
		used := statusBytes(t, r.status)
		limit := used + 2<<30
		if limit >= avail {
			t.Logf("%s: %d bytes in use, no room for a limit under %d", r.status, used, avail)
			continue
		}
		withLimit(t, r.resource, limit, func() {
			m := int(limit/8) + 1
			want := fmt.Sprintf("m: K = 1 topics of %d terms × 1 documents need at least %d bytes (%s) for their factors, more than the %d bytes (%s) of %s",
				m, 8*m, gib(float64(8*m)), limit, gib(float64(limit)), r.name)
			if err := CheckMemory("m", 1, 0, m, 1); err == nil || err.Error() != want {
				t.Errorf("%s: %v, want %q", r.status, err, want)
			}
			if err := CheckMemory("m", 1, 0, m-1, 1); err != nil {
				t.Errorf("%s: at the limit: %v", r.status, err)
			}
		})
	}
}

// statusBytes reads a line "<key>: <n> kB" of /proc/self/status.
func statusBytes(t *testing.T, key string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Skipf("no %s in /proc/self/status", key)
	return 0
}

// withLimit runs f with the soft limit of resource lowered to limit, then
// restores it.
func withLimit(t *testing.T, resource int, limit uint64, f func()) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(resource, &old); err != nil {
		t.Skip(err)
	}
	if old.Cur <= limit {
		t.Skipf("the limit is already %d", old.Cur)
	}
	lowered := syscall.Rlimit{Cur: limit, Max: old.Max}
	if err := syscall.Setrlimit(resource, &lowered); err != nil {
		t.Skip(err)
	}
	defer func() {
		if err := syscall.Setrlimit(resource, &old); err != nil {
			t.Fatal(err)
		}
	}()
	f()
}
