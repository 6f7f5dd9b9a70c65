package classify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/metrics/stats"
)

// Accuracy is the fraction of positions where pred equals truth. It returns
// an error when the lengths differ or are zero.
func Accuracy(truth, pred []int) (float64, error) {
	if len(truth) != len(pred) {
		return 0, fmt.Errorf("classify: %d true labels but %d predictions", len(truth), len(pred))
	}
	if len(truth) == 0 {
		return 0, errors.New("classify: accuracy of zero examples is undefined")
	}
	ok := 0
	for i := range truth {
		if truth[i] == pred[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(truth)), nil
}

// Confusion is a confusion matrix: Counts[i][j] examples of true label
// Labels[i] were predicted Labels[j].
type Confusion struct {
	Labels []int   // every label seen in truth or pred, increasing
	Counts [][]int // len(Labels) × len(Labels)
}

// NewConfusion counts (true, predicted) pairs. It returns an error when the
// lengths differ.
func NewConfusion(truth, pred []int) (*Confusion, error) {
	if len(truth) != len(pred) {
		return nil, fmt.Errorf("classify: %d true labels but %d predictions", len(truth), len(pred))
	}
	labels := append(append(make([]int, 0, len(truth)+len(pred)), truth...), pred...)
	slices.Sort(labels)
	labels = slices.Compact(labels)
	pos := make(map[int]int, len(labels))
	for i, l := range labels {
		pos[l] = i
	}
	c := &Confusion{Labels: labels, Counts: make([][]int, len(labels))}
	for i := range c.Counts {
		c.Counts[i] = make([]int, len(labels))
	}
	for i := range truth {
		c.Counts[pos[truth[i]]][pos[pred[i]]]++
	}
	return c, nil
}

// Accuracy is the trace over the total (NaN when empty).
func (c *Confusion) Accuracy() float64 {
	diag, total := 0, 0
	for i, row := range c.Counts {
		diag += row[i]
		for _, v := range row {
			total += v
		}
	}
	return float64(diag) / float64(total)
}

// CVResult holds the test accuracy of every split.
type CVResult struct {
	Accuracies []float64
	Mean, Std  float64 // mean and sample standard deviation of Accuracies
	// Warnings collects the solver warnings of every split.
	Warnings []string
}

// RepeatedHoldout trains on a random (1 − testFraction) of the examples and
// tests on the rest, repeats times; split r permutes the examples with
// engine.DeriveSeed(seed, "holdout", r). repeats = 0 means 10 and
// testFraction = 0 means 0.2 (a 4:1 split). The test set has
// round(testFraction·n) examples, at least 1 and at most n − 1.
func RepeatedHoldout(ctx context.Context, x Features, y []int, opts Options, repeats int, testFraction float64, seed uint64) (CVResult, error) {
	if repeats == 0 {
		repeats = 10
	}
	if testFraction == 0 {
		testFraction = 0.2
	}
	if repeats < 0 {
		return CVResult{}, fmt.Errorf("classify: repeats = %d, want ≥ 0", repeats)
	}
	if !(testFraction > 0 && testFraction < 1) {
		return CVResult{}, fmt.Errorf("classify: test fraction %v, want in (0, 1)", testFraction)
	}
	n, err := checkCV(x, y)
	if err != nil {
		return CVResult{}, err
	}
	nTest := min(max(int(testFraction*float64(n)+0.5), 1), n-1)
	var res CVResult
	for r := range repeats {
		perm := engine.NewRand(engine.DeriveSeed(seed, "holdout", strconv.Itoa(r))).Perm(n)
		if err := res.add(ctx, x, y, opts, perm[nTest:], perm[:nTest]); err != nil {
			return CVResult{}, fmt.Errorf("classify: split %d: %w", r, err)
		}
	}
	res.Mean, res.Std = stats.MeanStd(res.Accuracies)
	return res, nil
}

// KFold permutes the examples with engine.DeriveSeed(seed, "kfold") and cuts
// the permutation into k folds of sizes differing by at most one; fold f is
// tested on a model trained on the other folds.
func KFold(ctx context.Context, x Features, y []int, opts Options, k int, seed uint64) (CVResult, error) {
	n, err := checkCV(x, y)
	if err != nil {
		return CVResult{}, err
	}
	if k < 2 || k > n {
		return CVResult{}, fmt.Errorf("classify: %d folds of %d examples, want 2 ≤ k ≤ n", k, n)
	}
	perm := engine.NewRand(engine.DeriveSeed(seed, "kfold")).Perm(n)
	var res CVResult
	for f := range k {
		lo, hi := f*n/k, (f+1)*n/k
		train := append(slices.Clone(perm[:lo]), perm[hi:]...)
		if err := res.add(ctx, x, y, opts, train, perm[lo:hi]); err != nil {
			return CVResult{}, fmt.Errorf("classify: fold %d: %w", f, err)
		}
	}
	res.Mean, res.Std = stats.MeanStd(res.Accuracies)
	return res, nil
}

func checkCV(x Features, y []int) (int, error) {
	if x == nil {
		return 0, errors.New("classify: nil features")
	}
	n := x.Rows()
	if n != len(y) {
		return 0, fmt.Errorf("classify: %d examples but %d labels", n, len(y))
	}
	if n < 2 {
		return 0, fmt.Errorf("classify: %d example(s), need at least 2 to split", n)
	}
	return n, nil
}

func (res *CVResult) add(ctx context.Context, x Features, y []int, opts Options, train, test []int) error {
	ytr := make([]int, len(train))
	for i, j := range train {
		ytr[i] = y[j]
	}
	yte := make([]int, len(test))
	for i, j := range test {
		yte[i] = y[j]
	}
	m, err := Train(ctx, x.subset(train), ytr, opts)
	if err != nil {
		return err
	}
	pred, err := m.Predict(x.subset(test))
	if err != nil {
		return err
	}
	acc, err := Accuracy(yte, pred)
	if err != nil {
		return err
	}
	res.Accuracies = append(res.Accuracies, acc)
	res.Warnings = append(res.Warnings, m.Warnings...)
	return nil
}
