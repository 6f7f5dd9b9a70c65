package jtd2013

import (
	"context"
	"fmt"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/metrics/classify"
	"gonum.org/v1/gonum/mat"
)

// Folds is the k of the paper's k-fold cross-validation (§5.1).
const Folds = 5

// labels returns the class of every document of c.
func labels(c *engine.Corpus) ([]int, error) {
	if len(c.Labels) != c.Docs() || c.Classes() < 2 {
		return nil, fmt.Errorf("data set %s: documents carry no class labels", c.Name)
	}
	for n, l := range c.Labels {
		if l < 0 {
			return nil, fmt.Errorf("data set %s: document %s has no class", c.Name, c.DocIDs[n])
		}
	}
	return c.Labels, nil
}

// foldSeed is the seed of the cross-validation folds: the same for every
// method, feature set and parameter of a data set and replicate, so that
// fold accuracies pair across them.
func foldSeed(j *experiments.Job) uint64 {
	return engine.DeriveSeed(j.RootSeed, "jtd2013 folds", j.Dataset, strconv.Itoa(j.Replicate))
}

// crossValidate scores features x (one row per document, scaled to unit
// length) by 5-fold cross-validation of the linear SVM, and adds the mean
// accuracy as metric name and each fold's accuracy as a per-query value
// ("fold f"), so that claims can pair folds across jobs.
func crossValidate(ctx context.Context, j *experiments.Job, res *experiments.Result, name string, x *mat.Dense, y []int) error {
	cv, err := classify.KFold(ctx, classify.Dense(experiments.UnitDenseRows(x)), y, classify.Options{Pool: j.Pool}, Folds, foldSeed(j))
	if err != nil {
		return fmt.Errorf("%s: %s: %w", j.Label(), name, err)
	}
	res.AddMetric(name, cv.Mean)
	for f, a := range cv.Accuracies {
		res.PerQuery = append(res.PerQuery, experiments.QueryMetric{Query: "fold " + strconv.Itoa(f+1), Metric: name, Value: a})
	}
	return nil
}
