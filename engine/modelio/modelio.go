// Package modelio saves a fitted model to files and loads it back, so that
// folding new documents in does not need the training corpus or a new fit.
//
// # Format
//
// A saved model is a directory (in a run of topicmf fit, the run's model/
// folder) holding a header, model.json, and one Matrix Market file per
// matrix of the model's state (engine.Saved). The header of an LDA model:
//
//	{
//	  "format": "topicmf-model",
//	  "version": 1,
//	  "family": "lda",
//	  "params": {"alpha": "2.5", "beta": "0.1", "k": "20", …},
//	  "matrices": [
//	    {"name": "phi", "file": "phi.mtx", "rows": 3998, "cols": 20, "sha256": "4835…"},
//	    {"name": "theta", "file": "theta.mtx", "rows": 1398, "cols": 20, "sha256": "c0e1…"}
//	  ]
//	}
//
// Its fields:
//
//   - format and version say what the directory is; a reader refuses a
//     version it does not know, and Version grows whenever a family's saved
//     state changes meaning.
//   - family is the catalog name (engine/catalog); params are every declared
//     parameter of the family (engine/param) with its value as the fit used
//     it, defaults resolved (engine.Saved.Options), so that loading does not
//     depend on the defaults of the version that reads the model.
//   - matrices lists every matrix: its name, its file (the name + ".mtx": a
//     dense Matrix Market array, values in column-major order written with
//     the shortest representation that reads back to the same float64, so
//     the saved bits are the fitted bits), its shape and the SHA-256 of the
//     file's bytes.
//   - vectors and names, when the family has them, hold the short state
//     inline: LSI's singular values ("sigma"), a group model's class of
//     every training document ("labels") and class names ("classes").
//
// # Checks on load
//
// Read refuses, in one line naming the file and what is wrong: a header
// that is not this format, a version it does not read, an unknown family or
// parameter, a matrix file whose SHA-256 differs from the header's (the file
// was changed after it was saved), a matrix whose shape differs from the
// header's, a value that is not a finite number (engine/sparse's reader),
// and, through the family's Load (engine.Loader), matrices whose shapes
// disagree with each other or with the options, and a negative entry in a
// matrix the family defines as non-negative (the NMF families' factors,
// PLSI's and LDA's probabilities, JTD's B and S; engine.Saved.NonNegative),
// named by its file, row and column. Names and values read from the files
// are quoted up to 40 characters, so that every error stays one readable
// line.
//
// A model loaded in the build that saved it folds in with the same bits as
// the fitted model (engine/factortest checks it for every family); in a
// build with other kernels (-tags cblas) it folds in within floating-point
// tolerance, since the state derived on load (Gram matrices and their
// inverses) is computed by that build's kernels (scripts/crossload.sh).
package modelio

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/param"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

const (
	// Format is the header's format name.
	Format = "topicmf-model"
	// Version is the format version this package writes and reads.
	Version = 1
	// HeaderFile is the name of the header in a saved model's directory.
	HeaderFile = "model.json"
	// maxHeader bounds the header's size: it holds short vectors only.
	maxHeader = 64 << 20
	// maxQuoted bounds what an error quotes of the files, in characters:
	// a longer name or value is cut, so that every error is one readable
	// line naming the file and the problem.
	maxQuoted = 40
	// maxParam bounds the length of a parameter's key and value in the
	// header, far above any a family writes.
	maxParam = 100
)

// Header is the content of model.json.
type Header struct {
	Format   string               `json:"format"`
	Version  int                  `json:"version"`
	Family   string               `json:"family"`
	Params   map[string]string    `json:"params"`
	Matrices []MatrixFile         `json:"matrices"`
	Vectors  map[string][]float64 `json:"vectors,omitempty"`
	Names    map[string][]string  `json:"names,omitempty"`
}

// MatrixFile describes one matrix file of a saved model.
type MatrixFile struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Rows   int    `json:"rows"`
	Cols   int    `json:"cols"`
	SHA256 string `json:"sha256"`
}

// validName is the form of a matrix or vector name: it names a file.
var validName = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)

// FileWriter writes the named file of a saved model (a path relative to
// the model's directory) through write. experiments/store's run writer is
// one; DirWriter is another.
type FileWriter interface {
	WriteFile(name string, write func(io.Writer) error) error
}

// Write saves the fitted model m through w: the matrix files first, the
// header last, so that a model whose header exists is complete. m must be
// an engine.Saver of a catalog family; the header is checked to load
// (its parameters parse) before anything is written.
func Write(w FileWriter, m engine.Model) error {
	sv, ok := m.(engine.Saver)
	if !ok {
		return fmt.Errorf("save model: %T cannot be saved (it has no Save method)", m)
	}
	s := sv.Save()
	if s.Options == nil {
		return fmt.Errorf("save model: %T.Save returned no options", m)
	}
	h := Header{Format: Format, Version: Version, Family: s.Options.Name(), Params: param.Format(s.Options),
		Vectors: s.Vectors, Names: s.Names}
	if _, err := catalog.New(h.Family, catalog.Params(h.Params)); err != nil {
		return fmt.Errorf("save model: its options do not read back: %w", err)
	}
	for name, v := range s.Vectors {
		if !validName.MatchString(name) {
			return fmt.Errorf("save model: vector name %q, want lower case letters, digits and _", name)
		}
		for i, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("save model: vector %s: entry %d = %v is not finite", name, i, x)
			}
		}
	}
	names := make([]string, 0, len(s.Matrices))
	for name := range s.Matrices {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !validName.MatchString(name) {
			return fmt.Errorf("save model: matrix name %q, want lower case letters, digits and _", name)
		}
		a := s.Matrices[name]
		mf := MatrixFile{Name: name, File: name + ".mtx"}
		if !a.IsEmpty() {
			mf.Rows, mf.Cols = a.Dims()
		}
		var sum hash.Hash
		err := w.WriteFile(mf.File, func(out io.Writer) error {
			sum = sha256.New()
			return sparse.WriteDenseMM(io.MultiWriter(out, sum), a)
		})
		if err != nil {
			return fmt.Errorf("save model: %s: %w", mf.File, err)
		}
		mf.SHA256 = hex.EncodeToString(sum.Sum(nil))
		h.Matrices = append(h.Matrices, mf)
	}
	b, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return fmt.Errorf("save model: %s: %w", HeaderFile, err)
	}
	if err := w.WriteFile(HeaderFile, func(out io.Writer) error {
		_, err := out.Write(append(b, '\n'))
		return err
	}); err != nil {
		return fmt.Errorf("save model: %s: %w", HeaderFile, err)
	}
	return nil
}

// DirWriter writes a saved model's files into a directory, each through a
// temporary file renamed into place.
type DirWriter string

// WriteFile writes the named file of the directory.
func (d DirWriter) WriteFile(name string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(string(d), ".tmp-"+name+"-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), filepath.Join(string(d), name))
}

// WriteDir saves m into dir, created if needed. It refuses a dir that
// already holds a saved model, so that nothing already written is replaced.
func WriteDir(dir string, m engine.Model) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, HeaderFile)); err == nil {
		return fmt.Errorf("save model: %s already holds a saved model (%s); choose another directory", dir, HeaderFile)
	}
	return Write(DirWriter(dir), m)
}

// ReadDir loads the model saved in dir (Read); errors name dir.
func ReadDir(dir string) (engine.Model, *Header, error) {
	m, h, err := Read(os.DirFS(dir))
	if err != nil {
		return nil, nil, fmt.Errorf("model %s: %w", dir, err)
	}
	return m, h, nil
}

// Read loads the model saved in fsys (the files Write wrote), checking it
// as the package documentation says. The error is one line that starts
// with the file it concerns.
func Read(fsys fs.FS) (engine.Model, *Header, error) {
	h, err := readHeader(fsys)
	if err != nil {
		return nil, nil, err
	}
	method, err := catalog.New(h.Family, catalog.Params(h.Params))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: params: %w", HeaderFile, err)
	}
	loader, ok := method.(engine.Loader)
	if !ok {
		return nil, nil, fmt.Errorf("%s: family %s cannot load a saved model in this version", HeaderFile, h.Family)
	}
	s := engine.Saved{Options: method, Matrices: map[string]*mat.Dense{}, Vectors: h.Vectors, Names: h.Names}
	for _, mf := range h.Matrices {
		a, err := readMatrix(fsys, mf)
		if err != nil {
			return nil, nil, err
		}
		s.Matrices[mf.Name] = a
	}
	m, err := loader.Load(s)
	if neg, ok := errors.AsType[*engine.NegativeError](err); ok {
		return nil, nil, fmt.Errorf("%s: %w", neg.Matrix+".mtx", err)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", HeaderFile, err)
	}
	return m, h, nil
}

// readHeader reads and checks model.json by itself (not yet the files it
// names).
func readHeader(fsys fs.FS) (*Header, error) {
	f, err := fsys.Open(HeaderFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file (not a saved model)", HeaderFile)
		}
		return nil, fmt.Errorf("%s: %w", HeaderFile, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHeader+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", HeaderFile, err)
	}
	if len(b) > maxHeader {
		return nil, fmt.Errorf("%s: larger than %d bytes", HeaderFile, maxHeader)
	}
	var h Header
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%s: not a model header: %s", HeaderFile, clip(err.Error()))
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: data after the header's closing brace", HeaderFile)
	}
	switch {
	case h.Format != Format:
		return nil, fmt.Errorf("%s: format %s, want %q", HeaderFile, quoted(h.Format), Format)
	case h.Version > Version:
		return nil, fmt.Errorf("%s: version %d is newer than this topicmf reads (%d); use a newer topicmf", HeaderFile, h.Version, Version)
	case h.Version != Version:
		return nil, fmt.Errorf("%s: version %d, want %d", HeaderFile, h.Version, Version)
	case h.Family == "":
		return nil, fmt.Errorf("%s: no family", HeaderFile)
	case h.Params == nil:
		return nil, fmt.Errorf("%s: no params", HeaderFile)
	}
	if _, err := catalog.Lookup(h.Family); err != nil {
		return nil, fmt.Errorf("%s: unknown family %s (topicmf models lists the families)", HeaderFile, quoted(h.Family))
	}
	for k, v := range h.Params {
		if len(k) > maxParam || len(v) > maxParam {
			return nil, fmt.Errorf("%s: params: %s = %s: longer than any saved parameter (%d bytes)", HeaderFile, quoted(k), quoted(v), maxParam)
		}
	}
	seen := map[string]bool{}
	for i, mf := range h.Matrices {
		switch {
		case !validName.MatchString(mf.Name):
			return nil, fmt.Errorf("%s: matrix %d: name %s, want lower case letters, digits and _", HeaderFile, i+1, quoted(mf.Name))
		case seen[mf.Name]:
			return nil, fmt.Errorf("%s: matrix %q listed twice", HeaderFile, mf.Name)
		case mf.File != mf.Name+".mtx":
			return nil, fmt.Errorf("%s: matrix %q: file %s, want %q", HeaderFile, mf.Name, quoted(mf.File), mf.Name+".mtx")
		case mf.Rows < 0 || mf.Cols < 0:
			return nil, fmt.Errorf("%s: matrix %q: shape %d×%d, want sizes ≥ 0", HeaderFile, mf.Name, mf.Rows, mf.Cols)
		case len(mf.SHA256) != 2*sha256.Size:
			return nil, fmt.Errorf("%s: matrix %q: sha256 %s, want %d hexadecimal digits", HeaderFile, mf.Name, quoted(mf.SHA256), 2*sha256.Size)
		}
		seen[mf.Name] = true
	}
	for name := range h.Vectors {
		if !validName.MatchString(name) {
			return nil, fmt.Errorf("%s: vector name %s, want lower case letters, digits and _", HeaderFile, quoted(name))
		}
	}
	return &h, nil
}

// quoted is s in Go quotes, cut to maxQuoted characters (and its length
// given) when longer.
func quoted(s string) string {
	r := []rune(s)
	if len(r) <= maxQuoted {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(string(r[:maxQuoted])), len(s))
}

// clip is a message of another package (the JSON decoder's, which may
// quote the input at any length): kept whole up to 3·maxQuoted
// characters, else cut to its first maxQuoted + 20.
func clip(msg string) string {
	r := []rune(msg)
	if len(r) <= 3*maxQuoted {
		return msg
	}
	return string(r[:maxQuoted+20]) + "…"
}

// readMatrix reads one matrix file and checks it against the header: its
// SHA-256 first (a changed file is reported as changed, whatever it now
// holds), then its content and shape.
func readMatrix(fsys fs.FS, mf MatrixFile) (*mat.Dense, error) {
	f, err := fsys.Open(mf.File)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: missing (listed in %s)", mf.File, HeaderFile)
		}
		return nil, fmt.Errorf("%s: %w", mf.File, err)
	}
	defer f.Close()
	sum := sha256.New()
	b, err := io.ReadAll(io.TeeReader(f, sum))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mf.File, err)
	}
	if got := hex.EncodeToString(sum.Sum(nil)); got != mf.SHA256 {
		return nil, fmt.Errorf("%s: SHA-256 %s… differs from %s's %.12s… (the file changed after the model was saved)", mf.File, got[:12], HeaderFile, mf.SHA256)
	}
	a, err := sparse.ReadDenseMM(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mf.File, err)
	}
	r, c := 0, 0
	if !a.IsEmpty() {
		r, c = a.Dims()
	}
	if r != mf.Rows || c != mf.Cols {
		return nil, fmt.Errorf("%s: %d×%d, but %s says %d×%d", mf.File, r, c, HeaderFile, mf.Rows, mf.Cols)
	}
	return a, nil
}
