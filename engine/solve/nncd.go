package solve

import "math"

// NonNegSweep makes one sweep of cyclic coordinate descent on
//
//	min_{v ≥ 0} ½vᵀGv − bᵀv
//
// in place: for a = 1..K with G_aa > 0, v_a ← max(v_a − (gv_a − b_a)/G_aa,
// 0), the exact minimizer along coordinate a, after which gv += G_{:,a}·Δv_a
// keeps gv = Gv. G is symmetric, given by its row-major data gd with
// stride gs; gv must equal Gv on entry. Exact line minimization means the
// objective never increases. It is the non-negative fold-in of TNMF_E
// (Yan et al., SDM 2013, Eq. 4.6) and of SymNMF (h = argmin ‖a − Hh‖²);
// each caller keeps its own stopping test on its own objective.
func NonNegSweep(v, gv, b, gd []float64, gs int) {
	k := len(v)
	for a := range v {
		gaa := gd[a*gs+a]
		if gaa <= 0 {
			continue
		}
		nv := math.Max(v[a]-(gv[a]-b[a])/gaa, 0)
		d := nv - v[a]
		if d == 0 {
			continue
		}
		v[a] = nv
		col := gd[a*gs : a*gs+k] // G symmetric: row a = column a
		for c := range gv {
			gv[c] += col[c] * d
		}
	}
}
