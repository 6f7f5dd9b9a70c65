// Package memo computes a value once per key per process: the data sets,
// corpora and prepared collections that every job of an experiment shares.
package memo

import "sync"

// Map holds one lazily computed value (and its error) per key. The zero
// value is ready to use; a Map must not be copied after first use.
type Map[V any] struct {
	mu sync.Mutex
	m  map[string]*entry[V]
}

type entry[V any] struct {
	once sync.Once
	v    V
	err  error
}

// Get returns the value for key, calling compute the first time the key is
// asked for. Concurrent callers of the same key wait for that one call;
// different keys compute concurrently. An error is remembered like a value.
func (c *Map[V]) Get(key string, compute func() (V, error)) (V, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*entry[V]{}
	}
	e := c.m[key]
	if e == nil {
		e = &entry[V]{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = compute() })
	return e.v, e.err
}
