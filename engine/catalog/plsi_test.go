package catalog

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/plsi"
)

func TestPLSIFamily(t *testing.T) {
	m, err := New("plsi", Params{"k": "12", "iters": "30", "tol": "1e-6", "seed": "3"})
	if err != nil {
		t.Fatal(err)
	}
	o, ok := m.(plsi.Options)
	if !ok {
		t.Fatalf("New returned %T", m)
	}
	if o.K != 12 || o.Stopping.MaxIter != 30 || o.Stopping.RelTol != 1e-6 || o.Seed != 3 || m.Name() != "plsi" {
		t.Errorf("options %+v, name %q", o, m.Name())
	}
	d, err := New("plsi", nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := d.(plsi.Options); o.K != 20 || o.Stopping.MaxIter != 100 || o.Stopping.RelTol != 1e-4 || o.Seed != 0 {
		t.Errorf("defaults %+v", o)
	}
	if z, _ := New("plsi", Params{"tol": "0"}); z.(plsi.Options).Stopping.RelTol >= 0 {
		t.Errorf("tol=0 gave %+v", z)
	}
	for key, p := range map[string]Params{
		"k":         {"k": "-3"},
		"iters":     {"iters": "0"},
		"tol":       {"tol": "small"},
		"seed":      {"seed": "-1"},
		"\"alpha\"": {"alpha": "1"},
	} {
		if _, err := New("plsi", p); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%v: err = %v, want it to name %s", p, err, key)
		}
	}
}
