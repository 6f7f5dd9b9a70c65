package workflow

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/lda"
)

// DefaultSeed is the seed every family declares as its default (the
// "seed" parameter of engine/catalog), and so the seed of every front end.
const DefaultSeed = 1

// Method is a catalog family configured for a fit.
type Method struct {
	Family catalog.Family
	// Params are the parameters as given, with the family's front-end
	// defaults (catalog.FrontEnd) for the keys not given; without "seed".
	Params catalog.Params
	// Seed is the seed used (0 for a family that takes none).
	Seed uint64
	// Method is the configured engine method.
	Method engine.Method
}

// NewMethod configures the catalog family with the given parameters
// (declared keys, as `topicmf models` lists them; "seed" included). A key
// not given takes the family's front-end default where it declares one
// (catalog.FrontEnd: RLSI's λ read relative to the data's scale), else its
// declared default, so that every front end fits the same model.
func NewMethod(family string, given catalog.Params) (*Method, error) {
	fam, err := catalog.Lookup(family)
	if err != nil {
		return nil, err
	}
	m := &Method{Family: fam, Params: WithFrontEnd(fam, given)}
	withSeed := maps.Clone(m.Params)
	if s, ok := m.Params["seed"]; ok {
		delete(m.Params, "seed")
		if m.Seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			return nil, fmt.Errorf("family %s: parameter seed = %q: want a whole number ≥ 0", family, s)
		}
	} else if declares(fam, "seed") {
		m.Seed = DefaultSeed
		withSeed["seed"] = strconv.FormatUint(m.Seed, 10)
	}
	if m.Method, err = fam.New(withSeed); err != nil {
		return nil, err
	}
	return m, nil
}

// WithFrontEnd returns given with the family's front-end defaults
// (catalog.FrontEnd) for the keys neither given nor in vary (the keys a
// sweep varies).
func WithFrontEnd(fam catalog.Family, given catalog.Params, vary ...string) catalog.Params {
	p := maps.Clone(given)
	if p == nil {
		p = catalog.Params{}
	}
	for k, v := range fam.FrontEnd.Params {
		if _, ok := p[k]; !ok && !slices.Contains(vary, k) {
			p[k] = v
		}
	}
	return p
}

// declares reports whether fam has the parameter key.
func declares(fam catalog.Family, key string) bool {
	for _, p := range fam.Params {
		if p.Key == key {
			return true
		}
	}
	return false
}

// MaxIters is the method's iteration limit: its "iters" parameter, given
// or declared; 0 when the family declares none.
func (m *Method) MaxIters() int {
	v, ok := m.Params["iters"]
	if !ok {
		for _, p := range m.Family.Params {
			if p.Key == "iters" {
				v, ok = p.Default, true
			}
		}
	}
	n, err := strconv.Atoi(v)
	if !ok || err != nil || n < 0 {
		return 0
	}
	return n
}

// CheckText refuses a text pipeline o that the method cannot fit before
// any data is read: Gibbs LDA needs integer word counts, which only raw or
// boolean term frequencies, unnormalized, give (unless it rounds).
// Rounding is offered only for unnormalized weights: on unit-length
// documents it would keep just the entries of at least 0.5.
func (m *Method) CheckText(o text.Options) error {
	l, ok := m.Method.(lda.Options)
	if !ok || l.RoundWeights {
		return nil
	}
	d := text.Default() // the zero fields' values
	o.Weighting, o.Norm = orDefault(o.Weighting, d.Weighting), orDefault(o.Norm, d.Norm)
	if (o.Weighting == text.WeightTF || o.Weighting == text.WeightBoolean) && o.Norm == text.NormNone {
		return nil
	}
	msg := fmt.Sprintf("lda needs integer word counts, which weighting %s and norm %s do not give: use lda's default pipeline (weighting tf, norm none)", o.Weighting, o.Norm)
	if o.Norm == text.NormNone {
		msg += " or the parameter round=true"
	}
	return errors.New(msg)
}
