package shards

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/internal/outfile"
)

// Files a corpus converted from text holds beside its shards (WriteText),
// and an export copies: what weights new text as D was weighted, and the
// raw counts a term model (BM25, LM) ranks the documents by.
const (
	VectorizerFile = "vectorizer.json"
	CountsFile     = "counts.mtx"
)

// Vectorizer is vectorizer.json: the text pipeline's options, the number of
// training documents and each term's document frequency, which with
// vocab.txt rebuild the text.Vectorizer that weighted D
// (text.NewVectorizer). It is the vectorizer.json of a topicmf fit run, so
// topicmf transform and rank read either.
type Vectorizer struct {
	Options text.Options `json:"options"`
	N       int          `json:"n"`
	DF      []int        `json:"df"`
}

// WriteText writes vectorizer.json (from v) and counts.mtx (the M×N raw
// term counts of the corpus's documents, in its vocabulary and document
// order) into the corpus directory dir, each through a temporary file.
func WriteText(dir string, v *text.Vectorizer, counts *sparse.CSR) error {
	if counts.Rows != v.Terms() || counts.Cols != v.N {
		return fmt.Errorf("convert: counts are %d×%d, the vectorizer has %d terms and %d documents", counts.Rows, counts.Cols, v.Terms(), v.N)
	}
	o := v.Options
	o.DataDir = "" // where a stop list was read from is not part of the pipeline
	if err := WriteJSON(context.Background(), LocalFS{}, filepath.Join(dir, VectorizerFile), Vectorizer{Options: o, N: v.N, DF: v.DF}); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, CountsFile), func(w *bufio.Writer) error { return sparse.WriteMM(w, counts) })
}

// WriteCorpus writes corpus c as a sharded corpus directory dir (created if
// missing) with nshards document shards of contiguous documents (as equal
// as possible): the entries are those of c.D exactly (its weighting, its
// stored entries, bit for bit). Every file is written to a temporary name
// and renamed; corpus.json comes last, so a directory without it is
// incomplete.
func WriteCorpus(dir string, c *engine.Corpus, nshards int) (*CorpusManifest, error) {
	if c == nil || c.D == nil {
		return nil, fmt.Errorf("convert: nil corpus")
	}
	n := c.D.Cols
	if nshards < 1 || nshards > max(n, 1) {
		return nil, fmt.Errorf("convert: %d shards for %d documents: want 1..%d", nshards, n, max(n, 1))
	}
	for i, id := range c.DocIDs {
		if strings.ContainsAny(id, "\t\n\r") {
			return nil, fmt.Errorf("convert: document %d id %q contains a tab or newline", i, id)
		}
	}
	for i, t := range c.Vocab {
		if strings.ContainsAny(t, "\n\r") || t == "" {
			return nil, fmt.Errorf("convert: term %d %q is empty or contains a newline", i, t)
		}
	}
	if err := outfile.CheckDir(dir); err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	dt := c.DT
	if dt == nil {
		dt = c.D.T()
	}
	man := &CorpusManifest{Format: CorpusFormat, Name: c.Name, Terms: c.D.Rows, Documents: n,
		Nonzeros: int64(c.D.NNZ()), Vocab: "vocab.txt", Classes: c.ClassNames,
		DataScale: rlsi.DataScale(nil, c.D)}
	if err := writeFile(filepath.Join(dir, man.Vocab), func(w *bufio.Writer) error {
		for _, t := range c.Vocab {
			w.WriteString(t)
			w.WriteByte('\n')
		}
		return nil
	}); err != nil {
		return nil, err
	}
	var line []byte
	for s := 0; s < nshards; s++ {
		lo, hi := s*n/nshards, (s+1)*n/nshards
		sh := DocShard{File: fmt.Sprintf("docs-%05d-of-%05d.tsv", s, nshards), First: lo, Count: hi - lo}
		if len(c.ClassNames) > 0 {
			sh.ClassCounts = make([]int, len(c.ClassNames))
		}
		err := writeFile(filepath.Join(dir, sh.File), func(w *bufio.Writer) error {
			for j := lo; j < hi; j++ {
				d := Doc{N: int64(j), ID: strconv.Itoa(j), Class: -1}
				if c.DocIDs != nil {
					d.ID = c.DocIDs[j]
				}
				if c.Labels != nil {
					d.Class = int64(c.Labels[j])
					if d.Class >= 0 && sh.ClassCounts != nil {
						sh.ClassCounts[d.Class]++
					}
				}
				d.Terms, d.Vals = dt.Row(j)
				line = AppendDoc(line[:0], d)
				if _, err := w.Write(line); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		man.Shards = append(man.Shards, sh)
	}
	if err := man.Validate(); err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	if err := WriteJSON(context.Background(), LocalFS{}, filepath.Join(dir, "corpus.json"), man); err != nil {
		return nil, err
	}
	return man, nil
}

// writeFile writes path by the rules of internal/outfile: a regular file
// atomically, a symbolic link through to its target, a FIFO or device in
// place; never renamed over what the path is.
func writeFile(path string, fill func(*bufio.Writer) error) error {
	return outfile.Write(path, nil, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := fill(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}
