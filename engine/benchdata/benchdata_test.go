package benchdata

import "testing"

func TestZipfCounts(t *testing.T) {
	dt := ZipfCounts(50, 40, 7)
	if dt.Rows != 40 || dt.Cols != 50 || dt.NNZ() != 40*7 {
		t.Fatalf("%d×%d with %d non-zeros, want 40×50 with 280", dt.Rows, dt.Cols, dt.NNZ())
	}
	for j := 0; j < dt.Rows; j++ {
		lo, hi := dt.RowPtr[j], dt.RowPtr[j+1]
		for k := lo; k < hi; k++ {
			if k > lo && dt.ColIdx[k] <= dt.ColIdx[k-1] {
				t.Fatalf("row %d: terms not distinct and sorted: %v", j, dt.ColIdx[lo:hi])
			}
			if v := dt.Val[k]; v < 1 || v > 4 || v != float64(int(v)) {
				t.Fatalf("row %d: count %v, want an integer in 1..4", j, v)
			}
		}
	}
	again := ZipfCounts(50, 40, 7)
	for k := range dt.Val {
		if dt.ColIdx[k] != again.ColIdx[k] || dt.Val[k] != again.Val[k] {
			t.Fatal("same arguments gave a different matrix")
		}
	}
}

func TestPeakHeap(t *testing.T) {
	var keep []byte
	peak := PeakHeap(func() {
		keep = make([]byte, 64<<20)
		for i := range keep {
			keep[i] = 1
		}
	})
	if peak < 64<<20 {
		t.Fatalf("peak %d bytes while holding 64 MiB", peak)
	}
	_ = keep
}
