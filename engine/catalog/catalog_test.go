package catalog

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/gnmfnc"
	"github.com/topicmf/topicmf/engine/graphnmf"
	"github.com/topicmf/topicmf/engine/groupnmf"
	"github.com/topicmf/topicmf/engine/grouprlsi"
	"github.com/topicmf/topicmf/engine/jtd"
	"github.com/topicmf/topicmf/engine/lda"
	"github.com/topicmf/topicmf/engine/lsi"
	"github.com/topicmf/topicmf/engine/nmf"
	"github.com/topicmf/topicmf/engine/nmfvariants"
	"github.com/topicmf/topicmf/engine/onlinelda"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/plsi"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/snmf"
	"github.com/topicmf/topicmf/engine/symnmf"
	"github.com/topicmf/topicmf/engine/tnmf"
)

// The experiment job IDs and cache keys hash the parameter strings, so the
// keys of every family are pinned here: removing or renaming one is a
// visible change.
var wantKeys = map[string]string{
	"cnmf":      "iters kc ks seed tol",
	"crlsi":     "inner-sweeps inner-tol iters kc ks lambda1 lambda2 seed tol",
	"graphnmf":  "iters k lambda neighbors normalize seed sigma tol weighting",
	"groupnmf":  "iters kc ks order seed tol",
	"grouprlsi": "inner-sweeps inner-tol iters kc ks lambda1 lambda2 seed tol",
	"lda":       "alpha beta burnin eval-every fold-in-burnin fold-in-iters iters k round seed",
	"lsi":       "accurate k oversample power-iters seed",
	"nmf":       "init iters k seed tol",
	"nmfe":      "iters k lambda seed tol",
	"nmfi":      "iters k seed tol",
	"plsi":      "fold-in-iters fold-in-tol iters k seed tol",
	"rlsi":      "init-scale inner-sweeps inner-tol iters k lambda-scale lambda1 lambda2 seed tol variant",
	"symnmf":    "beta iters k seed sigma storage tol",
	"tnmf":      "count inference inner-sweeps inner-tol iters k rescale seed storage tol",
	"gnmfnc":    "a iters kp ks seed sigma1 sigma2 sigma3 tol",
	"jtd":       "gamma init-iters inner iters k lambda lambda-factor mu-max mu0 residual-tol rho seed tau tau-factor",
	"nmf-anls":  "iters k seed tol",
	"onlinelda": "alpha batch eta eval-every k kappa max-doc-iters mean-change-tol passes seed tau0",
	"snmf":      "beta eta iters k seed tol",
}

func TestFamiliesDeclareTheirKeys(t *testing.T) {
	if got, want := strings.Join(Names(), " "), "cnmf crlsi gnmfnc graphnmf groupnmf grouprlsi jtd lda lsi nmf nmf-anls nmfe nmfi onlinelda plsi rlsi snmf symnmf tnmf"; got != want {
		t.Fatalf("families %q, want %q", got, want)
	}
	for _, f := range Families() {
		var keys []string
		for _, p := range f.Params {
			keys = append(keys, p.Key)
			if p.Doc == "" || p.Default == "" {
				t.Errorf("%s: parameter %s has no doc or default", f.Name, p.Key)
			}
		}
		m, err := New(f.Name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(param.Keys(m), " "); got != wantKeys[f.Name] {
			t.Errorf("%s: keys %q, want %q", f.Name, got, wantKeys[f.Name])
		}
		if m.Name() != f.Name || f.Doc == "" {
			t.Errorf("%s: New gives %q, doc %q", f.Name, m.Name(), f.Doc)
		}
	}
}

// The declared defaults (the strings the catalog and the CLI show) are
// those of the family's Defaults(), and the constants the packages export
// for them agree.
func TestDeclaredDefaultsAreDefaults(t *testing.T) {
	defaults := map[string]engine.Method{
		"rlsi": rlsi.Defaults(), "nmf": nmf.Defaults(), "lsi": lsi.Defaults(), "plsi": plsi.Defaults(),
		"lda": lda.Defaults(), "tnmf": tnmf.Defaults(), "nmfe": nmfvariants.DefaultsE(), "nmfi": nmfvariants.DefaultsI(),
		"graphnmf": graphnmf.Defaults(), "symnmf": symnmf.Defaults(), "grouprlsi": grouprlsi.Defaults(),
		"crlsi": grouprlsi.DefaultsPerClass(), "groupnmf": groupnmf.Defaults(), "cnmf": groupnmf.DefaultsPerClass(),
		"gnmfnc": gnmfnc.Defaults(), "jtd": jtd.Defaults(), "nmf-anls": snmf.DefaultsANLS(), "snmf": snmf.Defaults(),
		"onlinelda": onlinelda.Defaults(),
	}
	for _, f := range Families() {
		d, ok := defaults[f.Name]
		if !ok {
			t.Fatalf("%s: no Defaults in this test", f.Name)
		}
		got := param.Format(d)
		for _, p := range f.Params {
			if got[p.Key] != p.Default {
				t.Errorf("%s: Defaults() has %s = %q, declared %q", f.Name, p.Key, got[p.Key], p.Default)
			}
		}
		if m, _ := New(f.Name, nil); !reflect.DeepEqual(m, d) {
			t.Errorf("%s: New with no parameters gives %+v, want Defaults() %+v", f.Name, m, d)
		}
	}
	var stop engine.Stopping
	if param.Defaults(&stop); stop != engine.DefaultStopping() {
		t.Errorf("engine.Stopping declares %+v, DefaultStopping() is %+v", stop, engine.DefaultStopping())
	}
	r, n, l, ls, p, tn := rlsi.Defaults(), nmf.Defaults(), lda.Defaults(), lsi.Defaults(), plsi.Defaults(), tnmf.Defaults()
	g, gr, gn, sy, e := graphnmf.Defaults(), grouprlsi.Defaults(), groupnmf.Defaults(), symnmf.Defaults(), nmfvariants.DefaultsE()
	j, ol := jtd.Defaults(), onlinelda.Defaults()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"engine.DefaultMaxIter", float64(r.Stopping.MaxIter), engine.DefaultMaxIter},
		{"engine.DefaultRelTol", r.Stopping.RelTol, engine.DefaultRelTol},
		{"rlsi.DefaultK", float64(r.K), rlsi.DefaultK},
		{"rlsi.DefaultLambda1", r.Lambda1, rlsi.DefaultLambda1},
		{"rlsi.DefaultLambda2", r.Lambda2, rlsi.DefaultLambda2},
		{"rlsi.DefaultInnerSweeps", float64(r.InnerSweeps), rlsi.DefaultInnerSweeps},
		{"rlsi.DefaultInnerTol", r.InnerTol, rlsi.DefaultInnerTol},
		{"nmf.DefaultK", float64(n.K), nmf.DefaultK},
		{"lda.DefaultK", float64(l.K), lda.DefaultK},
		{"lda.DefaultBeta", l.Beta, lda.DefaultBeta},
		{"lda.DefaultIters", float64(l.Iters), lda.DefaultIters},
		{"lda.DefaultEvalEvery", float64(l.EvalEvery), lda.DefaultEvalEvery},
		{"lda.DefaultFoldInIters", float64(l.FoldInIters), lda.DefaultFoldInIters},
		{"lda.AutoBurnIn", float64(l.BurnIn), lda.AutoBurnIn},
		{"lsi.DefaultK", float64(ls.K), lsi.DefaultK},
		{"lsi.DefaultPowerIters", float64(ls.PowerIters), lsi.DefaultPowerIters},
		{"plsi.DefaultK", float64(p.K), plsi.DefaultK},
		{"plsi.DefaultFoldInIters", float64(p.FoldInIters), plsi.DefaultFoldInIters},
		{"plsi.DefaultFoldInTol", p.FoldInTol, plsi.DefaultFoldInTol},
		{"tnmf.DefaultK", float64(tn.K), tnmf.DefaultK},
		{"tnmf.DefaultInnerSweeps", float64(tn.InnerSweeps), tnmf.DefaultInnerSweeps},
		{"tnmf.DefaultInnerTol", tn.InnerTol, tnmf.DefaultInnerTol},
		{"graphnmf.DefaultK", float64(g.K), graphnmf.DefaultK},
		{"graphnmf.DefaultLambda", g.Lambda, graphnmf.DefaultLambda},
		{"graphnmf.DefaultNeighbors", float64(g.Neighbors), graphnmf.DefaultNeighbors},
		{"graphnmf.DefaultSigma", g.Sigma, graphnmf.DefaultSigma},
		{"grouprlsi.DefaultKs", float64(gr.Ks), grouprlsi.DefaultKs},
		{"grouprlsi.DefaultKc", float64(gr.Kc), grouprlsi.DefaultKc},
		{"grouprlsi.DefaultLambda1", gr.Lambda1, grouprlsi.DefaultLambda1},
		{"grouprlsi.DefaultLambda2", gr.Lambda2, grouprlsi.DefaultLambda2},
		{"grouprlsi.InnerSweeps", float64(gr.InnerSweeps), rlsi.DefaultInnerSweeps},
		{"grouprlsi.InnerTol", gr.InnerTol, rlsi.DefaultInnerTol},
		{"groupnmf.DefaultKs", float64(gn.Ks), groupnmf.DefaultKs},
		{"groupnmf.DefaultKc", float64(gn.Kc), groupnmf.DefaultKc},
		{"symnmf.DefaultK", float64(sy.K), symnmf.DefaultK},
		{"symnmf.DefaultSigma", sy.Sigma, symnmf.DefaultSigma},
		{"symnmf.DefaultBeta", sy.Beta, symnmf.DefaultBeta},
		{"nmfvariants.DefaultK", float64(e.K), nmfvariants.DefaultK},
		{"nmfvariants.DefaultLambda", e.Lambda, nmfvariants.DefaultLambda},
		{"jtd.DefaultK", float64(j.K), jtd.DefaultK},
		{"jtd.DefaultGamma", j.Gamma, jtd.DefaultGamma},
		{"jtd.DefaultRho", j.Rho, jtd.DefaultRho},
		{"jtd.DefaultInnerIters", float64(j.InnerIters), jtd.DefaultInnerIters},
		{"jtd.DefaultResidualTol", j.ResidualTol, jtd.DefaultResidualTol},
		{"jtd.DefaultMaxIter", float64(j.MaxIter), jtd.DefaultMaxIter},
		{"jtd.DefaultInitIters", float64(j.InitIters), jtd.DefaultInitIters},
		{"onlinelda.DefaultK", float64(ol.K), onlinelda.DefaultK},
		{"onlinelda.DefaultTau0", ol.Tau0, onlinelda.DefaultTau0},
		{"onlinelda.DefaultKappa", ol.Kappa, onlinelda.DefaultKappa},
		{"onlinelda.DefaultBatchSize", float64(ol.BatchSize), onlinelda.DefaultBatchSize},
		{"onlinelda.DefaultPasses", float64(ol.Passes), onlinelda.DefaultPasses},
		{"onlinelda.DefaultMaxDocIters", float64(ol.MaxDocIters), onlinelda.DefaultMaxDocIters},
		{"onlinelda.DefaultMeanChangeTol", ol.MeanChangeTol, onlinelda.DefaultMeanChangeTol},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, Defaults() has %v", c.name, c.want, c.got)
		}
	}
	// jtd's cap of μ has no constant default: it is declared as a multiple
	// of μ0, the factor jtd.DefaultMuMaxFactor.
	for _, f := range Families() {
		for _, p := range f.Params {
			if f.Name != "jtd" || p.Key != "mu-max" {
				continue
			}
			factor, ok := strings.CutSuffix(p.Default, "·μ0")
			if x, err := strconv.ParseFloat(factor, 64); !ok || err != nil || x != jtd.DefaultMuMaxFactor {
				t.Errorf("jtd.DefaultMuMaxFactor = %v, mu-max declared %q", jtd.DefaultMuMaxFactor, p.Default)
			}
		}
	}
}

// Every family's options survive Format → New, at the defaults and with
// every parameter moved off its default.
func TestFamiliesRoundTrip(t *testing.T) {
	changed := map[string]Params{
		"rlsi":      {"k": "7", "lambda1": "0", "lambda2": "0.25", "variant": "u2v1", "lambda-scale": "relative", "init-scale": "balanced", "iters": "3", "tol": "0", "inner-sweeps": "5", "inner-tol": "0", "seed": "4"},
		"nmf":       {"k": "7", "iters": "12", "tol": "0.001", "seed": "42", "init": "nndsvda"},
		"lsi":       {"k": "3", "oversample": "4", "power-iters": "0", "accurate": "true", "seed": "2"},
		"plsi":      {"k": "3", "iters": "4", "tol": "-1", "seed": "2", "fold-in-iters": "9", "fold-in-tol": "0"},
		"lda":       {"k": "3", "alpha": "0.2", "beta": "0.01", "iters": "40", "burnin": "0", "eval-every": "5", "seed": "1", "round": "true", "fold-in-iters": "8", "fold-in-burnin": "2"},
		"tnmf":      {"k": "3", "count": "multiplicity", "storage": "dense", "iters": "4", "tol": "0", "inference": "e-nnls", "inner-sweeps": "3", "inner-tol": "0", "rescale": "true", "seed": "5"},
		"nmfe":      {"k": "3", "lambda": "0", "iters": "4", "tol": "0", "seed": "5"},
		"nmfi":      {"k": "3", "iters": "4", "tol": "0.5", "seed": "5"},
		"graphnmf":  {"k": "3", "lambda": "0", "neighbors": "2", "weighting": "heat", "sigma": "0.5", "iters": "4", "tol": "0", "seed": "5", "normalize": "false"},
		"symnmf":    {"k": "3", "iters": "4", "tol": "0", "sigma": "0.5", "beta": "0.5", "storage": "sparse", "seed": "5"},
		"grouprlsi": {"ks": "0", "kc": "2", "lambda1": "0", "lambda2": "0", "iters": "4", "tol": "0", "inner-sweeps": "3", "inner-tol": "0", "seed": "5"},
		"crlsi":     {"ks": "1", "kc": "0", "lambda1": "0.5", "lambda2": "0", "iters": "4", "tol": "0", "inner-sweeps": "3", "inner-tol": "0", "seed": "5"},
		"groupnmf":  {"ks": "3", "kc": "0", "order": "vfirst", "iters": "4", "tol": "0", "seed": "5"},
		"cnmf":      {"ks": "2", "kc": "0", "iters": "4", "tol": "0", "seed": "5"},
		"gnmfnc":    {"ks": "3", "kp": "2", "a": "0", "sigma1": "0", "sigma2": "0.5", "sigma3": "0", "iters": "4", "tol": "0", "seed": "5"},
		"jtd": {"k": "3", "lambda": "0.5", "tau": "2", "lambda-factor": "2", "tau-factor": "3", "gamma": "0.1", "mu0": "0.01",
			"rho": "1.2", "mu-max": "1000", "inner": "2", "init-iters": "3", "iters": "4", "residual-tol": "0", "seed": "5"},
		"nmf-anls": {"k": "3", "iters": "4", "tol": "0", "seed": "5"},
		"snmf":     {"k": "3", "eta": "0", "beta": "0.5", "iters": "4", "tol": "0", "seed": "5"},
		"onlinelda": {"k": "3", "alpha": "0.5", "eta": "0.2", "tau0": "1", "kappa": "0.9", "batch": "16", "passes": "2",
			"max-doc-iters": "20", "mean-change-tol": "0", "eval-every": "1", "seed": "5"},
	}
	for _, f := range Families() {
		if len(changed[f.Name]) != len(f.Params) {
			t.Errorf("%s: the test changes %d of %d parameters", f.Name, len(changed[f.Name]), len(f.Params))
		}
		d, _ := New(f.Name, nil)
		for _, p := range []Params{nil, changed[f.Name]} {
			m, err := New(f.Name, p)
			if err != nil {
				t.Fatalf("%s %v: %v", f.Name, p, err)
			}
			s := param.Format(m)
			for k, v := range p {
				if s[k] != v {
					t.Errorf("%s: %s = %q formats as %q", f.Name, k, v, s[k])
				}
			}
			back, err := New(f.Name, s)
			if err != nil || !reflect.DeepEqual(back, m) {
				t.Errorf("%s: %v parsed back to %+v, %v; want %+v", f.Name, s, back, err, m)
			}
			if p != nil && reflect.DeepEqual(m, d) {
				t.Errorf("%s: %v gives the defaults", f.Name, p)
			}
		}
	}
}

// Unset takes the declared default; an explicit 0 is 0, in Options too.
func TestUnsetAndZero(t *testing.T) {
	get := func(name string, p Params) engine.Method {
		t.Helper()
		m, err := New(name, p)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if o := get("rlsi", nil).(rlsi.Options); o.Lambda1 != 0.5 || o.Lambda2 != 1 || o.Stopping.RelTol != 1e-4 || o.InnerTol != 1e-5 {
		t.Errorf("rlsi unset: %+v", o)
	}
	if o := get("rlsi", Params{"lambda1": "0", "lambda2": "0", "tol": "0", "inner-tol": "0"}).(rlsi.Options); o.Lambda1 != 0 || o.Lambda2 != 0 || o.Stopping.RelTol != 0 || o.InnerTol != 0 {
		t.Errorf("rlsi zeros: %+v", o)
	}
	if o := get("nmf", Params{"tol": "0"}).(nmf.Options); o.Stopping.RelTol != 0 || o.Stopping.Converged(1, 1) {
		t.Errorf("nmf tol=0: %+v runs a tolerance test", o.Stopping)
	}
	if o := get("lsi", Params{"power-iters": "0"}).(lsi.Options); o.PowerIters != 0 {
		t.Errorf("lsi power-iters=0: %+v", o)
	}
	if o := get("lda", Params{"burnin": "0"}).(lda.Options); o.BurnIn != 0 {
		t.Errorf("lda burnin=0: %+v", o)
	}
	if o := get("lda", Params{"iters": "10"}).(lda.Options); o.BurnIn != lda.AutoBurnIn || o.Alpha != 0 {
		t.Errorf("lda unset burnin and alpha: %+v", o)
	}
	if o := get("graphnmf", Params{"lambda": "0", "normalize": "false"}).(graphnmf.Options); o.Lambda != 0 || !o.NoNormalize {
		t.Errorf("graphnmf: %+v", o)
	}
	if o := get("nmfe", Params{"lambda": "0"}).(nmfvariants.EOptions); o.Lambda != 0 {
		t.Errorf("nmfe: %+v", o)
	}
	if o := get("groupnmf", Params{"ks": "0"}).(groupnmf.Options); o.Ks != 0 || o.Kc != groupnmf.DefaultKc {
		t.Errorf("groupnmf ks=0: %+v", o)
	}
	// Aliases the packages accept read as their canonical values.
	if o := get("rlsi", Params{"variant": "Ul2-Vl1"}).(rlsi.Options); o.Variant != rlsi.U2V1 {
		t.Errorf("variant Ul2-Vl1: %v", o.Variant)
	}
	if o := get("tnmf", Params{"inference": "TNMF_I"}).(tnmf.Options); o.Inference != tnmf.InferI {
		t.Errorf("inference TNMF_I: %v", o.Inference)
	}
}

func TestBadParameters(t *testing.T) {
	for _, c := range []struct {
		name string
		p    Params
		want string
	}{
		{"nmf", Params{"k": "0"}, `family nmf: parameter k = "0": want ≥ 1`},
		{"nmf", Params{"iters": "-3"}, `parameter iters = "-3": want ≥ 1`},
		{"nmf", Params{"tol": "NaN"}, `parameter tol = "NaN": want a finite number`},
		{"nmf", Params{"seed": "x"}, `parameter seed = "x": want a non-negative integer`},
		{"nmf", Params{"init": "custom"}, `parameter init = "custom": want one of random, nndsvd, nndsvda`},
		{"nmf", Params{"kk": "3"}, `family nmf: unknown parameter "kk" (valid: init, iters, k, seed, tol)`},
		{"rlsi", Params{"lambda1": "-0.5"}, `parameter lambda1 = "-0.5": want ≥ 0`},
		{"rlsi", Params{"variant": "u3v3"}, `parameter variant = "u3v3": want one of u1v2, u2v1, u1v1, u2v2`},
		{"rlsi", Params{"lambda-scale": "data"}, "want absolute or relative"},
		{"rlsi", Params{"init-scale": "big"}, "want unit or balanced"},
		{"rlsi", Params{"inner-sweeps": "0"}, "inner-sweeps"},
		{"lda", Params{"alpha": "0"}, `parameter alpha = "0": want > 0`},
		{"lda", Params{"iters": "10", "burnin": "10"}, "lda: BurnIn = 10, want fewer than Iters = 10"},
		{"lda", Params{"round": "maybe"}, "want true or false"},
		{"lsi", Params{"oversample": "0"}, `parameter oversample = "0": want ≥ 1`},
		{"lsi", Params{"power-iters": "-1"}, "want ≥ 0"},
		{"tnmf", Params{"storage": "disk"}, "want one of auto, sparse, dense"},
		{"tnmf", Params{"count": "tokens"}, "want one of document, multiplicity"},
		{"graphnmf", Params{"sigma": "0"}, "want > 0"},
		{"graphnmf", Params{"weighting": "gauss"}, "want one of binary, heat, cosine"},
		{"graphnmf", Params{"normalize": "yes"}, "want true or false"},
		{"symnmf", Params{"sigma": "1"}, "want in (0, 1)"},
		{"nmfi", Params{"lambda": "1"}, `unknown parameter "lambda" (valid: iters, k, seed, tol)`},
		{"nosuch", nil, "unknown family \"nosuch\" (known: cnmf, crlsi,"},
	} {
		if _, err := New(c.name, c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: error %v, want one containing %q", c.name, c.p, err, c.want)
		}
	}
}
