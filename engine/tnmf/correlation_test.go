package tnmf

import (
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/symmetric"
)

// toyD builds the M×N term-document matrix of the given documents, each a
// map term → weight, over terms 0..m-1.
func toyD(t *testing.T, m int, docs []map[int]float64) (d, dt *sparse.CSR) {
	t.Helper()
	var ts []sparse.Triplet
	for n, doc := range docs {
		for term, w := range doc {
			ts = append(ts, sparse.Triplet{Row: term, Col: n, Val: w})
		}
	}
	d, err := sparse.FromTriplets(m, len(docs), ts)
	if err != nil {
		t.Fatal(err)
	}
	return d, d.T()
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// The toy corpus of four short texts over the terms a, b, c, d (0..3):
//
//	d1 = a b c,  d2 = a b,  d3 = b d,  d4 = c d.
//
// Hand computation (per-document counts, Section 3.1):
//
//	n(a,b) = 2 (d1, d2), n(a,c) = 1, n(b,c) = 1, n(b,d) = 1, n(c,d) = 1, n(a,d) = 0
//	r_a = 3, r_b = 4, r_c = 3, r_d = 2, T = Σ_{j,l} n = 12
//	PPMI(a,b) = ln(2·12/(3·4)) = ln 2   = 0.6931471805599453
//	PPMI(a,c) = ln(1·12/(3·3)) = ln 4/3 = 0.28768207245178085
//	PPMI(b,c) = ln(1·12/(4·3)) = ln 1   = 0 (not stored)
//	PPMI(b,d) = ln(1·12/(4·2)) = ln 3/2 = 0.4054651081081644
//	PPMI(c,d) = ln(1·12/(3·2)) = ln 2
//
// Context vectors: w_a = (0, ln2, ln4/3, 0), w_b = (ln2, 0, 0, ln3/2),
// w_c = (ln4/3, 0, 0, ln2), w_d = (0, ln3/2, ln2, 0). w_a·w_d =
// ln2·ln3/2 + ln4/3·ln2 = ln2·ln2, ‖w_a‖² = ln²2 + ln²4/3, ‖w_d‖² = ln²3/2 +
// ln²2, so cos(a,d) = ln²2/sqrt((ln²2 + ln²4/3)(ln²2 + ln²3/2)) =
// 0.7972291697001205 (python3 math); cos(b,c) is the same number; a·b, a·c,
// b·d and c·d have disjoint supports: 0. S = I + 0.797…·(E_ad + E_da + E_bc +
// E_cb), density 8/16 = 0.5. The document-vector correlation (Figure 3a) of
// the 0/1 rows a = (1,1,0,0), b = (1,1,1,0), c = (1,0,0,1), d = (0,0,1,1):
// cos(a,b) = 2/√6, cos(a,c) = cos(c,d) = 1/2, cos(b,c) = cos(b,d) = 1/√6,
// cos(a,d) = 0: density 14/16.
func toyCorpus(t *testing.T) (d, dt *sparse.CSR) {
	return toyD(t, 4, []map[int]float64{{0: 1, 1: 1, 2: 1}, {0: 1, 1: 1}, {1: 1, 3: 1}, {2: 1, 3: 1}})
}

func TestToyCorrelationByHand(t *testing.T) {
	d, dt := toyCorpus(t)
	ln2, ln43, ln32 := 0.6931471805599453, 0.28768207245178085, 0.4054651081081644
	wantN := [4][4]float64{{0, 2, 1, 0}, {2, 0, 1, 1}, {1, 1, 0, 1}, {0, 1, 1, 0}}
	wantW := [4][4]float64{{0, ln2, ln43, 0}, {ln2, 0, 0, ln32}, {ln43, 0, 0, ln2}, {0, ln32, ln2, 0}}
	const c = 0.7972291697001205
	wantS := [4][4]float64{{1, 0, 0, c}, {0, 1, c, 0}, {0, c, 1, 0}, {c, 0, 0, 1}}
	for _, storage := range []symmetric.Storage{symmetric.StorageSparse, symmetric.StorageDense, symmetric.StorageAuto} {
		corr, err := TermCorrelation(nil, d, dt, PerDocument, storage)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			for j := 0; j < 4; j++ {
				if got := corr.CoOccurrence.At(i, j); got != wantN[i][j] {
					t.Errorf("n(%d,%d) = %v, want %v", i, j, got, wantN[i][j])
				}
				if got := corr.PPMI.At(i, j); !near(got, wantW[i][j], 1e-15) {
					t.Errorf("PPMI(%d,%d) = %v, want %v", i, j, got, wantW[i][j])
				}
				if got := corr.S.At(i, j); !near(got, wantS[i][j], 1e-15) {
					t.Errorf("%v: S(%d,%d) = %v, want %v", storage, i, j, got, wantS[i][j])
				}
			}
		}
		if corr.PPMI.NNZ() != 8 { // ln 1 = 0 for (b,c) is not stored
			t.Errorf("PPMI stores %d entries, want 8", corr.PPMI.NNZ())
		}
		if got := corr.S.Density(); got != 0.5 {
			t.Errorf("%v: S density %v, want 0.5", storage, got)
		}
		if storage == symmetric.StorageAuto && !corr.S.IsDense() {
			t.Errorf("auto storage at density 0.5 should be dense (symmetric.DenseThreshold %v)", symmetric.DenseThreshold)
		}
	}
	dv := DocumentVectorCorrelation(nil, d, symmetric.StorageSparse)
	r6 := 1 / math.Sqrt(6)
	wantDV := [4][4]float64{{1, 2 * r6, 0.5, 0}, {2 * r6, 1, r6, r6}, {0.5, r6, 1, 0.5}, {0, r6, 0.5, 1}}
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if got := dv.At(i, j); !near(got, wantDV[i][j], 1e-15) {
				t.Errorf("document-vector cos(%d,%d) = %v, want %v", i, j, got, wantDV[i][j])
			}
		}
	}
	if got := dv.Density(); got != 14.0/16 {
		t.Errorf("document-vector density %v, want 14/16", got)
	}
}

// Multiplicity against per-document counting on raw counts:
//
//	d1 = {a:2, b:1}, d2 = {a:1, c:1}, d3 = {b:1, c:3}.
//
// Multiplicity: n(a,b) = 2·1 = 2, n(a,c) = 1, n(b,c) = 1·3 = 3; r = (3, 5, 4),
// T = 12; PPMI(a,b) = ln(2·12/15) = ln 1.6, PPMI(a,c) = ln(12/12) = 0,
// PPMI(b,c) = ln(3·12/20) = ln 1.8. w_a = (0, ln1.6, 0), w_c = (0, ln1.8, 0)
// are parallel: cos(a,c) = 1; cos(a,b) = cos(b,c) = 0.
// Per document: every n = 1, r = 2, T = 6, every PPMI = ln(6/4) = ln 1.5;
// w_a = ln1.5·(0,1,1) etc.: every off-diagonal cosine = 1/2.
func TestCountModes(t *testing.T) {
	d, dt := toyD(t, 3, []map[int]float64{{0: 2, 1: 1}, {0: 1, 2: 1}, {1: 1, 2: 3}})
	mult, err := TermCorrelation(nil, d, dt, Multiplicity, symmetric.StorageSparse)
	if err != nil {
		t.Fatal(err)
	}
	wantW := [3][3]float64{{0, math.Log(1.6), 0}, {math.Log(1.6), 0, math.Log(1.8)}, {0, math.Log(1.8), 0}}
	wantS := [3][3]float64{{1, 0, 1}, {0, 1, 0}, {1, 0, 1}}
	per, err := TermCorrelation(nil, d, dt, PerDocument, symmetric.StorageSparse)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if got := mult.PPMI.At(i, j); !near(got, wantW[i][j], 1e-15) {
				t.Errorf("multiplicity PPMI(%d,%d) = %v, want %v", i, j, got, wantW[i][j])
			}
			if got := mult.S.At(i, j); !near(got, wantS[i][j], 1e-15) {
				t.Errorf("multiplicity S(%d,%d) = %v, want %v", i, j, got, wantS[i][j])
			}
			wp, ws := math.Log(1.5), 0.5
			if i == j {
				wp, ws = 0, 1
			}
			if got := per.PPMI.At(i, j); !near(got, wp, 1e-15) {
				t.Errorf("per-document PPMI(%d,%d) = %v, want %v", i, j, got, wp)
			}
			if got := per.S.At(i, j); !near(got, ws, 1e-15) {
				t.Errorf("per-document S(%d,%d) = %v, want %v", i, j, got, ws)
			}
		}
	}
}

// A term that never co-occurs (alone in its documents) has no context
// vector: its row and column of S are zero, its diagonal included.
func TestIsolatedTerm(t *testing.T) {
	d, dt := toyD(t, 3, []map[int]float64{{0: 1, 1: 1}, {2: 1}, {0: 1, 1: 1}})
	corr, err := TermCorrelation(nil, d, dt, PerDocument, symmetric.StorageDense)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < 3; j++ {
		if corr.S.At(2, j) != 0 || corr.S.At(j, 2) != 0 {
			t.Errorf("S row/column of the isolated term: S(2,%d) = %v", j, corr.S.At(2, j))
		}
	}
	// n(a,b) = 2, r = (2, 2), T = 4: PPMI = ln(2·4/4) = ln 2; cos(a,b) = 0
	// (w_a = (0, ln2, 0), w_b = (ln2, 0, 0)).
	if got := corr.PPMI.At(0, 1); !near(got, math.Ln2, 1e-15) {
		t.Errorf("PPMI(a,b) = %v, want ln 2", got)
	}
	if corr.S.At(0, 0) != 1 || corr.S.At(0, 1) != 0 {
		t.Errorf("S(a,·) = %v %v, want 1 0", corr.S.At(0, 0), corr.S.At(0, 1))
	}
}

func TestCorrelationErrors(t *testing.T) {
	d, dt := toyCorpus(t)
	if _, err := TermCorrelation(nil, d, dt.SelectRows([]int{0, 1, 2}), PerDocument, symmetric.StorageAuto); err == nil {
		t.Error("mismatched DT accepted")
	}
	if _, err := TermCorrelation(nil, d, dt, CountMode(7), symmetric.StorageAuto); err == nil {
		t.Error("bad count mode accepted")
	}
	bad := d.Clone()
	bad.Val[3] = math.NaN()
	if _, err := TermCorrelation(nil, bad, bad.T(), PerDocument, symmetric.StorageAuto); err == nil {
		t.Error("NaN weight accepted")
	}
	// Empty corpus: no terms.
	empty := &sparse.CSR{Rows: 0, Cols: 0, RowPtr: []int{0}}
	corr, err := TermCorrelation(nil, empty, empty, PerDocument, symmetric.StorageAuto)
	if err != nil || corr.S.Size() != 0 || corr.S.Density() != 0 {
		t.Errorf("empty corpus: %v, %v", corr, err)
	}
}

// S is the same bits sparse or dense and for 1 or 2 workers, and exactly
// symmetric.
func TestCorrelationDeterministic(t *testing.T) {
	d, dt := randomShortCorpus(300, 900, 8, 11)
	ref, err := TermCorrelation(parallel.NewPool(1), d, dt, PerDocument, symmetric.StorageDense)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 2} {
		for _, st := range []symmetric.Storage{symmetric.StorageSparse, symmetric.StorageDense} {
			got, err := TermCorrelation(parallel.NewPool(w), d, dt, PerDocument, st)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 300; i++ {
				for j := 0; j < 300; j++ {
					a, b := got.S.At(i, j), ref.S.At(i, j)
					if math.Float64bits(a) != math.Float64bits(b) {
						t.Fatalf("workers %d %v: S(%d,%d) = %v, want %v bits", w, st, i, j, a, b)
					}
					if math.Float64bits(a) != math.Float64bits(got.S.At(j, i)) {
						t.Fatalf("S not symmetric at (%d,%d)", i, j)
					}
				}
			}
			if got.S.NNZ() != ref.S.NNZ() {
				t.Errorf("NNZ %d vs %d", got.S.NNZ(), ref.S.NNZ())
			}
		}
	}
}

// TestMultiplicityOverflow: Multiplicity counts of weights near 1e308
// overflow float64; the term correlation reports it instead of dropping
// every NaN weight into a silent all-zero S (issue 11 item 6). The same
// matrix counted per document has finite counts and a non-zero S.
func TestMultiplicityOverflow(t *testing.T) {
	d, dt := toyD(t, 3, []map[int]float64{{0: 1e308, 1: 1e308}, {0: 1e308, 2: 1e308}, {1: 1e308, 2: 1e308}})
	if _, err := TermCorrelation(nil, d, dt, Multiplicity, symmetric.StorageAuto); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("Multiplicity on 1e308 weights: error %v, want one naming the overflow", err)
	}
	corr, err := TermCorrelation(nil, d, dt, PerDocument, symmetric.StorageAuto)
	if err != nil {
		t.Fatal(err)
	}
	if f := corr.S.FrobeniusSq(nil); !(f > 0) {
		t.Errorf("per-document S: ‖S‖² = %v, want > 0", f)
	}
}
