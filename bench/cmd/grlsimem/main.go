// Command grlsimem measures the memory of one Group RLSI fit
// (engine/grouprlsi) and sets it beside the model of that memory derived
// from the code, so that the largest corpus GRLSI fits in on a machine can
// be computed (docs/performance.md, "How large can GRLSI go on this machine").
//
// Usage:
//
//	grlsimem -m TERMS -n DOCS -len TERMS_PER_DOC -p CLASSES -ks KS -kc KC [-iters 2] [-sorted]
//
// The corpus is generated in memory: every document has -len distinct
// terms, half drawn from a Zipf law over the vocabulary and half uniformly,
// each with a count of 1–4 (the generator of the engine's benchmark
// corpus); document n is in class n mod P, so the class-major layout is a
// reordered copy of the corpus (with -sorted the documents are already in
// class order and the layout shares the corpus's matrices). The program
// prints the modelled bytes term by term, the live heap holding the corpus
// before the fit, the largest sampled heap (HeapAlloc) during the fit and
// the process's peak resident set (VmHWM of /proc/self/status); run it
// under /usr/bin/time -f %M for the same peak seen from outside.
//
// # The memory model
//
// With M terms, N documents, nnz non-zeros, P classes, Ks shared and Kc
// class topics, K = Ks + P·Kc and kt = Ks + Kc, in bytes (float64 = 8,
// sparse.CSR = 8·(rows+1) for RowPtr plus 4 + 8 per non-zero):
//
//	corpus:    D and Dᵀ (engine.Corpus keeps both)      2·12·nnz + 8·(M+N+2)
//	           labels, vocabulary strings               8·N + ≈ 24·M
//	layout:    class-major copies of Dᵀ and D           2·12·nnz + 8·(M+N+2)   (none when sorted)
//	           Order, Pos, ClassOf; the model's labels  28·N
//	factors:   U and U' (M×K, current and next)         16·M·K
//	           R0, T0, [R_1 … R_P], [T_1 … T_P] (M×K)   16·M·K
//	           V, V', Φ (N×kt, class-major compact)     24·N·kt
//	           S, S', Ũ_pᵀŨ_p, Σ_p (P of kt×kt)         32·P·kt²
//	transient: block partials of Ũ_pᵀŨ_p (per 1,024     8·⌈M/1024⌉·(Ks² + P·Kc·kt)
//	           term rows: U0ᵀU0, U_pᵀU_p, U0ᵀU_p)
//	           block partials of V_pV_pᵀ (per 1,024     8·(⌈N/1024⌉ + P)·kt²
//	           documents of a class)
//
// so the fit needs about 32·M·K + 24·N·kt + 48·nnz bytes beyond small
// terms: the M×K term-topic matrix is held four times over (two iterates
// and two right-hand sides of the lasso), and the documents are never
// expanded to K columns.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/topicmf/topicmf/bench/cmd/internal/tool"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/benchdata"
	"github.com/topicmf/topicmf/engine/grouprlsi"
	"github.com/topicmf/topicmf/engine/rlsi"
)

func main() { tool.Main("grlsimem", run) }

// dims are the sizes the memory model reads.
type dims struct {
	m, n, nnz, p, ks, kc int
	sorted               bool
}

// term is one line of the memory model.
type term struct {
	name  string
	bytes float64
	fit   bool // allocated by the fit (else: the corpus, before it)
}

// model returns the memory model of the package doc, term by term.
func model(d dims) []term {
	m, n, nnz, p := float64(d.m), float64(d.n), float64(d.nnz), float64(d.p)
	ks, kc := float64(d.ks), float64(d.kc)
	k, kt := ks+p*kc, ks+kc
	csr := func(rows float64) float64 { return 8*(rows+1) + 12*nnz }
	ts := []term{
		{"corpus D and Dᵀ", csr(m) + csr(n), false},
		{"corpus labels and vocabulary", 8*n + 24*m, false},
	}
	if !d.sorted {
		ts = append(ts, term{"layout: class-major Dᵀ and D", csr(m) + csr(n), true})
	}
	blocks := float64((d.m + 1023) / 1024)
	return append(ts,
		term{"layout: Order, Pos, ClassOf; model labels", 28 * n, true},
		term{"U, U' (M×K)", 16 * m * k, true},
		term{"R0, T0, R_p, T_p (M×K)", 16 * m * k, true},
		term{"V, V', Φ (N×kt)", 24 * n * kt, true},
		term{"per-class kt×kt (S, S', ŨᵀŨ, Σ)", 32 * p * kt * kt, true},
		term{"transient Gram partials", 8*blocks*(ks*ks+p*kc*kt) + 8*(float64((d.n+1023)/1024)+p)*kt*kt, true},
	)
}

func run(args []string) error {
	fs := flag.NewFlagSet("grlsimem", flag.ContinueOnError)
	m := fs.Int("m", 20000, "terms M")
	n := fs.Int("n", 20000, "documents N")
	perDoc := fs.Int("len", 80, "distinct terms per document (nnz = N·len)")
	p := fs.Int("p", 25, "classes P")
	ks := fs.Int("ks", 100, "shared topics Ks")
	kc := fs.Int("kc", 40, "topics per class Kc")
	iters := fs.Int("iters", 2, "GRLSI iterations")
	lambda1 := fs.Float64("lambda1", 5, "λ1 (large λ1 keeps U sparse and the lasso fast; memory does not depend on it)")
	sorted := fs.Bool("sorted", false, "documents already in class order (the layout shares the corpus's matrices)")
	modelOnly := fs.Bool("model-only", false, "print the memory model for nnz = N·len and exit (no corpus, no fit)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *m < 1 || *n < 1 || *p < 1 || *ks < 0 || *kc < 0 || *ks+*kc < 1 || *iters < 1:
		return fmt.Errorf("want -m, -n, -p, -iters ≥ 1, -ks, -kc ≥ 0 with -ks + -kc ≥ 1")
	case *perDoc < 1 || *perDoc > *m:
		return fmt.Errorf("-len = %d: want 1 ≤ len ≤ M = %d", *perDoc, *m)
	}
	if *modelOnly {
		d := dims{m: *m, n: *n, nnz: *n * *perDoc, p: *p, ks: *ks, kc: *kc, sorted: *sorted}
		fmt.Printf("model only: M = %d, N = %d, nnz = %d, P = %d, Ks = %d, Kc = %d, K = %d\n", d.m, d.n, d.nnz, d.p, d.ks, d.kc, d.ks+d.p*d.kc)
		printModel(d)
		return nil
	}
	t0 := time.Now()
	c, err := corpus(*m, *n, *perDoc, *p, *sorted)
	if err != nil {
		return err
	}
	d := dims{m: *m, n: *n, nnz: c.D.NNZ(), p: *p, ks: *ks, kc: *kc, sorted: *sorted}
	genSec := time.Since(t0).Seconds()
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	rssBefore := procStatus("VmHWM")

	rec, st, peak, err := measureFit(c, *ks, *kc, *iters, *lambda1)
	if err != nil {
		return err
	}

	fmt.Printf("corpus: M = %d terms × N = %d documents, nnz = %d, P = %d; GRLSI Ks = %d, Kc = %d, K = %d; %s (generated in %.1f s)\n",
		d.m, d.n, d.nnz, d.p, d.ks, d.kc, d.ks+d.p*d.kc, st, genSec)
	var secs []string
	for _, it := range rec.Iterations() {
		secs = append(secs, strconv.FormatFloat(it.Seconds, 'f', 2, 64))
	}
	fmt.Printf("seconds per iteration: %s\n", strings.Join(secs, ", "))
	corpusB, fitB := printModel(d)
	fmt.Printf("measured: corpus heap %.1f MiB; fit peak heap above it %.1f MiB (ratio to model %.3f); heap total %.1f MiB (ratio %.3f)\n",
		float64(base)/(1<<20), float64(peak)/(1<<20), float64(peak)/fitB,
		float64(base+peak)/(1<<20), float64(base+peak)/(corpusB+fitB))
	fmt.Printf("measured: VmHWM before fit %s, after fit %s; GOGC=%q GOMEMLIMIT=%q\n",
		rssBefore, procStatus("VmHWM"), os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT"))
	return nil
}

// measureFit fits GRLSI on c and returns its recorder and status and the
// largest heap above the level before the fit.
func measureFit(c *engine.Corpus, ks, kc, iters int, lambda1 float64) (*engine.Recorder, engine.Status, uint64, error) {
	opt := grouprlsi.Options{Ks: ks, Kc: kc, Lambda1: lambda1, Lambda2: 0.1, Seed: 1,
		InnerTol: rlsi.DefaultInnerTol,
		Stopping: engine.Stopping{MaxIter: iters, RelTol: -1}}
	if ks == 0 {
		opt.Ks = grouprlsi.None
	}
	if kc == 0 {
		opt.Kc = grouprlsi.None
	}
	rec := engine.NewRecorder()
	var st engine.Status
	var err error
	peak := benchdata.PeakHeap(func() {
		_, st, err = opt.Fit(context.Background(), c, rec)
	})
	runtime.KeepAlive(c)
	return rec, st, peak, err
}

// printModel prints the memory model term by term and returns the bytes
// of the corpus and of the fit.
func printModel(d dims) (corpusB, fitB float64) {
	for _, t := range model(d) {
		fmt.Printf("  model %-42s %10.1f MiB\n", t.name, t.bytes/(1<<20))
		if t.fit {
			fitB += t.bytes
		} else {
			corpusB += t.bytes
		}
	}
	fmt.Printf("model: corpus %.1f MiB + fit %.1f MiB = %.1f MiB (%.2f GiB)\n", corpusB/(1<<20), fitB/(1<<20), (corpusB+fitB)/(1<<20), (corpusB+fitB)/(1<<30))
	return corpusB, fitB
}

// corpus generates the benchmark-style corpus of the package doc.
func corpus(m, n, perDoc, p int, sorted bool) (*engine.Corpus, error) {
	dt := benchdata.ZipfCounts(m, n, perDoc)
	labels := make([]int, n)
	for j := range labels {
		if sorted {
			labels[j] = j * p / n
		} else {
			labels[j] = j % p
		}
	}
	names := make([]string, p)
	for q := range names {
		names[q] = "c" + strconv.Itoa(q)
	}
	d := dt.T()
	dt = nil // NewCorpus builds its own Dᵀ
	return engine.NewCorpus("grlsimem", tool.Vocab(m), d, nil, labels, names)
}

// procStatus returns the value of a field of /proc/self/status, e.g.
// "VmHWM" (peak resident set), or "?" when it cannot be read.
func procStatus(field string) string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return "?"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}
