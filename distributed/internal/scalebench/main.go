// Command scalebench measures one configuration of the scaling study in
// distributed/RESULTS.md: the per-iteration wall time of Distributed RLSI
// on prism, or of the in-memory engine/rlsi, on a synthetic corpus of N
// documents (engine/synthetic, tf-idf). Run it under /usr/bin/time -v for
// the peak resident memory, with GOMAXPROCS for the number of workers.
//
//	scalebench -mode memory|prism -n N [-m M] [-k K] [-len L] [-iters T] [-dir DIR]
//
// It prints one line: mode, N, M, non-zeros, K, GOMAXPROCS and the seconds
// of each iteration.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/topicmf/topicmf/distributed/driver"
	"github.com/topicmf/topicmf/distributed/shards"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/rlsi"
	"github.com/topicmf/topicmf/engine/synthetic"
)

func main() {
	mode := flag.String("mode", "memory", "memory (engine/rlsi) or prism (Distributed RLSI)")
	n := flag.Int("n", 10000, "documents N")
	m := flag.Int("m", 20000, "terms M")
	k := flag.Int("k", 20, "topics K")
	length := flag.Float64("len", 50, "mean document length in tokens")
	iters := flag.Int("iters", 2, "iterations")
	dir := flag.String("dir", "", "work directory (prism; default a temporary one)")
	flag.Parse()
	beam.Init()
	if err := run(*mode, *n, *m, *k, *length, *iters, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "scalebench:", err)
		os.Exit(1)
	}
}

func run(mode string, n, m, k int, length float64, iters int, dir string) error {
	c, _, err := synthetic.Generate(synthetic.Config{M: m, N: n, P: 1, Ks: 50, Kc: 0, TopicBeta: 1,
		Length: synthetic.LengthSpec{Mean: length}, Weighting: "tfidf", Seed: 1})
	if err != nil {
		return err
	}
	var secs []string
	switch mode {
	case "memory":
		rec := engine.NewRecorder()
		o := rlsi.Options{K: k, Lambda1: 0.5, Lambda2: 1, Stopping: engine.Stopping{MaxIter: iters}, InnerTol: 1e-5}
		if _, _, err := o.Fit(context.Background(), c, rec); err != nil {
			return err
		}
		for _, it := range rec.Iterations() {
			secs = append(secs, fmt.Sprintf("%.3f", it.Seconds))
		}
	case "prism":
		if dir == "" {
			if dir, err = os.MkdirTemp("", "scalebench"); err != nil {
				return err
			}
			defer os.RemoveAll(dir)
		}
		corpus := filepath.Join(dir, "corpus")
		if _, err := shards.WriteCorpus(corpus, c, 8); err != nil {
			return err
		}
		cfg := driver.Config{Model: driver.RLSI, Corpus: corpus, K: k, Lambda1: 0.5, Lambda2: 1, InnerSweeps: 100, InnerTol: 1e-5, Iters: iters, Shards: 8}
		run := filepath.Join(dir, "run")
		if _, err := driver.Fit(context.Background(), cfg, run, driver.BeamRunner("prism"), io.Discard); err != nil {
			return err
		}
		for t := 1; t <= iters; t++ {
			var it shards.IterManifest
			if err := shards.ReadJSON(context.Background(), shards.LocalFS{}, filepath.Join(driver.IterDir(run, t), "manifest.json"), &it); err != nil {
				return err
			}
			secs = append(secs, fmt.Sprintf("%.3f", it.Seconds))
		}
	default:
		return fmt.Errorf("mode %q: want memory or prism", mode)
	}
	fmt.Printf("mode=%s N=%d M=%d nnz=%d K=%d GOMAXPROCS=%d seconds=%s\n", mode, n, m, c.D.NNZ(), k, runtime.GOMAXPROCS(0), strings.Join(secs, ","))
	return nil
}
