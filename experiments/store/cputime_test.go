package store

import (
	"context"
	"testing"
)

// TestCPUMeterSharesIntervals checks the attribution by hand: A runs alone
// from CPU time 0 to 2, A and B side by side from 2 to 6, B alone from 6
// to 10. A gets 2 + 4/2 = 4 s, B gets 4/2 + 4 = 6 s, and the two add up
// to the 10 s the process used.
func TestCPUMeterSharesIntervals(t *testing.T) {
	now := 0.0
	m := &cpuMeter{read: func() float64 { return now }}
	a := m.start()
	now = 2
	b := m.start()
	now = 6
	if got := m.stop(a); got != 4 {
		t.Errorf("A's CPU seconds = %g, want 2 + 4/2 = 4", got)
	}
	now = 10
	if got := m.stop(b); got != 6 {
		t.Errorf("B's CPU seconds = %g, want 4/2 + 4 = 6", got)
	}
	// CPU time used while no run computes is nobody's.
	now = 15
	c := m.start()
	now = 16
	if got := m.stop(c); got != 1 {
		t.Errorf("C's CPU seconds = %g, want 1 (the 5 s before it started are not its)", got)
	}
}

// TestProvenanceRecordsCPU: a run that burns CPU records a positive CPU
// time, no larger than the process's CPU time over the run.
func TestProvenanceRecordsCPU(t *testing.T) {
	if processCPUSeconds() == 0 {
		t.Skip("no CPU time on this system")
	}
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	before := processCPUSeconds()
	run, err := s.Do(context.Background(), testKey(map[string]string{"burn": "cpu"}), func(context.Context, *Writer) error {
		x := 0.0
		for start := processCPUSeconds(); processCPUSeconds()-start < 0.02; {
			for i := range 100000 {
				x += float64(i)
			}
		}
		if x < 0 {
			t.Log(x)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	used := processCPUSeconds() - before
	p, err := ReadProvenance(run.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.CPUSeconds < 0.02 || p.CPUSeconds > used {
		t.Fatalf("cpu_seconds = %g, want between 0.02 (the task's busy loop) and %g (the process's CPU time over the run)", p.CPUSeconds, used)
	}
}
