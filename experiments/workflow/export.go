package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/sparse"
)

// ExportFormat is the format of factors.json in a directory written by
// topicmf-beam export (the nested module distributed/, driver.Export).
const ExportFormat = "topicmf-export/1"

// ExportManifest is the part of factors.json (distributed/driver's
// ExportManifest; that module is not imported, so the main module stays
// small) that folding in needs: the model, its λs as used and the shapes
// of the files beside it.
type ExportManifest struct {
	Format      string  `json:"format"`
	Model       string  `json:"model"`
	Variant     string  `json:"variant"`
	Terms       int     `json:"terms"`
	Documents   int     `json:"documents"`
	K           int     `json:"k"`
	Lambda1     float64 `json:"lambda1"`
	Lambda2     float64 `json:"lambda2"`
	InnerSweeps int     `json:"inner_sweeps"`
	InnerTol    float64 `json:"inner_tol"`
	Vectorizer  string  `json:"vectorizer"` // "vectorizer.json" when the corpus came from text
	Counts      string  `json:"counts"`     // "counts.mtx" when the corpus came from text
}

// OpenExport restores an RLSI model from the factors exported to dir by
// topicmf-beam export: U.mtx (M×K), V.mtx (K×N), vocab.txt, doc_ids.txt,
// the corpus's vectorizer.json (and counts.mtx when needCounts), described
// by factors.json. Nothing is refitted: the model is rlsi.Options.Restore
// of the factors with factors.json's λs as used, so a query folds in as
// RLSI §5 defines it, v_q = (UᵀU + λ2 I)⁻¹Uᵀq, by the engine's own
// fold-in. Every file is checked against factors.json's shapes.
func OpenExport(dir, dataDir string, needCounts bool) (*Run, error) {
	em, err := ReadExportManifest(dir)
	if err != nil {
		return nil, err
	}
	at := func(name string) string { return filepath.Join(dir, name) }
	if em.Vectorizer == "" {
		return nil, fmt.Errorf("%s: names no vectorizer.json (the corpus was not converted from text), so new text cannot be weighted as the corpus was", at("factors.json"))
	}
	for _, f := range []string{"vectorizer.json", "vocab.txt", "doc_ids.txt", "U.mtx", "V.mtx"} {
		if _, err := os.Stat(at(f)); err != nil {
			return nil, fmt.Errorf("%s: missing (topicmf-beam export writes it)", at(f))
		}
	}
	r := &Run{Dir: dir, Config: Config{Command: "fit", Model: em.Model}}
	if r.Vectorizer, err = ReadVectorizer(dir, dataDir); err != nil {
		return nil, err
	}
	if r.Vectorizer.Terms() != em.Terms {
		return nil, fmt.Errorf("%s: %d terms, factors.json says %d", at("vocab.txt"), r.Vectorizer.Terms(), em.Terms)
	}
	if r.DocIDs, err = ReadLines(at("doc_ids.txt"), "document id"); err != nil {
		return nil, err
	}
	if len(r.DocIDs) != em.Documents {
		return nil, fmt.Errorf("%s: %d documents, factors.json says %d", at("doc_ids.txt"), len(r.DocIDs), em.Documents)
	}
	u, err := readShaped(at("U.mtx"), em.Terms, em.K, "terms × K")
	if err != nil {
		return nil, err
	}
	vt, err := readShaped(at("V.mtx"), em.K, em.Documents, "K × documents")
	if err != nil {
		return nil, err
	}
	if needCounts {
		if em.Counts == "" {
			return nil, fmt.Errorf("%s: names no counts.mtx (the corpus was not converted from text): rank needs the documents' term counts", at("factors.json"))
		}
		if r.Counts, err = sparse.ReadMMFile(at("counts.mtx")); err != nil {
			return nil, err
		}
		if r.Counts.Rows != em.Terms || r.Counts.Cols != em.Documents {
			return nil, fmt.Errorf("%s: %d×%d, factors.json says %d terms × %d documents", at("counts.mtx"), r.Counts.Rows, r.Counts.Cols, em.Terms, em.Documents)
		}
	}
	variant, err := rlsi.ParseVariant(em.Variant)
	if err != nil {
		return nil, fmt.Errorf("%s: variant: %w", at("factors.json"), err)
	}
	o := rlsi.Options{Variant: variant, Lambda1: em.Lambda1, Lambda2: em.Lambda2, InnerSweeps: em.InnerSweeps, InnerTol: em.InnerTol}
	if r.Model, err = o.Restore(u, mat.DenseCopyOf(vt.T())); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return r, nil
}

// ReadExportManifest reads and checks dir/factors.json.
func ReadExportManifest(dir string) (*ExportManifest, error) {
	path := filepath.Join(dir, "factors.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: missing: --factors wants a directory written by topicmf-beam export", path)
	}
	if err != nil {
		return nil, err
	}
	var em ExportManifest
	if err := json.Unmarshal(b, &em); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return nil, fmt.Errorf("%s: malformed at byte %d", path, syn.Offset)
		case errors.As(err, &typ):
			return nil, fmt.Errorf("%s: %q is a %s, want a %s", path, typ.Field, typ.Value, typ.Type)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	switch {
	case em.Format != ExportFormat:
		return nil, fmt.Errorf("%s: format %q, want %q", path, em.Format, ExportFormat)
	case em.Model != "rlsi":
		return nil, fmt.Errorf("%s: model %q: --factors reads RLSI factors only", path, em.Model)
	case em.Terms < 1 || em.Documents < 1 || em.K < 1:
		return nil, fmt.Errorf("%s: %d terms, %d documents, K = %d: want each ≥ 1", path, em.Terms, em.Documents, em.K)
	}
	return &em, nil
}

// readShaped reads the dense Matrix Market file path and checks that it is
// rows×cols (what names the two dimensions).
func readShaped(path string, rows, cols int, what string) (*mat.Dense, error) {
	a, err := ReadDense(path)
	if err != nil {
		return nil, err
	}
	if r, c := a.Dims(); r != rows || c != cols {
		return nil, fmt.Errorf("%s: %d×%d, factors.json says %s = %d×%d", path, r, c, what, rows, cols)
	}
	return a, nil
}
