package rlsi2011

// Our reading of the scale of λ and of V⁽⁰⁾ (see the package
// documentation): every RLSI fit of this package draws V⁽⁰⁾ at the scale of
// the data (init-scale = balanced), and the λ's of the grids are read
// either literally (lambda-scale = absolute, Eq. 1 on raw tf-idf) or as
// stated for documents of unit RMS length (relative), the grid axis
// "lambda-scale".
const (
	LambdaAbsolute = "absolute"
	LambdaRelative = "relative"
)

// PaperLambda1 and PaperLambda2 are the λ of the paper's §6.3–6.4 runs;
// WorkingLambda1 replaces PaperLambda1 wherever this package fits RLSI at
// one fixed λ (Table 8's topics, Figure 9). Read relative to the data's
// scale, λ1 = 0.5 empties every topic at the first U update (the random
// V⁽⁰⁾ is uncorrelated with D, so every |R_mk| of Eq. 3 falls below the
// threshold): 20 of 20 on Reuters in rlsi2011/table6-7 at λ1 ≥ 0.5, and on
// every retrieval collection at λ1 = 1 in rlsi2011/figures3-5. λ1 = 0.1
// is the largest λ1 of the paper's grid that empties no topic on any of
// those collections for λ2 = 1 (AvgComp 0.005–0.08 there); it was chosen
// on that criterion alone, before Table 8's topics or Figure 9 were run
// with it.
const (
	PaperLambda1   = "0.5"
	PaperLambda2   = "1"
	WorkingLambda1 = "0.1"
)

// rlsiParams returns the family parameters of an RLSI fit of this package:
// p plus the balanced V⁽⁰⁾ scale.
func rlsiParams(p map[string]string) map[string]string {
	out := map[string]string{"init-scale": "balanced"}
	for k, v := range p {
		out[k] = v
	}
	return out
}
