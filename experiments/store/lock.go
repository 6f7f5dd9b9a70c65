package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockPoll is how often a waiting writer retries a held lock.
const lockPoll = 25 * time.Millisecond

// fileLock is an exclusive flock(2) lock on an open file. flock locks belong
// to the open file description, so two goroutines of one process that open
// the file separately exclude each other just as two processes do.
type fileLock struct {
	f *os.File
}

// tryLock takes the lock on path without waiting; ok is false when another
// holder has it.
func tryLock(path string) (l *fileLock, ok bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		break
	}
	if err == nil {
		return &fileLock{f: f}, true, nil
	}
	f.Close()
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("locking %s: %w", path, err)
}

// lock takes the lock on path, waiting while another holder has it. It
// polls rather than blocking in flock so that a cancelled context ends the
// wait; it returns ctx.Err() then.
func lock(ctx context.Context, path string) (*fileLock, error) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		l, ok, err := tryLock(path)
		if err != nil {
			return nil, err
		}
		if ok {
			return l, nil
		}
		t.Reset(lockPoll)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// unlock releases the lock. The lock file stays: removing it would race
// with a writer that has opened it but not yet locked it.
func (l *fileLock) unlock() {
	if l == nil || l.f == nil {
		return
	}
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
}
