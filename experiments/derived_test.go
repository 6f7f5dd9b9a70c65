package experiments

import (
	"errors"
	"testing"
)

// TestDerived: a key is computed once per Results, errors included, and
// another Results computes its own.
func TestDerived(t *testing.T) {
	var r, other Results
	calls := 0
	compute := func(*Results) (int, error) { calls++; return calls, errors.New("boom") }
	for range 2 {
		v, err := Derived(&r, "k", compute)
		if v != 1 || err == nil || err.Error() != "boom" {
			t.Fatalf("Derived = %v, %v; want 1, boom", v, err)
		}
	}
	if v, _ := Derived(&other, "k", compute); v != 2 || calls != 2 {
		t.Errorf("another Results gave %v after %d calls; want 2 after 2", v, calls)
	}
}
