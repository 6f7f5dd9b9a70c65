// Package tool is what the benchmark commands under bench/cmd share: the
// main wrapper that prints a failure as one line "<name>: <error>" and
// exits 1, and the reading of their Matrix Market input as a corpus.
package tool

import (
	"fmt"
	"os"
	"strconv"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// Main runs run with the command-line arguments; on an error it prints
// "<name>: <error>" to standard error and exits with status 1.
func Main(name string, run func(args []string) error) {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// Vocab names m terms "t0", "t1", …: the vocabulary of a matrix without
// one.
func Vocab(m int) []string {
	vocab := make([]string, m)
	for i := range vocab {
		vocab[i] = "t" + strconv.Itoa(i)
	}
	return vocab
}

// ReadCorpus reads a Matrix Market file of terms × documents as a corpus
// named after the file, its terms named by Vocab, without labels.
func ReadCorpus(path string) (*engine.Corpus, error) {
	d, err := sparse.ReadMMFile(path)
	if err != nil {
		return nil, err
	}
	return engine.NewCorpus(path, Vocab(d.Rows), d, nil, nil, nil)
}
