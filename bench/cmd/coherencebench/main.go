// Command coherencebench times topic coherence (package metrics/coherence)
// for bench/coherence.sh, which runs gensim's CoherenceModel on the same
// files (bench/coherence_gensim.py) in the same run.
//
// Usage:
//
//	coherencebench prepare -dir DIR [-data 20newsgroups] [-k 100] [-iters 30]
//	coherencebench score -dir DIR -measure npmi|cv|umass|uci [-repeat 3]
//
// prepare reads the collection through the default text pipeline, fits NMF
// with K topics and writes DIR/texts.txt (every training document's
// vocabulary tokens in text order, one document per line: the reference
// corpus of both sides) and DIR/topics.txt (the top 10 words of each
// topic).
//
// score reads the two files, maps words to term ids (outside the timing,
// as gensim's Dictionary is built outside its timing), then times
// coherence.Score for one measure -repeat times and prints one JSON line:
// {"tool", "measure", "seconds" (the fastest repeat), "peak_rss_mb" (the
// process's peak resident set, getrusage), "mean" (the mean coherence)}.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments/quality"
	"github.com/topicmf/topicmf/metrics/coherence"
	"github.com/topicmf/topicmf/metrics/topics"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: coherencebench prepare|score [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "prepare":
		err = prepare(os.Args[2:])
	case "score":
		err = score(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q (want prepare or score)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "coherencebench:", err)
		os.Exit(1)
	}
}

func prepare(args []string) error {
	fs := flag.NewFlagSet("prepare", flag.ExitOnError)
	dir := fs.String("dir", "", "output directory")
	data := fs.String("data", "20newsgroups", "registered data set")
	k := fs.Int("k", 100, "topics")
	iters := fs.Int("iters", 30, "NMF iterations")
	fs.Parse(args)
	if *dir == "" {
		return fmt.Errorf("prepare: -dir is required")
	}
	src, err := datasets.Lookup(*data)
	if err != nil {
		return err
	}
	dataDir, err := datasets.DataDir("")
	if err != nil {
		return err
	}
	col, err := src.Read(dataDir)
	if err != nil {
		return err
	}
	c, vec, _, err := text.Fit(col, text.Options{})
	if err != nil {
		return err
	}
	ref, err := quality.Reference(col, c.DocIDs, vec)
	if err != nil {
		return err
	}
	m, err := catalog.New("nmf", catalog.Params{"k": fmt.Sprint(*k), "iters": fmt.Sprint(*iters), "tol": "0"})
	if err != nil {
		return err
	}
	model, _, err := m.Fit(context.Background(), c, nil)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	for _, doc := range ref.Docs {
		for i, t := range doc {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(ref.Vocab[t])
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(*dir, "texts.txt"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	b.Reset()
	for _, terms := range topics.TopTerms(model.TermTopics(), c.Vocab, coherence.DefaultTopN) {
		b.WriteString(topics.Format(terms))
		b.WriteByte('\n')
	}
	return os.WriteFile(filepath.Join(*dir, "topics.txt"), []byte(b.String()), 0o644)
}

func score(args []string) error {
	fs := flag.NewFlagSet("score", flag.ExitOnError)
	dir := fs.String("dir", "", "directory written by prepare")
	measure := fs.String("measure", "", "npmi, cv, umass or uci")
	repeat := fs.Int("repeat", 3, "timed repeats (the fastest is reported)")
	fs.Parse(args)
	ms, err := coherence.ParseMeasures(*measure)
	if err != nil || len(ms) != 1 {
		return fmt.Errorf("score: -measure %q: want one of npmi, cv, umass, uci", *measure)
	}
	ref, err := readTexts(filepath.Join(*dir, "texts.txt"))
	if err != nil {
		return err
	}
	index := map[string]int32{}
	for i, w := range ref.Vocab {
		index[w] = int32(i)
	}
	f, err := os.Open(filepath.Join(*dir, "topics.txt"))
	if err != nil {
		return err
	}
	defer f.Close()
	var tops [][]int32
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var t []int32
		for _, w := range strings.Fields(sc.Text()) {
			id, ok := index[w]
			if !ok {
				return fmt.Errorf("topic word %q is not in texts.txt", w)
			}
			t = append(t, id)
		}
		tops = append(tops, t)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	best := time.Duration(1 << 62)
	var mean float64
	for range *repeat {
		start := time.Now()
		res, err := coherence.Score(ref, tops, ms, coherence.Options{})
		if err != nil {
			return err
		}
		best = min(best, time.Since(start))
		mean, _ = coherence.Mean(res[ms[0]])
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"tool": "topicmf", "measure": string(ms[0]), "seconds": best.Seconds(),
		"peak_rss_mb": float64(ru.Maxrss) / 1024, "mean": mean,
	})
}

// readTexts reads one document per line, tokens separated by spaces, and
// numbers the words in order of first appearance.
func readTexts(path string) (coherence.Reference, error) {
	f, err := os.Open(path)
	if err != nil {
		return coherence.Reference{}, err
	}
	defer f.Close()
	var ref coherence.Reference
	index := map[string]int32{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		words := strings.Fields(sc.Text())
		doc := make([]int32, len(words))
		for i, w := range words {
			id, ok := index[w]
			if !ok {
				id = int32(len(ref.Vocab))
				index[w] = id
				ref.Vocab = append(ref.Vocab, w)
			}
			doc[i] = id
		}
		ref.Docs = append(ref.Docs, doc)
	}
	return ref, sc.Err()
}
