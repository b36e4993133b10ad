// Command minicp runs a minicp control plane.
//
//	minicp up [flags]          start etcd, the API server, the controllers,
//	                           the scheduler and simulated nodes; write a
//	                           kubeconfig; run until interrupted (Ctrl-C)
//	minicp trace KIND/NAME     how a request travelled through a cluster
//	                           started with --trace
//	minicp version             minicp's, Kubernetes' and Go's versions
//	minicp completion SHELL    a completion script for bash, zsh, fish
//	                           or powershell
//	minicp help [command]      what a command does and its flags
//
// Flags are spelled as kube-apiserver's (--listen, --etcd-servers,
// --audit-log-path, -v/--v), and every command answers --help.
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
	err := execute(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "minicp:", err)
		os.Exit(1)
	}
}

// execute runs the command args name until ctx is done (for up) and
// returns its error, which main prints as one line. Help and usage go to
// stdout, logs to stderr.
func execute(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return root.ExecuteContext(ctx)
}

// newRootCommand is `minicp` with its subcommands; cobra adds help and
// completion.
func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "minicp",
		Short: "A small but real Kubernetes control plane in one process",
		Long: `minicp runs a Kubernetes control plane in one process: an API server over
an embedded etcd, its watch caches, the controllers, the scheduler and
simulated nodes. The real kubectl and client-go work against it.

Start one with "minicp up", then point kubectl at the kubeconfig it prints.`,
		// Errors are printed once, by main, as one line; usage only on
		// request (--help), so an error is not buried under it.
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.AddCommand(newUpCommand(), newTraceCommand(), newVersionCommand())
	return root
}
