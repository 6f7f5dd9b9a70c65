package catalog

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/rlsi"
)

func TestRLSIFamily(t *testing.T) {
	m, err := New("rlsi", Params{"k": "7", "lambda1": "0.25", "lambda2": "0.75", "variant": "u1v1",
		"iters": "12", "tol": "1e-6", "inner-sweeps": "30", "inner-tol": "1e-8", "seed": "42"})
	if err != nil {
		t.Fatal(err)
	}
	o, ok := m.(rlsi.Options)
	if !ok {
		t.Fatalf("New returned %T", m)
	}
	if o.K != 7 || o.Lambda1 != 0.25 || o.Lambda2 != 0.75 || o.Variant != rlsi.U1V1 || o.Stopping.MaxIter != 12 ||
		o.Stopping.RelTol != 1e-6 || o.InnerSweeps != 30 || o.InnerTol != 1e-8 || o.Seed != 42 {
		t.Errorf("options %+v", o)
	}
	if m.Name() != "rlsi" {
		t.Errorf("name %q", m.Name())
	}
	d, err := New("rlsi", nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := d.(rlsi.Options); o.K != rlsi.DefaultK || o.Lambda1 != 0.5 || o.Lambda2 != 1 || o.Variant != rlsi.U1V2 {
		t.Errorf("defaults %+v", o)
	}
	for params, want := range map[string]Params{
		"lambda1":      {"lambda1": "0"},
		"lambda2":      {"lambda2": "-1"},
		"variant":      {"variant": "u3v3"},
		"k":            {"k": "0"},
		"iters":        {"iters": "x"},
		"inner-sweeps": {"inner-sweeps": "-4"},
		"seed":         {"seed": "-1"},
		"\"lamda1\"":   {"lamda1": "1"},
	} {
		if _, err := New("rlsi", want); err == nil || !strings.Contains(err.Error(), params) {
			t.Errorf("%v: err = %v, want it to name %s", want, err, params)
		}
	}
}
