package catalog

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/nmf"
)

func TestNMFFamily(t *testing.T) {
	m, err := New("nmf", Params{"k": "7", "iters": "12", "tol": "1e-6", "seed": "42", "init": "nndsvda"})
	if err != nil {
		t.Fatal(err)
	}
	o, ok := m.(nmf.Options)
	if !ok {
		t.Fatalf("New returned %T", m)
	}
	if o.K != 7 || o.Stopping.MaxIter != 12 || o.Stopping.RelTol != 1e-6 || o.Seed != 42 || o.Init != nmf.InitNNDSVDA {
		t.Errorf("options %+v", o)
	}
	if m.Name() != "nmf" {
		t.Errorf("name %q", m.Name())
	}
	d, err := New("nmf", nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := d.(nmf.Options); o.K != nmf.DefaultK || o.Init != nmf.InitRandom || o.Stopping.MaxIter != 100 {
		t.Errorf("defaults %+v", o)
	}
	if o, _ := New("nmf", Params{"tol": "0"}); o.(nmf.Options).Stopping.RelTol >= 0 {
		t.Error("tol=0 should disable the tolerance test")
	}
	for key, p := range map[string]Params{
		"k":       {"k": "0"},
		"iters":   {"iters": "-3"},
		"tol":     {"tol": "NaN"},
		"seed":    {"seed": "x"},
		"init":    {"init": "custom"},
		"\"kk\"":  {"kk": "3"},
		"init = ": {"init": "svd"},
	} {
		if _, err := New("nmf", p); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%v: err = %v, want it to name %s", p, err, key)
		}
	}
}
