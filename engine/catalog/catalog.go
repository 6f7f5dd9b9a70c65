// Package catalog names every model family so that front ends (the CLI,
// the experiment registry, notebooks) can build a configured engine.Method
// from a name and string parameters, e.g. "nmf" with {"k": "20"}.
//
// A family's parameters are declared once, by the tags of its Options
// (engine/param): the catalog lists the families and builds each one's
// Options from its Defaults with the given parameters parsed on top, so it
// repeats no option by hand. An absent key takes the declared default; a
// key written "0" is 0.
package catalog

import (
	"errors"
	"fmt"
	"sort"
	"strings"

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

// Param documents one parameter of a family: its key, default, range and
// one-line doc, as the family's Options declare it.
type Param = param.Param

// Family is one model family.
type Family struct {
	Name   string
	Doc    string  // one line: the algorithm and its citation
	Params []Param // every key New accepts, in declaration order
	New    func(p Params) (engine.Method, error)
	// FrontEnd is what the front ends (the topicmf command, the notebook
	// API, package experiments/workflow) use where the family's declared
	// default suits the paper's reproduction but not a first fit on one's
	// own data; zero for most families.
	FrontEnd FrontEnd
}

// FrontEnd declares a family's front-end defaults (Family.FrontEnd), each
// with its reason: the paper experiments state every parameter they use
// and take the declared defaults (Params), the front ends these.
type FrontEnd struct {
	// Params are parameter values used when no parameter gives the key.
	Params Params
	// Counts marks a model of word counts: a front end that builds the
	// corpus for the family gives it raw term frequencies, unnormalized,
	// unless weighting or normalization is asked for.
	Counts bool
	// Why says, in a sentence, why the front ends differ from the
	// declared defaults.
	Why string
}

// Defaults returns the value a front end uses for every parameter of f:
// the FrontEnd value where there is one, else the declared default.
func (f Family) Defaults() Params {
	p := Params{}
	for _, fp := range f.Params {
		p[fp.Key] = fp.Default
		if v, ok := f.FrontEnd.Params[fp.Key]; ok {
			p[fp.Key] = v
		}
	}
	return p
}

// frontEnds are the families whose front-end defaults differ from the
// declared ones.
//
// RLSI: the paper's λ1 = 0.5 read as given regularizes nothing on raw
// tf-idf (AvgComp 0.956 on Cranfield) and empties every topic on the
// default pipeline's unit-length documents; λ read relative to the data's
// scale (rlsi.Options.RelativeLambda), V⁽⁰⁾ drawn at that scale and
// λ1 = 0.05 give sparse topics with none empty at K = 20: AvgComp 0.10 on
// Cranfield and 0.039 on 20 Newsgroups (λ1 = 0.1 leaves 3 of 20 topics
// empty on 20 Newsgroups; docs/pipeline.md).
//
// LDA (Gibbs and online) models the counts n(d,w) of the words of each
// document: Gibbs LDA refuses a weight that is not an integer, and online
// LDA on unit-length tf-idf documents (an ℓ1 mass of a few "words" each)
// gives topics of rare terms ("indicial exerted sinking drags" on
// Cranfield at K = 10, against "flow pressure mach number shock" on
// counts). Both get raw counts, as in scikit-learn's topic-extraction
// example that the default text pipeline follows (tf-idf for NMF, a
// CountVectorizer for LDA). PLSI accepts any non-negative weight and gives
// topics as clear on tf-idf, so it keeps it.
var frontEnds = map[string]FrontEnd{
	"rlsi": {
		Params: Params{"lambda-scale": "relative", "init-scale": "balanced", "lambda1": "0.05"},
		Why:    "the paper's λ1 = 0.5 read as given empties every topic on unit-length tf-idf documents",
	},
	"lda":       {Counts: true, Why: "a model of word counts"},
	"onlinelda": {Counts: true, Why: "a model of word counts"},
}

// families lists every family, one entry each: the constructor of its
// declared defaults and its one-line doc.
func families() []Family {
	groupK := map[string]string{"k": "takes ks and kc (K = ks + classes·kc)"}
	perClassK := map[string]string{"k": "takes kc and ks (each class's model has kc + ks topics)"}
	return []Family{
		declare(rlsi.Defaults, "Regularized LSI: min ‖D−UV‖²_F + λ1·R(U) + λ2·R(V), alternating lasso/ridge updates (Wang et al., SIGIR 2011, Eq. 1, Alg. 1–3)", nil),
		declare(nmf.Defaults, "NMF: min ‖D−UVᵀ‖²_F, U,V ≥ 0, by multiplicative updates (Lee & Seung, NIPS 2001, eq. 4), ε-guarded", nil),
		declare(lsi.Defaults, "LSI: rank-K truncated SVD D ≈ U_K Σ_K V_Kᵀ by randomized subspace iteration, fold-in Σ⁻¹U_Kᵀq (Deerwester et al. 1990; Halko et al. 2011)", nil),
		declare(plsi.Defaults, "PLSI: EM for P(w|z), P(z|d) maximizing Σ n(d,w) log Σ_z P(w|z)P(z|d), fold-in by EM with P(w|z) fixed (Hofmann, SIGIR 1999, Sec. 3–4)", nil),
		declare(lda.Defaults, "LDA by collapsed Gibbs sampling, estimates averaged after burn-in, fold-in by Gibbs with φ fixed (Blei et al. 2003; Griffiths & Steyvers, PNAS 2004)", nil),
		declare(tnmf.Defaults, "TNMF: S = cosine of PPMI term co-occurrence vectors, U ← max(SU(UᵀU)⁻¹, 0), then V by Eq. 4.6 (e) or I-divergence Newton (i) (Yan et al., SDM 2013, Alg. 1)", nil),
		declare(nmfvariants.DefaultsE, "NMF_E: min ‖D−UVᵀ‖²_F + λ(‖U‖²_F + ‖V‖²_F), U,V ≥ 0, multiplicative updates (TNMF baseline, Yan et al. SDM 2013 §5.2)", nil),
		declare(nmfvariants.DefaultsI, "NMF_I: min D(D‖UVᵀ) (generalized I-divergence), U,V ≥ 0, Lee & Seung multiplicative updates, no regularizer (TNMF baseline, Yan et al. SDM 2013 §5.2)", nil),
		declare(graphnmf.Defaults, "graph-regularized NMF: min ‖D−UVᵀ‖²_F + λ·Tr(VᵀLV) on a cosine p-NN document graph, multiplicative updates (Cai, He, Han, Huang, TPAMI 2011)", nil),
		declare(symnmf.Defaults, "SymNMF: min ‖A−HHᵀ‖²_F, H ≥ 0, A = document cosine similarities, projected gradient with Armijo steps; cluster = argmax of a row of H (Kuang, Ding, Park, SDM 2012)", nil),
		declare(grouprlsi.Defaults, "Group RLSI: shared topics U0 and class topics U_p, ℓ1 on topics, ℓ2 on documents (Wang, Cao, Xu, Li, SIGIR 2012, Eq. 3, Alg. 1–4); needs class labels", groupK),
		declare(grouprlsi.DefaultsPerClass, "CRLSI: one RLSI model per class, no shared topics (the per-class baseline of Wang, Cao, Xu, Li, SIGIR 2012, §7.3); needs class labels", perClassK),
		declare(groupnmf.Defaults, "Group NMF: shared topics U0 and class topics U_p, non-negative, multiplicative updates (Wang, Cao, Xu, Li, SIGIR 2012, Eq. 9, Alg. 5), ε-guarded; needs class labels", groupK),
		declare(groupnmf.DefaultsPerClass, "CNMF: one NMF model per class, no shared topics (the per-class baseline of Wang, Cao, Xu, Li, SIGIR 2012, §7.3); needs class labels", perClassK),
		declare(snmf.DefaultsANLS, "NMF by alternating non-negativity-constrained least squares, NNLS by block principal pivoting (Kim & Park, SIAM J. Sci. Comput. 2011)", nil),
		declare(snmf.Defaults, "sparse NMF SNMF/R: min ½{‖D−UVᵀ‖²_F + η‖U‖²_F + β Σ_n ‖v_n‖₁²} by alternating NNLS (Kim & Park, Bioinformatics 2007)", nil),
		declare(gnmfnc.Defaults, "GNMFNC: group NMF with natural categories, shared U_s and category U_p with orthogonality and shrinkage terms, multiplicative updates (Zhou, Chen, Zeng, Zhao, COLING 2014, Eq. 1–11); needs class labels", map[string]string{"k": "takes ks and kp (K = ks + categories·kp)"}),
		declare(jtd.Defaults, "noisy joint topic-document model D = BS + E + N by inexact ALM with an SNMF/R sub-problem (Min & Ma, ICASSP 2013, Eq. 3–12)", nil),
		declare(onlinelda.Defaults, "LDA by online variational Bayes (Hoffman, Blei & Bach, NIPS 2010, Alg. 2), scikit-learn's names and defaults", nil),
	}
}

// declare is the family whose Options start from defaults() and take the
// string parameters parsed on top (engine/param); hints explain a key the
// family does not take but a user may try. Options with a Check
// method (rules between parameters, such as burnin < iters) are checked
// too, so New refuses them before any data is read.
func declare[O engine.Method](defaults func() O, doc string, hints map[string]string) Family {
	d := defaults()
	return Family{
		Name:   d.Name(),
		Doc:    doc,
		Params: param.Declared(&d),
		New: func(p Params) (engine.Method, error) {
			o := defaults()
			if err := param.Parse(&o, p); err != nil {
				var unknown *param.UnknownError
				if errors.As(err, &unknown) && hints[unknown.Key] != "" {
					return nil, fmt.Errorf("family %s: %w; %s %s", d.Name(), err, d.Name(), hints[unknown.Key])
				}
				return nil, fmt.Errorf("family %s: %w", d.Name(), err)
			}
			if c, ok := any(o).(interface{ Check() error }); ok {
				if err := c.Check(); err != nil {
					return nil, err // already named by the family
				}
			}
			return o, nil
		},
	}
}

// Families returns every family, sorted by name.
func Families() []Family {
	fs := families()
	for i := range fs {
		fs[i].FrontEnd = frontEnds[fs[i].Name]
	}
	sort.Slice(fs, func(a, b int) bool { return fs[a].Name < fs[b].Name })
	return fs
}

// Names returns the names of every family, sorted.
func Names() []string {
	var names []string
	for _, f := range Families() {
		names = append(names, f.Name)
	}
	return names
}

// Lookup returns the family of the given name.
func Lookup(name string) (Family, error) {
	for _, f := range Families() {
		if f.Name == name {
			return f, nil
		}
	}
	return Family{}, fmt.Errorf("unknown family %q (known: %s)", name, strings.Join(Names(), ", "))
}

// New builds the named family's Method from string parameters. Unknown keys
// are an error that lists the valid ones, so a typo never silently falls
// back to a default.
func New(name string, p Params) (engine.Method, error) {
	f, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return f.New(p)
}

// Params are a family's parameters as strings, as written on a command line
// or in an experiment's grid.
type Params map[string]string
