// Command minicp runs a minicp control plane.
//
//	minicp up [flags]    start etcd and the API server, write a kubeconfig,
//	                     and run until interrupted (Ctrl-C)
//
// The kubeconfig's path is printed at start; point kubectl at it with
// KUBECONFIG=<path> or --kubeconfig <path>.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/scheduler/config"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "minicp:", err)
		os.Exit(1)
	}
}

const usage = `usage: minicp <command> [flags]

commands:
  up    start a cluster and run it until interrupted

run "minicp up -h" for the flags of up`

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return errors.New("no command")
	}
	switch args[0] {
	case "up":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return up(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	default:
		fmt.Fprintln(stderr, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
}

// up starts a cluster and blocks until ctx is done.
func up(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("up", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:6443", "address of the API server")
	kubeconfig := fs.String("kubeconfig", filepath.Join(".minicp", "kubeconfig"), "where to write the admin kubeconfig")
	etcdServers := fs.String("etcd-servers", "", "comma-separated external etcd endpoints (default: an embedded etcd)")
	dataDir := fs.String("data-dir", "", "embedded etcd data directory, kept across restarts (default: a temporary directory)")
	prefix := fs.String("storage-prefix", "/registry", "etcd key prefix of this cluster")
	tokenFile := fs.String("token-auth-file", "", "CSV file of extra users (token,user,uid,\"group1,group2\"), as kube-apiserver's flag")
	schedulerConfig := fs.String("scheduler-config", "", "a KubeSchedulerConfiguration file enabling plugins and setting weights (default: the default profile)")
	controllers := fs.String("controllers", "*", "controllers to run, as kube-controller-manager's flag: '*' is all, 'foo' enables and '-foo' disables one; '' runs none")
	nodes := fs.Int("nodes", 1, "how many simulated nodes (kubelets) to run; 0 runs the API server alone")
	logLevel := fs.String("log-level", "info", "debug shows every hop of every request; info shows one audit line per request")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	opts := cluster.Options{
		ListenAddr:    *listen,
		EtcdDataDir:   *dataDir,
		StoragePrefix: *prefix,
		TokenAuthFile: *tokenFile,
		Nodes:         *nodes,
		Logger:        logger,
	}
	if *schedulerConfig != "" {
		cfg, err := config.Load(*schedulerConfig)
		if err != nil {
			return fmt.Errorf("--scheduler-config: %w", err)
		}
		opts.SchedulerConfig = cfg
	}
	opts.Controllers = []string{}
	if *controllers != "" {
		opts.Controllers = strings.Split(*controllers, ",")
	}
	if *etcdServers != "" {
		opts.EtcdServers = strings.Split(*etcdServers, ",")
	}
	c, err := cluster.New(opts)
	if err != nil {
		return err
	}
	errCh := make(chan error, 1)
	go func() { errCh <- c.Start(ctx) }()
	select {
	case err := <-errCh:
		return err
	case <-c.Ready():
	}
	path, err := filepath.Abs(*kubeconfig)
	if err != nil {
		return err
	}
	if err := c.WriteKubeconfig(path); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "minicp is running at %s\n", c.URL())
	fmt.Fprintf(stdout, "kubeconfig: %s\n", path)
	fmt.Fprintf(stdout, "try: export KUBECONFIG=%s; kubectl get ns\n", path)
	fmt.Fprintln(stdout, "press Ctrl-C to stop")
	err = <-errCh
	fmt.Fprintln(stdout, "minicp stopped")
	return err
}
