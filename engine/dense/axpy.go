package dense

// Vector kernels of the dense and coordinate-descent loops. Each has a plain
// Go definition (axpyGo, axpy4Go, axpy8Go) that fixes its arithmetic: every
// y[i] is updated by the expression shown, with Go's left-to-right
// evaluation and one rounding per multiply and per add (no fused
// multiply-add). On amd64 with AVX2 the same expressions run four elements
// at a time (axpy_amd64.s: VMULPD and VADDPD in the same order), so the
// results are bit-identical to the Go definitions on every machine, and so
// for any number of workers; TestKernelsMatchGo checks this.

// Axpy sets y[i] += a·x[i] for i < len(y); len(x) ≥ len(y).
func Axpy(a float64, x, y []float64) {
	x = x[:len(y)]
	if useAVX2 && len(y) >= 4 {
		axpyAVX2(len(y), a, &x[0], &y[0])
		return
	}
	axpyGo(a, x, y)
}

// Axpy4 sets y[i] += ((a0·x0[i] + a1·x1[i]) + a2·x2[i]) + a3·x3[i] for
// i < len(y); each x has at least len(y) entries.
func Axpy4(y []float64, a0, a1, a2, a3 float64, x0, x1, x2, x3 []float64) {
	n := len(y)
	x0, x1, x2, x3 = x0[:n], x1[:n], x2[:n], x3[:n]
	if useAVX2 && n >= 4 {
		a := [4]float64{a0, a1, a2, a3}
		axpy4AVX2(n, &y[0], &a, &x0[0], &x1[0], &x2[0], &x3[0])
		return
	}
	axpy4Go(y, a0, a1, a2, a3, x0, x1, x2, x3)
}

// Axpy8 sets y[i] += (a0·x0[i] + a1·x1[i] + a2·x2[i] + a3·x3[i]) +
// (a4·x4[i] + a5·x5[i] + a6·x6[i] + a7·x7[i]) for i < len(y), each
// parenthesized sum evaluated left to right; x holds eight slices of at
// least len(y) entries. It is the eight-entry step of a sparse row times a
// dense matrix.
func Axpy8(y []float64, a *[8]float64, x *[8][]float64) {
	n := len(y)
	for q := range x {
		x[q] = x[q][:n]
	}
	if useAVX2 && n >= 4 {
		p := [8]*float64{&x[0][0], &x[1][0], &x[2][0], &x[3][0], &x[4][0], &x[5][0], &x[6][0], &x[7][0]}
		axpy8AVX2(n, &y[0], a, &p)
		return
	}
	axpy8Go(y, a, x)
}

func axpyGo(a float64, x, y []float64) {
	x = x[:len(y)]
	for i := range y {
		y[i] += a * x[i]
	}
}

func axpy4Go(y []float64, a0, a1, a2, a3 float64, x0, x1, x2, x3 []float64) {
	n := len(y)
	x0, x1, x2, x3 = x0[:n], x1[:n], x2[:n], x3[:n]
	for i := range y {
		y[i] += a0*x0[i] + a1*x1[i] + a2*x2[i] + a3*x3[i]
	}
}

func axpy8Go(y []float64, a *[8]float64, x *[8][]float64) {
	n := len(y)
	x0, x1, x2, x3 := x[0][:n], x[1][:n], x[2][:n], x[3][:n]
	x4, x5, x6, x7 := x[4][:n], x[5][:n], x[6][:n], x[7][:n]
	for i := range y {
		y[i] += (a[0]*x0[i] + a[1]*x1[i] + a[2]*x2[i] + a[3]*x3[i]) + (a[4]*x4[i] + a[5]*x5[i] + a[6]*x6[i] + a[7]*x7[i])
	}
}
