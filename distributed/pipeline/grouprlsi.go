package pipeline

import (
	"fmt"
	"math"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/solve"
	"github.com/topicmf/topicmf/engine/sparse"
)

func init() {
	register.DoFn5x1[int64, func(*shards.Doc) bool, func(*[]float64) bool, func(int64, Contrib), func(int64, shards.Row), error](&gmap1Fn{})
	register.DoFn3x1[int64, func(*shards.Row) bool, func(int64, Partial), error](&unitGramFn{})
	register.DoFn6x1[int64, func(*Contrib) bool, func(*[]float64) bool, []float64, func(int64, []float64), func(int64, Contrib), error](&greduce1Fn{})
	register.DoFn3x1[int64, func(*shards.Row) bool, func(int64, Partial), error](&topicGramFn{})
	register.DoFn2x1[[]float64, func([]float64), error](&gsigmaFn{})
	register.DoFn5x1[int64, func(*int64) bool, func(*Contrib) bool, []float64, func(int64, []float64), error](&greduce2Fn{})
}

// GroupRLSI are the settings of Group RLSI (GMF Eq. 3) with the meanings of
// engine/grouprlsi.Options; InnerTol ≤ 0 runs every sweep.
type GroupRLSI struct {
	Ks, Kc           int
	Lambda1, Lambda2 float64
	InnerSweeps      int
	InnerTol         float64
}

// layout is what the Group RLSI steps need of the class-major order: P
// classes, their first positions Offset (len P+1) and the widths.
type layout struct {
	P, Ks, Kc int
	Offset    []int64
}

func (l layout) kt() int { return l.Ks + l.Kc }
func (l layout) k() int  { return l.Ks + l.P*l.Kc }

// unitKey encodes (class p, unit u): unit u of class p holds the positions
// Offset[p] + u·RowBlock … (engine/grouping.Layout.Units).
func unitKey(p, u int64) int64 { return p<<32 | u }

// gmap1Fn is Map-1 of Group RLSI for document n: the records
// ⟨m, (pos, d_mn, v_n)⟩ of R0 = Σ_p D_pH_pᵀ and R_p = D_pW_pᵀ (GMF Alg. 2–3
// line 2), ordered by class-major position as engine/grouping's D, and v_n
// keyed by its unit of the class Grams V_pV_pᵀ.
type gmap1Fn struct{ L layout }

func (f *gmap1Fn) ProcessElement(n int64, docs func(*shards.Doc) bool, vs func(*[]float64) bool, emit func(int64, Contrib), emitUnit func(int64, shards.Row)) error {
	d, v, err := joinDoc(n, docs, vs)
	if err != nil {
		return err
	}
	if len(v) != f.L.kt() {
		return dataErr("previous V row %d has %d values, want Ks + Kc = %d", n, len(v), f.L.kt())
	}
	for q, m := range d.Terms {
		emit(int64(m), Contrib{Index: d.Pos, W: d.Vals[q], Vec: v, Doc: n, Class: d.Class})
	}
	u := (d.Pos - f.L.Offset[d.Class]) / dense.RowBlock
	emitUnit(unitKey(d.Class, u), shards.Row{Index: d.Pos, Vals: v})
	return nil
}

// unitGramFn is one unit's partial of the class Gram V_pV_pᵀ (dense.Gram of
// the unit's rows, as grouping.Layout.ClassGrams), emitted by row p·kt + x
// in unit order.
type unitGramFn struct{ L layout }

func (f *unitGramFn) ProcessElement(key int64, rows func(*shards.Row) bool, emit func(int64, Partial)) error {
	p, u := key>>32, key&(1<<32-1)
	lo := f.L.Offset[p] + u*dense.RowBlock
	hi := min(lo+dense.RowBlock, f.L.Offset[p+1])
	kt := f.L.kt()
	a := mat.NewDense(int(hi-lo), kt, nil)
	var r shards.Row
	for rows(&r) {
		a.SetRow(int(r.Index-lo), r.Vals)
	}
	g := mat.NewDense(kt, kt, nil)
	dense.Gram(serial, g, a)
	for x := 0; x < kt; x++ {
		emit(p*int64(kt)+int64(x), Partial{Order: u, Vals: g.RawRowView(x)})
	}
	return nil
}

// block is the [r0, r1) × [c0, c1) block of the kt×kt matrix g (flat),
// packed with stride c1 − c0.
func block(g []float64, kt, r0, r1, c0, c1 int) []float64 {
	out := make([]float64, 0, (r1-r0)*(c1-c0))
	for i := r0; i < r1; i++ {
		out = append(out, g[i*kt+c0:i*kt+c1]...)
	}
	return out
}

// greduce1Fn is Reduce-1 of Group RLSI for term m, engine/grouprlsi's
// updateU0 and updateUc on one row: with the class Grams G_p = V_pV_pᵀ
// (side input),
//
//	r0 = Σ_n d_mn h_n − [u_1 … u_P]_m·[W_1H_1ᵀ; …],  ū⁰_m = lasso(S0 = Σ_p H_pH_pᵀ, r0)   (GMF Alg. 2)
//	r_p = Σ_{n∈p} d_mn w_n − ū⁰_m·H_pW_pᵀ,          ū^p_m = lasso(S_p = W_pW_pᵀ, r_p)  (GMF Alg. 3)
//
// with the sums ordered by class-major position (the engine's row kernels:
// sparse.MulDense, grouping.Layout.MulBlockDiag, dense.MulSmall) and each
// lasso by solve.Lasso from the previous row. It emits the row of
// U = [U0 | U_1 … U_P] when non-zero and, per document of the term,
// ⟨n, (m, d_mn, [ū⁰_m, ū^p_m])⟩ with p the document's class.
type greduce1Fn struct {
	L layout
	GroupRLSI
}

func (f *greduce1Fn) ProcessElement(m int64, recs func(*Contrib) bool, prev func(*[]float64) bool, g []float64, emitU func(int64, []float64), emitPhi func(int64, Contrib)) error {
	ks, kc, np, kt, k := f.L.Ks, f.L.Kc, f.L.P, f.L.kt(), f.L.k()
	cs, err := sortContribs(fmt.Sprintf("term %d", m), recs, kt)
	if err != nil {
		return err
	}
	old := make([]float64, k)
	if err := previousRow(m, prev, old, "Ks + P·Kc = "); err != nil {
		return err
	}
	gp := func(q int) []float64 { return g[q*kt*kt : (q+1)*kt*kt] }
	x := make([]float64, k)
	if ks > 0 {
		s0 := make([]float64, ks*ks)
		for q := 0; q < np; q++ {
			for i, v := range block(gp(q), kt, 0, ks, 0, ks) {
				s0[i] += v
			}
		}
		r0 := rowProductCols(cs, 0, ks)
		if kc > 0 {
			cst := mat.NewDense(np*kc, ks, nil)
			for q := 0; q < np; q++ {
				cst.Slice(q*kc, (q+1)*kc, 0, ks).(*mat.Dense).Copy(mat.NewDense(kc, ks, block(gp(q), kt, ks, kt, 0, ks)))
			}
			t0 := make([]float64, ks)
			dense.MulSmall(serial, mat.NewDense(1, ks, t0), mat.NewDense(1, np*kc, old[ks:]), cst)
			for i := range r0 {
				r0[i] -= t0[i]
			}
		}
		if j, ok := finite(r0); !ok {
			return dataErr("UpdateU0 (GMF Alg. 2 line 2): R0[%d,%d] = %v", m, j, r0[j])
		}
		copy(x[:ks], old[:ks])
		solve.NewLasso(ks).Solve(s0, r0, f.Lambda1, x[:ks], f.InnerSweeps, f.InnerTol)
	}
	if kc > 0 {
		rc := make([]float64, np*kc)
		if len(cs) > 0 {
			idx := make([]int32, len(cs))
			val := make([]float64, len(cs))
			cls := make([]int32, len(cs))
			w := mat.NewDense(len(cs), kc, nil)
			for q, c := range cs {
				idx[q], val[q], cls[q] = int32(q), c.W, int32(c.Class)
				w.SetRow(q, c.Vec[ks:])
			}
			row := &grouping.Layout{M: 1, N: len(cs), P: np, ClassOf: cls,
				D: &sparse.CSR{Rows: 1, Cols: len(cs), RowPtr: []int{0, len(cs)}, ColIdx: idx, Val: val}}
			row.MulBlockDiag(serial, mat.NewDense(1, np*kc, rc), w)
		}
		if ks > 0 {
			c2 := mat.NewDense(ks, np*kc, nil)
			for q := 0; q < np; q++ {
				c2.Slice(0, ks, q*kc, (q+1)*kc).(*mat.Dense).Copy(mat.NewDense(ks, kc, block(gp(q), kt, 0, ks, ks, kt)))
			}
			tc := make([]float64, np*kc)
			dense.MulSmall(serial, mat.NewDense(1, np*kc, tc), mat.NewDense(1, ks, x[:ks]), c2)
			for i := range rc {
				rc[i] -= tc[i]
			}
		}
		if j, ok := finite(rc); !ok {
			return dataErr("UpdateU_p (GMF Alg. 3 line 2): R_p[%d,%d] = %v", m, j, rc[j])
		}
		lasso := solve.NewLasso(kc)
		for q := 0; q < np; q++ {
			seg := x[ks+q*kc : ks+(q+1)*kc]
			copy(seg, old[ks+q*kc:ks+(q+1)*kc])
			lasso.Solve(block(gp(q), kt, ks, kt, ks, kt), rc[q*kc:(q+1)*kc], f.Lambda1, seg, f.InnerSweeps, f.InnerTol)
		}
	}
	if j, ok := finite(x); !ok {
		return dataErr("UpdateU (GMF Alg. 2–3): U[%d,%d] = %v", m, j, x[j])
	}
	if !isZero(x) {
		emitU(m, x)
	}
	for _, c := range cs {
		u := make([]float64, kt)
		copy(u[:ks], x[:ks])
		copy(u[ks:], x[ks+int(c.Class)*kc:ks+(int(c.Class)+1)*kc])
		if isZero(u) {
			u = nil
		}
		emitPhi(c.Doc, Contrib{Index: m, W: c.W, Vec: u})
	}
	return nil
}

// topicGramFn is one 1024-term block's partial of every Ũ_pᵀŨ_p
// (grouping.TopicGrams of the block's rows), emitted by row p·kt + x.
type topicGramFn struct {
	L     layout
	Terms int64
}

func (f *topicGramFn) ProcessElement(b int64, rows func(*shards.Row) bool, emit func(int64, Partial)) error {
	a, err := blockMatrix(b, f.Terms, f.L.k(), rows)
	if err != nil {
		return err
	}
	kt := f.L.kt()
	utu := make([]*mat.Dense, f.L.P)
	for q := range utu {
		utu[q] = mat.NewDense(kt, kt, nil)
	}
	grouping.TopicGrams(serial, a, f.L.Ks, f.L.Kc, utu)
	for q, t := range utu {
		for x := 0; x < kt; x++ {
			emit(int64(q*kt+x), Partial{Order: b, Vals: t.RawRowView(x)})
		}
	}
	return nil
}

// gsigmaFn is Σ_p = (Ũ_pᵀŨ_p + λ2 I)⁻¹ for every class (GMF Alg. 4 line 1).
type gsigmaFn struct {
	L       layout
	Lambda2 float64
}

func (f *gsigmaFn) ProcessElement(utu []float64, emit func([]float64)) error {
	kt := f.L.kt()
	out := make([]float64, 0, len(utu))
	for q := 0; q < f.L.P; q++ {
		sig, err := solve.RidgeInverse(mat.NewDense(kt, kt, utu[q*kt*kt:(q+1)*kt*kt]), f.Lambda2)
		if err != nil {
			return dataErr("UpdateV_p (GMF Alg. 4 line 1), class %d: Σ_p = (Ũ_pᵀŨ_p + λ2 I)⁻¹: %v", q, err)
		}
		out = append(out, sig.RawMatrix().Data...)
	}
	emit(out)
	return nil
}

// greduce2Fn is Reduce-2 of Group RLSI for document n of class p:
// φ = [Σ_m d_mn ū⁰_m, Σ_m d_mn ū^p_m] (terms ascending, the engine's row
// kernel) and v_n = Σ_pφ (GMF Alg. 4).
type greduce2Fn struct{ L layout }

func (f *greduce2Fn) ProcessElement(n int64, cls func(*int64) bool, recs func(*Contrib) bool, sigma []float64, emit func(int64, []float64)) error {
	var c, p int64
	nd := 0
	for cls(&c) {
		p = c
		nd++
	}
	if nd != 1 {
		return dataErr("document %d appears %d times in the corpus shards", n, nd)
	}
	ks, kt := f.L.Ks, f.L.kt()
	cs, err := sortContribs(fmt.Sprintf("document %d", n), recs, kt)
	if err != nil {
		return err
	}
	phi := append(rowProductCols(cs, 0, ks), rowProductCols(cs, ks, kt)...)
	v := make([]float64, kt)
	dense.MulSmall(serial, mat.NewDense(1, kt, v), mat.NewDense(1, kt, phi), mat.NewDense(kt, kt, sigma[p*int64(kt*kt):(p+1)*int64(kt*kt)]))
	if j, ok := finite(v); !ok {
		return dataErr("UpdateV_p (GMF Alg. 4): V[%d,%d] = %v", n, j, v[j])
	}
	emit(n, v)
	return nil
}

// BuildGroupRLSI adds one iteration of Group RLSI (GMF Algorithm 1 lines
// 5–11) to s, distributed as Distributed RLSI: Map-1 broadcasts the class
// Grams V_pV_pᵀ and shuffles the records of R0 and the R_p by term;
// Reduce-1 solves each term's U0 row and then its U_p rows (which need only
// that row of the new U0); Map-2 broadcasts the Σ_p and shuffles Φ by
// document; Reduce-2 forms v_n = Σ_pφ_n.
func BuildGroupRLSI(s beam.Scope, it Iteration, o GroupRLSI) error {
	c := it.Corpus
	if len(c.Classes) == 0 || o.Ks < 0 || o.Kc < 0 || o.Ks+o.Kc < 1 || o.InnerSweeps < 1 || o.Lambda1 < 0 || o.Lambda2 <= 0 || math.IsNaN(o.InnerTol) {
		return fmt.Errorf("pipeline: Group RLSI settings %+v on %d classes: want classes, Ks + Kc ≥ 1, InnerSweeps ≥ 1, λ1 ≥ 0, λ2 > 0", o, len(c.Classes))
	}
	if o.InnerTol <= 0 {
		o.InnerTol = -1
	}
	l := layout{P: len(c.Classes), Ks: o.Ks, Kc: o.Kc, Offset: make([]int64, len(c.Classes)+1)}
	for p, size := range c.ClassSizes() {
		l.Offset[p+1] = l.Offset[p] + int64(size)
	}
	m, n := int64(c.Terms), int64(c.Documents)
	docs := ReadDocs(s, it.CorpusDir, c)
	vPrev := ReadRows(s, it.PrevV, it.PrevVSHA256, l.kt(), n)
	uPrev := ReadRows(s, it.PrevU, it.PrevUSHA256, l.k(), m)

	s1 := s.Scope("Map-1")
	recs1, units := beam.ParDo2(s1, &gmap1Fn{L: l}, beam.CoGroupByKey(s1, docs, vPrev))
	g := Grams(s1, beam.ParDo(s1, &unitGramFn{L: l}, beam.GroupByKey(s1, units)), l.P, l.kt())

	s2 := s.Scope("Reduce-1")
	u, recs2 := beam.ParDo2(s2, &greduce1Fn{L: l, GroupRLSI: o}, beam.CoGroupByKey(s2, recs1, uPrev), beam.SideInput{Input: g})

	s3 := s.Scope("Map-2")
	blocks := beam.GroupByKey(s3, beam.ParDo(s3, blockKeyFn{}, u))
	utu := Grams(s3, beam.ParDo(s3, &topicGramFn{L: l, Terms: m}, blocks), l.P, l.kt())
	sigma := beam.ParDo(s3, &gsigmaFn{L: l, Lambda2: o.Lambda2}, utu)

	s4 := s.Scope("Reduce-2")
	cls := beam.ParDo(s4, docClassFn, docs)
	v := beam.ParDo(s4, &greduce2Fn{L: l}, beam.CoGroupByKey(s4, cls, recs2), beam.SideInput{Input: sigma})

	WriteRows(s, u, it.OutDir, "U", it.Shards, m, l.k(), true)
	WriteRows(s, v, it.OutDir, "V", it.Shards, n, l.kt(), false)
	return nil
}
