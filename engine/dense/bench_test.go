package dense

import (
	"testing"

	"github.com/topicmf/topicmf/engine/internal/cputime"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// Realistic benchmark size: factors of a 30,000-term × 20,000-document
// corpus with K = 100 topics.
const (
	benchM = 30000
	benchN = 20000
	benchK = 100
)

func benchGram(b *testing.B, n, k int) {
	a := matcmp.RandomDense(n, k, 1)
	dst := mat.NewDense(k, k, nil)
	p := parallel.Default()
	b.ResetTimer()
	cpu0 := cputime.Seconds()
	for i := 0; i < b.N; i++ {
		Gram(p, dst, a)
	}
	// The useful work is the symmetric product: n·k·(k+1) flops.
	flops := float64(n) * float64(k) * float64(k+1)
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	cputime.ReportPerOp(b, cpu0)
}

// BenchmarkGramU is UᵀU for U of M×K.
func BenchmarkGramU(b *testing.B) { benchGram(b, benchM, benchK) }

// BenchmarkGramV is VᵀV for V of N×K.
func BenchmarkGramV(b *testing.B) { benchGram(b, benchN, benchK) }

// BenchmarkMulSmall is U·(VᵀV): M×K times K×K, the denominator of the NMF
// U-update.
func BenchmarkMulSmall(b *testing.B) {
	a := matcmp.RandomDense(benchM, benchK, 1)
	s := matcmp.RandomDense(benchK, benchK, 2)
	dst := mat.NewDense(benchM, benchK, nil)
	p := parallel.Default()
	b.ResetTimer()
	cpu0 := cputime.Seconds()
	for i := 0; i < b.N; i++ {
		MulSmall(p, dst, a, s)
	}
	flops := 2 * float64(benchM) * benchK * benchK
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	cputime.ReportPerOp(b, cpu0)
}
