package store

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Provenance is provenance.json: where, with what and when a run was
// computed. It is not part of the run id (times and machines differ between
// interchangeable runs).
type Provenance struct {
	RunID      string      `json:"run_id"`
	Code       CodeVersion `json:"code"`
	GoVersion  string      `json:"go_version"`
	GOOS       string      `json:"goos"`
	GOARCH     string      `json:"goarch"`
	GOMAXPROCS int         `json:"gomaxprocs"`
	NumCPU     int         `json:"num_cpu"`
	CPUModel   string      `json:"cpu_model"`
	// MemoryBytes is the machine's physical memory (MemTotal of
	// /proc/meminfo); 0 when unknown.
	MemoryBytes uint64     `json:"memory_bytes,omitempty"`
	Datasets    []Checksum `json:"datasets"`
	Seed        uint64     `json:"seed"`
	Start       string     `json:"start"` // RFC 3339, UTC
	End         string     `json:"end"`
	// Seconds is the run's wall-clock time.
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the process's CPU time (user + system, every thread)
	// while the run was computed, shared evenly with the runs computed at
	// the same time (see cpuMeter): exact for a run computed alone, an
	// estimate for one of several side by side, whose sum stays exact.
	// 0 when not measured (runs recorded before it was, or a system
	// without getrusage).
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
}

var (
	cpuOnce  sync.Once
	cpuModel string
	memOnce  sync.Once
	memBytes uint64
)

// MemoryBytes returns MemTotal of /proc/meminfo in bytes, or 0 when unknown.
func MemoryBytes() uint64 {
	memOnce.Do(func() {
		f, err := os.Open("/proc/meminfo")
		if err != nil {
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok || strings.TrimSpace(k) != "MemTotal" {
				continue
			}
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err == nil {
				memBytes = kb * 1024
			}
			return
		}
	})
	return memBytes
}

// CPUModel returns the first "model name" of /proc/cpuinfo, or "unknown".
func CPUModel() string {
	cpuOnce.Do(func() {
		cpuModel = "unknown"
		f, err := os.Open("/proc/cpuinfo")
		if err != nil {
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if ok && strings.TrimSpace(k) == "model name" {
				cpuModel = strings.TrimSpace(v)
				return
			}
		}
	})
	return cpuModel
}

func newProvenance(id string, k Key) Provenance {
	return Provenance{
		RunID:       id,
		Code:        k.Code,
		GoVersion:   runtime.Version(),
		GOOS:        runtime.GOOS,
		GOARCH:      runtime.GOARCH,
		GOMAXPROCS:  runtime.GOMAXPROCS(0),
		NumCPU:      runtime.NumCPU(),
		CPUModel:    CPUModel(),
		MemoryBytes: MemoryBytes(),
		Datasets:    sortedChecksums(k.Datasets),
		Seed:        k.Seed,
	}
}
