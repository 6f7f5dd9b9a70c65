package grouping

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/dense"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// corpus is a random m×n labelled corpus (testcorpus.Labelled); labels[n]
// given.
func corpus(t *testing.T, m int, labels []int, np int, seed uint64) *engine.Corpus {
	t.Helper()
	rnd := engine.NewRand(seed)
	var ts []sparse.Triplet
	for j := range labels {
		for i := 0; i < m; i++ {
			if rnd.Float64() < 0.3 {
				ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: 1 + rnd.Float64()})
			}
		}
	}
	d, err := sparse.FromTriplets(m, len(labels), ts)
	if err != nil {
		t.Fatal(err)
	}
	return testcorpus.Labelled(t, d, labels, np)
}

func randDense(r, c int, seed uint64, zeros float64) *mat.Dense {
	rnd := engine.NewRand(seed)
	a := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if rnd.Float64() >= zeros {
				a.Set(i, j, rnd.NormFloat64())
			}
		}
	}
	return a
}

func near(t *testing.T, what string, got, want *mat.Dense) {
	t.Helper()
	r, c := want.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s: %d×%d, want %d×%d", what, gr, gc, r, c)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if d := math.Abs(got.At(i, j) - want.At(i, j)); d > 1e-10*math.Max(1, math.Abs(want.At(i, j))) {
				t.Fatalf("%s[%d,%d] = %v, want %v", what, i, j, got.At(i, j), want.At(i, j))
			}
		}
	}
}

func TestLayout(t *testing.T) {
	labels := []int{2, 0, 2, 1, 0, 2}
	c := corpus(t, 7, labels, 4, 1) // class 3 empty
	l, err := New(c, "test")
	if err != nil {
		t.Fatal(err)
	}
	wantOrder := []int{1, 4, 3, 0, 2, 5}
	for i, n := range wantOrder {
		if l.Order[i] != n || l.Pos[n] != i || int(l.ClassOf[i]) != labels[n] {
			t.Fatalf("order %v pos %v classOf %v", l.Order, l.Pos, l.ClassOf)
		}
	}
	if fmt.Sprint(l.Offset) != "[0 2 3 6 6]" || l.Identity || l.Size(3) != 0 {
		t.Fatalf("offset %v identity %v", l.Offset, l.Identity)
	}
	// D's column i is the corpus column Order[i]; DT is its transpose.
	for i, n := range l.Order {
		for m := 0; m < 7; m++ {
			if l.D.At(m, i) != c.D.At(m, n) || l.DT.At(i, m) != c.D.At(m, n) {
				t.Fatalf("permuted D differs at term %d, position %d", m, i)
			}
		}
	}
	if fmt.Sprint(l.Units(2)) != "[{0 0 2} {1 2 3} {2 3 5} {2 5 6}]" {
		t.Errorf("units %v", l.Units(2))
	}
	// Already in class order: the corpus matrices themselves.
	c2 := corpus(t, 5, []int{0, 0, 1}, 2, 2)
	l2, err := New(c2, "test")
	if err != nil || !l2.Identity || l2.D != c2.D || l2.DT != c2.DT {
		t.Errorf("identity layout: %v %v", l2.Identity, err)
	}
	sub, err := l.ClassCorpus(c, 2)
	if err != nil || sub.Docs() != 3 || sub.D.At(0, 1) != c.D.At(0, 2) || sub.DocIDs[2] != "5" || sub.Name != "group/class2" {
		t.Errorf("class corpus: %v", err)
	}
	v := RowView(l.DT, 2, 5)
	if v.Rows != 3 || v.RowPtr[0] != 0 || v.NNZ() != l.DT.RowPtr[5]-l.DT.RowPtr[2] || v.At(1, 3) != l.DT.At(3, 3) {
		t.Error("RowView")
	}
}

func TestLayoutErrors(t *testing.T) {
	c := corpus(t, 4, []int{0, 1}, 2, 1)
	plain, _ := engine.NewCorpus("plain", c.Vocab, c.D, nil, nil, nil)
	part, _ := engine.NewCorpus("part", c.Vocab, c.D, []string{"a", "b"}, []int{0, -1}, c.ClassNames)
	for _, tc := range []struct {
		c    *engine.Corpus
		want string
	}{{nil, "nil corpus"}, {plain, "no class labels"}, {part, "document b (column 1) has no class"}} {
		if _, err := New(tc.c, "who"); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "who: ") {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

func TestKernels(t *testing.T) {
	// Every kernel against a direct gonum computation, and the same bits
	// for pools of 1 and 2 workers. Sizes span several fixed blocks
	// (more than 1024 rows and documents).
	c := corpus(t, 1100, testcorpus.ClassLabels(3, 1500, 7, 0, 600), 4, 5)
	l, err := New(c, "test")
	if err != nil {
		t.Fatal(err)
	}
	const k = 3
	w := randDense(l.N, k, 1, 0.2)
	dd := mat.NewDense(l.M, l.N, nil)
	for i := 0; i < l.M; i++ {
		idx, val := l.D.Row(i)
		for q, j := range idx {
			dd.Set(i, int(j), val[q])
		}
	}
	run := func(p *parallel.Pool) []*mat.Dense {
		var out []*mat.Dense
		out = append(out, l.ClassGrams(p, w)...)
		bd := mat.NewDense(l.M, l.P*k, nil)
		l.MulBlockDiag(p, bd, w)
		out = append(out, bd)
		a, b := randDense(l.M, 2, 7, 0.5), randDense(l.M, l.P*k, 8, 0.3)
		cp := mat.NewDense(2, l.P*k, nil)
		CrossProduct(p, cp, a, b)
		out = append(out, cp)
		bg := []*mat.Dense{mat.NewDense(k, k, nil), mat.NewDense(k, k, nil), mat.NewDense(k, k, nil), mat.NewDense(k, k, nil)}
		BlockGrams(p, bg, b, k)
		out = append(out, bg...)
		md := mat.NewDense(l.M, l.P*k, nil)
		MulBlockDiagDense(p, md, b, bg)
		out = append(out, md)
		out = append(out, mat.NewDense(1, 1, []float64{dense.SumAbs(p, b)}))
		u := mat.NewDense(l.M, 2+l.P*k, nil)
		u.Slice(0, l.M, 0, 2).(*mat.Dense).Copy(a)
		u.Slice(0, l.M, 2, 2+l.P*k).(*mat.Dense).Copy(b)
		utu := []*mat.Dense{mat.NewDense(2+k, 2+k, nil), mat.NewDense(2+k, 2+k, nil), mat.NewDense(2+k, 2+k, nil), mat.NewDense(2+k, 2+k, nil)}
		TopicGrams(p, u, 2, k, utu)
		out = append(out, utu...)
		return append(out, a, b, u)
	}
	r1, r2 := run(parallel.NewPool(1)), run(parallel.NewPool(2))
	for i := range r1 {
		if !matcmp.BitsEqual(r1[i], r2[i]) {
			t.Errorf("result %d differs between 1 and 2 workers", i)
		}
	}
	// Direct references.
	for p := 0; p < l.P; p++ {
		want := mat.NewDense(k, k, nil)
		for i := l.Offset[p]; i < l.Offset[p+1]; i++ {
			for x := 0; x < k; x++ {
				for y := 0; y < k; y++ {
					want.Set(x, y, want.At(x, y)+w.At(i, x)*w.At(i, y))
				}
			}
		}
		near(t, fmt.Sprint("ClassGrams ", p), r1[p], want)
	}
	// A class starting at position 0 is dense.Gram of its rows, bit for bit.
	g0 := mat.NewDense(k, k, nil)
	dense.Gram(parallel.NewPool(1), g0, w.Slice(0, l.Offset[1], 0, k).(*mat.Dense))
	if !matcmp.BitsEqual(g0, r1[0]) {
		t.Error("ClassGrams of class 0 differs from dense.Gram")
	}
	bd := mat.NewDense(l.M, l.P*k, nil)
	for p := 0; p < l.P; p++ {
		if l.Size(p) == 0 {
			continue
		}
		var x mat.Dense
		x.Mul(dd.Slice(0, l.M, l.Offset[p], l.Offset[p+1]), w.Slice(l.Offset[p], l.Offset[p+1], 0, k))
		bd.Slice(0, l.M, p*k, (p+1)*k).(*mat.Dense).Copy(&x)
	}
	near(t, "MulBlockDiag", r1[4], bd)
	a, b, u := r1[len(r1)-3], r1[len(r1)-2], r1[len(r1)-1]
	var cp mat.Dense
	cp.Mul(a.T(), b)
	near(t, "CrossProduct", r1[5], &cp)
	md := mat.NewDense(l.M, l.P*k, nil)
	for p := 0; p < l.P; p++ {
		bp := b.Slice(0, l.M, p*k, (p+1)*k)
		var g mat.Dense
		g.Mul(bp.T(), bp)
		near(t, fmt.Sprint("BlockGrams ", p), r1[6+p], &g)
		var x mat.Dense
		x.Mul(bp, &g)
		md.Slice(0, l.M, p*k, (p+1)*k).(*mat.Dense).Copy(&x)
	}
	near(t, "MulBlockDiagDense", r1[10], md)
	sa := 0.0
	for _, x := range b.RawMatrix().Data {
		sa += math.Abs(x)
	}
	if math.Abs(r1[11].At(0, 0)-sa) > 1e-10*sa {
		t.Errorf("SumAbs %v, want %v", r1[11].At(0, 0), sa)
	}
	for p := 0; p < l.P; p++ {
		ut := mat.NewDense(l.M, 2+k, nil)
		ut.Slice(0, l.M, 0, 2).(*mat.Dense).Copy(u.Slice(0, l.M, 0, 2))
		ut.Slice(0, l.M, 2, 2+k).(*mat.Dense).Copy(u.Slice(0, l.M, 2+p*k, 2+(p+1)*k))
		var g mat.Dense
		g.Mul(ut.T(), ut)
		near(t, fmt.Sprint("TopicGrams ", p), r1[12+p], &g)
	}
}

func TestMergeAndRunClasses(t *testing.T) {
	// Three classes of 3, 1 and 2 iterations run in lockstep: the merged
	// record has 3 iterations, each recorded only once every class reached
	// it (or stopped), with sums that keep a stopped class's last value and
	// sparsities weighted by entries.
	its := func(objs ...float64) []engine.Iteration {
		var out []engine.Iteration
		for i, o := range objs {
			out = append(out, engine.Iteration{Iter: i + 1, Seconds: 1, Objective: o,
				Terms: []engine.Term{{Name: "loss", Value: o}}, Sparsity: []engine.Term{{Name: "U", Value: o / 100}}})
		}
		return out
	}
	plans := map[int][]engine.Iteration{0: its(10, 8, 7), 1: its(5), 2: its(20, 19)}
	var progress [3]atomic.Int64
	out := engine.NewRecorder()
	out.OnIteration = func(it engine.Iteration) {
		for p := range plans {
			if got := progress[p].Load(); got < int64(min(it.Iter, len(plans[p]))) {
				t.Errorf("merged iteration %d recorded before class %d reached it (%d)", it.Iter, p, got)
			}
		}
	}
	runs, err := RunClasses([]int{0, 1, 2}, func(p int, rec *engine.Recorder) (engine.Status, error) {
		for _, it := range plans[p] {
			progress[p].Store(int64(it.Iter))
			rec.Record(it)
		}
		n := len(plans[p])
		return engine.Status{Reason: engine.Converged, Iterations: n, Objective: plans[p][n-1].Objective}, nil
	}, func(p int) []float64 { return []float64{float64(p + 1)} }, out)
	if err != nil {
		t.Fatal(err)
	}
	got := out.Iterations()
	wantObj := []float64{35, 32, 31}
	if len(got) != 3 {
		t.Fatalf("%d merged iterations", len(got))
	}
	for i, it := range got {
		if it.Iter != i+1 || it.Objective != wantObj[i] || it.Terms[0].Value != wantObj[i] {
			t.Errorf("merged iteration %d: %+v", i+1, it)
		}
	}
	// Sparsity at iteration 1: (0.10·1 + 0.05·2 + 0.20·3) / 6.
	if s := got[0].Sparsity[0].Value; math.Abs(s-0.8/6) > 1e-15 {
		t.Errorf("sparsity %v", s)
	}
	if got[2].Seconds != 1 || got[0].Seconds != 3 {
		t.Errorf("seconds %v %v", got[0].Seconds, got[2].Seconds)
	}
	st := MergeStatus(runs, []string{"a", "b", "c"})
	if st.Reason != engine.Converged || st.Iterations != 3 || st.Objective != 31 {
		t.Errorf("status %v", st)
	}
	runs[1].Status = engine.Status{Reason: engine.NumericalFailure, Detail: "boom"}
	if st := MergeStatus(runs, []string{"a", "b", "c"}); st.Reason != engine.NumericalFailure || st.Detail != "class b: boom" {
		t.Errorf("failure status %v", st)
	}
	// An error of one class is returned; the others still finish.
	_, err = RunClasses([]int{0, 1}, func(p int, rec *engine.Recorder) (engine.Status, error) {
		if p == 1 {
			return engine.Status{}, errors.New("bad class")
		}
		rec.Record(engine.Iteration{Iter: 1})
		return engine.Status{Reason: engine.Converged, Iterations: 1}, nil
	}, func(int) []float64 { return nil }, nil)
	if err == nil || err.Error() != "bad class" {
		t.Errorf("error %v", err)
	}
}

// TestCheckK: a group model's Ks + Kc (or Kp) topics per document are
// bounded by min(M, N) in engine.CheckFactors's words, while its whole K =
// Ks + P·Kc may exceed it (GMF fits K ≥ 1,000 on fewer terms); a per-class
// baseline's merged width is bounded by memory only; a K beyond the int
// range is refused.
func TestCheckK(t *testing.T) {
	labels := make([]int, 60)
	for n := range labels {
		labels[n] = n % 3
	}
	l, err := New(corpus(t, 30, labels, 3, 1), "g")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{l.CheckK("g", 40, 10, "Kc"), "g: Ks + Kc = 40 + 10 = 50 exceeds min(M, N) = min(30 terms, 60 documents) = 30"},
		{l.CheckK("g", 1, math.MaxInt/2, "Kp"), fmt.Sprintf("g: Ks + Kp = 1 + %d = %d exceeds min(M, N) = min(30 terms, 60 documents) = 30", math.MaxInt/2, math.MaxInt/2+1)},
		{l.CheckK("g", 3, 9, "Kc"), ""},
		{l.CheckK("g", 10, 15, "Kc"), ""}, // K = 10 + 3·15 = 55 > 30
		{l.checkMerged("g", 11), ""},      // K = 3·11 = 33 > 30
		{CheckTopics("g", struct{}{}, 2, math.MaxInt), fmt.Sprintf("g: Ks + Kc = 2 + %d is beyond the int range", math.MaxInt)},
	} {
		if got := fmt.Sprint(tc.err); tc.want == "" && tc.err != nil || tc.want != "" && got != tc.want {
			t.Errorf("got %v, want %q", tc.err, tc.want)
		}
	}
	if engine.Memory() == 0 {
		return // no memory check on this system
	}
	if err := l.checkMerged("g", math.MaxInt/2); err == nil || !strings.Contains(err.Error(), "need at least") {
		t.Errorf("a merged width whose factors cannot be held: %v, want the memory error", err)
	}
}
