package engine

import "fmt"

// CheckMemory refuses, before anything is allocated, a fit whose factors
// cannot fit in this machine's memory: an M×K term factor and an N×vCols
// document factor, each held twice (the current and the next iterate, as
// every family's Iterate keeps them), need at least
//
//	16 bytes × (M·K + N·vCols)
//
// a lower bound of what any family allocates (buffers, Grams and the
// corpus come on top), compared with Memory(), the physical memory of the
// machine (or the process's address-space limit when lower). The message
// names K, M, N and both byte counts. It passes when Memory is unknown.
// who names the model in the message.
func CheckMemory(who string, k, vCols, m, n int) error {
	avail := Memory()
	if avail == 0 {
		return nil
	}
	need := 16 * (float64(m)*float64(k) + float64(n)*float64(vCols))
	if need <= float64(avail) {
		return nil
	}
	return fmt.Errorf("%s: K = %d topics of %d terms × %d documents need at least %.0f bytes (%s) for their factors, more than the %d bytes (%s) of this machine's memory",
		who, k, m, n, need, gib(need), avail, gib(float64(avail)))
}

// gib writes a byte count in GiB.
func gib(b float64) string { return fmt.Sprintf("%.3g GiB", b/(1<<30)) }
