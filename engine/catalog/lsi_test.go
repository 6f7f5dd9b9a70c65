package catalog

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/lsi"
)

func TestLSIFamily(t *testing.T) {
	m, err := New("lsi", Params{"k": "7", "power-iters": "9", "oversample": "5", "seed": "42"})
	if err != nil {
		t.Fatal(err)
	}
	o, ok := m.(lsi.Options)
	if !ok {
		t.Fatalf("New returned %T", m)
	}
	if o.K != 7 || o.PowerIters != 9 || o.Oversample != 5 || o.Seed != 42 || m.Name() != "lsi" {
		t.Errorf("options %+v, name %q", o, m.Name())
	}
	d, err := New("lsi", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Oversample stays 0 in Options, which means max(K, 10).
	if o := d.(lsi.Options); o.K != 20 || o.PowerIters != 20 || o.Oversample != 0 || o.Seed != 0 {
		t.Errorf("defaults %+v", o)
	}
	// power-iters=0 asks for none (Options: negative), not the default.
	z, _ := New("lsi", Params{"power-iters": "0"})
	if z.(lsi.Options).PowerIters >= 0 {
		t.Errorf("power-iters=0 gave %+v", z)
	}
	for key, p := range map[string]Params{
		"k":           {"k": "0"},
		"power-iters": {"power-iters": "-1"},
		"oversample":  {"oversample": "0"},
		"seed":        {"seed": "x"},
		"\"q\"":       {"q": "3"},
	} {
		if _, err := New("lsi", p); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%v: err = %v, want it to name %s", p, err, key)
		}
	}
}
