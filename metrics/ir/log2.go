package ir

import (
	"math/big"
	"math/bits"
	"sync"
)

// The DCG discount of rank i is log2(i+1). trec_eval computes it with C's
// log2, which glibc rounds correctly; Go's math.Log2 is off by one ulp for
// some integers (math.Log2(3) = 1.5849625007211563, correctly rounded
// 1.5849625007211561), enough to change the last bit of an NDCG. discount
// therefore computes log2 of integers in 128-bit arithmetic and rounds once,
// caching the values.

var discounts struct {
	sync.Mutex
	v []float64 // v[n] = log2(n) correctly rounded, for n < len(v)
}

// log2Table returns a table t with len(t) > n and t[i] = log2(i) rounded to
// the nearest float64 for 1 ≤ i < len(t). Tables are never modified once
// returned.
func log2Table(n int) []float64 {
	discounts.Lock()
	defer discounts.Unlock()
	if n < len(discounts.v) {
		return discounts.v
	}
	size := max(2*len(discounts.v), n+1, 1024)
	v := make([]float64, size)
	copy(v, discounts.v)
	for i := max(len(discounts.v), 1); i < size; i++ {
		v[i] = log2Exact(uint64(i))
	}
	discounts.v = v
	return v
}

const logPrec = 128

var (
	ln2Once sync.Once
	ln2Big  *big.Float
)

// log2Exact computes log2(n) = e + ln(m)/ln(2) with n = m·2^e,
// m ∈ [1/√2, √2), in 128-bit floating point, rounded once to float64.
func log2Exact(n uint64) float64 {
	if n&(n-1) == 0 {
		return float64(bits.Len64(n) - 1)
	}
	ln2Once.Do(func() {
		// ln 2 = 2 atanh(1/3)
		third := new(big.Float).SetPrec(logPrec).Quo(big.NewFloat(1).SetPrec(logPrec), big.NewFloat(3).SetPrec(logPrec))
		ln2Big = atanh2(third)
	})
	e := bits.Len64(n) - 1
	m := new(big.Float).SetPrec(logPrec).SetUint64(n)
	m.SetMantExp(m, -e) // m ∈ [1, 2)
	// move m into [1/√2, √2): compare m² with 2
	sq := new(big.Float).SetPrec(logPrec).Mul(m, m)
	if sq.Cmp(big.NewFloat(2)) > 0 {
		m.SetMantExp(m, -1)
		e++
	}
	one := big.NewFloat(1).SetPrec(logPrec)
	num := new(big.Float).SetPrec(logPrec).Sub(m, one)
	den := new(big.Float).SetPrec(logPrec).Add(m, one)
	z := new(big.Float).SetPrec(logPrec).Quo(num, den)
	r := new(big.Float).SetPrec(logPrec).Quo(atanh2(z), ln2Big)
	r.Add(r, new(big.Float).SetPrec(logPrec).SetInt64(int64(e)))
	f, _ := r.Float64()
	return f
}

// atanh2 returns 2·atanh(z) = 2(z + z³/3 + z⁵/5 + ...) for |z| ≤ 1/3.
func atanh2(z *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(logPrec).Set(z)
	z2 := new(big.Float).SetPrec(logPrec).Mul(z, z)
	pow := new(big.Float).SetPrec(logPrec).Set(z)
	term := new(big.Float).SetPrec(logPrec)
	for k := int64(3); ; k += 2 {
		pow.Mul(pow, z2)
		term.Quo(pow, new(big.Float).SetPrec(logPrec).SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -logPrec-2 {
			break
		}
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, 1)
}
