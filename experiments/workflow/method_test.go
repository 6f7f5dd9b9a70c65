package workflow

import (
	"testing"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/catalog"
)

// TestDefaultSeedIsDeclared: every family that takes a seed declares
// DefaultSeed as its default, so that the seed of every front end (--seed's
// default, NewMethod's) is the library's.
func TestDefaultSeedIsDeclared(t *testing.T) {
	for _, f := range catalog.Families() {
		for _, p := range f.Params {
			if p.Key == "seed" && p.Default != "1" {
				t.Errorf("%s declares seed %s, want DefaultSeed %d", f.Name, p.Default, DefaultSeed)
			}
		}
	}
}

// TestNewMethodDefaults: the front-end defaults fill the keys not given,
// the seed is the declared one, and a given key wins.
func TestNewMethodDefaults(t *testing.T) {
	m, err := NewMethod("rlsi", catalog.Params{"k": "5", "lambda1": "0.2"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Seed != DefaultSeed || m.Params["lambda1"] != "0.2" || m.Params["lambda-scale"] != "relative" || m.Params["init-scale"] != "balanced" {
		t.Errorf("rlsi: seed %d, params %v", m.Seed, m.Params)
	}
	if _, ok := m.Params["seed"]; ok {
		t.Errorf("Params hold the seed: %v", m.Params)
	}
	if m, err = NewMethod("nmf", catalog.Params{"seed": "7"}); err != nil || m.Seed != 7 {
		t.Errorf("nmf seed=7: %v, %v", m, err)
	}
}

// TestTextOptions: a family of word counts gets raw counts unless the
// weighting or the norm is given; values are checked against the
// declared ranges.
func TestTextOptions(t *testing.T) {
	for _, c := range []struct {
		family          string
		given           map[string]string
		weighting, norm string
	}{
		{"nmf", nil, text.WeightTFIDF, text.NormL2},
		{"lda", nil, text.WeightTF, text.NormNone},
		{"onlinelda", map[string]string{"weighting": "tfidf"}, text.WeightTFIDF, text.NormNone},
	} {
		o, err := TextOptions(c.family, c.given)
		if err != nil || o.Weighting != c.weighting || o.Norm != c.norm {
			t.Errorf("%s %v: %s, %s, %v; want %s, %s", c.family, c.given, o.Weighting, o.Norm, err, c.weighting, c.norm)
		}
	}
	if _, err := TextOptions("nmf", map[string]string{"min-df": "0"}); err == nil {
		t.Error("min-df 0 accepted")
	}
}
