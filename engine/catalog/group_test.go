package catalog

import (
	"context"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/groupnmf"
	"github.com/topicmf/topicmf/engine/grouprlsi"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/synthetic"
)

func TestGroupFamilies(t *testing.T) {
	m, err := New("grouprlsi", Params{"ks": "3", "kc": "0", "lambda1": "0.2", "lambda2": "0.3", "iters": "5", "tol": "0", "seed": "9"})
	if err != nil {
		t.Fatal(err)
	}
	if o := m.(grouprlsi.Options); o.Ks != 3 || o.Kc != grouprlsi.None || o.Lambda1 != 0.2 || o.Lambda2 != 0.3 ||
		o.Stopping.MaxIter != 5 || o.Stopping.RelTol != 0 || o.Seed != 9 || o.InnerTol != rlsi.DefaultInnerTol {
		t.Errorf("grouprlsi options %+v", o)
	}
	m, err = New("crlsi", Params{"kc": "4", "ks": "2"})
	if err != nil {
		t.Fatal(err)
	}
	if o := m.(grouprlsi.PerClassOptions); o.Kc != 4 || o.Ks != 2 || o.Lambda1 != grouprlsi.DefaultLambda1 {
		t.Errorf("crlsi options %+v", o)
	}
	m, err = New("groupnmf", Params{"ks": "0", "kc": "2", "order": "vfirst"})
	if err != nil {
		t.Fatal(err)
	}
	if o := m.(groupnmf.Options); o.Ks != groupnmf.None || o.Kc != 2 || !o.VFirst {
		t.Errorf("groupnmf options %+v", o)
	}
	m, err = New("cnmf", nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := m.(groupnmf.PerClassOptions); o.Kc != groupnmf.DefaultKc || o.Ks != 0 {
		t.Errorf("cnmf options %+v", o)
	}
	for _, tc := range []struct {
		family string
		p      Params
		want   string
	}{
		{"grouprlsi", Params{"ks": "0", "kc": "0"}, "grouprlsi: Ks = Kc = 0 leaves no topics"},
		{"grouprlsi", Params{"ks": "-1"}, `parameter ks = "-1": want ≥ 0`},
		{"grouprlsi", Params{"lambda1": "-1"}, "lambda1"},
		{"grouprlsi", Params{"k": "5"}, `unknown parameter "k" (valid: inner-sweeps, inner-tol, iters, kc, ks, lambda1, lambda2, seed, tol); grouprlsi takes ks and kc (K = ks + classes·kc)`},
		{"groupnmf", Params{"k": "5"}, "groupnmf takes ks and kc (K = ks + classes·kc)"},
		{"cnmf", Params{"k": "5"}, "cnmf takes kc and ks (each class's model has kc + ks topics)"},
		{"crlsi", Params{"kc": "0"}, "crlsi: Ks = Kc = 0 leaves no topics"},
		{"crlsi", Params{"lambda2": "-2"}, "lambda2"},
		{"groupnmf", Params{"order": "random"}, `parameter order = "random": want alg5 or vfirst`},
		{"groupnmf", Params{"lambda1": "1"}, "unknown parameter \"lambda1\""},
		{"cnmf", Params{"iters": "0"}, "iters"},
		{"cnmf", Params{"seed": "x"}, "seed"},
	} {
		if _, err := New(tc.family, tc.p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: err = %v, want it to contain %s", tc.family, tc.p, err, tc.want)
		}
	}
	// Every family fits a labelled corpus and refuses an unlabelled one.
	c, _, err := synthetic.Generate(synthetic.Config{M: 300, N: 200, P: 3, Ks: 2, Kc: 2, Length: synthetic.LengthSpec{Mean: 40}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := engine.NewCorpus("plain", c.Vocab, c.D, nil, nil, nil)
	for _, name := range []string{"grouprlsi", "crlsi", "groupnmf", "cnmf"} {
		meth, err := New(name, Params{"ks": "2", "kc": "2", "iters": "3"})
		if err != nil {
			t.Fatal(err)
		}
		model, st, err := meth.Fit(context.Background(), c, nil)
		if err != nil || st.Iterations != 3 {
			t.Fatalf("%s: %v %v", name, st, err)
		}
		wantK := 2 + 3*2
		if name == "crlsi" || name == "cnmf" {
			wantK = 3 * 4
		}
		if _, k := model.TermTopics().Dims(); k != wantK {
			t.Errorf("%s: K = %d, want %d", name, k, wantK)
		}
		if _, _, err := meth.Fit(context.Background(), plain, nil); err == nil || !strings.Contains(err.Error(), "no class labels") {
			t.Errorf("%s on an unlabelled corpus: %v", name, err)
		}
	}
}
