package engine

import "fmt"

// CheckMemory refuses, before anything is allocated, a fit whose factors
// cannot fit in the memory the process may use: an M×K term factor and an
// N×vCols document factor, one copy of each (every family holds at least
// that), need at least
//
//	8 bytes × (M·K + N·vCols)
//
// a lower bound of what any family allocates (second iterates, buffers,
// Grams and the corpus come on top), compared with Memory(). The message
// names K, M, N, both byte counts and the limit that applies (this
// machine's memory, the process's cgroup memory limit, ulimit -v or
// ulimit -d). It passes when Memory is unknown. who names the model in the
// message.
func CheckMemory(who string, k, vCols, m, n int) error {
	need := 8 * (float64(m)*float64(k) + float64(n)*float64(vCols))
	return CheckNeed(fmt.Sprintf("%s: K = %d topics of %d terms × %d documents need", who, k, m, n), need, " for their factors")
}

// CheckNeed refuses a need of need bytes beyond Memory(), before anything
// is allocated: the error reads
//
//	<what> at least <need> bytes (<GiB>)<why>, more than the <Memory()> bytes (<GiB>) of <the limit>
//
// what being the subject and its verb ("lda: D has 3 tokens: its sampler
// needs"), why saying what for (" for their factors"), and the limit the
// one Memory() took. It passes when Memory is unknown (0).
func CheckNeed(what string, need float64, why string) error {
	avail, of := memoryLimit()
	if avail == 0 || need <= float64(avail) {
		return nil
	}
	return fmt.Errorf("%s at least %.0f bytes (%s)%s, more than the %d bytes (%s) of %s",
		what, need, gib(need), why, avail, gib(float64(avail)), of)
}

// Memory is the memory a fit may use, in bytes: the least of the
// machine's physical memory, the process's cgroup memory limit and its
// address-space and data-segment limits (ulimit -v, ulimit -d); 0 when
// unknown.
func Memory() uint64 {
	b, _ := memoryLimit()
	return b
}

// gib writes a byte count in GiB.
func gib(b float64) string { return fmt.Sprintf("%.3g GiB", b/(1<<30)) }
