package parallel

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestBlocks(t *testing.T) {
	for _, tc := range []struct{ n, block, want int }{
		{0, 10, 0}, {-3, 10, 0}, {1, 10, 1}, {10, 10, 1}, {11, 10, 2}, {5, 0, 5}, {5, -2, 5}, {256, 256, 1}, {257, 256, 2},
	} {
		if got := Blocks(tc.n, tc.block); got != tc.want {
			t.Errorf("Blocks(%d, %d) = %d, want %d", tc.n, tc.block, got, tc.want)
		}
	}
}

// TestForCoversEveryBlockOnce checks that every block is called exactly
// once with the boundaries b·block .. min((b+1)·block, n), for sizes 0 and 1
// and pools of 1 and several workers.
func TestForCoversEveryBlockOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		p := NewPool(workers)
		for _, tc := range []struct{ n, block int }{
			{0, 4}, {1, 4}, {1, 1}, {4, 4}, {5, 4}, {1000, 7}, {1000, 1000}, {1000, 2000}, {3, 0},
		} {
			nb := Blocks(tc.n, tc.block)
			calls := make([]atomic.Int32, nb)
			items := make([]atomic.Int32, tc.n)
			var bad atomic.Int32
			blk := max(tc.block, 1)
			p.For(tc.n, tc.block, func(b, lo, hi int) {
				if b < 0 || b >= nb || lo != b*blk || hi != min(lo+blk, tc.n) {
					bad.Add(1)
					return
				}
				calls[b].Add(1)
				for i := lo; i < hi; i++ {
					items[i].Add(1)
				}
			})
			if bad.Load() != 0 {
				t.Errorf("workers=%d n=%d block=%d: %d calls with wrong block boundaries", workers, tc.n, tc.block, bad.Load())
			}
			for b := range calls {
				if c := calls[b].Load(); c != 1 {
					t.Errorf("workers=%d n=%d block=%d: block %d called %d times", workers, tc.n, tc.block, b, c)
				}
			}
			for i := range items {
				if c := items[i].Load(); c != 1 {
					t.Errorf("workers=%d n=%d block=%d: item %d covered %d times", workers, tc.n, tc.block, i, c)
				}
			}
		}
	}
}

// concurrency tracks how many goroutines are inside a leaf body at once.
type concurrency struct {
	cur, peak atomic.Int32
}

func (c *concurrency) enter() {
	n := c.cur.Add(1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			break
		}
	}
}

func (c *concurrency) leave() { c.cur.Add(-1) }

// TestNestedForBounded runs For inside For inside Do on a pool of w workers
// and checks that it finishes (no deadlock), covers every inner item once,
// and never has more than w goroutines in leaf bodies at once.
func TestNestedForBounded(t *testing.T) {
	for _, w := range []int{1, 2, 3} {
		p := NewPool(w)
		var c concurrency
		const outer, inner = 6, 40
		var count [outer * inner]atomic.Int32
		done := make(chan error, 1)
		go func() {
			done <- p.Do(context.Background(), func() {
				p.For(outer, 1, func(_, lo, _ int) {
					p.For(inner, 3, func(_, ilo, ihi int) {
						c.enter()
						defer c.leave()
						time.Sleep(200 * time.Microsecond)
						for i := ilo; i < ihi; i++ {
							count[lo*inner+i].Add(1)
						}
					})
				})
			})
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("workers=%d: Do: %v", w, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("workers=%d: nested For did not finish in 20s (deadlock?)", w)
		}
		for i := range count {
			if n := count[i].Load(); n != 1 {
				t.Errorf("workers=%d: item %d covered %d times", w, i, n)
			}
		}
		if pk := c.peak.Load(); pk > int32(w) {
			t.Errorf("workers=%d: %d goroutines in bodies at once", w, pk)
		}
	}
}

// TestConcurrentDoBounded runs many Do calls, each with a parallel For, and
// checks the total concurrency stays within the pool.
func TestConcurrentDoBounded(t *testing.T) {
	const w = 2
	p := NewPool(w)
	var c concurrency
	var wg sync.WaitGroup
	for j := 0; j < 8; j++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := p.Do(context.Background(), func() {
				p.For(20, 2, func(_, _, _ int) {
					c.enter()
					time.Sleep(100 * time.Microsecond)
					c.leave()
				})
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if pk := c.peak.Load(); pk > w {
		t.Errorf("%d goroutines in bodies at once, pool has %d slots", pk, w)
	}
}

func TestDoRespectsContext(t *testing.T) {
	p := NewPool(1)

	// A context cancelled before Do never runs f, even with a free slot.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := 0; i < 100; i++ {
		ran := false
		if err := p.Do(ctx, func() { ran = true }); !errors.Is(err, context.Canceled) || ran {
			t.Fatalf("Do with cancelled context: err=%v ran=%v, want context.Canceled and not run", err, ran)
		}
	}

	// A context that ends while Do waits for the only slot.
	hold, release := make(chan struct{}), make(chan struct{})
	go p.Do(context.Background(), func() { close(hold); <-release })
	<-hold
	ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	ran := false
	err := p.Do(ctx2, func() { ran = true })
	if !errors.Is(err, context.DeadlineExceeded) || ran {
		t.Errorf("Do while the pool is busy: err=%v ran=%v, want DeadlineExceeded and not run", err, ran)
	}
	close(release)

	// With a live context and a free slot, f runs and Do returns nil.
	if err := p.Do(context.Background(), func() { ran = true }); err != nil || !ran {
		t.Errorf("Do with a free slot: err=%v ran=%v", err, ran)
	}
}

func TestNilPoolIsDefault(t *testing.T) {
	var p *Pool
	if p.Workers() != Default().Workers() {
		t.Errorf("nil pool has %d workers, Default has %d", p.Workers(), Default().Workers())
	}
	var sum atomic.Int64
	p.For(100, 7, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			sum.Add(int64(i))
		}
	})
	if sum.Load() != 4950 {
		t.Errorf("nil pool For summed %d, want 4950", sum.Load())
	}
	if err := p.Do(context.Background(), func() {}); err != nil {
		t.Error(err)
	}
}

func TestNewPoolAtLeastOne(t *testing.T) {
	if NewPool(0).Workers() != 1 || NewPool(-5).Workers() != 1 {
		t.Error("NewPool(≤0) should have 1 worker")
	}
}
