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

func benchMulSmall(b *testing.B, n, k, j int) {
	a := matcmp.RandomDense(n, k, 1)
	s := matcmp.RandomDense(k, j, 2)
	dst := mat.NewDense(n, j, nil)
	p := parallel.Default()
	b.ResetTimer()
	cpu0 := cputime.Seconds()
	for i := 0; i < b.N; i++ {
		MulSmall(p, dst, a, s)
	}
	flops := 2 * float64(n) * float64(k) * float64(j)
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	cputime.ReportPerOp(b, cpu0)
}

// BenchmarkMulSmall is U·(VᵀV): M×K times K×K, the denominator of the NMF
// U-update.
func BenchmarkMulSmall(b *testing.B) { benchMulSmall(b, benchM, benchK, benchK) }

// BenchmarkMulSmallTNMF is S·U of the TNMF update at the shape of
// tnmf2013/figures5-8: a dense M×M term correlation S (M = 2,500) times
// U of M×K (K = 60).
func BenchmarkMulSmallTNMF(b *testing.B) { benchMulSmall(b, 2500, 2500, 60) }
