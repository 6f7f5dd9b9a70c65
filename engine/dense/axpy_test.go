package dense

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKernelsMatchGo checks that Axpy, Axpy4 and Axpy8 (the AVX2 kernels
// where the CPU has them) give the bits of their Go definitions, at every
// length from 0 to 37 (all remainders of the 8- and 4-element loops), on
// values spread over many binades so that any reordering of the sums or a
// fused multiply-add would show.
func TestKernelsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	val := func() float64 { return (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(40)-20) }
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = val()
		}
		return v
	}
	for n := 0; n <= 37; n++ {
		y0 := vec(n)
		var a [8]float64
		var x [8][]float64
		for q := range x {
			a[q] = val()
			x[q] = vec(n + 3) // longer than y: only the first n are read
		}

		got, want := slices.Clone(y0), slices.Clone(y0)
		Axpy(a[0], x[0], got)
		axpyGo(a[0], x[0], want)
		same(t, "Axpy", n, got, want)

		got, want = slices.Clone(y0), slices.Clone(y0)
		Axpy4(got, a[0], a[1], a[2], a[3], x[0], x[1], x[2], x[3])
		axpy4Go(want, a[0], a[1], a[2], a[3], x[0], x[1], x[2], x[3])
		same(t, "Axpy4", n, got, want)

		got, want = slices.Clone(y0), slices.Clone(y0)
		xg, xw := x, x
		Axpy8(got, &a, &xg)
		axpy8Go(want, &a, &xw)
		same(t, "Axpy8", n, got, want)
	}
}

// TestAxpyHandComputed checks the Go definitions on hand-computed values.
func TestAxpyHandComputed(t *testing.T) {
	y := []float64{1, 2, 3, 4, 5}
	Axpy(2, []float64{1, 1, 1, 1, 1, 9}, y)
	same(t, "Axpy", 5, y, []float64{3, 4, 5, 6, 7})
	y = []float64{1, 1, 1, 1, 1}
	one := []float64{1, 1, 1, 1, 1}
	Axpy4(y, 1, 2, 3, 4, one, one, one, one)
	same(t, "Axpy4", 5, y, []float64{11, 11, 11, 11, 11})
	y = []float64{0, 0, 0, 0, 0}
	a := [8]float64{1, 2, 3, 4, 5, 6, 7, 8}
	x := [8][]float64{one, one, one, one, one, one, one, one}
	Axpy8(y, &a, &x)
	same(t, "Axpy8", 5, y, []float64{36, 36, 36, 36, 36})
}

func same(t *testing.T, name string, n int, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s, n = %d: y[%d] = %v, want %v (bits differ)", name, n, i, got[i], want[i])
		}
	}
}

// Benchmarks of the vector kernels at K = 100 (a row of the factors), the
// AVX2 versions (where the CPU has them) beside their Go definitions:
//
//	go test ./engine/dense -run '^$' -bench 'Axpy'
func benchVecs() (y []float64, a [8]float64, x [8][]float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	y = make([]float64, benchK)
	for q := range x {
		a[q] = rng.Float64()
		x[q] = make([]float64, benchK)
		for i := range x[q] {
			x[q][i] = rng.Float64()
		}
	}
	return y, a, x
}

func BenchmarkAxpy(b *testing.B) {
	y, a, x := benchVecs()
	for b.Loop() {
		Axpy(a[0], x[0], y)
	}
}

func BenchmarkAxpyGo(b *testing.B) {
	y, a, x := benchVecs()
	for b.Loop() {
		axpyGo(a[0], x[0], y)
	}
}

func BenchmarkAxpy4(b *testing.B) {
	y, a, x := benchVecs()
	for b.Loop() {
		Axpy4(y, a[0], a[1], a[2], a[3], x[0], x[1], x[2], x[3])
	}
}

func BenchmarkAxpy4Go(b *testing.B) {
	y, a, x := benchVecs()
	for b.Loop() {
		axpy4Go(y, a[0], a[1], a[2], a[3], x[0], x[1], x[2], x[3])
	}
}

func BenchmarkAxpy8(b *testing.B) {
	y, a, x := benchVecs()
	for b.Loop() {
		Axpy8(y, &a, &x)
	}
}

func BenchmarkAxpy8Go(b *testing.B) {
	y, a, x := benchVecs()
	for b.Loop() {
		axpy8Go(y, &a, &x)
	}
}
