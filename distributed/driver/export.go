package driver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/internal/outfile"
)

// Factors are a run's factors read back into memory: U (M × UCols) and the
// rows v_n (N × VCols, corpus order; for Group RLSI the compact
// [h_n; w_n]).
type Factors struct {
	Iter *shards.IterManifest
	U, V *mat.Dense
}

// openRun opens the file system of the run directory dir and reads the
// run's configuration (run.json); the caller closes the file system.
func openRun(ctx context.Context, dir string) (fsys, Config, error) {
	fs, err := open(ctx, dir)
	if err != nil {
		return fsys{}, Config{}, err
	}
	var cfg Config
	if err := shards.ReadJSON(ctx, fs, shards.Join(dir, "run.json"), &cfg); err != nil {
		fs.Close()
		return fsys{}, Config{}, err
	}
	return fs, cfg, nil
}

// Load reads the factors of the last complete iteration of the run in dir.
// Nothing is sized by an unchecked number: the run's configuration is
// checked against the corpus manifest (itself checked against its files by
// shards.ReadCorpus), the iteration manifest against both (LastComplete),
// every shard must hold exactly its rows (shards.ReadFactorShard) and hash
// to its SHA-256 in the iteration manifest.
func Load(ctx context.Context, dir string) (*Factors, error) {
	fs, cfg, err := openRun(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	man, err := shards.ReadCorpus(ctx, fs, cfg.Corpus)
	if err != nil {
		return nil, err
	}
	if err := cfg.validate(man); err != nil {
		return nil, fmt.Errorf("%s: %w", shards.Join(dir, "run.json"), err)
	}
	it, err := LastComplete(ctx, dir, cfg, man)
	if err != nil {
		return nil, err
	}
	if it == nil || it.Iteration == 0 {
		return nil, fmt.Errorf("%s: %w", dir, errNoIteration)
	}
	f := &Factors{Iter: it, U: mat.NewDense(it.Terms, it.UCols, nil), V: mat.NewDense(it.Documents, it.VCols, nil)}
	idir := IterDir(dir, it.Iteration)
	for _, part := range []struct {
		files []string
		dst   *mat.Dense
	}{{it.U, f.U}, {it.V, f.V}} {
		rows, cols := part.dst.Dims()
		for i, name := range part.files {
			name = shards.Join(idir, name)
			r, err := fs.OpenRead(ctx, name)
			if err != nil {
				return nil, err
			}
			hr := shards.NewHashingReader(r, name, it.SHA256[path.Base(name)])
			err = shards.ReadFactorShard(bufio.NewReaderSize(hr, 1<<20), name, i, len(part.files), int64(rows), cols, func(row shards.Row) error {
				part.dst.SetRow(int(row.Index), row.Vals)
				return nil
			})
			if err == nil {
				err = hr.Check()
			}
			r.Close()
			if err != nil {
				return nil, err
			}
		}
	}
	return f, nil
}

// ExportFormat names the layout of an export directory (factors.json).
const ExportFormat = "topicmf-export/1"

// ExportManifest is factors.json of an export directory: what a reader
// needs beside U.mtx and V.mtx to fold new documents in as the fit did
// (RLSI §5: v_q = (UᵀU + λ2 I)⁻¹Uᵀq for Uℓ1-Vℓ2), and the shapes the files
// must have. topicmf transform and rank --factors read it
// (cmd/topicmf/factors.go).
type ExportManifest struct {
	Format    string `json:"format"`
	Model     string `json:"model"`   // rlsi or grouprlsi
	Variant   string `json:"variant"` // rlsi: "u1v2" (RLSI Eq. 1), as engine/rlsi names it
	Terms     int    `json:"terms"`   // M: rows of U.mtx, lines of vocab.txt
	Documents int    `json:"documents"`
	K         int    `json:"k"` // columns of U.mtx, rows of V.mtx (Group RLSI: Ks + P·Kc)
	Ks        int    `json:"ks,omitempty"`
	Kc        int    `json:"kc,omitempty"`
	// Classes are the class names (Group RLSI: class p owns topics
	// Ks + p·Kc … Ks + (p+1)·Kc − 1).
	Classes []string `json:"classes,omitempty"`
	// Lambda1 and Lambda2 are the λs as used: a relative λ (--lambda-scale
	// relative) already multiplied by the data scale.
	Lambda1     float64 `json:"lambda1"`
	Lambda2     float64 `json:"lambda2"`
	InnerSweeps int     `json:"inner_sweeps"`
	InnerTol    float64 `json:"inner_tol"`
	Iteration   int     `json:"iteration"` // the run's iteration the factors are from
	// Vectorizer and Counts name the copies of the corpus's
	// vectorizer.json and counts.mtx ("" when the corpus was not converted
	// from text).
	Vectorizer string `json:"vectorizer,omitempty"`
	Counts     string `json:"counts,omitempty"`
	// Gonum is the version of gonum.org/v1/gonum the fit was built with.
	Gonum string `json:"gonum,omitempty"`
}

// Export writes the run's final factors to out (a local directory) in the
// files of a topicmf fit run: U.mtx (M×K term-topic factor) and V.mtx (K×N
// topic-document factor) as Matrix Market dense arrays (sparse.WriteDenseMM,
// readable with sparse.ReadDenseMMFile), vocab.txt and doc_ids.txt from the
// corpus, the corpus's vectorizer.json and counts.mtx when it has them, and
// last factors.json (ExportManifest), so a directory without it is
// incomplete. For Group RLSI, V.mtx is K×N with K = Ks + P·Kc, a document's
// entries in its class's columns (grouping.Factors.DocTopics), and
// V_compact.mtx is the (Ks+Kc)×N form.
func Export(ctx context.Context, dir, out string) (*Factors, error) {
	f, err := Load(ctx, dir)
	if err != nil {
		return nil, err
	}
	fs, cfg, err := openRun(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	man, err := shards.ReadCorpus(ctx, fs, cfg.Corpus)
	if err != nil {
		return nil, err
	}
	if err := outfile.CheckDir(out); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	n := man.Documents
	vocab, ids, classes := make([]string, 0, man.Terms), make([]string, n), make([]int64, n)
	r, err := fs.OpenRead(ctx, shards.Join(cfg.Corpus, man.Vocab))
	if err != nil {
		return nil, err
	}
	err = shards.EachLine(r, man.Vocab, func(line string, _ int) error { vocab = append(vocab, line); return nil })
	r.Close()
	if err != nil {
		return nil, err
	}
	if len(vocab) != man.Terms {
		return nil, fmt.Errorf("%s: %d terms, corpus.json says %d", man.Vocab, len(vocab), man.Terms)
	}
	offsets := man.ClassOffsets()
	for i, sh := range man.Shards {
		r, err := fs.OpenRead(ctx, shards.Join(cfg.Corpus, sh.File))
		if err != nil {
			return nil, err
		}
		err = man.ReadDocs(bufio.NewReaderSize(r, 1<<20), i, offsets[i], func(d shards.Doc) error {
			ids[d.N], classes[d.N] = d.ID, d.Class
			return nil
		})
		r.Close()
		if err != nil {
			return nil, err
		}
	}
	v := f.V
	if cfg.Model == GroupRLSI {
		if err := writeMM(filepath.Join(out, "V_compact.mtx"), f.V.T()); err != nil {
			return nil, err
		}
		v = mat.NewDense(n, f.Iter.UCols, nil)
		for i := 0; i < n; i++ {
			src, dst, p := f.V.RawRowView(i), v.RawRowView(i), int(classes[i])
			copy(dst[:cfg.Ks], src[:cfg.Ks])
			copy(dst[cfg.Ks+p*cfg.Kc:cfg.Ks+(p+1)*cfg.Kc], src[cfg.Ks:])
		}
	}
	if err := writeMM(filepath.Join(out, "U.mtx"), f.U); err != nil {
		return nil, err
	}
	if err := writeMM(filepath.Join(out, "V.mtx"), v.T()); err != nil {
		return nil, err
	}
	l1, l2 := cfg.lambdas(man)
	em := ExportManifest{Format: ExportFormat, Model: cfg.Model, Terms: man.Terms, Documents: n, K: f.Iter.UCols,
		Lambda1: l1, Lambda2: l2, InnerSweeps: cfg.InnerSweeps, InnerTol: cfg.InnerTol, Iteration: f.Iter.Iteration,
		Gonum: moduleVersion("gonum.org/v1/gonum")}
	if cfg.Model == RLSI {
		em.Variant = "u1v2"
	} else {
		em.Ks, em.Kc, em.Classes = cfg.Ks, cfg.Kc, man.Classes
	}
	for _, c := range []struct {
		name string
		dst  *string
	}{{shards.VectorizerFile, &em.Vectorizer}, {shards.CountsFile, &em.Counts}} {
		ok, err := copyIfExists(ctx, fs, shards.Join(cfg.Corpus, c.name), filepath.Join(out, c.name))
		if err != nil {
			return nil, err
		}
		if ok {
			*c.dst = c.name
		}
	}
	for _, l := range []struct {
		name  string
		lines []string
	}{{"vocab.txt", vocab}, {"doc_ids.txt", ids}} {
		err := writeText(filepath.Join(out, l.name), func(w io.Writer) error {
			for _, s := range l.lines {
				if _, err := io.WriteString(w, s+"\n"); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if err := shards.WriteJSON(ctx, shards.LocalFS{}, filepath.Join(out, "factors.json"), em); err != nil {
		return nil, err
	}
	return f, nil
}

// copyIfExists copies the file src of fs to the local path dst (through a
// temporary file); it reports false, and writes nothing, when src does
// not exist.
func copyIfExists(ctx context.Context, fs fsys, src, dst string) (bool, error) {
	r, err := fs.OpenRead(ctx, src)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer r.Close()
	err = writeText(dst, func(w io.Writer) error {
		_, err := io.Copy(w, r)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("%s: %w", src, err)
	}
	return true, nil
}

// moduleVersion is the version of module path this binary was built with
// ("" when the build information does not say).
func moduleVersion(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range bi.Deps {
		if d.Path == path {
			return d.Version
		}
	}
	return ""
}

func writeMM(path string, a mat.Matrix) error {
	var d mat.Dense
	d.CloneFrom(a)
	return writeText(path, func(w io.Writer) error { return sparse.WriteDenseMM(w, &d) })
}

// writeText writes path by the rules of internal/outfile: a regular file
// atomically, a symbolic link through to its target, a FIFO or device in
// place; never renamed over what the path is.
func writeText(path string, fill func(io.Writer) error) error {
	return outfile.Write(path, nil, fill)
}
