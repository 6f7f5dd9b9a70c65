package onlinelda

import "math"

// digamma is ψ(x) = d/dx log Γ(x) for x > 0: the recurrence
// ψ(x) = ψ(x+1) − 1/x (Abramowitz & Stegun 6.3.5) up to x ≥ 10, then the
// asymptotic series ψ(x) ≈ log x − 1/(2x) − Σ_{n=1}^{7} B_2n/(2n x^2n)
// (A&S 6.3.18), whose first omitted term is below 5·10⁻¹⁷ at x ≥ 10:
// accurate to about 10⁻¹⁵ relative (TestDigammaReference).
func digamma(x float64) float64 {
	r := 0.0
	for x < 10 {
		r -= 1 / x
		x++
	}
	f := 1 / (x * x)
	t := f * (-1.0/12 + f*(1.0/120+f*(-1.0/252+f*(1.0/240+f*(-1.0/132+f*(691.0/32760+f*(-1.0/12)))))))
	return r + math.Log(x) - 0.5/x + t
}

// expPsiMinus is exp(ψ(x) − c), the kernel of exp(E[log θ]) and
// exp(E[log β]) (c = ψ of the Dirichlet's total), in fewer operations than
// math.Exp(digamma(x) − c) and without a logarithm: ten steps of the
// recurrence ψ(x) = ψ(x+1) − 1/x (A&S 6.3.5) at once, then the series,
//
//	ψ(x) = log y + psiTail(1/y) − R,  so  exp(ψ(x) − c) = y · exp(psiTail(1/y) − R − c),
//
// with y = x + 10 ≥ 10 and R = 1/x + Σ_{i=1}^{9} 1/(x+i), the sum as one
// fraction num/den (num ← num·(x+i) + den, den ← den·(x+i)) so that it and
// 1/y cost a single division between them (1/x, which dominates R for small
// x, is divided on its own to keep it correctly rounded). Every x takes the
// same ten steps, so there is no branch on x: the four-lane expPsiMinus4 is
// this function lane by lane. The exponential is expReduced. Arguments
// where this would leave the range of normal numbers (x < 10⁻³⁰⁰, x > 10³⁰
// where den would overflow, NaN, an exponent below −708 or above 700) take
// the exact path math.Exp(digamma(x) − c).
//
// Error: the result's relative error is at most 4·10⁻¹⁶·(8 + |ψ(x)| + |c|),
// the rounding of the exponent (whose size is about |ψ(x)| + |c|) carried
// through exp, as for math.Exp(digamma(x) − c) itself; TestExpPsiMinus
// checks it against values computed with 60 digits (testdata/psi.txt, made
// by testdata/psi_reference.py with mpmath) over the arguments of the
// E-step and M-step, 10⁻⁴ ≤ x ≤ 10¹², and against math.Exp(digamma(x) − c).
func expPsiMinus(x, c float64) float64 {
	if !(x >= minFastPsi && x <= maxFastPsi) {
		return math.Exp(digamma(x) - c)
	}
	num, den := 1.0, x+1
	for i := 2.0; i < 10; i++ {
		t := x + i
		num = num*t + den
		den *= t
	}
	y := x + 10
	q := 1 / (den * y)
	r := 1/x + num*y*q
	z := psiTail(den*q) - r - c
	if !(z >= -708 && z <= 700) {
		return math.Exp(digamma(x) - c)
	}
	return y * expReduced(z)
}

// The range of x where expPsiMinus takes its fast path.
const minFastPsi, maxFastPsi = 1e-300, 1e30

// expPsiMinus4 is expPsiMinus of four arguments, the same operations lane
// by lane (the same bits: TestExpPsiMinus4), written out side by side so
// that the processor overlaps the four chains of dependent operations.
func expPsiMinus4(x0, x1, x2, x3, c0, c1, c2, c3 float64) (e0, e1, e2, e3 float64) {
	if !(x0 >= minFastPsi && x0 <= maxFastPsi && x1 >= minFastPsi && x1 <= maxFastPsi &&
		x2 >= minFastPsi && x2 <= maxFastPsi && x3 >= minFastPsi && x3 <= maxFastPsi) {
		return expPsiMinus(x0, c0), expPsiMinus(x1, c1), expPsiMinus(x2, c2), expPsiMinus(x3, c3)
	}
	n0, n1, n2, n3 := 1.0, 1.0, 1.0, 1.0
	d0, d1, d2, d3 := x0+1, x1+1, x2+1, x3+1
	for i := 2.0; i < 10; i++ {
		t0, t1, t2, t3 := x0+i, x1+i, x2+i, x3+i
		n0, n1, n2, n3 = n0*t0+d0, n1*t1+d1, n2*t2+d2, n3*t3+d3
		d0, d1, d2, d3 = d0*t0, d1*t1, d2*t2, d3*t3
	}
	y0, y1, y2, y3 := x0+10, x1+10, x2+10, x3+10
	q0, q1, q2, q3 := 1/(d0*y0), 1/(d1*y1), 1/(d2*y2), 1/(d3*y3)
	r0, r1, r2, r3 := 1/x0+n0*y0*q0, 1/x1+n1*y1*q1, 1/x2+n2*y2*q2, 1/x3+n3*y3*q3
	v0, v1, v2, v3 := d0*q0, d1*q1, d2*q2, d3*q3 // 1/y
	f0, f1, f2, f3 := v0*v0, v1*v1, v2*v2, v3*v3
	t0, t1, t2, t3 := -1.0/12*f0, -1.0/12*f1, -1.0/12*f2, -1.0/12*f3
	for _, b := range [...]float64{691.0 / 32760, -1.0 / 132, 1.0 / 240, -1.0 / 252, 1.0 / 120, -1.0 / 12} {
		t0, t1, t2, t3 = f0*(b+t0), f1*(b+t1), f2*(b+t2), f3*(b+t3)
	}
	z0, z1, z2, z3 := t0-0.5*v0-r0-c0, t1-0.5*v1-r1-c1, t2-0.5*v2-r2-c2, t3-0.5*v3-r3-c3
	if !(z0 >= -708 && z0 <= 700 && z1 >= -708 && z1 <= 700 && z2 >= -708 && z2 <= 700 && z3 >= -708 && z3 <= 700) {
		return expPsiMinus(x0, c0), expPsiMinus(x1, c1), expPsiMinus(x2, c2), expPsiMinus(x3, c3)
	}
	const (
		shifter   = 0x1.8p52                        // adding it rounds |v| < 2⁵¹ to an integer
		invLn2x32 = 0x1.71547652b82fep+5            // 32/ln2
		ln2Hi     = 6.93147180369123816490e-01 / 32 // math/exp.go's Ln2Hi, low 21 bits zero
		ln2Lo     = 1.90821492927058770002e-10 / 32
	)
	m0, m1, m2, m3 := (z0*invLn2x32+shifter)-shifter, (z1*invLn2x32+shifter)-shifter, (z2*invLn2x32+shifter)-shifter, (z3*invLn2x32+shifter)-shifter
	r0, r1, r2, r3 = (z0-m0*ln2Hi)-m0*ln2Lo, (z1-m1*ln2Hi)-m1*ln2Lo, (z2-m2*ln2Hi)-m2*ln2Lo, (z3-m3*ln2Hi)-m3*ln2Lo
	p0, p1, p2, p3 := 1.0/720*r0, 1.0/720*r1, 1.0/720*r2, 1.0/720*r3
	for _, b := range [...]float64{1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1} {
		p0, p1, p2, p3 = r0*(b+p0), r1*(b+p1), r2*(b+p2), r3*(b+p3)
	}
	return y0 * (exp2Scaled(m0) * (1 + p0)), y1 * (exp2Scaled(m1) * (1 + p1)), y2 * (exp2Scaled(m2) * (1 + p2)), y3 * (exp2Scaled(m3) * (1 + p3))
}

// psiTail is ψ(y) − log y ≈ −1/(2y) − Σ_{n=1}^{7} B_2n/(2n y^2n) (A&S
// 6.3.18, the series of digamma) given inv = 1/y, y ≥ 10: its first omitted
// term is below 5·10⁻¹⁷.
func psiTail(inv float64) float64 {
	f := inv * inv
	t := -1.0 / 12 * f
	for _, b := range [...]float64{691.0 / 32760, -1.0 / 132, 1.0 / 240, -1.0 / 252, 1.0 / 120, -1.0 / 12} {
		t = f * (b + t)
	}
	return t - 0.5*inv
}

// expReduced is e^z for −708 ≤ z ≤ 700 by Tang's table-driven method
// (P. T. P. Tang, "Table-driven implementation of the exponential function
// in IEEE floating-point arithmetic", ACM TOMS 15(2), 1989):
// z = (32m + j)·ln2/32 + r with n = 32m + j the integer nearest to
// 32z/ln2 and |r| ≤ ln2/64, the reduction in two parts (Cody & Waite,
// "Software Manual for the Elementary Functions", 1980; the high part of
// ln2/32 has 32 significant bits, so n·ln2Hi is exact), and
//
//	e^z = 2^m · 2^(j/32) · (1 + p(r)),  p(r) = Σ_{i=1}^{6} r^i/i!,
//
// whose truncation error is below r⁷/7! < 4·10⁻¹⁸. The table entries are
// 2^(j/32) correctly rounded (computed with mpmath). Its relative error
// against e^z is about 3·10⁻¹⁶ (TestExpReduced checks ≤ 5·10⁻¹⁶ against
// math.Exp). Outside [−708, 700] the scaling by 2^m would leave the normal
// range; callers check.
func expReduced(z float64) float64 {
	const (
		shifter   = 0x1.8p52                        // adding it rounds |v| < 2⁵¹ to an integer
		invLn2x32 = 0x1.71547652b82fep+5            // 32/ln2
		ln2Hi     = 6.93147180369123816490e-01 / 32 // math/exp.go's Ln2Hi, low 21 bits zero
		ln2Lo     = 1.90821492927058770002e-10 / 32
	)
	n := (z*invLn2x32 + shifter) - shifter
	r := (z - n*ln2Hi) - n*ln2Lo
	p := 1.0 / 720 * r
	for _, b := range [...]float64{1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1} {
		p = r * (b + p)
	}
	return exp2Scaled(n) * (1 + p)
}

// exp2Scaled is 2^(n/32) for an integer n with −32704 ≤ n < 32768:
// 2^(j/32) from the table times 2^m, n = 32m + j, 0 ≤ j < 32.
func exp2Scaled(n float64) float64 {
	ni := int64(n)
	return exp2Table[ni&31] * math.Float64frombits(uint64(ni>>5+1023)<<52)
}

// exp2Table holds 2^(j/32), j = 0..31, each correctly rounded.
var exp2Table = [32]float64{
	0x1.0000000000000p+0, 0x1.059b0d3158574p+0, 0x1.0b5586cf9890fp+0, 0x1.11301d0125b51p+0,
	0x1.172b83c7d517bp+0, 0x1.1d4873168b9aap+0, 0x1.2387a6e756238p+0, 0x1.29e9df51fdee1p+0,
	0x1.306fe0a31b715p+0, 0x1.371a7373aa9cbp+0, 0x1.3dea64c123422p+0, 0x1.44e086061892dp+0,
	0x1.4bfdad5362a27p+0, 0x1.5342b569d4f82p+0, 0x1.5ab07dd485429p+0, 0x1.6247eb03a5585p+0,
	0x1.6a09e667f3bcdp+0, 0x1.71f75e8ec5f74p+0, 0x1.7a11473eb0187p+0, 0x1.82589994cce13p+0,
	0x1.8ace5422aa0dbp+0, 0x1.93737b0cdc5e5p+0, 0x1.9c49182a3f090p+0, 0x1.a5503b23e255dp+0,
	0x1.ae89f995ad3adp+0, 0x1.b7f76f2fb5e47p+0, 0x1.c199bdd85529cp+0, 0x1.cb720dcef9069p+0,
	0x1.d5818dcfba487p+0, 0x1.dfc97337b9b5fp+0, 0x1.ea4afa2a490dap+0, 0x1.f50765b6e4540p+0,
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}
