package memo

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestGetComputesOncePerKey(t *testing.T) {
	var m Map[int]
	var calls atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := m.Get("a", func() (int, error) { calls.Add(1); return 7, nil })
			if v != 7 || err != nil {
				t.Errorf("Get = %d, %v; want 7, nil", v, err)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("compute ran %d times for one key, want 1", calls.Load())
	}
	if v, _ := m.Get("b", func() (int, error) { return 8, nil }); v != 8 {
		t.Fatalf("second key gave %d, want 8", v)
	}
}

func TestGetRemembersErrors(t *testing.T) {
	var m Map[string]
	boom := errors.New("boom")
	calls := 0
	for i := 0; i < 2; i++ {
		if _, err := m.Get("k", func() (string, error) { calls++; return "", boom }); !errors.Is(err, boom) {
			t.Fatalf("err = %v, want boom", err)
		}
	}
	if calls != 1 {
		t.Fatalf("compute ran %d times, want 1", calls)
	}
}
