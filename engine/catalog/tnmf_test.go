package catalog

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/graphnmf"
	"github.com/topicmf/topicmf/engine/nmfvariants"
	"github.com/topicmf/topicmf/engine/symmetric"
	"github.com/topicmf/topicmf/engine/symnmf"
	"github.com/topicmf/topicmf/engine/tnmf"
)

// The five short-text families (tnmf, nmfe, nmfi, graphnmf, symnmf): every
// parameter reaches its option, defaults equal the packages' zero-value
// defaults, and bad values are errors naming the key.
func TestShortTextFamilies(t *testing.T) {
	m, err := New("tnmf", Params{"k": "7", "inference": "i", "count": "multiplicity", "storage": "sparse", "rescale": "true",
		"inner-sweeps": "9", "inner-tol": "0", "seed": "3", "iters": "11", "tol": "1e-6"})
	if err != nil {
		t.Fatal(err)
	}
	o := m.(tnmf.Options)
	if o.K != 7 || o.Inference != tnmf.InferI || o.Count != tnmf.Multiplicity || o.Storage != symmetric.StorageSparse || !o.Rescale ||
		o.InnerSweeps != 9 || o.InnerTol >= 0 || o.Seed != 3 || o.Stopping.MaxIter != 11 || o.Stopping.RelTol != 1e-6 || m.Name() != "tnmf" {
		t.Errorf("tnmf options %+v", o)
	}
	m, err = New("nmfe", Params{"k": "5", "lambda": "0.25", "tol": "0"})
	if err != nil {
		t.Fatal(err)
	}
	if e := m.(nmfvariants.EOptions); e.K != 5 || e.Lambda != 0.25 || e.Stopping.RelTol >= 0 || m.Name() != "nmfe" {
		t.Errorf("nmfe options %+v", e)
	}
	m, err = New("nmfi", Params{"seed": "8"})
	if err != nil {
		t.Fatal(err)
	}
	if i := m.(nmfvariants.IOptions); i.Seed != 8 || i.K != nmfvariants.DefaultK || m.Name() != "nmfi" {
		t.Errorf("nmfi options %+v", i)
	}
	m, err = New("graphnmf", Params{"lambda": "0.01", "neighbors": "7", "weighting": "heat", "sigma": "0.5", "normalize": "false"})
	if err != nil {
		t.Fatal(err)
	}
	if g := m.(graphnmf.Options); g.Lambda != 0.01 || g.Neighbors != 7 || g.Weighting != graphnmf.Heat || g.Sigma != 0.5 || !g.NoNormalize || m.Name() != "graphnmf" {
		t.Errorf("graphnmf options %+v", g)
	}
	m, err = New("symnmf", Params{"k": "4", "sigma": "0.1", "beta": "0.5", "storage": "dense"})
	if err != nil {
		t.Fatal(err)
	}
	if s := m.(symnmf.Options); s.K != 4 || s.Sigma != 0.1 || s.Beta != 0.5 || s.Storage != symmetric.StorageDense || m.Name() != "symnmf" {
		t.Errorf("symnmf options %+v", s)
	}
	// Defaults: the catalog's documented defaults are the packages' own.
	d, _ := New("tnmf", nil)
	if o := d.(tnmf.Options); o.K != tnmf.DefaultK || o.Inference != tnmf.InferE || o.Rescale || o.InnerTol != tnmf.DefaultInnerTol {
		t.Errorf("tnmf defaults %+v", o)
	}
	d, _ = New("graphnmf", nil)
	if g := d.(graphnmf.Options); g.Lambda != graphnmf.DefaultLambda || g.Neighbors != graphnmf.DefaultNeighbors || g.NoNormalize {
		t.Errorf("graphnmf defaults %+v", g)
	}
	for _, tc := range []struct {
		family string
		p      Params
		key    string
	}{
		{"tnmf", Params{"inference": "x"}, "inference"},
		{"tnmf", Params{"count": "pairs"}, "count"},
		{"tnmf", Params{"storage": "csc"}, "storage"},
		{"tnmf", Params{"rescale": "maybe"}, "rescale"},
		{"tnmf", Params{"k": "0"}, "k"},
		{"tnmf", Params{"inner-sweeps": "-1"}, "inner-sweeps"},
		{"nmfe", Params{"lambda": "0"}, "lambda"},
		{"nmfe", Params{"iters": "0"}, "iters"},
		{"nmfi", Params{"tol": "NaN"}, "tol"},
		{"nmfi", Params{"lambda": "1"}, "lambda"},
		{"graphnmf", Params{"weighting": "knn"}, "weighting"},
		{"graphnmf", Params{"neighbors": "0"}, "neighbors"},
		{"graphnmf", Params{"sigma": "-1"}, "sigma"},
		{"graphnmf", Params{"normalize": "2"}, "normalize"},
		{"symnmf", Params{"beta": "1"}, "beta"},
		{"symnmf", Params{"sigma": "0"}, "sigma"},
	} {
		if _, err := New(tc.family, tc.p); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s %v: err = %v, want it to name %s", tc.family, tc.p, err, tc.key)
		}
	}
}
