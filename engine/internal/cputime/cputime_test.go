package cputime

import "testing"

func TestSecondsAdvance(t *testing.T) {
	start := Seconds()
	if start == 0 {
		t.Skip("no CPU time on this system")
	}
	x := 0.0
	for i := 0; Seconds()-start < 0.01 && i < 1e9; i++ {
		x += float64(i)
	}
	if d := Seconds() - start; d < 0.01 {
		t.Fatalf("CPU time advanced by %g s during a busy loop (x = %g), want ≥ 0.01", d, x)
	}
}
