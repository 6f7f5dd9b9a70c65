package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/corpora"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/internal/memo"
	"gonum.org/v1/gonum/mat"
)

// CorpusSpec declares a job's corpus as data: either a registered
// collection run through the text pipeline with transforms, or a synthetic
// configuration. BuildCorpus builds each distinct spec once per process.
//
// The transforms of a collection apply in this order:
//
//  1. Split keeps the documents of one split ("" keeps all);
//  2. SingleLabel keeps the documents with a class and at most one
//     category (Reuters' single-label stories; every 20 Newsgroups post);
//  3. Subsample keeps the first ⌈Subsample·N⌉ documents of a random order
//     drawn from SubsampleSeed (0 or 1 keeps every document in its order);
//     SubsampleN > 0 instead keeps SubsampleN documents (the fraction
//     SubsampleN/N) when the collection has more; InOrder keeps the drawn
//     documents in the collection's order;
//  4. the text pipeline with Text (vocabulary size through Text.MaxVocab);
//  5. MinTotalFreq drops the terms whose total count (raw term frequency
//     over the kept documents) is below it;
//  6. UnitDocs scales every document (column of D) to unit Euclidean length.
type CorpusSpec struct {
	// Collection is a registered collection (datasets.Lookup), read once per
	// process from the data directory.
	Collection  string
	Split       string
	SingleLabel bool
	// Subsample is a fraction in (0, 1]; 0 means 1.
	Subsample     float64
	SubsampleN    int
	SubsampleSeed uint64
	InOrder       bool
	// Text are the pipeline's options, taken as given: a paper experiment
	// states every filter it uses through text.Bare, so that a change of
	// the default pipeline (text.Options{}) never changes its corpus.
	Text         text.Options
	MinTotalFreq int
	UnitDocs     bool

	// Synthetic, when set, generates the corpus (synthetic.Generate) and
	// the collection fields are ignored; Name is the data set name that
	// identifies it in the store key.
	Synthetic *synthetic.Config
	Name      string
}

// Corpus is a built corpus with what came with it.
type Corpus struct {
	*engine.Corpus
	// Report is the text pipeline's report (zero for a synthetic corpus).
	Report text.Report
	// Vectorizer weights new documents like the pipeline (nil for a
	// synthetic corpus); with MinTotalFreq its vocabulary is the one before
	// the terms were dropped, and TermRow maps it to rows of D.
	Vectorizer *text.Vectorizer
	// TermRow is, for every term of the Vectorizer, its row of D or −1
	// when MinTotalFreq dropped it (nil without MinTotalFreq).
	TermRow []int32
	// Truth is the synthetic generator's ground truth (nil otherwise).
	Truth *synthetic.Truth
}

// SyntheticNotes are the synthetic generator's warnings as a result's
// notes, each prefixed "synthetic data: " (none for a collection).
func (c *Corpus) SyntheticNotes() []string {
	if c.Truth == nil {
		return nil
	}
	notes := make([]string, len(c.Truth.Warnings))
	for i, w := range c.Truth.Warnings {
		notes[i] = "synthetic data: " + w
	}
	return notes
}

// key is the spec's canonical text: the memo key of BuildCorpus.
func (s CorpusSpec) key() string {
	if s.Synthetic != nil {
		return "synthetic\x00" + s.Synthetic.Canonical()
	}
	return fmt.Sprintf("%s\x00%s\x00%t\x00%s\x00%d\x00%d\x00%t\x00%s\x00%d\x00%t", s.Collection, s.Split, s.SingleLabel,
		strconv.FormatFloat(s.Subsample, 'g', -1, 64), s.SubsampleN, s.SubsampleSeed, s.InOrder, s.Text.Canonical(), s.MinTotalFreq, s.UnitDocs)
}

// Checksums identifies the corpus in the store key, beside the data files'
// digests that the runner takes from the datasets registry: the SHA-256 of
// a synthetic corpus's generator configuration (synthetic.Config.Canonical,
// which includes the generator version) under the data set name, or of a
// collection's transforms and text options (key, with
// text.Options.Canonical, which includes the pipeline version) under
// "corpus". Two specs that differ in any option never share a stored run.
func (s CorpusSpec) Checksums() []store.Checksum {
	if s.Synthetic == nil {
		return []store.Checksum{DescribedChecksum("corpus", s.key())}
	}
	return []store.Checksum{DescribedChecksum(s.Name, s.Synthetic.Canonical())}
}

// DescribedChecksum identifies in the store key what a task derives from
// its data beyond a corpus spec (a pipeline's options, candidate sets, a
// translation table): the SHA-256 of its description, the lines joined by
// newlines, under name.
func DescribedChecksum(name string, lines ...string) store.Checksum {
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return store.Checksum{Name: name, SHA256: hex.EncodeToString(sum[:])}
}

// CorpusChecksums is the Experiment.Checksums of a Task that builds several
// corpora itself (BuildCorpus): specs returns the job's specs, and each
// one's Checksums joins the store key, so that a change of their text
// options or transforms is never served from a stored run.
func CorpusChecksums(specs func(j *Job) ([]CorpusSpec, error)) func(j *Job) ([]store.Checksum, error) {
	return func(j *Job) ([]store.Checksum, error) {
		ss, err := specs(j)
		if err != nil {
			return nil, err
		}
		var sums []store.Checksum
		for _, s := range ss {
			sums = append(sums, s.Checksums()...)
		}
		return sums, nil
	}
}

var builtCorpora memo.Map[*Corpus]

// BuildCorpus builds the job's declared corpus (Experiment.Corpus) through
// BuildCorpus, for a Task that declares its corpus as data.
func (j *Job) BuildCorpus() (*Corpus, error) {
	if j.Experiment.Corpus == nil {
		return nil, fmt.Errorf("experiment %s declares no Corpus", j.Experiment.ID)
	}
	spec, err := j.Experiment.Corpus(j)
	if err != nil {
		return nil, err
	}
	return BuildCorpus(spec)
}

// BuildCorpus builds the corpus of spec, once per process per distinct
// spec: every job of every experiment that declares the same spec shares
// it, and must not modify it.
func BuildCorpus(spec CorpusSpec) (*Corpus, error) {
	return builtCorpora.Get(spec.key(), func() (*Corpus, error) { return buildCorpus(spec) })
}

// BuildCorpusUncached builds the corpus of spec without keeping it in the
// process's cache: for a corpus used by one job and too large to keep (the
// largest synthetic corpora of a scalability sweep).
func BuildCorpusUncached(spec CorpusSpec) (*Corpus, error) { return buildCorpus(spec) }

func buildCorpus(s CorpusSpec) (*Corpus, error) {
	if s.Synthetic != nil {
		c, truth, err := synthetic.Generate(*s.Synthetic)
		if err != nil {
			return nil, err
		}
		return &Corpus{Corpus: c, Truth: truth}, nil
	}
	col, err := corpora.Collection(s.Collection)
	if err != nil {
		return nil, err
	}
	if s.Split != "" || s.SingleLabel {
		if col, err = FilterDocs(col, s.Split, s.SingleLabel); err != nil {
			return nil, err
		}
	}
	fraction := s.Subsample
	if s.SubsampleN < 0 {
		return nil, fmt.Errorf("data set %s: subsample of %d documents: want ≥ 0", s.Collection, s.SubsampleN)
	}
	if s.SubsampleN > 0 && s.SubsampleN < len(col.Docs) {
		fraction = float64(s.SubsampleN) / float64(len(col.Docs))
	}
	if fraction != 0 && fraction != 1 {
		if col, err = subsample(col, fraction, s.SubsampleSeed, s.InOrder); err != nil {
			return nil, err
		}
	}
	c, vec, rep, err := text.Fit(col, s.Text)
	if err != nil {
		return nil, fmt.Errorf("data set %s: %w", s.Collection, err)
	}
	out := &Corpus{Corpus: c, Report: rep, Vectorizer: vec}
	if s.MinTotalFreq > 0 {
		tfOpts := s.Text
		tfOpts.Weighting = text.WeightTF
		tf, _, err := text.Build(col, tfOpts)
		if err != nil {
			return nil, fmt.Errorf("data set %s: %w", s.Collection, err)
		}
		if c.D.Rows != tf.D.Rows || c.D.Cols != tf.D.Cols {
			return nil, fmt.Errorf("data set %s: tf and weighted corpora differ in shape", s.Collection)
		}
		keep := make([]bool, tf.D.Rows)
		for m := range keep {
			var tot float64
			for _, v := range tf.D.Val[tf.D.RowPtr[m]:tf.D.RowPtr[m+1]] {
				tot += v
			}
			keep[m] = tot >= float64(s.MinTotalFreq)
		}
		d, vocab := keepRows(c.D, c.Vocab, keep)
		if out.Corpus, err = engine.NewCorpus(c.Name, vocab, d, c.DocIDs, c.Labels, c.ClassNames); err != nil {
			return nil, err
		}
		out.TermRow = make([]int32, len(keep))
		next := int32(0)
		for m, k := range keep {
			out.TermRow[m] = -1
			if k {
				out.TermRow[m] = next
				next++
			}
		}
	}
	if s.UnitDocs {
		c := out.Corpus
		dt := c.D.T()
		UnitRows(dt)
		if out.Corpus, err = engine.NewCorpus(c.Name, c.Vocab, dt.T(), c.DocIDs, c.Labels, c.ClassNames); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FilterDocs returns the documents of col in split ("" for any) and, with
// singleLabel, only those with a class and at most one category. The
// result is named "<collection>/<split>"; it is an error when no document
// is left.
func FilterDocs(col *datasets.Collection, split string, singleLabel bool) (*datasets.Collection, error) {
	out := &datasets.Collection{Name: col.Name + "/" + split, Classes: col.Classes}
	for _, d := range col.Docs {
		if split != "" && d.Split != split {
			continue
		}
		if singleLabel && (d.Class == "" || len(d.Categories) > 1) {
			continue
		}
		out.Docs = append(out.Docs, d)
	}
	if len(out.Docs) == 0 {
		what := "document"
		if singleLabel {
			what = "single-label document"
		}
		return nil, fmt.Errorf("data set %s has no %s in split %q", col.Name, what, split)
	}
	return out, nil
}

// Subsample returns the first ⌈fraction·N⌉ documents of col in a random
// order fixed by seed (engine.NewRand(seed).Perm), so that the samples of
// one seed are nested prefixes.
func Subsample(col *datasets.Collection, fraction float64, seed uint64) (*datasets.Collection, error) {
	return subsample(col, fraction, seed, false)
}

// subsample is Subsample, with the drawn documents in the collection's
// order when inOrder.
func subsample(col *datasets.Collection, fraction float64, seed uint64, inOrder bool) (*datasets.Collection, error) {
	if !(fraction > 0 && fraction <= 1) {
		return nil, fmt.Errorf("data set %s: subsample fraction %v: want a number in (0, 1]", col.Name, fraction)
	}
	n := int(math.Ceil(fraction * float64(len(col.Docs))))
	perm := engine.NewRand(seed).Perm(len(col.Docs))[:n]
	if inOrder {
		slices.Sort(perm)
	}
	out := &datasets.Collection{Name: col.Name, Classes: col.Classes, Docs: make([]datasets.Document, n)}
	for i := range n {
		out.Docs[i] = col.Docs[perm[i]]
	}
	return out, nil
}

// UnitRows scales every non-zero row of m to unit Euclidean length, in
// place (a row of Dᵀ is a document), as text.NormalizeL2 does.
func UnitRows(m *sparse.CSR) {
	for i := 0; i < m.Rows; i++ {
		text.NormalizeL2(m.Val[m.RowPtr[i]:m.RowPtr[i+1]])
	}
}

// UnitDenseRows returns a copy of x with every non-zero row scaled to unit
// Euclidean length (text.NormalizeL2): document features of different
// scales made comparable for a linear classifier.
func UnitDenseRows(x *mat.Dense) *mat.Dense {
	out := mat.DenseCopyOf(x)
	r, _ := out.Dims()
	for i := range r {
		text.NormalizeL2(out.RawRowView(i))
	}
	return out
}

// keepRows returns the rows (terms) of d marked in keep, and their names.
func keepRows(d *sparse.CSR, vocab []string, keep []bool) (*sparse.CSR, []string) {
	out := &sparse.CSR{Cols: d.Cols, RowPtr: []int{0}}
	var names []string
	for m := 0; m < d.Rows; m++ {
		if !keep[m] {
			continue
		}
		lo, hi := d.RowPtr[m], d.RowPtr[m+1]
		out.ColIdx = append(out.ColIdx, d.ColIdx[lo:hi]...)
		out.Val = append(out.Val, d.Val[lo:hi]...)
		out.RowPtr = append(out.RowPtr, len(out.Val))
		out.Rows++
		names = append(names, vocab[m])
	}
	return out, names
}
