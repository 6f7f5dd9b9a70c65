package synthetic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

// Truth is what Generate planted.
type Truth struct {
	// U0 (M × Ks) holds the shared topics as columns, each a distribution
	// over terms (non-negative, summing to 1); nil when Ks = 0.
	U0 *mat.Dense
	// Up[p] (M × Kc) holds the topics of class p; nil when Kc = 0.
	Up []*mat.Dense
	// Theta (N × (Ks+Kc)) holds each document's topic mixture: columns
	// 0..Ks-1 weight the shared topics, Ks..Ks+Kc-1 the topics of the
	// document's own class. Rows sum to 1.
	Theta *mat.Dense
	// Classes[n] is document n's class (the corpus Labels).
	Classes []int
	// ClassSizes[p] is the number of documents of class p.
	ClassSizes []int
	// ClassStats are the Table 5 statistics of ClassSizes.
	ClassStats SizeStats
	// Lengths[n] is document n's length in tokens.
	Lengths []int
	// Warnings (class-size shape fallbacks, terms never drawn).
	Warnings []string
}

// Topics returns every planted topic as one M × (Ks + P·Kc) matrix:
// [U0 | Up[0] | Up[1] | ...], the layout of GMF's U = [U0, U1, ..., UP].
func (t *Truth) Topics() *mat.Dense {
	var blocks []*mat.Dense
	if t.U0 != nil {
		blocks = append(blocks, t.U0)
	}
	blocks = append(blocks, t.Up...)
	if len(blocks) == 0 {
		return nil
	}
	m, _ := blocks[0].Dims()
	k := 0
	for _, b := range blocks {
		_, c := b.Dims()
		k += c
	}
	out := mat.NewDense(m, k, nil)
	col := 0
	for _, b := range blocks {
		_, c := b.Dims()
		out.Slice(0, m, col, col+c).(*mat.Dense).Copy(b)
		col += c
	}
	return out
}

// docBlock is the number of documents per parallel block.
const docBlock = 256

// width is the number of digits of n−1, at least lo.
func width(n, lo int) int { return max(lo, len(strconv.Itoa(max(n-1, 0)))) }

// Generate draws a corpus from planted topics.
//
// Topics. Each of the K = Ks + P·Kc topics puts its mass on TopicTerms
// terms drawn uniformly without replacement, with weights from a symmetric
// Dirichlet(TopicBeta) on that support; column k of U0 or Up is that
// distribution over the M terms.
//
// Classes. Class sizes come from Config.Classes (see ClassSizes); the sizes
// are given to the classes in a random order and documents to classes in a
// random order.
//
// Documents. Document n of class p has the mixture θ = (π·a, (1−π)·b) over
// the Ks shared topics and the Kc topics of class p, a ~ Dirichlet_Ks(Alpha),
// b ~ Dirichlet_Kc(Alpha), π = SharedFraction; its length L follows
// Config.Length, and each of its L tokens picks a topic k ~ θ and then a
// term from topic k (LDA's generative process with group-structured
// topics). Column n of D counts its terms (or weights them tf·ln(N/df) under
// "tfidf"). The expected column is L·(U0·a·π + Up·b·(1−π)), the low-rank
// group structure GMF (§3.1, Eq. 1) factorizes.
//
// Determinism: the class layout, every topic and every document draw from
// their own generators seeded by engine.DeriveSeed(Seed, part, index), and
// documents are generated in fixed blocks, so the same Config gives the
// same bits for any GOMAXPROCS.
func Generate(cfg Config) (*engine.Corpus, *Truth, error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	c := cfg.normalized()
	truth := &Truth{}

	// Classes.
	sizes, warn, err := ClassSizes(c.N, c.P, c.Classes)
	if err != nil {
		return nil, nil, err
	}
	truth.Warnings = append(truth.Warnings, warn...)
	rc := engine.NewRand(engine.DeriveSeed(c.Seed, "synthetic-classes"))
	order := rc.Perm(c.P)
	truth.ClassSizes = make([]int, c.P)
	for i, s := range sizes {
		truth.ClassSizes[order[i]] = s
	}
	truth.ClassStats = Stats(truth.ClassSizes)
	labels := make([]int, 0, c.N)
	for p, s := range truth.ClassSizes {
		for range s {
			labels = append(labels, p)
		}
	}
	rc.Shuffle(len(labels), func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	truth.Classes = labels

	// Topics.
	k := c.Ks + c.P*c.Kc
	if c.Ks > 0 {
		truth.U0 = mat.NewDense(c.M, c.Ks, nil)
	}
	if c.Kc > 0 {
		truth.Up = make([]*mat.Dense, c.P)
		for p := range truth.Up {
			truth.Up[p] = mat.NewDense(c.M, c.Kc, nil)
		}
	}
	tables := make([]alias, k)
	anchors := engine.NewRand(engine.DeriveSeed(c.Seed, "synthetic-anchors")).Perm(c.M)
	parallel.Default().For(k, 1, func(_, t, _ int) {
		r := engine.NewRand(engine.DeriveSeed(c.Seed, "synthetic-topic", strconv.Itoa(t)))
		support, w := drawTopic(r, c.M, c.TopicTerms, c.TopicBeta, topicAnchors(anchors, k, t))
		dst, col := truth.U0, t
		if t >= c.Ks {
			dst, col = truth.Up[(t-c.Ks)/c.Kc], (t-c.Ks)%c.Kc
		}
		for i, m := range support {
			dst.Set(int(m), col, w[i])
		}
		tables[t] = newAlias(support, w)
	})

	// Documents.
	kd := c.Ks + c.Kc
	truth.Theta = mat.NewDense(c.N, kd, nil)
	truth.Lengths = make([]int, c.N)
	idx := make([][]int32, c.N)
	val := make([][]float64, c.N)
	parallel.Default().For(c.N, docBlock, func(_, lo, hi int) {
		cum := make([]float64, kd)
		topic := make([]int, kd)
		var tokens []int32
		for n := lo; n < hi; n++ {
			r := engine.NewRand(engine.DeriveSeed(c.Seed, "synthetic-doc", strconv.Itoa(n)))
			theta := truth.Theta.RawRowView(n)
			dirichlet(r, c.Alpha, c.SharedFraction, theta[:c.Ks])
			dirichlet(r, c.Alpha, 1-c.SharedFraction, theta[c.Ks:])
			s := 0.0
			for j, x := range theta {
				s += x
				cum[j] = s
				if j < c.Ks {
					topic[j] = j
				} else {
					topic[j] = c.Ks + labels[n]*c.Kc + (j - c.Ks)
				}
			}
			length := docLength(r, c.Length)
			truth.Lengths[n] = length
			tokens = tokens[:0]
			for range length {
				u := r.Float64() * s
				j := sort.SearchFloat64s(cum, u)
				for j < kd-1 && (cum[j] <= u || theta[j] == 0) { // u on a boundary, or an empty topic
					j++
				}
				tokens = append(tokens, tables[topic[j]].draw(r))
			}
			slices.Sort(tokens)
			// The row's terms and counts, allocated at their final size
			// (appending would copy them as they grow).
			distinct := 0
			for i, t := range tokens {
				if i == 0 || t != tokens[i-1] {
					distinct++
				}
			}
			terms, counts := make([]int32, 0, distinct), make([]float64, 0, distinct)
			for i := 0; i < len(tokens); {
				j := i
				for j < len(tokens) && tokens[j] == tokens[i] {
					j++
				}
				terms = append(terms, tokens[i])
				counts = append(counts, float64(j-i))
				i = j
			}
			idx[n], val[n] = terms, counts
		}
	})

	d := sparse.FromRows(c.M, idx, val).T()
	empty := 0
	for m := 0; m < c.M; m++ {
		if d.RowPtr[m+1] == d.RowPtr[m] {
			empty++
		}
	}
	if empty > 0 {
		truth.Warnings = append(truth.Warnings, fmt.Sprintf("%d of %d terms were never drawn (empty rows of D)", empty, c.M))
	}
	if c.Weighting == "tfidf" {
		d = tfidf(d)
	}

	vocab := make([]string, c.M)
	wt := width(c.M, 5)
	for m := range vocab {
		vocab[m] = fmt.Sprintf("w%0*d", wt, m)
	}
	ids := make([]string, c.N)
	wd := width(c.N, 5)
	for n := range ids {
		ids[n] = fmt.Sprintf("d%0*d", wd, n)
	}
	classNames := make([]string, c.P)
	wc := width(c.P, 2)
	for p := range classNames {
		classNames[p] = fmt.Sprintf("c%0*d", wc, p)
	}
	corpus, err := engine.NewCorpus(c.Name, vocab, d, ids, slices.Clone(labels), classNames)
	if err != nil {
		return nil, nil, err
	}
	return corpus, truth, nil
}

// topicAnchors returns the anchor terms of topic t of k: the terms at
// positions t, t+k, t+2k, ... of the permutation perm of all terms (one
// term, perm[t mod M], when k > M). Every term anchors some topic, so no
// term is unreachable.
func topicAnchors(perm []int, k, t int) []int {
	if k > len(perm) {
		return []int{perm[t%len(perm)]}
	}
	var a []int
	for i := t; i < len(perm); i += k {
		a = append(a, perm[i])
	}
	return a
}

// drawTopic draws the support of a topic, s distinct terms of 0..m−1: its
// anchors (the first s of them if there are more) and then terms drawn
// uniformly without replacement from the rest (a partial Fisher–Yates
// shuffle). It returns the support sorted and Dirichlet(beta) weights on it.
func drawTopic(r *rand.Rand, m, s int, beta float64, anchors []int) ([]int32, []float64) {
	support := make([]int32, 0, s)
	in := make([]bool, m)
	for _, a := range anchors[:min(s, len(anchors))] {
		support = append(support, int32(a))
		in[a] = true
	}
	rest := make([]int32, 0, m-len(support))
	for i := range m {
		if !in[i] {
			rest = append(rest, int32(i))
		}
	}
	for i := 0; len(support) < s; i++ {
		j := i + r.IntN(len(rest)-i)
		rest[i], rest[j] = rest[j], rest[i]
		support = append(support, rest[i])
	}
	slices.Sort(support)
	w := make([]float64, s)
	dirichlet(r, beta, 1, w)
	return support, w
}

// docLength draws a document length (at least 1).
func docLength(r *rand.Rand, l LengthSpec) int {
	if l.Dist == LengthLogNormal {
		mu := math.Log(l.Mean) - l.Sigma*l.Sigma/2
		return max(1, int(math.Round(math.Exp(mu+l.Sigma*r.NormFloat64()))))
	}
	return 1 + poisson(r, l.Mean-1)
}

// tfidf reweights a count matrix (M × N) by w = tf·ln(N/df), df the number
// of non-zeros of a row, dropping the zeros of terms in every document.
func tfidf(d *sparse.CSR) *sparse.CSR {
	// The rows of terms in every document (idf = 0) lose their entries;
	// the others are weighted in blocks of rows on the default pool.
	out := &sparse.CSR{Rows: d.Rows, Cols: d.Cols, RowPtr: make([]int, d.Rows+1)}
	idf := make([]float64, d.Rows)
	for m := range d.Rows {
		n := d.RowPtr[m+1] - d.RowPtr[m]
		idf[m] = math.Log(float64(d.Cols) / float64(n))
		if idf[m] <= 0 {
			n = 0
		}
		out.RowPtr[m+1] = out.RowPtr[m] + n
	}
	out.ColIdx = make([]int32, out.RowPtr[d.Rows])
	out.Val = make([]float64, out.RowPtr[d.Rows])
	parallel.Default().For(d.Rows, 256, func(_, lo, hi int) {
		for m := lo; m < hi; m++ {
			if idf[m] <= 0 {
				continue
			}
			cols, tf := d.Row(m)
			at := out.RowPtr[m]
			copy(out.ColIdx[at:], cols)
			for k, x := range tf {
				out.Val[at+k] = x * idf[m]
			}
		}
	})
	return out
}
