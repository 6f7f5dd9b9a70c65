// Command writebench writes the engine's benchmark term-document matrix
// (engine/synthetic.Benchmark(): 30,000 terms × 20,000 documents, about
// 1.6 million non-zero raw counts) to a Matrix Market file, so that
// bench/side-by-side.sh can time topicmf and the Python tools on the very
// same matrix.
//
// Usage:
//
//	writebench [-quick] -o bench.mtx
//
// The file is "matrix coordinate real general", rows = terms, columns =
// documents, 1-based (engine/sparse.WriteMMFile). With -quick the matrix is
// the same generator scaled down to 6,000 terms × 4,000 documents (about
// 320,000 non-zeros), for trying the script in a minute.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/topicmf/topicmf/bench/cmd/internal/tool"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/synthetic"
	"github.com/topicmf/topicmf/internal/outfile"
)

func main() { tool.Main("writebench", run) }

func run(args []string) error {
	fs := flag.NewFlagSet("writebench", flag.ContinueOnError)
	out := fs.String("o", "", "output Matrix Market file (required)")
	quick := fs.Bool("quick", false, "write the scaled-down matrix (6,000 terms × 4,000 documents)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-o is required")
	}
	cfg := synthetic.Benchmark()
	if *quick {
		cfg.Name, cfg.M, cfg.N = "synthetic-benchmark-quick", 6000, 4000
	}
	c, _, err := synthetic.Generate(cfg)
	if err != nil {
		return fmt.Errorf("generating %s: %w", cfg.Name, err)
	}
	if err := outfile.Write(*out, os.Stdout, func(w io.Writer) error { return sparse.WriteMM(w, c.D) }); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	fmt.Printf("%s\t%d\t%d\t%d\n", cfg.Name, c.D.Rows, c.D.Cols, c.D.NNZ())
	return nil
}
