package lda

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/enginetest"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

func resolved(t testing.TB, o Options, m, n int) settings {
	t.Helper()
	set, err := o.resolve(m, n)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestCountsStayConsistent(t *testing.T) {
	pc := testcorpus.Planted(t, 1, 40, 30, 3, 25)
	s, err := newSampler(resolved(t, Options{K: 4, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, 40, 30), pc.C.DT)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		s.sweep()
	}
	k := 4
	// Σ_k n_wk = occurrences of w; Σ_k n_dk = n_d; n_k = Σ_w n_wk; and the
	// counts are those of the assignment z.
	nwk, ndk, nk := make([]float64, 40*k), make([]float64, 30*k), make([]float64, k)
	for d := 0; d < 30; d++ {
		for i := s.docPtr[d]; i < s.docPtr[d+1]; i++ {
			nwk[int(s.words[i])*k+int(s.z[i])]++
			ndk[d*k+int(s.z[i])]++
			nk[s.z[i]]++
		}
		idx, val := pc.C.DT.Row(d)
		_ = idx
		n := 0.0
		for _, v := range val {
			n += v
		}
		if float64(s.docPtr[d+1]-s.docPtr[d]) != n {
			t.Fatalf("document %d has %d tokens, want %v", d, s.docPtr[d+1]-s.docPtr[d], n)
		}
	}
	for i := range nwk {
		if nwk[i] != s.nwk[i] {
			t.Fatalf("n_wk[%d] = %v, recount %v", i, s.nwk[i], nwk[i])
		}
	}
	for i := range ndk {
		if ndk[i] != s.ndk[i] {
			t.Fatalf("n_dk[%d] = %v, recount %v", i, s.ndk[i], ndk[i])
		}
	}
	for i := range nk {
		if nk[i] != s.nk[i] || s.invDen[i] != 1/(nk[i]+40*s.set.beta) {
			t.Fatalf("n_k[%d] = %v, recount %v", i, s.nk[i], nk[i])
		}
	}
}

func TestSamplerStationaryDistribution(t *testing.T) {
	// The collapsed Gibbs chain's stationary distribution is p(z|w) ∝
	// p(w|z)·p(z) (G&S Eq. 2 and its θ counterpart):
	//
	//	p(z) ∝ Π_d Π_k Γ(n_dk + α),   p(w|z) ∝ Π_k Π_w Γ(n_wk + β) / Γ(n_k + Mβ)
	//
	// (factors equal for every z dropped). On 2 documents of 2 tokens and
	// K = 2 there are 16 states; the sampler's visit frequencies must match
	// the exact probabilities, which checks Eq. 5 as implemented.
	d, _ := sparse.FromTriplets(3, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 1, Col: 0, Val: 1}, {Row: 1, Col: 1, Val: 1}, {Row: 2, Col: 1, Val: 1}})
	c := testcorpus.CorpusOf(t, d)
	alpha, beta := 0.7, 0.3
	s, err := newSampler(resolved(t, Options{K: 2, Alpha: alpha, Beta: beta, Seed: 3, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, 3, 2), c.DT)
	if err != nil {
		t.Fatal(err)
	}
	// Tokens in sweep order: (doc 0, w0), (doc 0, w1), (doc 1, w1), (doc 1, w2).
	docOf := []int{0, 0, 1, 1}
	wordOf := []int{0, 1, 1, 2}
	exact := make([]float64, 16)
	total := 0.0
	for state := range 16 {
		var ndk [2][2]float64
		var nwk [3][2]float64
		var nk [2]float64
		for i := range 4 {
			z := state >> i & 1
			ndk[docOf[i]][z]++
			nwk[wordOf[i]][z]++
			nk[z]++
		}
		lp := 0.0
		for dd := range 2 {
			for z := range 2 {
				lp += lgamma(ndk[dd][z] + alpha)
			}
		}
		for z := range 2 {
			for w := range 3 {
				lp += lgamma(nwk[w][z] + beta)
			}
			lp -= lgamma(nk[z] + 3*beta)
		}
		exact[state] = math.Exp(lp)
		total += exact[state]
	}
	freq := make([]float64, 16)
	const sweeps = 200000
	for range sweeps {
		s.sweep()
		state := 0
		for i := range 4 {
			state |= int(s.z[i]) << i
		}
		freq[state]++
	}
	for state := range 16 {
		p := exact[state] / total
		f := freq[state] / sweeps
		// 0.006: about four standard errors of a frequency near 0.1 from
		// 200,000 mildly autocorrelated sweeps.
		if math.Abs(f-p) > 0.006 {
			t.Errorf("state %04b: frequency %.4f, exact %.4f", state, f, p)
		}
	}
}

func TestLogPWZMatchesDirect(t *testing.T) {
	pc := testcorpus.Planted(t, 2, 30, 20, 3, 15)
	s, err := newSampler(resolved(t, Options{K: 3, Beta: 0.05, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, 30, 20), pc.C.DT)
	if err != nil {
		t.Fatal(err)
	}
	s.sweep()
	// G&S Eq. 2 term by term, zero counts included.
	m, k, beta := 30.0, 3, 0.05
	direct := float64(k) * (lgamma(m*beta) - m*lgamma(beta))
	for z := 0; z < k; z++ {
		for w := 0; w < 30; w++ {
			direct += lgamma(s.nwk[w*k+z] + beta)
		}
		direct -= lgamma(s.nk[z] + m*beta)
	}
	if got := s.logPWZ(); math.Abs(got-direct) > 1e-11*math.Abs(direct) {
		t.Errorf("log p(w|z) = %.15g, direct %.15g", got, direct)
	}
}

func TestRecoversPlantedTopicsAndFoldsIn(t *testing.T) {
	pc := testcorpus.Planted(t, 3, 100, 300, 5, 80)
	rec := engine.NewRecorder()
	o := Options{K: 5, Alpha: 0.5, Iters: 200, Seed: 1, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}
	model, st, err := o.Fit(context.Background(), pc.C, rec)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reason != engine.IterationLimit || st.Iterations != 200 {
		t.Errorf("status %v", st)
	}
	phi, theta := model.TermTopics(), model.DocTopics()
	enginetest.Distributions(t, phi, theta, "φ", "θ")
	// 0.95 as for PLSI: well-separated planted topics, 24,000 tokens.
	mc := testcorpus.MatchedCosine(pc.Phi, phi)
	if mc < 0.95 {
		t.Errorf("mean matched cosine %.4f < 0.95", mc)
	}
	// Folding-in a training document samples its topics given φ and
	// averages 50 sweeps; the fit's θ averages 100 sweeps of the same
	// document's topics (given counts close to φ). Both estimate the
	// posterior mean of θ_d, so they differ by Monte Carlo error: a single
	// sweep's proportions of an 80-token document vary by about
	// √(0.2·0.8/80) ≈ 0.045 per topic, an average of tens of sweeps by a few
	// thousandths. 0.05 in mean L1 (of at most 2) leaves room for that and
	// fails when fold-in ignores the document (the uniform θ is about 1 away).
	fold, err := model.FoldIn(context.Background(), pc.C.DT)
	if err != nil {
		t.Fatal(err)
	}
	mean := 0.0
	for _, l1 := range matcmp.RowL1(fold, theta) {
		mean += l1 / 300
	}
	if mean > 0.05 {
		t.Errorf("fold-in of training documents: mean L1 distance %.4f from θ", mean)
	}
	t.Logf("matched cosine %.4f, fold-in mean L1 %.4f", mc, mean)

	// The objective is recorded every 10 sweeps and after the last, NaN
	// otherwise; it falls from the random start.
	its := rec.Iterations()
	if len(its) != 200 {
		t.Fatalf("%d records", len(its))
	}
	for _, it := range its {
		eval := it.Iter%10 == 0
		if eval != !math.IsNaN(it.Objective) || (eval && (len(it.Terms) != 1 || it.Terms[0].Name != TermNegLogPWZ)) {
			t.Errorf("iteration %d: objective %v, terms %v", it.Iter, it.Objective, it.Terms)
		}
	}
	if !(its[199].Objective < its[9].Objective) || st.Objective != its[199].Objective {
		t.Errorf("objective %v after 10 sweeps, %v after 200 (status %v)", its[9].Objective, its[199].Objective, st.Objective)
	}
}

func TestDeterminismAcrossPools(t *testing.T) {
	pc := testcorpus.Planted(t, 4, 300, 400, 4, 20) // more than one term block
	ref, refFold := enginetest.SameAcrossPools(t, pc.C, func(p *parallel.Pool, rec *engine.Recorder) (engine.Model, error) {
		m, _, err := Options{K: 6, Iters: 12, EvalEvery: 3, Seed: 5, Pool: p, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), pc.C, rec)
		return m, err
	})
	m2, _, _ := Options{K: 6, Iters: 12, Seed: 6, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), pc.C, nil)
	if matcmp.BitsEqual(m2.TermTopics(), ref.TermTopics()) {
		t.Error("seeds 5 and 6 gave the same fit")
	}
	// Fold-in depends on a document's content only: rows in reverse order
	// give the same θ rows.
	rows := make([]int, pc.C.DT.Rows)
	for i := range rows {
		rows[i] = len(rows) - 1 - i
	}
	rev, err := ref.FoldIn(context.Background(), pc.C.DT.SelectRows(rows))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		for z := 0; z < 6; z++ {
			if rev.At(i, z) != refFold.At(r, z) {
				t.Fatalf("fold-in of document %d depends on its row", r)
			}
		}
	}
}

func TestFoldInOneToken(t *testing.T) {
	// With one token, every fold-in sweep draws z ∝ α·φ_wk afresh, so
	// θ_k → (φ_wk/Σ_j φ_wj + α)/(1 + Kα) as the sweeps grow.
	pc := testcorpus.Planted(t, 5, 30, 40, 3, 20)
	model, _, err := Options{K: 3, Iters: 30, FoldInIters: 40000, Seed: 2, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), pc.C, nil)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := sparse.FromTriplets(2, 30, []sparse.Triplet{{Row: 0, Col: 4, Val: 1}})
	got, err := model.FoldIn(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	alpha, _ := model.(*Model).Hyperparameters()
	phi := model.TermTopics()
	s := phi.At(4, 0) + phi.At(4, 1) + phi.At(4, 2)
	for z := 0; z < 3; z++ {
		want := (phi.At(4, z)/s + alpha) / (1 + 3*alpha)
		// 20,000 independent draws: standard error ≤ 0.0035/(1+3α).
		if math.Abs(got.At(0, z)-want) > 0.01 {
			t.Errorf("θ_%d = %.4f, want %.4f", z, got.At(0, z), want)
		}
		if math.Abs(got.At(1, z)-1.0/3) > 1e-15 {
			t.Errorf("empty document: θ_%d = %v, want 1/3", z, got.At(1, z))
		}
	}
}

func TestCountsRule(t *testing.T) {
	pc := testcorpus.Planted(t, 6, 20, 15, 2, 10)
	frac := *pc.C
	frac.D = pc.C.D.Clone()
	frac.D.Val[5] += 0.4
	frac.DT = frac.D.T()
	w, d := frac.D.Locate(5)
	_, _, err := Options{K: 2, Iters: 3, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), &frac, nil)
	if err == nil || !strings.Contains(err.Error(), "not an integer") || !strings.Contains(err.Error(), "round=true") ||
		!strings.Contains(err.Error(), "--weighting tf --norm none") || strings.Contains(err.Error(), "RoundWeights") ||
		!strings.Contains(err.Error(), fmt.Sprintf("D[%d,%d] = %v", w, d, frac.D.Val[5])) {
		t.Fatalf("non-integer count: %v", err)
	}
	// RoundWeights rounds x+0.4 back to x: the same fit as the integer corpus.
	a, _, err := Options{K: 2, Iters: 3, RoundWeights: true, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), &frac, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := Options{K: 2, Iters: 3, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), pc.C, nil)
	if !matcmp.BitsEqual(a.TermTopics(), b.TermTopics()) || !matcmp.BitsEqual(a.DocTopics(), b.DocTopics()) {
		t.Error("rounded corpus fits differently")
	}
	// Fold-in follows the same rule.
	q, _ := sparse.FromTriplets(1, 20, []sparse.Triplet{{Row: 0, Col: 3, Val: 1.5}})
	if _, err := b.FoldIn(context.Background(), q); err == nil || !strings.Contains(err.Error(), "X[0,3]") {
		t.Errorf("fold-in of 1.5: %v", err)
	}
	if _, err := a.FoldIn(context.Background(), q); err != nil {
		t.Errorf("fold-in of 1.5 with RoundWeights: %v", err)
	}
}

func TestValidation(t *testing.T) {
	pc := testcorpus.Planted(t, 7, 10, 8, 2, 10)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{K: 9, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, "K = 9 exceeds"},
		{Options{K: -2, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, "K = -2"},
		{Options{K: 2, Alpha: -1, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, "Alpha = -1"},
		{Options{K: 2, Beta: math.Inf(1), BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, "Beta = +Inf"},
		{Options{K: 2, Iters: -1, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, "Iters = -1"},
		{Options{K: 2, Iters: 10, BurnIn: 10, FoldInBurnIn: AutoBurnIn}, "BurnIn = 10"},
		{Options{K: 2, EvalEvery: -3, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, "EvalEvery"},
		{Options{K: 2, FoldInIters: 5, FoldInBurnIn: 7, BurnIn: AutoBurnIn}, "FoldInBurnIn = 7"},
	} {
		_, _, err := tc.o.Fit(context.Background(), pc.C, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want it to mention %q", tc.o, err, tc.want)
		}
	}
	set := resolved(t, Options{K: 4, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, 10, 8)
	if set.alpha != 12.5 || set.beta != 0.1 || set.iters != 1000 || set.burnIn != 500 || set.evalEvery != 10 || set.foldIters != 100 || set.foldBurn != 50 {
		t.Errorf("defaults %+v", set)
	}
	if set := resolved(t, Options{K: 4, Iters: 7, BurnIn: 0, FoldInBurnIn: AutoBurnIn}, 10, 8); set.burnIn != 0 {
		t.Errorf("zero burn-in resolved to %d", set.burnIn)
	}
	if _, _, err := (Options{BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}).Fit(context.Background(), nil, nil); err == nil {
		t.Error("nil corpus accepted")
	}
	// Size 1: one term, one document, K = 1: φ = θ = 1.
	one, _ := sparse.FromTriplets(1, 1, []sparse.Triplet{{Row: 0, Col: 0, Val: 3}})
	m, st, err := Options{K: 1, Iters: 4, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), testcorpus.CorpusOf(t, one), nil)
	if err != nil || m.TermTopics().At(0, 0) != 1 || m.DocTopics().At(0, 0) != 1 || st.Iterations != 4 {
		t.Errorf("1×1: %v, %v", st, err)
	}
	// An empty document gets θ = 1/K.
	e, _ := sparse.FromTriplets(3, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: 2}, {Row: 2, Col: 0, Val: 1}})
	m, _, err = Options{K: 2, Iters: 4, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), testcorpus.CorpusOf(t, e), nil)
	if err != nil || m.DocTopics().At(1, 0) != 0.5 || m.DocTopics().At(1, 1) != 0.5 {
		t.Errorf("empty document: θ = %v, %v", mat.Formatted(m.DocTopics()), err)
	}
	if (Options{BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}).Name() != "lda" {
		t.Error("name")
	}
}

func TestFoldInErrors(t *testing.T) {
	pc := testcorpus.Planted(t, 8, 10, 8, 2, 10)
	model, _, _ := Options{K: 2, Iters: 3, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}.Fit(context.Background(), pc.C, nil)
	enginetest.FoldInErrors(t, model, pc.C.DT, 4, -2, "negative entry")
}

func TestCancellation(t *testing.T) {
	pc := testcorpus.Planted(t, 9, 30, 40, 3, 20)
	// Cancelled after sweep 7, the estimates average sweeps 6 and 7, as a
	// 7-sweep fit with the same burn-in does.
	m, _, _ := enginetest.Cancellation(t, 7, 10, func(ctx context.Context, iters int, rec *engine.Recorder) (engine.Model, engine.Status, error) {
		return Options{K: 3, Iters: iters, BurnIn: 5, Seed: 5, FoldInBurnIn: AutoBurnIn}.Fit(ctx, pc.C, rec)
	})
	if s := mat.Sum(m.TermTopics().ColView(0)); math.Abs(s-1) > 1e-12 {
		t.Errorf("pre-cancelled φ column sums to %v", s)
	}
}

func TestTokenBound(t *testing.T) {
	// Counts that would expand into more than MaxTokens = 2³¹ − 1 tokens
	// are refused before anything is allocated, with the total and the
	// entry where the counts pass it: D's in Fit, one document's in FoldIn,
	// whose sampler holds one document at a time, so a batch may hold more.
	big := float64(MaxTokens/2 + 1) // 2³⁰
	d, _ := sparse.FromTriplets(3, 3, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 1, Col: 1, Val: big},
		{Row: 2, Col: 1, Val: 1}, {Row: 0, Col: 2, Val: big}, {Row: 2, Col: 2, Val: 1}})
	want := "lda: D has 2147483651 tokens, more than MaxTokens = 2147483647, the sampler's limit; its counts pass it at D[0,2]"
	if m, _, err := (Options{K: 2, Iters: 2}).Fit(context.Background(), testcorpus.CorpusOf(t, d), nil); err == nil || err.Error() != want {
		t.Errorf("Fit: %v, %v; want %q", m, err, want)
	}
	pc := testcorpus.Planted(t, 10, 10, 8, 2, 10)
	model, _, err := Options{K: 2, Iters: 3}.Fit(context.Background(), pc.C, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		x    []sparse.Triplet
		want string
	}{
		{[]sparse.Triplet{{Row: 1, Col: 2, Val: 3e9}}, "lda: FoldIn: X[1,2] = 3e+09 tokens exceed MaxTokens = 2147483647"},
		{[]sparse.Triplet{{Row: 0, Col: 1, Val: 3}, {Row: 1, Col: 2, Val: big}, {Row: 1, Col: 5, Val: big}},
			"lda: FoldIn: document 1 of X has 2147483648 tokens, more than MaxTokens = 2147483647, the sampler's limit; its counts pass it at X[1,5]"},
	} {
		x, _ := sparse.FromTriplets(2, 10, tc.x)
		if th, err := model.FoldIn(context.Background(), x); err == nil || err.Error() != tc.want {
			t.Errorf("FoldIn %v: %v, %v; want %q", tc.x, th, err, tc.want)
		}
	}
	// Within MaxTokens, the bound is the memory the process may use (on a
	// machine of more than 4.2 GiB): 2²⁹ tokens of D (a 4 GiB sampler),
	// and three documents of 2²⁹ tokens each to fold in (12 GiB in all,
	// 4 GiB at a time), are accepted. The checks run before allocating.
	if mem := engine.Memory(); mem == 0 || mem < 9<<29 {
		t.Skipf("the memory the process may use (%d bytes) is unknown or smaller than 4.5 GiB", mem)
	}
	half := float64(1 << 28)
	d, _ = sparse.FromTriplets(2, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: half}, {Row: 1, Col: 1, Val: half}})
	if n, err := corpusTokens(d.T(), 2, false); n != 1<<29 || err != nil {
		t.Errorf("D of 2²⁹ tokens: %d, %v", n, err)
	}
	x, _ := sparse.FromTriplets(3, 10, []sparse.Triplet{{Row: 0, Col: 1, Val: half}, {Row: 0, Col: 2, Val: half},
		{Row: 1, Col: 1, Val: 2 * half}, {Row: 2, Col: 9, Val: 2 * half}})
	if err := checkDocuments(x, false); err != nil {
		t.Errorf("three documents of 2²⁹ tokens: %v", err)
	}
}

// TestFitRefusesWhatMemoryCannotHold: beyond its tokens, a fit's sampler
// holds 16 bytes × (M + N)·K of counts and estimates, twice what
// engine.CheckMemory bounds the factors with: sizes that pass the latter
// and not the former are refused before anything is allocated, naming the
// need and the limit.
func TestFitRefusesWhatMemoryCannotHold(t *testing.T) {
	mem := engine.Memory()
	if mem == 0 {
		t.Skip("the memory the process may use is unknown here")
	}
	// M = N = K with 8·2M² just under mem: the factors fit, the sampler not.
	m := int(math.Sqrt(float64(mem) / 16))
	d, err := sparse.FromTriplets(m, m, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: m - 1, Col: m - 1, Val: 2}})
	if err != nil {
		t.Fatal(err)
	}
	need := 3*bytesPerToken + 16*2*float64(m)*float64(m)
	want := fmt.Sprintf("lda: D has 3 tokens: its sampler needs at least %.0f bytes (%.3g GiB) for its tokens (8 bytes each), counts and estimates (16 bytes × (M + N)·K), more than the %d bytes", need, need/(1<<30), mem)
	if _, _, err := (Options{K: m, Iters: 2}).Fit(context.Background(), testcorpus.CorpusOf(t, d), nil); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Fit: %v, want %q…", err, want)
	}
}

func TestFoldInCancelledWithinADocument(t *testing.T) {
	// A billion fold-in sweeps of one document: the deadline must stop the
	// document's sampler, not wait for the next document.
	pc := testcorpus.Planted(t, 11, 20, 15, 2, 10)
	model, _, err := Options{K: 2, Iters: 3, FoldInIters: 1e9}.Fit(context.Background(), pc.C, nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.FoldInStopsWithinARow(t, model, pc.C.DT)
}

func BenchmarkSweep(b *testing.B) {
	// One Gibbs sweep at the foundation's benchmark size: 30,000 terms ×
	// 20,000 documents, 1.6M non-zeros (about 4M tokens), K = 100.
	c := testcorpus.BenchmarkCorpus(b)
	s, err := newSampler(resolved(b, Options{K: testcorpus.BenchK, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, c.Terms(), c.Docs()), c.DT)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(s.words)), "tokens")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.sweep()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s.words)), "ns/token")
}

func BenchmarkLogPWZ(b *testing.B) {
	c := testcorpus.BenchmarkCorpus(b)
	s, err := newSampler(resolved(b, Options{K: testcorpus.BenchK, BurnIn: AutoBurnIn, FoldInBurnIn: AutoBurnIn}, c.Terms(), c.Docs()), c.DT)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.logPWZ()
	}
}

func TestDegenerateScale(t *testing.T) {
	// Issue 11's inputs: entries of 1e308 or around 1e200 are no token
	// counts (more than MaxTokens tokens of one term in one document), an
	// error naming the entry; an all-zero matrix has no token, an error.
	o := Options{K: 2, Iters: 6, RoundWeights: true}
	for name, c := range map[string]*engine.Corpus{
		"3x3 of 1e308":     testcorpus.Filled(t, 3, 3, func(int, int) float64 { return 1e308 }),
		"4x4 around 1e200": testcorpus.Filled(t, 4, 4, func(i, j int) float64 { return 1e200 * float64(1+i+2*j) }),
	} {
		if m, st, err := o.Fit(context.Background(), c, nil); err == nil || !strings.Contains(err.Error(), "D[0,0]") || !strings.Contains(err.Error(), "exceed MaxTokens") {
			t.Errorf("%s: %v, %v, %v; want an error naming D[0,0] as more than MaxTokens", name, m, st, err)
		}
	}
	// An all-zero matrix has no token: refused, as by every family.
	if _, _, err := o.Fit(context.Background(), testcorpus.Filled(t, 4, 3, func(int, int) float64 { return 0 }), nil); err == nil || !strings.Contains(err.Error(), "has no non-zero entry") {
		t.Errorf("all zero: %v, want an error saying D has no non-zero entry", err)
	}
}
