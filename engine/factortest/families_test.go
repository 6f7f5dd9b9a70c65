package factortest_test

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/gnmfnc"
	"github.com/topicmf/topicmf/engine/graphnmf"
	"github.com/topicmf/topicmf/engine/groupnmf"
	"github.com/topicmf/topicmf/engine/grouprlsi"
	"github.com/topicmf/topicmf/engine/internal/testcorpus"
	"github.com/topicmf/topicmf/engine/jtd"
	"github.com/topicmf/topicmf/engine/lda"
	"github.com/topicmf/topicmf/engine/lsi"
	"github.com/topicmf/topicmf/engine/modelio"
	"github.com/topicmf/topicmf/engine/nmf"
	"github.com/topicmf/topicmf/engine/nmfvariants"
	"github.com/topicmf/topicmf/engine/onlinelda"
	"github.com/topicmf/topicmf/engine/plsi"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/snmf"
	"github.com/topicmf/topicmf/engine/symnmf"
	"github.com/topicmf/topicmf/engine/tnmf"
	"gonum.org/v1/gonum/mat"
)

// member is one configuration the suite runs: the catalog family it
// belongs to and the factortest description of it.
type member struct {
	catalog string
	family  factortest.Family
}

// members lists every family of the catalog, one entry per variant, so
// that the suite runs on every family through the same table, and
// TestEveryCatalogFamilyIsChecked notices a family added to the catalog
// without one.
func members() []member {
	var ms []member
	add := func(name string, fs ...factortest.Family) {
		for _, f := range fs {
			f.Reload = reload
			ms = append(ms, member{name, f})
		}
	}
	add("nmf", nmfFamily(nmf.InitRandom))
	if !testing.Short() {
		add("nmf", nmfFamily(nmf.InitNNDSVDA))
	}
	add("nmfe", nmfeFamily())
	add("nmfi", nmfiFamily())
	for _, w := range []graphnmf.Weighting{graphnmf.Binary, graphnmf.Heat, graphnmf.Cosine} {
		add("graphnmf", graphnmfFamily(w))
	}
	add("nmf-anls", snmfFamily("nmf-anls", 0, 0))
	add("snmf", snmfFamily("snmf", 0.01, 0.01))
	for _, v := range []rlsi.Variant{rlsi.U1V2, rlsi.U2V1, rlsi.U1V1, rlsi.U2V2} {
		add("rlsi", rlsiFamily(v))
	}
	add("lsi", lsiFamily())
	add("plsi", plsiFamily())
	add("lda", ldaFamily())
	add("onlinelda", onlineldaFamily())
	add("symnmf", symnmfFamily())
	add("tnmf", tnmfFamily("tnmf-e", tnmf.InferE, false), tnmfFamily("tnmf-i", tnmf.InferI, false),
		tnmfFamily("tnmf-e-nnls-rescale", tnmf.InferENNLS, true))
	add("jtd", jtdFamily())
	add("groupnmf", groupnmfFamily())
	add("cnmf", cnmfFamily())
	add("grouprlsi", grouprlsiFamily())
	add("crlsi", crlsiFamily())
	add("gnmfnc", gnmfncFamily())
	return ms
}

func TestConformance(t *testing.T) {
	for _, m := range members() {
		factortest.Run(t, m.family)
	}
}

func TestEveryCatalogFamilyIsChecked(t *testing.T) {
	var got []string
	for _, m := range members() {
		if !slices.Contains(got, m.catalog) {
			got = append(got, m.catalog)
		}
	}
	slices.Sort(got)
	if g, w := strings.Join(got, " "), strings.Join(catalog.Names(), " "); g != w {
		t.Fatalf("conformance covers %q, the catalog has %q", g, w)
	}
}

// reload saves m into a temporary directory (engine/modelio) and loads it
// back.
func reload(m engine.Model) (engine.Model, error) {
	dir, err := os.MkdirTemp("", "factortest-model-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := modelio.WriteDir(dir, m); err != nil {
		return nil, err
	}
	loaded, _, err := modelio.ReadDir(dir)
	return loaded, err
}

// stopAfter is the fixed-length stopping rule of a checked fit: cfg.MaxIter
// iterations, no tolerance.
func stopAfter(cfg factortest.Config) engine.Stopping {
	return engine.Stopping{MaxIter: cfg.MaxIter, RelTol: -1}
}

// sameAsDocTopics checks that the fold-in of a training document is its
// row of DocTopics to the bit: for a family whose DocTopics is its own
// transform of the training documents.
func sameAsDocTopics(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
	want := m.DocTopics()
	for i, d := range docs {
		for k := 0; k < folded.RawMatrix().Cols; k++ {
			if folded.At(i, k) != want.At(d, k) {
				t.Fatalf("document %d: fold-in %v, DocTopics %v", d, folded.RawRowView(i), want.RawRowView(d))
			}
		}
	}
}

// l1Within checks that the fold-in of every training document is within
// tol (L1) of its row of DocTopics, named what in the message.
func l1Within(tol float64, what string) func(*testing.T, *engine.Corpus, engine.Model, []int, *mat.Dense) {
	return func(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
		for i, d := range docs {
			l1 := 0.0
			for z := 0; z < folded.RawMatrix().Cols; z++ {
				l1 += math.Abs(folded.At(i, z) - m.DocTopics().At(d, z))
			}
			if l1 > tol {
				t.Errorf("document %d: fold-in is %.4f (L1) from %s", d, l1, what)
			}
		}
	}
}

func nmfFamily(init string) factortest.Family {
	return factortest.Family{
		Name: "nmf-" + init,
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return nmf.Options{K: cfg.K, Seed: cfg.Seed, Init: init, Pool: cfg.Pool, Stopping: stopAfter(cfg)}, nil
		},
		NonNegative: true, NonNegativeData: true,
		Monotone: true,
		KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "unknown init", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return nmf.Options{K: cfg.K, Init: "svd", Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
			{Name: "NaN tolerance", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return nmf.Options{K: cfg.K, Pool: cfg.Pool, Stopping: engine.Stopping{RelTol: math.NaN()}}, nil
			}},
			{Name: "negative MaxIter", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return nmf.Options{K: cfg.K, Pool: cfg.Pool, Stopping: engine.Stopping{MaxIter: -1, RelTol: engine.DefaultRelTol}}, nil
			}},
			{Name: "custom without factors", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return nmf.Options{K: cfg.K, Init: nmf.InitCustom, Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
		},
		FoldInCheck: nmfFoldInCheck,
	}
}

// nmfFoldInCheck: after a long fit, folding in a training document solves
// the same convex subproblem its row of V (approximately) solves, so its
// loss ‖d − U v‖² must be no larger than that of the training
// representation (up to 1e-6 relative), and v close to the training row.
func nmfFoldInCheck(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
	u, v := m.TermTopics(), m.DocTopics()
	loss := func(n int, row []float64) float64 {
		d := c.DT.RowDense(n, nil)
		var uv mat.VecDense
		uv.MulVec(u, mat.NewVecDense(len(row), row))
		s := 0.0
		for i, x := range d {
			s += (x - uv.AtVec(i)) * (x - uv.AtVec(i))
		}
		return s
	}
	for r, n := range docs {
		train := v.RawRowView(n)
		got := folded.RawRowView(r)
		lt, lf := loss(n, train), loss(n, got)
		if lf > lt*(1+1e-6)+1e-12 {
			t.Errorf("document %d: fold-in loss %.10g > training loss %.10g", n, lf, lt)
		}
		dist, norm := 0.0, 0.0
		for j := range train {
			dist += (train[j] - got[j]) * (train[j] - got[j])
			norm += train[j] * train[j]
		}
		if math.Sqrt(dist) > 0.05*math.Sqrt(norm)+1e-9 {
			t.Errorf("document %d: fold-in %v far from the training representation %v", n, got, train)
		}
	}
}

func nmfeFamily() factortest.Family {
	return factortest.Family{
		Name: "nmfe",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return nmfvariants.EOptions{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool, Stopping: stopAfter(cfg), Lambda: nmfvariants.DefaultLambda}, nil
		},
		NonNegative: true, NonNegativeData: true, Monotone: true, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "Lambda = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return nmfvariants.EOptions{K: cfg.K, Lambda: math.NaN(), Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
			{Name: "Lambda < 0", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return nmfvariants.EOptions{K: cfg.K, Lambda: -1, Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
		},
	}
}

func nmfiFamily() factortest.Family {
	return factortest.Family{
		Name: "nmfi",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return nmfvariants.IOptions{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool, Stopping: stopAfter(cfg)}, nil
		},
		NonNegative: true, NonNegativeData: true, Monotone: true, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "U0 without V0", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return nmfvariants.IOptions{K: cfg.K, U0: mat.NewDense(c.Terms(), cfg.K, nil), Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
		},
	}
}

func graphnmfFamily(w graphnmf.Weighting) factortest.Family {
	return factortest.Family{
		Name: "graphnmf-" + w.String(),
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return graphnmf.Options{K: cfg.K, Weighting: w, Seed: cfg.Seed, Pool: cfg.Pool, Stopping: stopAfter(cfg), Lambda: graphnmf.DefaultLambda}, nil
		},
		NonNegative: true, NonNegativeData: true, Monotone: true, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "Lambda = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return graphnmf.Options{K: cfg.K, Lambda: math.NaN(), Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
			{Name: "Neighbors < 0", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return graphnmf.Options{K: cfg.K, Neighbors: -1, Pool: cfg.Pool, Lambda: graphnmf.DefaultLambda, Stopping: engine.DefaultStopping()}, nil
			}},
			{Name: "Weighting 7", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return graphnmf.Options{K: cfg.K, Weighting: 7, Pool: cfg.Pool, Lambda: graphnmf.DefaultLambda, Stopping: engine.DefaultStopping()}, nil
			}},
		},
	}
}

// snmfFamily is NMF by alternating NNLS (eta = beta = 0) or sparse NMF.
func snmfFamily(name string, eta, beta float64) factortest.Family {
	return factortest.Family{
		Name: name,
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return snmf.Options{K: cfg.K, Eta: eta, Beta: beta, Seed: cfg.Seed, Pool: cfg.Pool, Stopping: stopAfter(cfg)}, nil
		},
		// Each block update is the exact minimizer of a convex problem.
		NonNegative: true, Monotone: true, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "negative beta", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return snmf.Options{K: cfg.K, Beta: -1}, nil
			}},
			{Name: "NaN eta", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return snmf.Options{K: cfg.K, Eta: math.NaN()}, nil
			}},
		},
		// Fold-in solves exactly the V problem of the fit's last step
		// with the final U, and the final V was solved against the U
		// before it; after 200 iterations both agree closely.
		FoldInCheck: func(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
			want := m.DocTopics()
			for i, d := range docs {
				for k := 0; k < folded.RawMatrix().Cols; k++ {
					if diff := math.Abs(folded.At(i, k) - want.At(d, k)); diff > 1e-3*(1+math.Abs(want.At(d, k))) {
						t.Fatalf("document %d topic %d: fold-in %v, DocTopics %v", d, k, folded.At(i, k), want.At(d, k))
					}
				}
			}
		},
	}
}

// rlsiFamily runs a variant of RLSI with the paper's λ1 = 0.5, λ2 = 1.0
// (defaults). The objective is monotone for every variant: each update
// minimizes it exactly (ridge) or by exact coordinate steps from the
// previous iterate (lasso).
func rlsiFamily(variant rlsi.Variant) factortest.Family {
	opts := func(c *engine.Corpus, cfg factortest.Config) rlsi.Options {
		return rlsi.Options{K: cfg.K, Variant: variant, Seed: cfg.Seed, Pool: cfg.Pool,
			Stopping: stopAfter(cfg),
			// Tight inner convergence so that the ℓ1 fold-in (lasso from
			// zero) meets the fitted, warm-started V within 1e-8.
			Lambda1:     rlsi.DefaultLambda1,
			Lambda2:     rlsi.DefaultLambda2,
			InnerSweeps: 10000, InnerTol: 1e-13}
	}
	invalid := func(name string, edit func(*rlsi.Options)) factortest.Invalid {
		return factortest.Invalid{Name: name, New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			o := opts(c, cfg)
			edit(&o)
			return o, nil
		}}
	}
	return factortest.Family{
		Name:     "rlsi-" + variant.String(),
		New:      func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) { return opts(c, cfg), nil },
		Monotone: true,
		KLimited: true,
		Invalid: []factortest.Invalid{
			invalid("Lambda1 = NaN", func(o *rlsi.Options) { o.Lambda1 = math.NaN() }),
			invalid("Lambda2 < 0", func(o *rlsi.Options) { o.Lambda2 = -0.5 }),
			invalid("unknown variant", func(o *rlsi.Options) { o.Variant = 9 }),
			invalid("InnerSweeps < 0", func(o *rlsi.Options) { o.InnerSweeps = -1 }),
			invalid("InitV of the wrong shape", func(o *rlsi.Options) { o.InitV = mat.NewDense(3, 3, nil) }),
		},
		FoldInIters: 30,
		FoldInCheck: func(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
			v := m.DocTopics()
			_, k := v.Dims()
			for i, n := range docs {
				for q := 0; q < k; q++ {
					got, want := folded.At(i, q), v.At(n, q)
					if variant == rlsi.U1V2 || variant == rlsi.U2V2 {
						// ℓ2 on V: the V update's formula and kernels.
						if math.Float64bits(got) != math.Float64bits(want) {
							t.Errorf("doc %d topic %d: fold-in %.17g, fitted %.17g (want identical bits)", n, q, got, want)
						}
					} else if math.Abs(got-want) > 1e-8*math.Max(1, math.Abs(want)) {
						t.Errorf("doc %d topic %d: fold-in %.17g, fitted %.17g", n, q, got, want)
					}
				}
			}
		},
	}
}

func lsiFamily() factortest.Family {
	return factortest.Family{
		Name: "lsi",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return lsi.Options{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool, PowerIters: lsi.DefaultPowerIters}, nil
		},
		// Singular vectors are signed; the fit is one direct computation.
		NonNegative: false, Monotone: false, KLimited: true, OneShot: true,
		FoldInCheck: sameAsDocTopics,
	}
}

func plsiFamily() factortest.Family {
	return factortest.Family{
		Name: "plsi",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return plsi.Options{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool,
				FoldInTol: plsi.DefaultFoldInTol,
				Stopping:  stopAfter(cfg)}, nil
		},
		// P(w|z), P(z|d) are probabilities; EM never decreases the
		// likelihood, so the recorded −L never increases.
		NonNegative: true, NonNegativeData: true, Monotone: true, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "FoldInTol = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return plsi.Options{K: cfg.K, FoldInTol: math.NaN(), Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
			{Name: "FoldInIters = -1", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return plsi.Options{K: cfg.K, FoldInIters: -1, Pool: cfg.Pool, Stopping: engine.DefaultStopping(), FoldInTol: plsi.DefaultFoldInTol}, nil
			}},
		},
		// After 200 EM iterations, folding in a training document (EM on
		// its P(z|d) alone, Φ fixed, from uniform) reaches nearly the
		// fit's P(z|d): the fold-in problem is concave in P(z|q). Measured
		// L1 distances are at most 3e-4; 0.005 allows for other seeds.
		FoldInCheck: l1Within(0.005, "P(z|d)"),
	}
}

func ldaFamily() factortest.Family {
	return factortest.Family{
		Name: "lda",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			// Every sweep evaluates log p(w|z), so every record has an
			// objective; burn-in stays the default half.
			return lda.Options{K: cfg.K, Iters: cfg.MaxIter, EvalEvery: 1, Seed: cfg.Seed, Pool: cfg.Pool, BurnIn: lda.AutoBurnIn, FoldInBurnIn: lda.AutoBurnIn}, nil
		},
		// φ and θ are probabilities; a Gibbs chain's log-likelihood is not
		// monotone.
		NonNegative: true, NonNegativeData: true, Monotone: false, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "Alpha = -1", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return lda.Options{K: cfg.K, Alpha: -1, Pool: cfg.Pool, BurnIn: lda.AutoBurnIn, FoldInBurnIn: lda.AutoBurnIn}, nil
			}},
			{Name: "Beta = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return lda.Options{K: cfg.K, Beta: math.NaN(), Pool: cfg.Pool, BurnIn: lda.AutoBurnIn, FoldInBurnIn: lda.AutoBurnIn}, nil
			}},
			{Name: "BurnIn = Iters", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return lda.Options{K: cfg.K, Iters: 5, BurnIn: 5, Pool: cfg.Pool, FoldInBurnIn: lda.AutoBurnIn}, nil
			}},
		},
		// After 200 sweeps (100 averaged), folding in a training document
		// (100 sweeps with φ fixed, 50 averaged) estimates the same
		// posterior mean of θ_d as the fit; with α = 50/K = 12.5 and
		// documents of 10–60 tokens θ is smooth and the Monte Carlo error
		// of either average is a few thousandths per topic (measured L1
		// distances at most 0.008; 0.03 allows for other seeds).
		FoldInCheck: l1Within(0.03, "θ_d"),
	}
}

func onlineldaFamily() factortest.Family {
	return factortest.Family{
		Name: "onlinelda",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return onlinelda.Options{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool, Passes: cfg.MaxIter, BatchSize: 100, EvalEvery: 1, MeanChangeTol: onlinelda.DefaultMeanChangeTol}, nil
		},
		// A stochastic optimizer: the bound is not monotone pass to pass.
		NonNegative: true, NonNegativeData: true, Monotone: false, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "kappa 0.4", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return onlinelda.Options{K: cfg.K, Kappa: 0.4}, nil
			}},
			{Name: "negative alpha", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return onlinelda.Options{K: cfg.K, Alpha: -1}, nil
			}},
		},
		FoldInIters: 10,
		// DocTopics is the fit's own transform of the training documents.
		FoldInCheck: sameAsDocTopics,
	}
}

func symnmfFamily() factortest.Family {
	return factortest.Family{
		Name: "symnmf",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return symnmf.Options{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool, Stopping: stopAfter(cfg)}, nil
		},
		NonNegative: true, NonNegativeData: true, Monotone: true,
		Invalid: []factortest.Invalid{
			{Name: "K > N", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return symnmf.Options{K: c.Docs() + 1, Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
			{Name: "Sigma = 1", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return symnmf.Options{K: cfg.K, Sigma: 1, Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
			{Name: "Beta = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return symnmf.Options{K: cfg.K, Beta: math.NaN(), Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
		},
	}
}

// tnmfFamily is TNMF_E, TNMF_I or the rescaled variant. The non-increase
// check is off: Eq. 4.5 is not monotone (package doc; the literal iteration
// 2-cycles in scale, TestRescaleKeepsDirections). K is limited by M only (S
// is M×M), so KLimited is off.
func tnmfFamily(name string, inf tnmf.Inference, rescale bool) factortest.Family {
	return factortest.Family{
		Name: name,
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return tnmf.Options{K: cfg.K, Inference: inf, Rescale: rescale, Seed: cfg.Seed, Pool: cfg.Pool,
				InnerTol: tnmf.DefaultInnerTol,
				Stopping: stopAfter(cfg)}, nil
		},
		NonNegative: true, NonNegativeData: true,
		Invalid: []factortest.Invalid{
			{Name: "K > M", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return tnmf.Options{K: c.Terms() + 1, Pool: cfg.Pool, Stopping: engine.DefaultStopping(), InnerTol: tnmf.DefaultInnerTol}, nil
			}},
			{Name: "InnerTol = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return tnmf.Options{K: cfg.K, InnerTol: math.NaN(), Pool: cfg.Pool, Stopping: engine.DefaultStopping()}, nil
			}},
		},
	}
}

func jtdFamily() factortest.Family {
	return factortest.Family{
		Name: "jtd",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			return jtd.Options{K: cfg.K, Seed: cfg.Seed, Pool: cfg.Pool, MaxIter: cfg.MaxIter, ResidualTol: 0}, nil
		},
		// The augmented Lagrangian is not monotone (μ and Y change).
		NonNegative: true, Monotone: false, KLimited: true,
		Invalid: []factortest.Invalid{
			{Name: "rho 1", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return jtd.Options{K: cfg.K, Rho: 1}, nil
			}},
			{Name: "negative lambda", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return jtd.Options{K: cfg.K, Lambda: -1}, nil
			}},
			{Name: "NaN tau", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return jtd.Options{K: cfg.K, Tau: math.NaN()}, nil
			}},
		},
		FoldInIters: 100,
		FoldInCheck: func(t *testing.T, c *engine.Corpus, m engine.Model, docs []int, folded *mat.Dense) {
			if agree := factortest.ArgmaxAgreement(folded, m.DocTopics(), docs); agree < 0.9 {
				t.Errorf("fold-in of training documents: dominant topic agrees with the fit for %.3f of them, want ≥ 0.9", agree)
			}
		},
	}
}

// perClass splits K topics of a per-class model into p classes of kc
// topics: 3 classes where K divides by 3, else 1; K < 1 gives an invalid
// kc.
func perClass(k int) (kc, p int) {
	p = 3
	if k%3 != 0 {
		p = 1
	}
	kc = k / p
	if k < 1 {
		kc = -7
	}
	return kc, p
}

func groupnmfFamily() factortest.Family {
	return factortest.Family{
		Name: "groupnmf",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			ks, kc := testcorpus.GroupTopics(cfg.K, groupnmf.None)
			return testcorpus.WithClasses(groupnmf.Options{Ks: ks, Kc: kc, Seed: cfg.Seed, Pool: cfg.Pool,
				Stopping: stopAfter(cfg)}, 3), nil
		},
		K: 7, NonNegative: true, NonNegativeData: true, Monotone: true,
	}
}

func cnmfFamily() factortest.Family {
	return factortest.Family{
		Name: "cnmf",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			kc, p := perClass(cfg.K)
			return testcorpus.WithClasses(groupnmf.PerClassOptions{Kc: kc, Seed: cfg.Seed, Pool: cfg.Pool,
				Stopping: stopAfter(cfg)}, p), nil
		},
		K: 6, NonNegative: true, NonNegativeData: true, Monotone: true,
	}
}

func grouprlsiFamily() factortest.Family {
	return factortest.Family{
		Name: "grouprlsi",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			ks, kc := testcorpus.GroupTopics(cfg.K, grouprlsi.None)
			return testcorpus.WithClasses(grouprlsi.Options{Ks: ks, Kc: kc, Lambda1: 0.05, Lambda2: 0.1, Seed: cfg.Seed, Pool: cfg.Pool,
				InnerTol: rlsi.DefaultInnerTol,
				Stopping: stopAfter(cfg)}, 3), nil
		},
		K: 7, NonNegative: false, Monotone: true,
	}
}

func crlsiFamily() factortest.Family {
	return factortest.Family{
		Name: "crlsi",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			kc, p := perClass(cfg.K)
			return testcorpus.WithClasses(grouprlsi.PerClassOptions{Kc: kc, Lambda1: 0.05, Lambda2: 0.1, Seed: cfg.Seed, Pool: cfg.Pool,
				InnerTol: rlsi.DefaultInnerTol,
				Stopping: stopAfter(cfg)}, p), nil
		},
		K: 6, NonNegative: false, Monotone: true,
	}
}

func gnmfncFamily() factortest.Family {
	return factortest.Family{
		Name: "gnmfnc",
		New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
			ks, kp := testcorpus.GroupTopics(cfg.K, -1)
			p := 3
			if cfg.K == 2 || cfg.K == 3 {
				// Too few topics for Ks ≥ 1 and Kp ≥ 1 on each of three
				// categories: one category.
				ks, kp, p = cfg.K-1, 1, 1
			}
			return testcorpus.WithClasses(gnmfnc.Options{Ks: ks, Kp: kp, Seed: cfg.Seed, Pool: cfg.Pool,
				Stopping: stopAfter(cfg), A: gnmfnc.DefaultA, Sigma1: gnmfnc.DefaultSigma, Sigma2: gnmfnc.DefaultSigma, Sigma3: gnmfnc.DefaultSigma}, p), nil
		},
		K: 7, HugeK: 4, NonNegative: true, NonNegativeData: true, Monotone: true,
		Invalid: []factortest.Invalid{
			{Name: "a = NaN", New: func(c *engine.Corpus, cfg factortest.Config) (engine.Method, error) {
				return testcorpus.WithClasses(gnmfnc.Options{Ks: 1, Kp: 2, A: math.NaN(), Pool: cfg.Pool, Sigma1: gnmfnc.DefaultSigma, Sigma2: gnmfnc.DefaultSigma, Sigma3: gnmfnc.DefaultSigma}, 3), nil
			}},
		},
	}
}
