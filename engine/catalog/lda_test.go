package catalog

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/lda"
)

func TestLDAFamily(t *testing.T) {
	m, err := New("lda", Params{"k": "8", "alpha": "0.5", "beta": "0.01", "iters": "300", "burnin": "100", "seed": "9", "round": "true"})
	if err != nil {
		t.Fatal(err)
	}
	o, ok := m.(lda.Options)
	if !ok {
		t.Fatalf("New returned %T", m)
	}
	if o.K != 8 || o.Alpha != 0.5 || o.Beta != 0.01 || o.Iters != 300 || o.BurnIn != 100 || o.Seed != 9 || !o.RoundWeights || m.Name() != "lda" {
		t.Errorf("options %+v, name %q", o, m.Name())
	}
	d, err := New("lda", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Alpha and BurnIn stay 0 in Options, which means 50/K and iters/2.
	if o := d.(lda.Options); o.K != 20 || o.Alpha != 0 || o.Beta != 0.1 || o.Iters != 1000 || o.BurnIn != 0 || o.RoundWeights {
		t.Errorf("defaults %+v", o)
	}
	// burnin=0 asks for no burn-in (Options: negative), not the default.
	if z, _ := New("lda", Params{"burnin": "0"}); z.(lda.Options).BurnIn >= 0 {
		t.Errorf("burnin=0 gave %+v", z)
	}
	for key, p := range map[string]Params{
		"k":       {"k": "0"},
		"alpha":   {"alpha": "0"},
		"beta":    {"beta": "-0.1"},
		"iters":   {"iters": "0"},
		"burnin":  {"iters": "10", "burnin": "10"},
		"round":   {"round": "maybe"},
		"seed":    {"seed": "1.5"},
		"\"tol\"": {"tol": "1"},
	} {
		if _, err := New("lda", p); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%v: err = %v, want it to name %s", p, err, key)
		}
	}
}
