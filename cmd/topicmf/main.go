// Command topicmf fits matrix-factorization topic models, manages the data
// sets, evaluates runs and regenerates the papers' tables and figures.
//
// main only calls run, so that tests can drive the whole command in-process.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/topicmf/topicmf/datasets"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, errorLine(err))
		os.Exit(1)
	}
}

func init() {
	// f is a *pflag.FlagSet.
	cobra.AddTemplateFunc("wrappedFlags", func(f interface{ FlagUsagesWrapped(int) string }) string {
		return f.FlagUsagesWrapped(defaultWidth)
	})
}

// run executes the command line args, writing to stdout and stderr.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	root := &cobra.Command{
		Use:   "topicmf",
		Short: "Topic models by matrix factorization, and the papers' experiments",
		Long: `topicmf fits topic models learned by matrix factorization (RLSI, NMF, Group
RLSI/NMF, TNMF, ...) on registered collections or one's own text, and
regenerates the tables and figures of the papers they come from.

  topicmf fit --model nmf -k 20 --data my.csv    topics of one's own CSV
  topicmf models                                 the families and their parameters
  topicmf list                                   the registered experiments
  topicmf run foundation/nmf-synthetic --quick   one experiment, with its report
  topicmf data list                              the collections, and which are here`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	pf := root.PersistentFlags()
	pf.String("data-dir", "", "data directory holding the public collections (default $TOPICMF_DATA, else <user cache>/topicmf/data)")
	pf.Bool("quiet", false, "show no progress")
	root.SetFlagErrorFunc(flagError)
	// Flag lists wrap like the other listings.
	root.SetUsageTemplate(strings.NewReplacer(
		".LocalFlags.FlagUsages", "wrappedFlags .LocalFlags",
		".InheritedFlags.FlagUsages", "wrappedFlags .InheritedFlags",
	).Replace(root.UsageTemplate()))
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
		newRunsCmd(),
		newReportCmd(),
		newTransformCmd(),
		newRankCmd(),
	)
	plainFlags(root)
	return root.ExecuteContext(ctx)
}

// dataDirFlag is --data-dir (or data's older --data), "" when not given.
func dataDirFlag(cmd *cobra.Command) string {
	if d, _ := cmd.Flags().GetString("data-dir"); d != "" {
		return d
	}
	if f := cmd.Flags().Lookup("data"); f != nil && f.Hidden {
		return f.Value.String() // data's older name for it
	}
	return ""
}

// quietFlag is --quiet.
func quietFlag(cmd *cobra.Command) bool {
	q, _ := cmd.Flags().GetBool("quiet")
	return q
}

// flagError words the flag parser's errors for a user: a value a flag
// refused is said by the flag's own value (plainValue, paramFlag:
// `--k "ten": want an integer`), any other error points to the help.
func flagError(cmd *cobra.Command, err error) error {
	if refused := refusedValue(cmd); refused != nil {
		return fmt.Errorf("%s: %w", cmd.Name(), refused)
	}
	return fmt.Errorf("%s: %w (topicmf %s --help lists the flags)", cmd.Name(), err, cmd.Name())
}

// maxErrorRunes bounds the length of the line errorLine prints.
const maxErrorRunes = 300

// errorLine is err as main prints it: one line, prefixed "topicmf:", a
// cancellation (main's context is cancelled
// only by SIGINT or SIGTERM) said as "interrupted", and at most about
// maxErrorRunes runes. A longer message is shortened where it loses
// least: first the quoted inputs in it (a record, a line of a file) lose
// their middles, then run ids their last 52 hex digits (runs and the
// commands accept a 12-digit prefix); only then is the message's own
// middle elided (the head names the file and record, the tail the problem).
func errorLine(err error) string {
	msg := err.Error()
	if errors.Is(err, context.Canceled) {
		msg = strings.ReplaceAll(msg, context.Canceled.Error(), "interrupted")
	}
	msg = strings.Join(strings.Fields(msg), " ")
	for _, shorten := range []func(string) string{elideQuoted, elideRunIDs, elideMiddle} {
		if utf8.RuneCountInString(msg) <= maxErrorRunes {
			break
		}
		msg = shorten(msg)
	}
	return "topicmf: " + msg
}

// quoted matches a Go-quoted string (%q), as errors quote inputs.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// elideQuoted keeps at most 40 runes of each quoted string in msg.
func elideQuoted(msg string) string {
	return quoted.ReplaceAllStringFunc(msg, func(q string) string {
		return `"` + datasets.Elide(q[1:len(q)-1], 40) + `"`
	})
}

// runID matches a run id (experiments/store: 64 hex digits).
var runID = regexp.MustCompile(`\b[0-9a-f]{64}\b`)

// elideRunIDs shortens the run ids in msg to the prefix runs lists.
func elideRunIDs(msg string) string {
	return runID.ReplaceAllStringFunc(msg, func(id string) string { return id[:idPrefix] + "…" })
}

// elideMiddle cuts msg to about maxErrorRunes runes, keeping its head (two
// thirds: it names the file and record) and its tail (the problem), each
// cut at a space when there is one in its last (head) or first (tail)
// tenth.
func elideMiddle(msg string) string {
	r := []rune(msg)
	keep := maxErrorRunes - 3 // " … "
	headLen := keep * 2 / 3
	head, tail := string(r[:headLen]), string(r[len(r)-(keep-headLen):])
	slack := keep / 10
	if i := strings.LastIndexByte(head, ' '); i >= len(head)-slack {
		head = head[:i]
	}
	if i := strings.IndexByte(tail, ' '); i >= 0 && i < slack {
		tail = tail[i+1:]
	}
	return head + " … " + tail
}
