#!/usr/bin/python3
"""Reference for engine/onlinelda's TestDigammaReference and TestExpPsiMinus:
ψ(x) and exp(ψ(x) − c) computed by mpmath with 60 significant digits.

x runs over 10⁻⁴ … 10¹² (log-spaced, plus the points around 10 where the
fast kernel switches from the recurrence to the series alone); c is ψ(S),
rounded to float64, of totals S ≥ x as the E-step (S = Σγ) and the M-step
(S = Σ_w λ_wk) have them: S = x, x + 1, 10x + 50, 10⁶ and 10¹². Each line is

    x c ψ(x) exp(ψ(x) − c)

with x and c exact (shortest round-trip float64) and the last two to 25
digits. Run from this folder with Debian's python3-mpmath:

    /usr/bin/python3 psi_reference.py > psi.txt
"""
import mpmath

mpmath.mp.dps = 60

xs = [10 ** (-4 + 16 * i / 384) for i in range(385)]
xs += [0.5, 1.0, 2.0, 9.0, 9.999999999, 10.0, 10.000000001, 1e-3 * 3.7, 0.01, 0.0123]
print("# x c psi(x) exp(psi(x)-c), made by psi_reference.py (mpmath %s, 60 digits)" % mpmath.__version__)
for x in sorted(set(xs)):
    px = mpmath.digamma(mpmath.mpf(x))
    for s in sorted({x, x + 1, 10 * x + 50, 1e6, 1e12}):
        c = float(mpmath.digamma(mpmath.mpf(s)))
        e = mpmath.exp(px - mpmath.mpf(c))
        print(repr(x), repr(c), mpmath.nstr(px, 25, min_fixed=-1, max_fixed=-1), mpmath.nstr(e, 25, min_fixed=-1, max_fixed=-1))
