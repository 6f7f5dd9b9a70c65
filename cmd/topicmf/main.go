// Command topicmf fits matrix-factorization topic models, manages the data
// sets, evaluates runs and regenerates the papers' tables and figures.
//
// main only calls run, so that tests can drive the whole command in-process.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "topicmf:", err)
		os.Exit(1)
	}
}

// run executes the command line args, writing to stdout and stderr.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	root := &cobra.Command{
		Use:           "topicmf",
		Short:         "Topic models by matrix factorization, and the papers' experiments",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetArgs(args)
	// Each subcommand lives in its own file; one line each here.
	root.AddCommand(
		newVersionCmd(),
		newDataCmd(),
		newEvalCmd(),
		newFitCmd(),
		newListCmd(),
		newModelsCmd(),
		newRunCmd(),
		newReportCmd(),
		newTransformCmd(),
		newRankCmd(),
	)
	return root.ExecuteContext(ctx)
}
