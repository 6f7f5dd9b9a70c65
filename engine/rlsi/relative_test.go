package rlsi

import "testing"

func TestRelativeLambdasExponents(t *testing.T) {
	// ŝ = 4: ℓ1 weights ×4^{3/2} = 8, squared-ℓ2 weights ×4.
	for _, c := range []struct {
		v      Variant
		w1, w2 float64
	}{{U1V2, 8, 4}, {U2V1, 4, 8}, {U1V1, 8, 8}, {U2V2, 4, 4}} {
		l1, l2, err := relativeLambdas(c.v, 0.5, 1, 4)
		if err != nil || l1 != 0.5*c.w1 || l2 != c.w2 {
			t.Errorf("%v: got %v, %v, %v; want %v, %v", c.v, l1, l2, err, 0.5*c.w1, c.w2)
		}
	}
	if _, _, err := relativeLambdas(U1V2, 0.5, 1, 0); err == nil {
		t.Error("zero data scale accepted")
	}
}
