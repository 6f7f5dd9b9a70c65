package classify

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// fixture: 18 points in 3 classes (numpy RandomState(3), randn(6,3) shifted
// by e_class, rounded to 2 decimals); not linearly separable.
var fixX = [][]float64{{2.79, 0.44, 0.1}, {-0.86, -0.28, -0.35}, {0.92, -0.63, -0.04}, {0.52, -1.31, 0.88}, {1.88, 1.71, 0.05}, {0.6, -0.55, -1.55},
	{0.98, -0.1, -1.19}, {-0.21, 2.49, 0.24}, {-1.02, 0.29, 0.63}, {-0.16, 0.23, -0.23}, {0.75, 2.98, -1.24}, {-0.63, 0.2, -2.42},
	{-0.92, -1.02, 2.12}, {-0.13, -1.62, 1.65}, {-0.36, -1.74, 0.4}, {-0.59, -0.87, 1.03}, {-2.25, -0.27, 2.01}, {0.85, 1.11, 2.12}}
var fixY = []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2}

func denseOf(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

func sparseOf(rows [][]float64) *sparse.CSR {
	var ts []sparse.Triplet
	for i, r := range rows {
		for j, v := range r {
			ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: v})
		}
	}
	m, err := sparse.FromTriplets(len(rows), len(rows[0]), ts)
	if err != nil {
		panic(err)
	}
	return m
}

// TestSklearn compares with scikit-learn 1.2.1 (Debian python3-sklearn):
// LinearSVC(loss='squared_hinge', dual=True, C=1.0, tol=1e-9,
// max_iter=10000000).fit(fixX, fixY); weights are coef_ rows with
// intercept_ appended (intercept_scaling=1 = our bias feature of value 1).
func TestSklearn(t *testing.T) {
	want := [][]float64{
		{0.6013180003519006, -0.27779889513374684, -0.15702426921541432, -0.41840040744670526},
		{-0.3793141716974765, 0.4938919597106065, -0.4590098379900635, -0.28491132541855246},
		{-0.18068725594505275, -0.26566337099026177, 0.8390683476002355, -0.7902994217466203},
	}
	// sklearn predict(fixX); accuracy 0.8333333333333334
	wantPred := []int{0, 1, 0, 2, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2}
	for _, x := range []Features{Dense(denseOf(fixX)), Sparse(sparseOf(fixX))} {
		m, err := Train(context.Background(), x, fixY, Options{Tol: 1e-9, MaxIter: 100000})
		if err != nil {
			t.Fatal(err)
		}
		for j := range want {
			for f := range want[j] {
				if d := math.Abs(m.Weights[j][f] - want[j][f]); d > 1e-6 {
					t.Errorf("w[%d][%d] = %.10f, sklearn %.10f", j, f, m.Weights[j][f], want[j][f])
				}
			}
		}
		pred, _ := m.Predict(x)
		if !reflect.DeepEqual(pred, wantPred) {
			t.Errorf("predictions %v, sklearn %v", pred, wantPred)
		}
		if acc, _ := Accuracy(fixY, pred); acc != 15.0/18 {
			t.Errorf("accuracy %v, sklearn 0.8333333333333334", acc)
		}
		if len(m.Warnings) != 0 {
			t.Errorf("warnings %v", m.Warnings)
		}
	}
	// Binary, labels 4 and 7 (class 1 of the fixture is 7), C = 0.5:
	// sklearn coef_ and intercept_ below (classes_ = [4 7], 7 positive),
	// accuracy 0.7777777777777778.
	yb := make([]int, len(fixY))
	for i, l := range fixY {
		yb[i] = 4
		if l == 1 {
			yb[i] = 7
		}
	}
	wantB := []float64{-0.33944845367405097, 0.45447244676016524, -0.41945285318857056, -0.26950535171931167}
	wantBPred := []int{4, 7, 4, 4, 4, 4, 4, 7, 4, 4, 7, 7, 4, 4, 4, 4, 4, 4}
	m, err := Train(context.Background(), Dense(denseOf(fixX)), yb, Options{C: 0.5, Tol: 1e-9, MaxIter: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Weights) != 1 || !reflect.DeepEqual(m.Classes, []int{4, 7}) {
		t.Fatalf("binary model: %d weight vectors, classes %v", len(m.Weights), m.Classes)
	}
	for f := range wantB {
		if d := math.Abs(m.Weights[0][f] - wantB[f]); d > 1e-6 {
			t.Errorf("binary w[%d] = %.10f, sklearn %.10f", f, m.Weights[0][f], wantB[f])
		}
	}
	if pred, _ := m.Predict(Dense(denseOf(fixX))); !reflect.DeepEqual(pred, wantBPred) {
		t.Errorf("binary predictions %v, sklearn %v", pred, wantBPred)
	}
}

// TestOptimality checks the primal optimality condition independently of
// the dual: ∇ = w − 2C Σ_{i: y_i wᵀx_i < 1} (1 − y_i wᵀx_i) y_i x_i = 0.
func TestOptimality(t *testing.T) {
	for _, opts := range []Options{{Tol: 1e-10, MaxIter: 100000}, {Tol: 1e-10, MaxIter: 100000, NoShrinking: true},
		{C: 10, NoBias: true, Tol: 1e-10, MaxIter: 100000}, {C: 0.1, BiasValue: 3, Tol: 1e-10, MaxIter: 100000, Seed: 9}} {
		yb := make([]int, len(fixY))
		for i, l := range fixY {
			yb[i] = min(l, 1)
		}
		m, err := Train(context.Background(), Dense(denseOf(fixX)), yb, opts)
		if err != nil {
			t.Fatal(err)
		}
		c := opts.C
		if c == 0 {
			c = 1
		}
		w := m.Weights[0]
		grad := append([]float64(nil), w...)
		for i, x := range fixX {
			xb := append(append([]float64(nil), x...), m.Bias)
			if m.Bias == 0 {
				xb = xb[:len(x)]
			}
			y := -1.0
			if yb[i] == 1 {
				y = 1
			}
			margin := 0.0
			for f := range xb {
				margin += w[f] * xb[f]
			}
			margin *= y
			if margin < 1 {
				for f := range xb {
					grad[f] -= 2 * c * (1 - margin) * y * xb[f]
				}
			}
		}
		for f, g := range grad {
			if math.Abs(g) > 1e-7 {
				t.Errorf("%+v: primal gradient[%d] = %g", opts, f, g)
			}
		}
	}
}

func TestSeparable(t *testing.T) {
	rows := [][]float64{{0, 0}, {0, 1}, {1, 0}, {5, 5}, {5, 6}, {6, 5}, {-5, 5}, {-6, 5}, {-5, 6}}
	y := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	for _, x := range []Features{Dense(denseOf(rows)), Sparse(sparseOf(rows))} {
		m, err := Train(context.Background(), x, y, Options{})
		if err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		if acc, _ := Accuracy(y, pred); acc != 1 {
			t.Errorf("separable accuracy %v, predictions %v", acc, pred)
		}
	}
}

func TestDeterminism(t *testing.T) {
	x := Dense(denseOf(fixX))
	a, _ := Train(context.Background(), x, fixY, Options{Seed: 5})
	b, _ := Train(context.Background(), x, fixY, Options{Seed: 5, Pool: parallel.NewPool(2)})
	c, _ := Train(context.Background(), Sparse(sparseOf(fixX)), fixY, Options{Seed: 5, Pool: parallel.NewPool(1)})
	if !reflect.DeepEqual(a.Weights, b.Weights) || !reflect.DeepEqual(a.Weights, c.Weights) {
		t.Error("same seed gave different weights (serial / pool / sparse)")
	}
	d, _ := Train(context.Background(), x, fixY, Options{Seed: 6})
	if reflect.DeepEqual(a.Weights, d.Weights) {
		t.Log("different seeds gave the same bits (possible but unlikely at Tol 0.1)")
	}
}

func TestSmall(t *testing.T) {
	// size 0
	if _, err := Train(context.Background(), Dense(nil), nil, Options{}); err == nil || !strings.Contains(err.Error(), "no training examples") {
		t.Errorf("empty: %v", err)
	}
	// size 1: one class, constant model
	m, err := Train(context.Background(), Dense(mat.NewDense(1, 2, []float64{1, 2})), []int{42}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pred, err := m.Predict(Dense(mat.NewDense(3, 2, nil)))
	if err != nil || !reflect.DeepEqual(pred, []int{42, 42, 42}) || len(m.Weights) != 0 {
		t.Errorf("one class: %v %v %d", pred, err, len(m.Weights))
	}
	// two examples, two classes
	m, err = Train(context.Background(), Dense(mat.NewDense(2, 1, []float64{-1, 1})), []int{3, 9}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if pred, _ := m.Predict(Dense(mat.NewDense(2, 1, []float64{-2, 2}))); !reflect.DeepEqual(pred, []int{3, 9}) {
		t.Errorf("two examples: %v", pred)
	}
	// predict on zero rows
	if pred, err := m.Predict(Dense(nil)); err == nil {
		t.Errorf("zero-column features accepted: %v", pred)
	}
	if pred, err := m.Predict(Sparse(&sparse.CSR{Rows: 0, Cols: 1, RowPtr: []int{0}})); err != nil || len(pred) != 0 {
		t.Errorf("zero rows: %v %v", pred, err)
	}
}

func TestErrors(t *testing.T) {
	x := Dense(denseOf(fixX))
	tests := []struct {
		name string
		f    func() error
		want string
	}{
		{"labels", func() error { _, err := Train(context.Background(), x, fixY[:3], Options{}); return err }, "18 examples but 3 labels"},
		{"C", func() error { _, err := Train(context.Background(), x, fixY, Options{C: -1}); return err }, "C = -1"},
		{"Tol", func() error { _, err := Train(context.Background(), x, fixY, Options{Tol: math.NaN()}); return err }, "Tol"},
		{"MaxIter", func() error { _, err := Train(context.Background(), x, fixY, Options{MaxIter: -2}); return err }, "MaxIter"},
		{"nan", func() error {
			bad := denseOf(fixX)
			bad.Set(4, 1, math.NaN())
			_, err := Train(context.Background(), Dense(bad), fixY, Options{})
			return err
		}, "feature 1 of example 4"},
		{"cols", func() error {
			m, _ := Train(context.Background(), x, fixY, Options{})
			_, err := m.Predict(Dense(mat.NewDense(1, 2, nil)))
			return err
		}, "2 features, the model 3"},
		{"holdout frac", func() error {
			_, err := RepeatedHoldout(context.Background(), x, fixY, Options{}, 1, 1.5, 0)
			return err
		}, "test fraction"},
		{"holdout n", func() error {
			_, err := RepeatedHoldout(context.Background(), Dense(mat.NewDense(1, 1, nil)), []int{1}, Options{}, 1, 0, 0)
			return err
		}, "need at least 2"},
		{"kfold k", func() error { _, err := KFold(context.Background(), x, fixY, Options{}, 19, 0); return err }, "19 folds"},
		{"accuracy", func() error { _, err := Accuracy(nil, nil); return err }, "zero examples"},
		{"accuracy len", func() error { _, err := Accuracy([]int{1}, nil); return err }, "1 true labels but 0"},
		{"confusion len", func() error { _, err := NewConfusion([]int{1}, nil); return err }, "1 true labels but 0"},
	}
	for _, tc := range tests {
		if err := tc.f(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestMaxIterWarning(t *testing.T) {
	m, err := Train(context.Background(), Dense(denseOf(fixX)), fixY, Options{Tol: 1e-12, MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) != 3 || m.Iterations[0] != 2 {
		t.Errorf("warnings %v iterations %v", m.Warnings, m.Iterations)
	}
}

// TestCancel checks that a cancelled context stops training and the
// cross-validations with its error instead of a model: an experiment run
// that is interrupted must not wait for thousands of SVM iterations.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := Dense(denseOf(fixX))
	if m, err := Train(ctx, x, fixY, Options{}); !errors.Is(err, context.Canceled) || m != nil {
		t.Errorf("Train: model %v, error %v, want context.Canceled", m, err)
	}
	if _, err := KFold(ctx, x, fixY, Options{Pool: parallel.NewPool(2)}, 3, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("KFold: error %v, want context.Canceled", err)
	}
	if _, err := RepeatedHoldout(ctx, x, fixY, Options{}, 2, 0, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("RepeatedHoldout: error %v, want context.Canceled", err)
	}
}

func TestConfusion(t *testing.T) {
	tests := []struct {
		truth, pred []int
		labels      []int
		counts      [][]int
		acc         float64
	}{
		{nil, nil, []int{}, [][]int{}, math.NaN()},
		{[]int{5}, []int{5}, []int{5}, [][]int{{1}}, 1},
		{[]int{1, 1, 2, 3}, []int{1, 2, 2, 1}, []int{1, 2, 3}, [][]int{{1, 1, 0}, {0, 1, 0}, {1, 0, 0}}, 0.5},
	}
	for _, tc := range tests {
		c, err := NewConfusion(tc.truth, tc.pred)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c.Labels, tc.labels) || !reflect.DeepEqual(c.Counts, tc.counts) {
			t.Errorf("confusion %v %v, want %v %v", c.Labels, c.Counts, tc.labels, tc.counts)
		}
		if a := c.Accuracy(); !(a == tc.acc || math.IsNaN(a) && math.IsNaN(tc.acc)) {
			t.Errorf("accuracy %v, want %v", a, tc.acc)
		}
		if len(tc.truth) > 0 {
			if a, _ := Accuracy(tc.truth, tc.pred); a != tc.acc {
				t.Errorf("Accuracy %v, want %v", a, tc.acc)
			}
		}
	}
}

func TestCrossValidation(t *testing.T) {
	// well separated two-class data: every split is classified perfectly
	var rows [][]float64
	var y []int
	for i := range 20 {
		f := float64(i)
		rows = append(rows, []float64{5 + 0.1*f, 0.05 * f}, []float64{-5 - 0.1*f, 0.05 * f})
		y = append(y, 1, 0)
	}
	x := Dense(denseOf(rows))
	r, err := RepeatedHoldout(context.Background(), x, y, Options{}, 0, 0, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Accuracies) != 10 || r.Mean != 1 || r.Std != 0 {
		t.Errorf("holdout: %+v", r)
	}
	k, err := KFold(context.Background(), Sparse(sparseOf(rows)), y, Options{}, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(k.Accuracies) != 5 || k.Mean != 1 {
		t.Errorf("kfold: %+v", k)
	}
	// deterministic, and the splits depend on the seed
	a, _ := RepeatedHoldout(context.Background(), Dense(denseOf(fixX)), fixY, Options{}, 5, 0.25, 1)
	b, _ := RepeatedHoldout(context.Background(), Dense(denseOf(fixX)), fixY, Options{}, 5, 0.25, 1)
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different CV results")
	}
	if len(a.Accuracies) != 5 || math.IsNaN(a.Std) {
		t.Errorf("fixture holdout: %+v", a)
	}
	// each test set has round(0.25·18) = 5 examples: accuracies are k/5
	for _, acc := range a.Accuracies {
		if k := acc * 5; math.Abs(k-math.Round(k)) > 1e-12 {
			t.Errorf("accuracy %v is not a multiple of 1/5", acc)
		}
	}
	// one repeat: Std is NaN (one value)
	one, _ := RepeatedHoldout(context.Background(), x, y, Options{}, 1, 0, 0)
	if len(one.Accuracies) != 1 || !math.IsNaN(one.Std) {
		t.Errorf("one repeat: %+v", one)
	}
}

func BenchmarkTrain(b *testing.B) {
	// 5000 documents × 50 topics, 10 classes: the size of a TNMF experiment
	n, k, classes := 5000, 50, 10
	x := mat.NewDense(n, k, nil)
	y := make([]int, n)
	state := uint64(1)
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) / (1 << 53)
	}
	for i := range n {
		y[i] = i % classes
		for j := range k {
			v := next()
			if j%classes == y[i] {
				v += 0.5
			}
			x.Set(i, j, v)
		}
	}
	for b.Loop() {
		if _, err := Train(context.Background(), Dense(x), y, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
