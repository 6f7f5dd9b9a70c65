package buildcache

import (
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/topicmf/topicmf/engine/sparse"
)

func matrix() *sparse.CSR {
	return &sparse.CSR{Rows: 2, Cols: 3, RowPtr: []int{0, 2, 3}, ColIdx: []int32{0, 2, 1}, Val: []float64{1, 2, 3}}
}

// TestKeyOfSeesEveryPart: the key changes with a value (even its sign
// bit), an index, the shape or a parameter, and not otherwise.
func TestKeyOfSeesEveryPart(t *testing.T) {
	base := KeyOf(matrix(), "p=1")
	if KeyOf(matrix(), "p=1") != base {
		t.Fatal("equal inputs give different keys")
	}
	changes := map[string]func(a *sparse.CSR) (*sparse.CSR, string){
		"value":     func(a *sparse.CSR) (*sparse.CSR, string) { a.Val[2] = 3.0000000000000004; return a, "p=1" },
		"column":    func(a *sparse.CSR) (*sparse.CSR, string) { a.ColIdx[2] = 0; return a, "p=1" },
		"row ptr":   func(a *sparse.CSR) (*sparse.CSR, string) { a.RowPtr[1] = 1; return a, "p=1" },
		"shape":     func(a *sparse.CSR) (*sparse.CSR, string) { a.Cols = 4; return a, "p=1" },
		"parameter": func(a *sparse.CSR) (*sparse.CSR, string) { return a, "p=2" },
		"split":     func(a *sparse.CSR) (*sparse.CSR, string) { return a, "p=" },
	}
	for name, change := range changes {
		a, p := change(matrix())
		if KeyOf(a, p) == base {
			t.Errorf("%s changed, key did not", name)
		}
	}
	pos, neg := matrix(), matrix()
	pos.Val[2], neg.Val[2] = 0, math.Copysign(0, -1)
	if KeyOf(pos) == KeyOf(neg) {
		t.Error("+0 and -0 give the same key: the key must see the bits")
	}
}

// TestLastBuildsOncePerKey: concurrent callers of one key share one build;
// another key replaces it; the first key is then built again.
func TestLastBuildsOncePerKey(t *testing.T) {
	var l Last[int]
	var builds atomic.Int32
	a, b := KeyOf(matrix(), "a"), KeyOf(matrix(), "b")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := l.Get(a, func() (int, error) { builds.Add(1); return 1, nil }, small); v != 1 || err != nil {
				t.Errorf("Get(a) = %d, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if n := builds.Load(); n != 1 {
		t.Fatalf("%d builds for one key, want 1", n)
	}
	if v, _ := l.Get(b, func() (int, error) { builds.Add(1); return 2, nil }, small); v != 2 {
		t.Fatalf("Get(b) = %d, want 2", v)
	}
	if v, _ := l.Get(a, func() (int, error) { builds.Add(1); return 3, nil }, small); v != 3 || builds.Load() != 3 {
		t.Fatalf("Get(a) after b = %d after %d builds, want a new build (3, 3)", v, builds.Load())
	}
}

func TestLastForgetsFailures(t *testing.T) {
	var l Last[int]
	k := KeyOf(matrix())
	boom := errors.New("boom")
	if _, err := l.Get(k, func() (int, error) { return 0, boom }, small); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if v, err := l.Get(k, func() (int, error) { return 4, nil }, small); v != 4 || err != nil {
		t.Fatalf("after a failure Get = %d, %v; want a new build 4", v, err)
	}
}

func small(int) int64 { return 8 }

// TestLastDoesNotHoldALargeValue: a value larger than MaxHeldBytes is
// returned but built again for the next caller of the same key.
func TestLastDoesNotHoldALargeValue(t *testing.T) {
	var l Last[int]
	k := KeyOf(matrix())
	builds := 0
	large := func(int) int64 { return MaxHeldBytes + 1 }
	for range 2 {
		if v, err := l.Get(k, func() (int, error) { builds++; return 5, nil }, large); v != 5 || err != nil {
			t.Fatalf("Get = %d, %v; want 5", v, err)
		}
	}
	if builds != 2 {
		t.Fatalf("%d builds of a value over MaxHeldBytes, want 2 (not held)", builds)
	}
}

func TestCSRBytes(t *testing.T) {
	// 3 row pointers × 8 + 3 columns × 4 + 3 values × 8 = 60 bytes.
	if got := CSRBytes(matrix()); got != 60 {
		t.Fatalf("CSRBytes = %d, want 60", got)
	}
}
