package driver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Factors are a run's factors read back into memory: U (M × UCols) and the
// rows v_n (N × VCols, corpus order; for Group RLSI the compact
// [h_n; w_n]).
type Factors struct {
	Iter *shards.IterManifest
	U, V *mat.Dense
}

// Load reads the factors of the last complete iteration of the run in dir.
func Load(ctx context.Context, dir string) (*Factors, error) {
	fs, err := open(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	var cfg Config
	if err := shards.ReadJSON(ctx, fs, shards.Join(dir, "run.json"), &cfg); err != nil {
		return nil, err
	}
	it, err := LastComplete(ctx, dir, cfg.digest())
	if err != nil {
		return nil, err
	}
	if it == nil || it.Iteration == 0 {
		return nil, fmt.Errorf("%s: %w", dir, errNoIteration)
	}
	f := &Factors{Iter: it, U: mat.NewDense(it.Terms, it.UCols, nil), V: mat.NewDense(it.Documents, it.VCols, nil)}
	idir := IterDir(dir, it.Iteration)
	seen := make([]bool, it.Documents)
	for _, part := range []struct {
		files []string
		dst   *mat.Dense
		seen  []bool
	}{{it.U, f.U, nil}, {it.V, f.V, seen}} {
		rows, cols := part.dst.Dims()
		for _, name := range part.files {
			name = shards.Join(idir, name)
			r, err := fs.OpenRead(ctx, name)
			if err != nil {
				return nil, err
			}
			err = shards.EachLine(bufio.NewReaderSize(r, 1<<20), name, func(line string, _ int) error {
				row, err := shards.ParseRow(line, cols, int64(rows))
				if err != nil {
					return err
				}
				part.dst.SetRow(int(row.Index), row.Vals)
				if part.seen != nil {
					part.seen[row.Index] = true
				}
				return nil
			})
			r.Close()
			if err != nil {
				return nil, err
			}
		}
	}
	for n, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("%s: iteration %d has no row for document %d", dir, it.Iteration, n)
		}
	}
	return f, nil
}

// Export writes the run's final factors to out (a local directory) in the
// files of a topicmf fit run: U.mtx (M×K term-topic factor) and V.mtx (K×N
// topic-document factor) as Matrix Market dense arrays (sparse.WriteDenseMM,
// readable with sparse.ReadDenseMMFile), vocab.txt and doc_ids.txt from the
// corpus. For Group RLSI, V.mtx is K×N with K = Ks + P·Kc, a document's
// entries in its class's columns (grouping.Factors.DocTopics), and
// V_compact.mtx is the (Ks+Kc)×N form.
func Export(ctx context.Context, dir, out string) (*Factors, error) {
	f, err := Load(ctx, dir)
	if err != nil {
		return nil, err
	}
	fs, err := open(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	var cfg Config
	if err := shards.ReadJSON(ctx, fs, shards.Join(dir, "run.json"), &cfg); err != nil {
		return nil, err
	}
	man, err := shards.ReadCorpus(ctx, fs, cfg.Corpus)
	if err != nil {
		return nil, err
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
	return f, nil
}

func writeMM(path string, a mat.Matrix) error {
	var d mat.Dense
	d.CloneFrom(a)
	return sparse.WriteDenseMMFile(path, &d)
}

// writeText writes path through a temporary file and a rename.
func writeText(path string, fill func(io.Writer) error) error {
	w, err := shards.LocalFS{}.OpenWrite(context.Background(), path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}
