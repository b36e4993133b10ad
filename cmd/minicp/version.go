package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/minicp/minicp/apiserver"
)

// newVersionCommand is `minicp version`.
func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print minicp's version, the Kubernetes version it serves, and Go's",
		Long: `Print minicp's version (from the binary's build information: the module
version, and the commit when built from a git checkout), the Kubernetes
version the API server reports at /version (what kubectl compares its own
to), and the Go version and platform the binary was built with.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "minicp:      %s\nKubernetes:  %s\nGo:          %s %s/%s\n",
				minicpVersion(), apiserver.Version.GitVersion, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}

// minicpVersion is the main module's version from the build information,
// with the VCS commit (and "dirty" for uncommitted changes) when the
// build recorded one: "(devel)" for `go build` in a checkout, the tag for
// `go install ...@v1.2.3`.
func minicpVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var revision, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision == "" {
		return v
	}
	// Twelve hex digits, as Go's pseudo-versions use: unique in practice.
	if len(revision) > 12 {
		revision = revision[:12]
	}
	if modified == "true" {
		revision += "-dirty"
	}
	return v + " (commit " + revision + ")"
}
