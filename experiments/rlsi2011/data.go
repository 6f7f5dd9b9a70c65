package rlsi2011

import (
	"fmt"

	"github.com/topicmf/topicmf/datasets"
)

// trainSplit returns the collection restricted to the documents of the
// named split (queries and judgments are dropped: topic tables only).
func trainSplit(col *datasets.Collection, split string) (*datasets.Collection, error) {
	out := &datasets.Collection{Name: col.Name + "/" + split, Classes: col.Classes}
	for _, d := range col.Docs {
		if d.Split == split {
			out.Docs = append(out.Docs, d)
		}
	}
	if len(out.Docs) == 0 {
		return nil, fmt.Errorf("data set %s has no document in split %q", col.Name, split)
	}
	return out, nil
}

// Our reading of the scale of λ and of V⁽⁰⁾ (see the package
// documentation): every RLSI fit of this package draws V⁽⁰⁾ at the scale of
// the data (init-scale = balanced), and the λ's of the grids are read
// either literally (lambda-scale = absolute, Eq. 1 on raw tf-idf) or as
// stated for documents of unit RMS length (relative), the grid axis
// "lambda-scale".
const (
	LambdaAbsolute = "absolute"
	LambdaRelative = "relative"
)

// rlsiParams returns the family parameters of an RLSI fit of this package:
// p plus the balanced V⁽⁰⁾ scale.
func rlsiParams(p map[string]string) map[string]string {
	out := map[string]string{"init-scale": "balanced"}
	for k, v := range p {
		out[k] = v
	}
	return out
}
