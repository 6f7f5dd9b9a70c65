// Command svdacc measures the speed and accuracy of topicmf's LSI
// (randomized subspace iteration, engine/rsvd) at several (oversampling p,
// power iterations q) settings on a term-document matrix read from a
// Matrix Market file, for bench/side-by-side.sh.
//
// Usage:
//
//	svdacc -mm bench.mtx [-k 100] [-settings 10:5,lsi,accurate] [-ref-out sigma.txt]
//
// The reference is the same algorithm run far past convergence (p = K,
// q = 40); its σ_1..σ_K are written to -ref-out (one per line) so that
// scikit-learn's TruncatedSVD can be scored against the same numbers
// (bench/pybench.py). For each setting one tab-separated line is printed:
//
//	lsi-p<P>-q<Q>  seconds  max_rel_err_top10  max_rel_err_topK
//
// where the errors are max_i |σ_i − σ_i^ref| / σ_i^ref over i ≤ 10 and
// i ≤ K. "lsi" stands for topicmf's defaults and "accurate" for its
// accurate setting (lsi.AccurateOversample(K), lsi.AccuratePowerIters). The reference's own
// convergence is printed on stderr as the largest relative change of its
// σ between q = 30 and q = 40.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/topicmf/topicmf/bench/cmd/internal/tool"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/lsi"
	"github.com/topicmf/topicmf/internal/outfile"
)

func main() { tool.Main("svdacc", run) }

func run(args []string) error {
	fs := flag.NewFlagSet("svdacc", flag.ContinueOnError)
	path := fs.String("mm", "", "Matrix Market file, terms × documents (required)")
	k := fs.Int("k", 100, "number of singular triplets K")
	settings := fs.String("settings", "10:5,lsi,accurate", "comma-separated p:q settings to time; \"lsi\" is topicmf's defaults, \"accurate\" its accurate setting")
	refOut := fs.String("ref-out", "", "file to write the reference σ to (one per line)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path == "" {
		return fmt.Errorf("-mm is required")
	}
	c, err := tool.ReadCorpus(*path)
	if err != nil {
		return err
	}
	d := c.D
	fmt.Fprintf(os.Stderr, "svdacc: %d terms × %d documents, K = %d, GOMAXPROCS = %d\n", d.Rows, d.Cols, *k, runtime.GOMAXPROCS(0))
	ref30, _, err := fit(c, lsi.Options{K: *k, Oversample: *k, PowerIters: 30, Seed: 7})
	if err != nil {
		return err
	}
	ref, _, err := fit(c, lsi.Options{K: *k, Oversample: *k, PowerIters: 40, Seed: 7})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "svdacc: reference p = K, q = 40; largest relative change of σ from q = 30: %.2e\n", maxRel(ref30, ref, *k))
	if *refOut != "" {
		var b strings.Builder
		for _, s := range ref {
			fmt.Fprintf(&b, "%.17g\n", s)
		}
		if err := outfile.Bytes(*refOut, os.Stdout, []byte(b.String())); err != nil {
			return err
		}
	}
	for _, s := range strings.Split(*settings, ",") {
		o, name := lsi.Defaults(), s // declared defaults (a zero PowerIters in a literal means none)
		o.K = *k
		switch s {
		case "lsi":
		case "accurate":
			o.Oversample, o.PowerIters, name = lsi.AccurateOversample(*k), lsi.AccuratePowerIters, "lsi-accurate"
		default:
			p, q, ok := strings.Cut(s, ":")
			pi, err1 := strconv.Atoi(p)
			qi, err2 := strconv.Atoi(q)
			if !ok || err1 != nil || err2 != nil || pi < 1 || qi < 0 {
				return fmt.Errorf("-settings: %q: want p:q with p ≥ 1, q ≥ 0, lsi or accurate", s)
			}
			o.Oversample, o.PowerIters, name = pi, qi, fmt.Sprintf("lsi-p%d-q%d", pi, qi)
		}
		sigma, secs, err := fit(c, o)
		if err != nil {
			return err
		}
		fmt.Printf("%s\t%.4f\t%.3e\t%.3e\n", name, secs, maxRel(sigma, ref, min(10, *k)), maxRel(sigma, ref, *k))
	}
	return nil
}

// fit runs LSI and returns σ and the wall time of the whole fit.
func fit(c *engine.Corpus, o lsi.Options) ([]float64, float64, error) {
	t := time.Now()
	m, st, err := o.Fit(context.Background(), c, nil)
	secs := time.Since(t).Seconds()
	if err != nil {
		return nil, 0, err
	}
	if st.Reason == engine.NumericalFailure || st.Reason == engine.Cancelled {
		return nil, 0, fmt.Errorf("lsi: %s", st)
	}
	return m.(*lsi.Model).SingularValues(), secs, nil
}

// maxRel is max_{i<n} |a_i − ref_i| / ref_i.
func maxRel(a, ref []float64, n int) float64 {
	e := 0.0
	for i := range n {
		e = math.Max(e, math.Abs(a[i]-ref[i])/ref[i])
	}
	return e
}
