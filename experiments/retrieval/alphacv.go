package retrieval

import (
	"fmt"
	"math"
)

// AlphaFold is one fold of CrossValidateAlpha: α chosen on the other
// folds' queries (Train) and applied to this fold's (Test).
type AlphaFold struct {
	Test      []int   // positions of the held-out queries, ascending
	Alpha     float64 // chosen on the other folds
	TrainMean float64 // the measure's mean over the other folds at Alpha
	TestMean  float64 // the measure's mean over Test at Alpha
}

// AlphaCV is the outcome of choosing Eq. 5's α by k-fold cross-validation
// over queries.
type AlphaCV struct {
	Alphas []float64
	Folds  []AlphaFold
	// HeldOut[q] is query q's value at the α chosen without it (its fold's
	// Alpha); HeldOutMean is their mean, an honest estimate of what choosing
	// α this way gives on new queries.
	HeldOut     []float64
	HeldOutMean float64
	// Alpha is the α chosen the same way on all queries (for new queries,
	// which no fold holds), with its mean AllMean over them.
	Alpha, AllMean float64
}

// CrossValidateAlpha chooses α by k-fold cross-validation over queries.
// values[i][q] is a per-query measure (MAP's average precision, say) of
// query q ranked with α = alphas[i]; every row covers the same queries.
// The queries are split by SplitQueries(n, k, seed); for each fold, α is
// the grid value with the highest mean over the other folds' queries
// (ties: the smaller α, nearer the term model alone), and is applied to the
// fold. The same (values, alphas, k, seed) always gives the same result.
func CrossValidateAlpha(values [][]float64, alphas []float64, k int, seed uint64) (*AlphaCV, error) {
	if len(alphas) == 0 || len(values) != len(alphas) {
		return nil, fmt.Errorf("retrieval: %d α values and %d rows of per-query values", len(alphas), len(values))
	}
	n := len(values[0])
	for i, row := range values {
		if len(row) != n {
			return nil, fmt.Errorf("retrieval: α = %g has %d query values, α = %g has %d", alphas[i], len(row), alphas[0], n)
		}
	}
	if k < 2 {
		return nil, fmt.Errorf("retrieval: cross-validation needs at least 2 folds, got %d", k)
	}
	folds, err := SplitQueries(n, k, seed)
	if err != nil {
		return nil, err
	}
	cv := &AlphaCV{Alphas: alphas, HeldOut: make([]float64, n)}
	inFold := make([]int, n)
	for f, idx := range folds {
		for _, q := range idx {
			inFold[q] = f
		}
	}
	for f, test := range folds {
		var train []int
		for q := range n {
			if inFold[q] != f {
				train = append(train, q)
			}
		}
		best, trainMean := bestAlpha(values, train)
		fold := AlphaFold{Test: test, Alpha: alphas[best], TrainMean: trainMean, TestMean: meanOver(values[best], test)}
		for _, q := range test {
			cv.HeldOut[q] = values[best][q]
		}
		cv.Folds = append(cv.Folds, fold)
	}
	cv.HeldOutMean = meanOver(cv.HeldOut, nil)
	best, all := bestAlpha(values, nil)
	cv.Alpha, cv.AllMean = alphas[best], all
	return cv, nil
}

// bestAlpha returns the row of values with the highest mean over the
// queries idx (nil: all), the first on ties, and that mean.
func bestAlpha(values [][]float64, idx []int) (int, float64) {
	best, bestMean := 0, math.Inf(-1)
	for i, row := range values {
		if m := meanOver(row, idx); m > bestMean {
			best, bestMean = i, m
		}
	}
	return best, bestMean
}
