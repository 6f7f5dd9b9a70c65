package grouping

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"gonum.org/v1/gonum/mat"
)

// Names of the class layout in a saved model (engine.Saved).
const (
	savedLabels  = "labels"  // the class of every training document, corpus order
	savedClasses = "classes" // the class names
)

// Saved is the state of a group model's factors (engine.Saved) with the
// options opts: U ("u", M×K), the compact representations ("v",
// N×(Ks+Kc), class-major rows), the class of every training document
// ("labels") and the class names ("classes"), from which LoadFactors
// rebuilds the layout.
func (f *Factors) Saved(opts engine.Method) engine.Saved {
	return engine.Saved{Options: opts, Matrices: map[string]*mat.Dense{"u": f.u, "v": f.v},
		Vectors: map[string][]float64{savedLabels: floats(f.labels)}, Names: map[string][]string{savedClasses: f.classNames}}
}

// LoadFactors returns the layout (without D) and the factors U and V of a
// group model saved by Factors.Saved, checked against Ks and Kc (Kc is
// GNMFNC's Kp) and, for a model whose factors are non-negative (Group NMF,
// GNMFNC), refused on a negative entry (engine.Saved.NonNegative). who
// names the model in errors.
func LoadFactors(who string, s engine.Saved, ks, kc int, nonNegative bool) (lay *Layout, u, v *mat.Dense, err error) {
	classes := s.Names[savedClasses]
	labels, err := s.Counts(who, savedLabels, -1, max(len(classes)-1, 0))
	if err != nil {
		return nil, nil, nil, err
	}
	matrix := s.Matrix
	if nonNegative {
		matrix = s.NonNegative
	}
	if u, err = matrix(who, "u", -1, ks+len(classes)*kc); err != nil {
		return nil, nil, nil, err
	}
	if v, err = matrix(who, "v", len(labels), ks+kc); err != nil {
		return nil, nil, nil, err
	}
	m, _ := u.Dims()
	if lay, err = LayoutOf(who, m, labels, classes); err != nil {
		return nil, nil, nil, err
	}
	return lay, u, v, nil
}

// Save returns the state of the per-class baseline (engine.Saved): its
// options, the state of each class p's model, its matrices and
// vectors named "class<p>_" + their names, whether class p has a model
// ("trained", 0 or 1 per class), the number of terms ("terms"), the class
// of every training document ("labels") and the class names ("classes").
// Every class model must be an engine.Saver.
func (m *PerClass) Save() engine.Saved {
	s := engine.Saved{Options: m.opts, Matrices: map[string]*mat.Dense{},
		Vectors: map[string][]float64{savedLabels: floats(m.labels), "terms": {float64(m.Terms)}},
		Names:   map[string][]string{savedClasses: m.classNames}}
	trained := make([]float64, len(m.models))
	for p, cm := range m.models {
		if cm == nil {
			continue
		}
		trained[p] = 1
		cs := cm.(engine.Saver).Save()
		for name, a := range cs.Matrices {
			s.Matrices[classPrefix(p)+name] = a
		}
		for name, v := range cs.Vectors {
			s.Vectors[classPrefix(p)+name] = v
		}
	}
	s.Vectors["trained"] = trained
	return s
}

// LoadPerClass rebuilds a per-class baseline saved by PerClass.Save with
// the options s.Options: class p's model is loaded (engine.Loader) with
// the options method(p, M, N_p) gives, as FitPerClass fitted it; pool and
// loss are FitPerClass's.
func LoadPerClass(s engine.Saved, pool *parallel.Pool, method ClassMethod, loss ClassLoss) (*PerClass, error) {
	who := s.Options.Name()
	_, kper, err := method(0, math.MaxInt, math.MaxInt)
	if err != nil {
		return nil, err
	}
	if pool == nil {
		pool = parallel.Default()
	}
	classes := s.Names[savedClasses]
	labels, err := s.Counts(who, savedLabels, -1, max(len(classes)-1, 0))
	if err != nil {
		return nil, err
	}
	terms, err := s.Counts(who, "terms", 1, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	trained, err := s.Counts(who, "trained", len(classes), 1)
	if err != nil {
		return nil, err
	}
	lay, err := LayoutOf(who, terms[0], labels, classes)
	if err != nil {
		return nil, err
	}
	models := make([]engine.Model, lay.P)
	for p := range models {
		if trained[p] == 0 {
			continue
		}
		opts, _, err := method(p, lay.M, lay.Size(p))
		if err != nil {
			return nil, err
		}
		loader, ok := opts.(engine.Loader)
		if !ok {
			return nil, fmt.Errorf("%s: class models of type %T cannot be loaded", who, opts)
		}
		cs := engine.Saved{Options: opts, Matrices: map[string]*mat.Dense{}, Vectors: map[string][]float64{}}
		for name, a := range s.Matrices {
			if rest, ok := strings.CutPrefix(name, classPrefix(p)); ok {
				cs.Matrices[rest] = a
			}
		}
		for name, v := range s.Vectors {
			if rest, ok := strings.CutPrefix(name, classPrefix(p)); ok {
				cs.Vectors[rest] = v
			}
		}
		if models[p], err = loader.Load(cs); err != nil {
			if neg, ok := errors.AsType[*engine.NegativeError](err); ok {
				neg.Matrix = classPrefix(p) + neg.Matrix // the name of its file
			}
			return nil, fmt.Errorf("%s: class %s: %w", who, classes[p], err)
		}
		u, docs := models[p].TermTopics(), models[p].DocTopics()
		r, kp := u.Dims()
		n, _ := docs.Dims()
		if r != lay.M || kp > kper || n != lay.Size(p) {
			return nil, fmt.Errorf("%s: class %s: saved model has %d terms, %d topics and %d documents, want %d, at most %d and %d", who, classes[p], r, kp, n, lay.M, kper, lay.Size(p))
		}
	}
	return newPerClass(s.Options, lay, models, kper, pool, loss), nil
}

func classPrefix(p int) string { return "class" + strconv.Itoa(p) + "_" }

func floats(a []int) []float64 {
	out := make([]float64, len(a))
	for i, x := range a {
		out[i] = float64(x)
	}
	return out
}
