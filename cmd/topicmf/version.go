package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the module version, VCS revision and Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			version, revision := "(devel)", "unknown"
			if bi, ok := debug.ReadBuildInfo(); ok {
				version = bi.Main.Version
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" {
						revision = s.Value
					}
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "topicmf %s (revision %s, %s %s/%s)\n",
				version, revision, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
