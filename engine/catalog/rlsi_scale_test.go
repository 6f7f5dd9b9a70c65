package catalog

import (
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/rlsi"
)

func TestRLSILambdaScale(t *testing.T) {
	for _, c := range []struct {
		val  string
		want bool
	}{{"", false}, {"absolute", false}, {"relative", true}} {
		p := Params{}
		if c.val != "" {
			p["lambda-scale"] = c.val
		}
		m, err := New("rlsi", p)
		if err != nil {
			t.Fatalf("lambda-scale=%q: %v", c.val, err)
		}
		if got := m.(rlsi.Options).RelativeLambda; got != c.want {
			t.Errorf("lambda-scale=%q: RelativeLambda %v, want %v", c.val, got, c.want)
		}
	}
	if _, err := New("rlsi", Params{"lambda-scale": "data"}); err == nil || !strings.Contains(err.Error(), "lambda-scale") {
		t.Errorf("lambda-scale=data: error %v, want one naming lambda-scale", err)
	}
}

func TestRLSIInitScale(t *testing.T) {
	m, err := New("rlsi", Params{"init-scale": "balanced"})
	if err != nil || !m.(rlsi.Options).BalancedInit {
		t.Fatalf("init-scale=balanced: %v, %v", m, err)
	}
	m, err = New("rlsi", Params{})
	if err != nil || m.(rlsi.Options).BalancedInit {
		t.Fatalf("default init-scale: %v, %v", m, err)
	}
	if _, err := New("rlsi", Params{"init-scale": "big"}); err == nil || !strings.Contains(err.Error(), "init-scale") {
		t.Errorf("init-scale=big: error %v, want one naming init-scale", err)
	}
}
