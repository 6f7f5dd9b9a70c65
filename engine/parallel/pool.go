// Package parallel holds the one worker pool of topicmf, shared by sweep-level
// jobs and by the blocks inside a model, and the fixed-block parallel loop
// that keeps results bit-identical for any number of workers.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool is the one worker pool shared by sweep-level jobs and by the blocks
// inside a model. It holds Workers() slots. A goroutine doing work should
// hold a slot (take one with Do); inside it, For borrows any free slots for
// helpers and always lets its caller work too, so nested parallelism never
// deadlocks and never runs more than Workers() goroutines at once.
type Pool struct {
	slots chan struct{}
}

// NewPool returns a pool of the given number of slots (at least 1).
func NewPool(workers int) *Pool {
	if workers < 1 {
		workers = 1
	}
	return &Pool{slots: make(chan struct{}, workers)}
}

var (
	defaultOnce sync.Once
	defaultPool *Pool
)

// Default returns the process-wide pool sized to GOMAXPROCS at first use.
func Default() *Pool {
	defaultOnce.Do(func() { defaultPool = NewPool(runtime.GOMAXPROCS(0)) })
	return defaultPool
}

// orDefault lets every method be called on a nil *Pool, which stands for
// Default(): model options hold a *Pool whose zero value is nil.
func (p *Pool) orDefault() *Pool {
	if p == nil {
		return Default()
	}
	return p
}

// Workers is the number of slots. A nil pool is Default().
func (p *Pool) Workers() int { return cap(p.orDefault().slots) }

// Do runs f while holding one slot, waiting for a free slot first. It
// returns ctx.Err() without running f if the context has ended before a
// slot is taken (also when a slot happens to be free). A nil pool is
// Default().
func (p *Pool) Do(ctx context.Context, f func()) error {
	p = p.orDefault()
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-p.slots }()
	f()
	return nil
}

// Blocks is the number of blocks of size block covering n items.
func Blocks(n, block int) int {
	if n <= 0 {
		return 0
	}
	if block < 1 {
		block = 1
	}
	return (n + block - 1) / block
}

// For calls body(b, lo, hi) for every block b = 0, 1, ... of [0, n) cut into
// blocks of size block (the last may be shorter). Block boundaries depend on
// n and block only, never on the number of workers, so code that writes each
// block's result to its own place, and reduces partial results in block
// order, is bit-identical for any GOMAXPROCS. Blocks run concurrently on the
// caller and on helpers that take free slots; For returns when all are done.
// A nil pool is Default().
//
// The caller always works on blocks itself and is not counted against the
// slots, so a caller that holds a slot (inside Do, or inside an outer For's
// body) keeps the total at Workers() goroutines; a caller outside the pool
// adds one goroutine to that.
func (p *Pool) For(n, block int, body func(b, lo, hi int)) {
	p = p.orDefault()
	nb := Blocks(n, block)
	if nb == 0 {
		return
	}
	if block < 1 {
		block = 1
	}
	var next atomic.Int64
	work := func() {
		for {
			b := int(next.Add(1) - 1)
			if b >= nb {
				return
			}
			lo := b * block
			hi := min(lo+block, n)
			body(b, lo, hi)
		}
	}
	var wg sync.WaitGroup
	for h := 1; h < nb; h++ {
		select {
		case p.slots <- struct{}{}:
			wg.Add(1)
			go func() {
				defer func() { <-p.slots; wg.Done() }()
				work()
			}()
			continue
		default:
		}
		break
	}
	work()
	wg.Wait()
}
