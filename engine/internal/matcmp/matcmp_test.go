package matcmp

import "testing"

func TestRandomDense(t *testing.T) {
	a, b := RandomDense(3, 4, 5), RandomDense(3, 4, 5)
	if r, c := a.Dims(); r != 3 || c != 4 {
		t.Fatalf("%d×%d, want 3×4", r, c)
	}
	for i, v := range a.RawMatrix().Data {
		if v < 0 || v >= 1 || v != b.RawMatrix().Data[i] {
			t.Fatalf("entry %d: %v and %v, want equal values in [0, 1)", i, v, b.RawMatrix().Data[i])
		}
	}
}
