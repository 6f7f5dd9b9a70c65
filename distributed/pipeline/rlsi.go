package pipeline

import (
	"fmt"
	"math"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/solve"
)

func init() {
	register.DoFn4x1[int64, func(*shards.Doc) bool, func(*[]float64) bool, func(int64, Contrib), error](&map1Fn{})
	register.DoFn6x1[int64, func(*Contrib) bool, func(*[]float64) bool, []float64, func(int64, []float64), func(int64, Contrib), error](&reduce1Fn{})
	register.DoFn2x1[[]float64, func([]float64), error](&sigmaFn{})
	register.DoFn5x1[int64, func(*int64) bool, func(*Contrib) bool, []float64, func(int64, []float64), error](&reduce2Fn{})
	register.Function3x0(docClassFn)
}

// RLSI are the settings of Distributed RLSI (Uℓ1-Vℓ2, RLSI Eq. 1) with the
// meanings of engine/rlsi.Options; InnerTol ≤ 0 runs every sweep.
type RLSI struct {
	K                int
	Lambda1, Lambda2 float64
	InnerSweeps      int
	InnerTol         float64
}

// Iteration names the inputs and outputs of one iteration's pipeline.
type Iteration struct {
	CorpusDir string
	Corpus    *shards.CorpusManifest
	PrevU     []string // shards of U⁽ᵗ⁻¹⁾ (none at t = 1: U⁽⁰⁾ = 0)
	PrevV     []string // shards of V⁽ᵗ⁻¹⁾
	// SHA-256s of PrevU's and PrevV's files (the iteration manifest's),
	// checked as the shards are read.
	PrevUSHA256, PrevVSHA256 []string
	OutDir                   string // where U⁽ᵗ⁾ and V⁽ᵗ⁾ shards go
	Shards                   int    // output shards per factor
}

// map1Fn is Map-1 for document n: ⟨m, (n, d_mn, v_n)⟩ for each of its
// terms (Pos selects the class-major position as the order key, for
// Group RLSI). The document and its v_n are joined by n.
type map1Fn struct{ Pos bool }

func (f *map1Fn) ProcessElement(n int64, docs func(*shards.Doc) bool, vs func(*[]float64) bool, emit func(int64, Contrib)) error {
	d, v, err := joinDoc(n, docs, vs)
	if err != nil {
		return err
	}
	at := d.N
	if f.Pos {
		at = d.Pos
	}
	for q, m := range d.Terms {
		emit(int64(m), Contrib{Index: at, W: d.Vals[q], Vec: v})
	}
	return nil
}

// joinDoc checks that document n and its factor row are both present, once.
func joinDoc(n int64, docs func(*shards.Doc) bool, vs func(*[]float64) bool) (shards.Doc, []float64, error) {
	var d, x shards.Doc
	nd := 0
	for docs(&x) {
		d = x
		nd++
	}
	var v, y []float64
	nv := 0
	for vs(&y) {
		v = y
		nv++
	}
	switch {
	case nd == 0:
		return d, nil, dataErr("factor V has a row %d but the corpus has no document %d", n, n)
	case nd > 1:
		return d, nil, dataErr("document %d appears %d times in the corpus shards", n, nd)
	case nv != 1:
		return d, nil, dataErr("document %d (%s) has %d rows in the previous V, want 1", n, d.ID, nv)
	}
	return d, v, nil
}

// reduce1Fn is Reduce-1 for term m: r̄_m = Σ_n d_mn v_n (records sorted by
// n, the engine's row kernel), then the lasso of RLSI Eq. 3 with S = VVᵀ
// by solve.Lasso from the previous ū_m (zero when absent), as
// engine/rlsi's UpdateU. It emits ū_m when non-zero and, for every
// document of the term, Map-2's record ⟨n, (m, d_mn, ū_m)⟩.
type reduce1Fn struct{ RLSI }

func (f *reduce1Fn) ProcessElement(m int64, recs func(*Contrib) bool, prev func(*[]float64) bool, s []float64, emitU func(int64, []float64), emitPhi func(int64, Contrib)) error {
	k := f.K
	cs, err := sortContribs(fmt.Sprintf("term %d", m), recs, k)
	if err != nil {
		return err
	}
	x := make([]float64, k)
	if err := previousRow(m, prev, x, ""); err != nil {
		return err
	}
	r := rowProduct(cs, k)
	if j, ok := finite(r); !ok {
		return dataErr("UpdateU (Alg. 2 line 2): R[%d,%d] = %v", m, j, r[j])
	}
	solve.NewLasso(k).Solve(s, r, f.Lambda1, x, f.InnerSweeps, f.InnerTol)
	if j, ok := finite(x); !ok {
		return dataErr("UpdateU: U[%d,%d] = %v", m, j, x[j])
	}
	var u []float64
	if !isZero(x) {
		u = x
		emitU(m, x)
	}
	for _, c := range cs {
		emitPhi(c.Index, Contrib{Index: m, W: c.W, Vec: u})
	}
	return nil
}

// sigmaFn is Map-2's broadcast Σ = (UᵀU + λ2 I)⁻¹ (solve.RidgeInverse).
type sigmaFn struct {
	K       int
	Lambda2 float64
}

func (f *sigmaFn) ProcessElement(gu []float64, emit func([]float64)) error {
	sig, err := solve.RidgeInverse(mat.NewDense(f.K, f.K, gu), f.Lambda2)
	if err != nil {
		return dataErr("UpdateV (Alg. 3 line 1): Σ = (UᵀU + λ2 I)⁻¹: %v", err)
	}
	emit(sig.RawMatrix().Data)
	return nil
}

// docClassFn keys a document's class by its column.
func docClassFn(n int64, d shards.Doc, emit func(int64, int64)) { emit(n, d.Class) }

// reduce2Fn is Reduce-2 for document n: φ_n = Σ_m d_mn ū_m (records sorted
// by m, the engine's row kernel), v_n = Σφ_n (dense.MulSmall). A document
// without terms gets v_n = 0.
type reduce2Fn struct{ K int }

func (f *reduce2Fn) ProcessElement(n int64, cls func(*int64) bool, recs func(*Contrib) bool, sigma []float64, emit func(int64, []float64)) error {
	var c int64
	nd := 0
	for cls(&c) {
		nd++
	}
	if nd != 1 {
		return dataErr("document %d appears %d times in the corpus shards", n, nd)
	}
	cs, err := sortContribs(fmt.Sprintf("document %d", n), recs, f.K)
	if err != nil {
		return err
	}
	phi := rowProduct(cs, f.K)
	v := make([]float64, f.K)
	dense.MulSmall(serial, mat.NewDense(1, f.K, v), mat.NewDense(1, f.K, phi), mat.NewDense(f.K, f.K, sigma))
	if j, ok := finite(v); !ok {
		return dataErr("UpdateV: V[%d,%d] = %v", n, j, v[j])
	}
	emit(n, v)
	return nil
}

// BuildRLSI adds one iteration of Distributed RLSI to s: it reads the
// corpus and (U⁽ᵗ⁻¹⁾, V⁽ᵗ⁻¹⁾), and writes U⁽ᵗ⁾ and V⁽ᵗ⁾ to it.OutDir.
func BuildRLSI(s beam.Scope, it Iteration, o RLSI) error {
	if o.K < 1 || o.InnerSweeps < 1 || o.Lambda1 < 0 || o.Lambda2 <= 0 || math.IsNaN(o.InnerTol) {
		return fmt.Errorf("pipeline: RLSI settings %+v: want K ≥ 1, InnerSweeps ≥ 1, λ1 ≥ 0, λ2 > 0", o)
	}
	if o.InnerTol <= 0 {
		o.InnerTol = -1 // every sweep, as engine/rlsi
	}
	m, n := int64(it.Corpus.Terms), int64(it.Corpus.Documents)
	docs := ReadDocs(s, it.CorpusDir, it.Corpus)
	vPrev := ReadRows(s, it.PrevV, it.PrevVSHA256, o.K, n)
	uPrev := ReadRows(s, it.PrevU, it.PrevUSHA256, o.K, m)

	// Map-1: S = VVᵀ broadcast; R = DVᵀ shuffled by term.
	sv := Gram(s.Scope("S=VVt"), vPrev, n, o.K)
	s1 := s.Scope("Map-1")
	recs1 := beam.ParDo(s1, &map1Fn{}, beam.CoGroupByKey(s1, docs, vPrev))

	// Reduce-1: each term row's lasso.
	s2 := s.Scope("Reduce-1")
	u, recs2 := beam.ParDo2(s2, &reduce1Fn{RLSI: o}, beam.CoGroupByKey(s2, recs1, uPrev), beam.SideInput{Input: sv})

	// Map-2: Σ broadcast; Φ = UᵀD shuffled by document.
	s3 := s.Scope("Map-2")
	sigma := beam.ParDo(s3, &sigmaFn{K: o.K, Lambda2: o.Lambda2}, Gram(s3, u, m, o.K))

	// Reduce-2: v_n = Σφ_n.
	s4 := s.Scope("Reduce-2")
	cls := beam.ParDo(s4, docClassFn, docs)
	v := beam.ParDo(s4, &reduce2Fn{K: o.K}, beam.CoGroupByKey(s4, cls, recs2), beam.SideInput{Input: sigma})

	WriteRows(s, u, it.OutDir, "U", it.Shards, m, o.K, true)
	WriteRows(s, v, it.OutDir, "V", it.Shards, n, o.K, false)
	return nil
}
