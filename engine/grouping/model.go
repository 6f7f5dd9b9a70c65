package grouping

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// ClassFolder is a fitted group or per-class model that folds new
// documents in with a given class (GMF §4.3 Eq. 8, §5.3 Eq. 10): row i of
// x in class classes[i], returned n×K laid out like the model's
// DocTopics. FoldMethods provides it.
type ClassFolder interface {
	FoldInClass(ctx context.Context, x *sparse.CSR, classes []int) (*mat.Dense, error)
}

// GroupModel is what a fitted group model (GRLSI, engine/grouprlsi; Group
// NMF, engine/groupnmf) offers beyond engine.Model: its shared topics U0,
// the class-specific topics U_p of each class, its dimensions and class
// names, and fold-in and class prediction with the class given or unknown.
type GroupModel interface {
	engine.Model
	// Shared is U0 (M×Ks), nil when Ks = 0.
	Shared() *mat.Dense
	// ClassTopics is U_p (M×Kc) of class p, nil when Kc = 0.
	ClassTopics(p int) *mat.Dense
	// Dims are Ks, Kc and the number of classes P.
	Dims() (ks, kc, p int)
	ClassNames() []string
	ClassFolder
	ClassPredictor
}
