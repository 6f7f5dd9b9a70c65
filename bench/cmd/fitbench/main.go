// Command fitbench times topicmf's model families on a term-document matrix
// read from a Matrix Market file (rows = terms, columns = documents), for
// bench/side-by-side.sh.
//
// Usage:
//
//	fitbench -mm bench.mtx [-k 100] [-iters 5] [-batch 2000] [-passes 3] [-methods rlsi,nmf,lsi,lsi-sk,lda,onlinelda]
//
// Every method is built through engine/catalog from string parameters, as
// the CLI does, and fitted with an engine.Recorder; the per-iteration wall
// times are the Recorder's Iteration.Seconds (each covers the whole
// iteration including its objective evaluation). One tab-separated line is
// printed per method:
//
//	method  seconds  n  seconds_of_each_iteration(comma-separated)  sparsity
//
// where seconds is the median over the iterations (for onlinelda the mean
// of every pass but the last, see below) and sparsity is the fraction of
// zero entries of each factor after the last iteration (e.g. "U=0.93
// V=0.00"): RLSI's cost per iteration depends on how sparse its lasso
// makes U.
//
// The methods:
//
//   - rlsi: one outer iteration of Algorithm 1 (U by lasso, V by ridge),
//     default λ1, λ2; "iters" iterations, tol=0 so none stops early.
//   - nmf: one multiplicative-update iteration (V then U), random init.
//   - lda: one collapsed Gibbs sweep over all tokens.
//   - onlinelda: one pass of online variational Bayes LDA (Hoffman et al.
//     2010) over the documents in minibatches of -batch, with
//     scikit-learn's τ0 = 10, κ = 0.7, α = η = 1/K, at most 100 E-step
//     iterations per document and mean-change tolerance 1e-3; "passes"
//     passes. The bound is evaluated after the last pass only, so that
//     pass is dropped and the mean of the others is reported: with the
//     default 3, passes 1 and 2, as bench/pybench.py times scikit-learn's
//     and gensim's. (A pass costs less as the topics sharpen, so a median
//     across passes would compare different passes.)
//   - lsi: the whole truncated SVD fit with topicmf's defaults (randomized
//     subspace iteration, 5 power iterations, oversampling 10), plus the
//     loss and the document representations; it is one "iteration".
//   - lsi-sk: the same fit with scikit-learn's TruncatedSVD defaults
//     spelled out (5 power iterations, oversampling 10): the same as lsi
//     since topicmf adopted them as its defaults.
//
// The number of threads is GOMAXPROCS (the engine's pool is sized to it).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/bench/cmd/internal/tool"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
)

func main() { tool.Main("fitbench", run) }

func run(args []string) error {
	fs := flag.NewFlagSet("fitbench", flag.ContinueOnError)
	path := fs.String("mm", "", "Matrix Market file, terms × documents (required)")
	k := fs.Int("k", 100, "number of topics K")
	iters := fs.Int("iters", 5, "iterations of the iterative methods (the median is reported)")
	methods := fs.String("methods", "rlsi,nmf,lsi,lsi-sk,lda,onlinelda", "comma-separated methods to time")
	batch := fs.Int("batch", 2000, "documents per minibatch of onlinelda")
	passes := fs.Int("passes", 3, "passes of onlinelda (the mean of all but the last is reported)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path == "" {
		return fmt.Errorf("-mm is required")
	}
	if *k < 1 || *iters < 1 || *batch < 1 || *passes < 1 {
		return fmt.Errorf("-k = %d, -iters = %d, -batch = %d, -passes = %d: want all ≥ 1", *k, *iters, *batch, *passes)
	}
	c, err := tool.ReadCorpus(*path)
	if err != nil {
		return err
	}
	d := c.D
	fmt.Fprintf(os.Stderr, "fitbench: %d terms × %d documents, %d non-zeros, K = %d, GOMAXPROCS = %d\n",
		d.Rows, d.Cols, d.NNZ(), *k, runtime.GOMAXPROCS(0))
	ks, it := strconv.Itoa(*k), strconv.Itoa(*iters)
	for _, m := range strings.Split(*methods, ",") {
		var family string
		var p catalog.Params
		switch m = strings.TrimSpace(m); m {
		case "rlsi", "nmf":
			family, p = m, catalog.Params{"k": ks, "iters": it, "tol": "0"}
		case "lda":
			family, p = m, catalog.Params{"k": ks, "iters": it}
		case "onlinelda":
			family, p = m, catalog.Params{"k": ks, "passes": strconv.Itoa(*passes), "batch": strconv.Itoa(*batch)}
		case "lsi":
			family, p = m, catalog.Params{"k": ks}
		case "lsi-sk":
			family, p = "lsi", catalog.Params{"k": ks, "power-iters": "5", "oversample": "10"}
		default:
			return fmt.Errorf("unknown method %q (known: rlsi, nmf, lsi, lsi-sk, lda, onlinelda)", m)
		}
		meth, err := catalog.New(family, p)
		if err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		rec := engine.NewRecorder()
		_, st, err := meth.Fit(context.Background(), c, rec)
		if err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		if st.Reason == engine.NumericalFailure || st.Reason == engine.Cancelled {
			return fmt.Errorf("%s: %s", m, st)
		}
		var secs, sparsity []string
		var xs []float64
		its := rec.Iterations()
		for _, r := range its {
			xs = append(xs, r.Seconds)
			secs = append(secs, strconv.FormatFloat(r.Seconds, 'f', 4, 64))
		}
		if len(xs) == 0 {
			return fmt.Errorf("%s: no iteration recorded", m)
		}
		for _, t := range its[len(its)-1].Sparsity {
			sparsity = append(sparsity, fmt.Sprintf("%s=%.3f", t.Name, t.Value))
		}
		seconds := median(xs)
		if m == "onlinelda" {
			if len(xs) < 2 {
				return fmt.Errorf("onlinelda: %d passes; want at least 2 (the last one also evaluates the bound)", len(xs))
			}
			seconds = mean(xs[:len(xs)-1])
		}
		fmt.Printf("%s\t%.4f\t%d\t%s\t%s\n", m, seconds, len(xs), strings.Join(secs, ","), strings.Join(sparsity, " "))
	}
	return nil
}

// median of xs (the mean of the middle two for an even count).
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// mean of xs.
func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}
