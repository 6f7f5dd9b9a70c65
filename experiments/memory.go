package experiments

import (
	"math"
	"runtime"
	runtimemetrics "runtime/metrics"
)

// LiveHeap forces a garbage collection and returns the bytes of live heap
// objects it marked (runtime/metrics /gc/heap/live:bytes), or NaN when the
// runtime does not report it. Tasks that measure the memory of a fit take
// the largest LiveHeap after an iteration less the LiveHeap before it.
func LiveHeap() float64 {
	runtime.GC()
	s := []runtimemetrics.Sample{{Name: "/gc/heap/live:bytes"}}
	runtimemetrics.Read(s)
	if s[0].Value.Kind() != runtimemetrics.KindUint64 {
		return math.NaN()
	}
	return float64(s[0].Value.Uint64())
}
