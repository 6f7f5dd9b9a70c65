// Command ttq is the Go side of bench/time-to-quality.sh: it splits a
// term-document matrix into training documents and held-out halves, fits
// topicmf's models for increasing iteration counts recording (seconds,
// quality), scores every LDA model's topics by held-out perplexity with
// document completion, and plots the curves.
//
//	ttq split -mm bench.mtx|-data 20newsgroups -dir DIR [-docs N]
//	ttq fit   -dir DIR -family lda|onlinelda|nmf|nmf-anls|lsi -k K -at 1,2,4 [-batch B] [-param key=value,…] -label NAME
//	ttq score -dir DIR -k K < fits.tsv > scored.tsv
//	ttq plot  -in scored.tsv -out DIR
//	ttq report -in scored.tsv > tables.md
//
// split reads the term-document matrix from -mm, or builds the training
// split of a registered collection (-data, from the data directory
// TOPICMF_DATA) through the command line's default text pipeline with raw
// counts and writes its vocabulary to vocab.txt (see collectionText; -docs
// N draws N of its documents, see collectionMatrix). Of a -mm matrix it
// keeps the first N documents (all without -docs). It holds out
// every tenth of them (1-based 10, 20, …): its stored
// counts are split into an observed half (obs.mtx) and a held half
// (held.mtx) by entry, the counts of the even-numbered entries (0, 2, …)
// rounded up and of the odd ones rounded down, so that every held-out
// document keeps about half its tokens on each side; train.mtx has the other
// documents. All three are terms × documents.
//
// fit prints one line per count n of -at: label, n, the wall-clock seconds
// of a whole fit of n iterations (passes for onlinelda) from scratch, and
// either the file of its topic-word matrix (LDA families, W×K with columns
// summing to 1, as a dense Matrix Market array, beta-*.mtx), the file of
// its basis U_K (lsi, basis-*.mtx; n counts power iterations of the
// randomized SVD, oversampling lsiOversample) or the NMF objective
// ‖D − UVᵀ‖²_F of the training matrix. Fits of the same seed for n and 2n
// iterations share their first n iterations, so the fits are checkpoints of
// one run, each timed with its start-up.
//
// score reads such lines (also the Python side's, bench/ttq.py) and
// replaces each topic-word file by its held-out perplexity with document
// completion (Wallach, Murray, Salakhutdinov & Mimno, "Evaluation methods
// for topic models", ICML 2009, §4), the same formula for every model: for
// a held-out document with observed counts n^o_w and held counts n^h_w and
// topics β (β_wk, Σ_w β_wk = 1), θ is fitted to the observed half by 100
// fixed-point steps from θ_k = 1/K,
//
//	θ_k ← (α + Σ_w n^o_w θ_k β_wk / Σ_j θ_j β_wj) / (N^o + Kα),  α = 1/K,
//
// (EM for the posterior mean of θ under a Dirichlet(α) prior) and the
// perplexity is exp(−Σ_d Σ_w n^h_dw log Σ_k θ_dk β_wk / Σ_d Σ_w n^h_dw).
// It replaces an LSI basis U (basis-*.mtx) by the residual
// ‖D − U Uᵀ D‖²_F of the training matrix (projectionResidual).
//
// plot draws quality against seconds for the LDA, NMF and LSI lines
// (gonum/plot) into DIR/lda.png, DIR/nmf.png and DIR/lsi.png; report prints
// Markdown tables: every checkpoint, each model's seconds (its fastest fit)
// to get within 50, 30, 20, 10, 5, 2 and 1 % of the best value any model
// of its family reached (LSI: 1, 0.1, 0.01 and 0.001 %), and the ratio of
// those seconds, each topicmf model against each peer.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/parallel"
	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"

	"github.com/topicmf/topicmf/internal/outfile"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "ttq: want a command: split, fit, score, plot or report")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "split":
		err = split(os.Args[2:])
	case "fit":
		err = fit(os.Args[2:])
	case "score":
		err = score(os.Args[2:])
	case "plot":
		err = plotAll(os.Args[2:])
	case "report":
		err = report(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q (split, fit, score, plot, report)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ttq:", err)
		os.Exit(1)
	}
}

func split(args []string) error {
	fs := flag.NewFlagSet("split", flag.ContinueOnError)
	path := fs.String("mm", "", "Matrix Market file, terms × documents")
	data := fs.String("data", "", "instead of -mm: a registered collection (20newsgroups), its training split through collectionText")
	dir := fs.String("dir", "", "output directory")
	docs := fs.Int("docs", 0, "use only the first docs documents of -mm, a draw of docs documents of -data (0: all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*path == "") == (*data == "") {
		return fmt.Errorf("split: want one of -mm FILE and -data NAME")
	}
	var d *sparse.CSR
	var err error
	if *data != "" {
		d, err = collectionMatrix(*data, *dir, *docs)
		*docs = 0 // drawn already
	} else {
		d, err = sparse.ReadMMFile(*path)
	}
	if err != nil {
		return err
	}
	dt := d.T() // documents × terms
	if *docs > 0 && *docs < dt.Rows {
		first := make([]int, *docs)
		for i := range first {
			first[i] = i
		}
		dt = dt.SelectRows(first)
	}
	var train, obs, held []sparse.Triplet
	nTrain, nTest := 0, 0
	for doc := range dt.Rows {
		ids, cnts := dt.Row(doc)
		if (doc+1)%10 != 0 {
			for l, w := range ids {
				train = append(train, sparse.Triplet{Row: int(w), Col: nTrain, Val: cnts[l]})
			}
			nTrain++
			continue
		}
		for l, w := range ids {
			c := cnts[l]
			o := math.Floor(c / 2)
			if l%2 == 0 {
				o = math.Ceil(c / 2)
			}
			if o > 0 {
				obs = append(obs, sparse.Triplet{Row: int(w), Col: nTest, Val: o})
			}
			if c-o > 0 {
				held = append(held, sparse.Triplet{Row: int(w), Col: nTest, Val: c - o})
			}
		}
		nTest++
	}
	for _, f := range []struct {
		name string
		cols int
		ts   []sparse.Triplet
	}{{"train.mtx", nTrain, train}, {"obs.mtx", nTest, obs}, {"held.mtx", nTest, held}} {
		m, err := sparse.FromTriplets(d.Rows, f.cols, f.ts)
		if err != nil {
			return err
		}
		if err := outfile.Write(filepath.Join(*dir, f.name), nil, func(w io.Writer) error { return sparse.WriteMM(w, m) }); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "ttq split: %d terms, %d training and %d held-out documents\n", d.Rows, nTrain, nTest)
	return nil
}

func fit(args []string) error {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	dir := fs.String("dir", "", "directory of split's files")
	family := fs.String("family", "", "lda, onlinelda, nmf, nmf-anls or lsi")
	label := fs.String("label", "", "name of the curve")
	k := fs.Int("k", 100, "number of topics")
	at := fs.String("at", "1,2,4", "iteration counts (lsi: power iterations, from 0)")
	batch := fs.Int("batch", 2000, "minibatch size of onlinelda")
	extra := fs.String("param", "", "more parameters of the family, key=value,… (init=nndsvda)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	more := catalog.Params{}
	if *extra != "" {
		for _, kv := range strings.Split(*extra, ",") {
			key, value, ok := strings.Cut(kv, "=")
			if !ok {
				return fmt.Errorf("-param: %q is not key=value", kv)
			}
			more[key] = value
		}
	}
	d, err := sparse.ReadMMFile(filepath.Join(*dir, "train.mtx"))
	if err != nil {
		return err
	}
	c, err := engine.NewCorpus("ttq-train", make([]string, d.Rows), d, nil, nil, nil)
	if err != nil {
		return err
	}
	for _, s := range strings.Split(*at, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 && !(n == 0 && *family == "lsi") {
			return fmt.Errorf("-at: %q is not a positive count (or 0 power iterations of lsi)", s)
		}
		p := catalog.Params{"k": strconv.Itoa(*k)}
		switch *family {
		case "lda":
			p["iters"] = s
		case "onlinelda":
			p["passes"], p["batch"] = s, strconv.Itoa(*batch)
		case "nmf", "nmf-anls":
			p["iters"], p["tol"] = s, "0"
		case "lsi":
			p["power-iters"], p["oversample"] = s, strconv.Itoa(lsiOversample)
		default:
			return fmt.Errorf("-family %q: want lda, onlinelda, nmf, nmf-anls or lsi", *family)
		}
		for key, value := range more {
			p[key] = value
		}
		meth, err := catalog.New(*family, p)
		if err != nil {
			return err
		}
		start := time.Now()
		m, st, err := meth.Fit(context.Background(), c, nil)
		secs := time.Since(start).Seconds()
		if err != nil {
			return err
		}
		if st.Reason == engine.NumericalFailure || st.Reason == engine.Cancelled {
			return fmt.Errorf("%s: %s", *family, st)
		}
		var quality string
		switch *family {
		case "nmf", "nmf-anls":
			loss := sparse.ResidualSq(parallel.Default(), d, m.TermTopics(), m.DocTopics())
			quality = strconv.FormatFloat(loss, 'g', 10, 64)
		case "lsi":
			// U_K only: score computes the residual of every model's basis
			// with the same code, scikit-learn's included.
			quality = filepath.Join(*dir, fmt.Sprintf("basis-%s-%d.mtx", *label, n))
			if err := writeDense(quality, m.TermTopics()); err != nil {
				return err
			}
		default:
			quality = filepath.Join(*dir, fmt.Sprintf("beta-%s-%d.mtx", *label, n))
			if err := writeDense(quality, normalizeColumns(m.TermTopics())); err != nil {
				return err
			}
		}
		fmt.Printf("%s\t%d\t%.4f\t%s\n", *label, n, secs, quality)
	}
	return nil
}

// lsiOversample is the oversampling of the randomized SVD on both sides:
// topicmf's LSI default and scikit-learn TruncatedSVD's n_oversamples
// default. The checkpoints of an LSI curve are its power iterations.
const lsiOversample = 10

// normalizeColumns returns a copy of b with each column scaled to sum 1.
func normalizeColumns(b *mat.Dense) *mat.Dense {
	w, k := b.Dims()
	out := mat.DenseCopyOf(b)
	for j := range k {
		s := 0.0
		for i := range w {
			s += out.At(i, j)
		}
		for i := range w {
			out.Set(i, j, out.At(i, j)/s)
		}
	}
	return out
}

// writeDense writes a as a Matrix Market array (column-major).
func writeDense(path string, a *mat.Dense) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	r, c := a.Dims()
	fmt.Fprintf(w, "%%%%MatrixMarket matrix array real general\n%d %d\n", r, c)
	for j := range c {
		for i := range r {
			w.WriteString(strconv.FormatFloat(a.At(i, j), 'g', 17, 64))
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func score(args []string) error {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	dir := fs.String("dir", "", "directory of split's files")
	k := fs.Int("k", 100, "number of topics")
	if err := fs.Parse(args); err != nil {
		return err
	}
	obs, err := sparse.ReadMMFile(filepath.Join(*dir, "obs.mtx"))
	if err != nil {
		return err
	}
	held, err := sparse.ReadMMFile(filepath.Join(*dir, "held.mtx"))
	if err != nil {
		return err
	}
	obsT, heldT := obs.T(), held.T() // held-out documents × terms
	var train *sparse.CSR            // read at the first LSI basis
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			return fmt.Errorf("score: line %q: want label, n, seconds, quality", sc.Text())
		}
		if !strings.HasSuffix(f[3], ".mtx") {
			fmt.Println(sc.Text())
			continue
		}
		factor, err := sparse.ReadDenseMMFile(f[3])
		if err != nil {
			return err
		}
		if r, c := factor.Dims(); r != obs.Rows || c != *k {
			return fmt.Errorf("%s: %d×%d, want %d×%d (terms × topics)", f[3], r, c, obs.Rows, *k)
		}
		if strings.HasPrefix(filepath.Base(f[3]), "basis-") {
			if train == nil {
				if train, err = sparse.ReadMMFile(filepath.Join(*dir, "train.mtx")); err != nil {
					return err
				}
			}
			f[3] = strconv.FormatFloat(projectionResidual(train, factor), 'g', 12, 64)
		} else {
			f[3] = strconv.FormatFloat(completionPerplexity(factor, obsT, heldT), 'f', 3, 64)
		}
		fmt.Println(strings.Join(f, "\t"))
	}
	return sc.Err()
}

// projectionResidual is LSI's objective ‖D − U Uᵀ D‖²_F (engine/lsi's
// loss) for a basis U (W×K) with orthonormal columns: the part of the
// training matrix D outside the span of U, whatever the tool that computed
// U. An orthonormal U of the exact top-K left singular vectors gives the
// minimum, Σ_{i>K} σ_i² (Eckart & Young, "The approximation of one matrix
// by another of lower rank", Psychometrika 1936).
func projectionResidual(d *sparse.CSR, u *mat.Dense) float64 {
	_, k := u.Dims()
	dtu := mat.NewDense(d.Cols, k, nil)
	p := parallel.Default()
	sparse.MulDense(p, dtu, d.T(), u)
	return sparse.ResidualSq(p, d, u, dtu)
}

// completionPerplexity is the document-completion perplexity of the
// package documentation for topics beta (W×K) and the held-out documents'
// observed and held counts (documents × terms).
func completionPerplexity(beta *mat.Dense, obs, held *sparse.CSR) float64 {
	_, k := beta.Dims()
	alpha := 1 / float64(k)
	theta, acc := make([]float64, k), make([]float64, k)
	var logLik, words float64
	for d := range obs.Rows {
		ids, cnts := obs.Row(d)
		nObs := 0.0
		for _, c := range cnts {
			nObs += c
		}
		for j := range theta {
			theta[j] = 1 / float64(k)
		}
		for range 100 {
			clear(acc)
			for l, w := range ids {
				b := beta.RawRowView(int(w))
				p := 0.0
				for j, t := range theta {
					p += t * b[j]
				}
				for j, t := range theta {
					acc[j] += cnts[l] * t * b[j] / p
				}
			}
			for j := range theta {
				theta[j] = (alpha + acc[j]) / (nObs + float64(k)*alpha)
			}
		}
		hids, hcnts := held.Row(d)
		for l, w := range hids {
			b := beta.RawRowView(int(w))
			p := 0.0
			for j, t := range theta {
				p += t * b[j]
			}
			logLik += hcnts[l] * math.Log(p)
			words += hcnts[l]
		}
	}
	return math.Exp(-logLik / words)
}
