package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/audit"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/tracing"
)

// upOptions are the flags of `minicp up`.
type upOptions struct {
	listen          string
	kubeconfig      string
	etcdServers     []string
	dataDir         string
	storagePrefix   string
	tokenAuthFile   string
	authzMode       string
	schedulerConfig string
	controllers     []string
	// disableAdmission is --disable-admission-plugins.
	disableAdmission []string
	nodes            int
	logLevel         string
	verbosity        int
	auditLogPath     string
	profiling        bool
	trace            bool
	webAddress       string
}

// newUpCommand is `minicp up`.
func newUpCommand() *cobra.Command {
	o := &upOptions{}
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Start a cluster and run it until interrupted",
		Long: `Start a cluster: an embedded etcd (or --etcd-servers), the API server on
--listen, the controller-manager, and with --nodes > 0 the scheduler and
that many simulated nodes. minicp writes an admin kubeconfig to
--kubeconfig, prints where everything is, and then stays quiet (-v 2 shows
the components' lifecycle, -v 4 every request and hop) until Ctrl-C stops
it.

The web view (--web-address, on loopback only) shows the nodes and their
pods, the objects of each kind, the watch caches' windows and, with
--trace, a request's hops as a sequence diagram and a pod's scheduling
decision, live in a browser.

The listen addresses are checked first: if one is taken, minicp says so
and exits before starting anything.`,
		Example: `  minicp up
  minicp up --nodes 3 --listen 127.0.0.1:7443 --kubeconfig /tmp/minicp.kubeconfig
  minicp up --audit-log-path - -v 2
  minicp up --trace --web-address 127.0.0.1:8080
  minicp up --web-address=""
  minicp up --etcd-servers http://10.0.0.1:2379,http://10.0.0.2:2379 --storage-prefix /team-a`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Flags().Changed("log-level"))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.listen, "listen", "127.0.0.1:6443", "The address the API server listens on (host:port; port 0 picks a free one).")
	f.StringVar(&o.kubeconfig, "kubeconfig", filepath.Join(".minicp", "kubeconfig"), "Where to write the admin kubeconfig.")
	f.StringSliceVar(&o.etcdServers, "etcd-servers", nil, "External etcd endpoints, comma separated. Empty runs an embedded etcd.")
	f.StringVar(&o.dataDir, "data-dir", "", "Keep the cluster across restarts: the embedded etcd's data in DIR/etcd, the CA and the admin token in DIR/pki, so kubeconfigs keep working. Empty uses a temporary directory removed on stop.")
	f.StringVar(&o.storagePrefix, "storage-prefix", "/registry", "The etcd key prefix of this cluster: clusters sharing one etcd use distinct prefixes.")
	f.StringVar(&o.tokenAuthFile, "token-auth-file", "", `A CSV file of extra users, as kube-apiserver's: one token,user,uid,"group1,group2" per line.`)
	f.StringVar(&o.authzMode, "authorization-mode", cluster.DefaultAuthorizationMode, "Who may do what, a comma-separated list asked in order: Node (kubelets, their own node's objects), RBAC (what Roles and ClusterRoles grant), AlwaysAllow (anyone anything), AllowAuthenticated (any authenticated user anything). system:masters, such as the admin, may always do anything.")
	f.StringSliceVar(&o.disableAdmission, "disable-admission-plugins", nil, "Admission plugins to turn off, as kube-apiserver's flag. Only ServiceAccount may be named: without it, pods get no service account token, as in envtest.")
	f.StringVar(&o.schedulerConfig, "scheduler-config", "", "A KubeSchedulerConfiguration file enabling plugins and setting weights. Empty runs the default profile.")
	f.StringSliceVar(&o.controllers, "controllers", []string{"*"}, "The controllers to run, as kube-controller-manager's flag: '*' is all, 'foo' enables and '-foo' disables one; '' runs none.")
	f.IntVar(&o.nodes, "nodes", 1, "How many simulated nodes (kubelets) to run; 0 runs no scheduler and no node.")
	f.StringVar(&o.auditLogPath, "audit-log-path", "", "Write one JSON audit.k8s.io/v1 Event per request to this file (appended to), or to stdout for '-'. Empty logs them at debug level (-v 4).")
	f.IntVarP(&o.verbosity, "v", "v", 0, "Log verbosity: 0 shows warnings and errors, 2 also the components' lifecycle, 4 also every request and hop.")
	f.StringVar(&o.logLevel, "log-level", "", "The log level, debug, info, warn or error; overrides -v.")
	f.BoolVar(&o.profiling, "profiling", true, "Serve Go's profiles at /debug/pprof/ (to authorized users, as /metrics).")
	f.BoolVar(&o.trace, "trace", false, "Trace every request and what it causes across the components, for \"minicp trace KIND/NAME\" and the web view to show (the last 20000 spans are kept).")
	f.StringVar(&o.webAddress, "web-address", "127.0.0.1:8001", "The loopback address of the web view, a live page of the cluster (with --trace, of each request's hops); empty turns it off.")
	return cmd
}

// serviceAccountAdmission reports whether the ServiceAccount admission
// plugin runs: on, as kube-apiserver has it, unless
// --disable-admission-plugins names it. minicp's other plugins always
// run, so naming one of them is an error rather than a flag ignored.
func (o *upOptions) serviceAccountAdmission() (bool, error) {
	on := true
	for _, name := range o.disableAdmission {
		switch name = strings.TrimSpace(name); name {
		case "ServiceAccount":
			on = false
		case "":
		default:
			return false, fmt.Errorf("--disable-admission-plugins: %q cannot be turned off; only ServiceAccount can", name)
		}
	}
	return on, nil
}

// level is the log level: --log-level when given, else -v's, mapped as
// Kubernetes components map klog's verbosity to what they show: 0 only
// warnings and errors, 1 to 3 also Info (the components' lifecycle:
// starting, synced, stopping), 4 and more also Debug (every request's
// audit record and every hop).
func (o *upOptions) level(logLevelSet bool) (slog.Level, error) {
	if logLevelSet {
		var l slog.Level
		if err := l.UnmarshalText([]byte(o.logLevel)); err != nil {
			return 0, fmt.Errorf("--log-level: %w", err)
		}
		return l, nil
	}
	switch {
	case o.verbosity >= 4:
		return slog.LevelDebug, nil
	case o.verbosity >= 1:
		return slog.LevelInfo, nil
	}
	return slog.LevelWarn, nil
}

// run starts the cluster and blocks until ctx is done. Everything that
// can fail on a flag's value (log level, scheduler config, audit log,
// listen and web addresses) fails before etcd starts.
func (o *upOptions) run(ctx context.Context, stdout, stderr io.Writer, logLevelSet bool) error {
	level, err := o.level(logLevelSet)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	opts := cluster.Options{
		EtcdServers:       o.etcdServers,
		EtcdDataDir:       o.etcdDataDir(),
		PKIDir:            o.pkiDir(),
		StoragePrefix:     o.storagePrefix,
		TokenAuthFile:     o.tokenAuthFile,
		AuthorizationMode: o.authzMode,
		Nodes:             o.nodes,
		Controllers:       o.controllers,
		DisableProfiling:  !o.profiling,
		Logger:            logger,
	}
	if opts.ServiceAccountAdmission, err = o.serviceAccountAdmission(); err != nil {
		return err
	}
	if o.trace {
		opts.Tracing = tracing.New(tracing.Options{})
		defer opts.Tracing.Shutdown(context.WithoutCancel(ctx))
	}
	if opts.Controllers == nil {
		// --controllers '' is an empty, non-nil list: no controller-manager.
		opts.Controllers = []string{}
	}
	if o.schedulerConfig != "" {
		if opts.SchedulerConfig, err = config.Load(o.schedulerConfig); err != nil {
			return fmt.Errorf("--scheduler-config: %w", err)
		}
	}
	if o.auditLogPath != "" {
		w, closeLog, err := openAuditLog(o.auditLogPath, stdout)
		if err != nil {
			return err
		}
		defer closeLog()
		opts.AuditSink = audit.NewWriterSink(w)
	}
	kubeconfig, err := filepath.Abs(o.kubeconfig)
	if err != nil {
		return fmt.Errorf("--kubeconfig: %w", err)
	}
	if opts.Listener, err = net.Listen("tcp", o.listen); err != nil {
		return listenError(o.listen, err)
	}
	var webLn net.Listener
	if o.webAddress != "" {
		if webLn, err = listenWeb(o.webAddress); err != nil {
			opts.Listener.Close()
			return err
		}
	}
	c, err := cluster.New(opts)
	if err != nil {
		opts.Listener.Close()
		closeListener(webLn)
		return err
	}
	// The web view stops before the cluster, so its informers do not
	// see the API server go away under them.
	clusterCtx, stopCluster := context.WithCancel(context.WithoutCancel(ctx))
	defer stopCluster()
	errCh := make(chan error, 1)
	go func() { errCh <- c.Start(clusterCtx) }()
	select {
	case err := <-errCh:
		closeListener(webLn)
		return err
	case <-ctx.Done():
		closeListener(webLn)
		stopCluster()
		return <-errCh
	case <-c.Ready():
	}
	webURL := ""
	webCtx, stopWeb := context.WithCancel(ctx)
	defer stopWeb()
	// webDone gets the web view's end; without one, at once.
	noWeb := make(chan error, 1)
	noWeb <- nil
	var webDone <-chan error = noWeb
	// shutdown stops the web view, then the cluster, and returns the
	// cluster's error.
	shutdown := func() error {
		stopWeb()
		if werr := <-webDone; werr != nil {
			logger.Warn("web view stopped", "err", werr)
		}
		stopCluster()
		return <-errCh
	}
	if webLn != nil {
		webURL = "http://" + webLn.Addr().String() + "/"
		if webDone, err = startWebView(webCtx, c, webLn, opts.Tracing, logger); err != nil {
			webDone = noWeb
			_ = shutdown()
			return err
		}
	}
	if err := c.WriteKubeconfig(kubeconfig); err != nil {
		_ = shutdown()
		return err
	}
	o.printBanner(stdout, c.URL(), webURL, kubeconfig)
	select {
	case <-ctx.Done():
		err = shutdown()
	case err = <-errCh:
		// The cluster failed on its own: the web view has nothing to show.
		stopWeb()
		<-webDone
	}
	fmt.Fprintln(stdout, "minicp stopped")
	return err
}

// closeListener closes ln, if any.
func closeListener(ln net.Listener) {
	if ln != nil {
		ln.Close()
	}
}

// openAuditLog opens the audit log for appending, creating it and its
// directory (readable by the owner only: it names every user), or
// returns stdout for "-". The returned func closes what it opened.
func openAuditLog(path string, stdout io.Writer) (io.Writer, func(), error) {
	if path == "-" {
		return stdout, func() {}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, nil, fmt.Errorf("--audit-log-path: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("--audit-log-path: %w", err)
	}
	return f, func() { f.Close() }, nil
}

// listenError says in one line why the API server cannot listen on addr,
// and what to do when the address is taken.
func listenError(addr string, err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("cannot listen on %s: address already in use (is another minicp or API server running? choose another address with --listen)", addr)
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		err = opErr.Err
	}
	return fmt.Errorf("cannot listen on %s: %w (see --listen)", addr, err)
}

// printBanner tells the user where everything is and how to use it: the
// few lines `minicp up` prints at the default verbosity.
func (o *upOptions) printBanner(w io.Writer, url, webURL, kubeconfig string) {
	fmt.Fprintf(w, "minicp is running, serving Kubernetes %s\n\n", apiserver.Version.GitVersion)
	fmt.Fprintf(w, "  API server:  %s\n", url)
	switch {
	case webURL == "":
	case o.trace:
		fmt.Fprintf(w, "  web view:    %s\n", webURL)
	default:
		fmt.Fprintf(w, "  web view:    %s (add --trace to see requests hop by hop)\n", webURL)
	}
	fmt.Fprintf(w, "  kubeconfig:  %s\n", kubeconfig)
	fmt.Fprintf(w, "  nodes:       %s\n", o.nodesSummary())
	fmt.Fprintf(w, "  etcd:        %s\n", o.etcdSummary())
	switch o.auditLogPath {
	case "":
	case "-":
		fmt.Fprintf(w, "  audit log:   stdout\n")
	default:
		fmt.Fprintf(w, "  audit log:   %s\n", o.auditLogPath)
	}
	if o.trace {
		fmt.Fprintf(w, "  tracing:     on (minicp trace pod/NAME shows how a pod's create travelled)\n")
	}
	fmt.Fprintf(w, "\n  export KUBECONFIG=%s\n  kubectl get nodes\n\n", kubeconfig)
	fmt.Fprintln(w, "Press Ctrl-C to stop.")
}

// nodesSummary names the simulated nodes.
func (o *upOptions) nodesSummary() string {
	switch o.nodes {
	case 0:
		return "none (no scheduler: pods stay Pending)"
	case 1:
		return "1 (" + cluster.NodeName(0) + ")"
	case 2:
		return "2 (" + cluster.NodeName(0) + ", " + cluster.NodeName(1) + ")"
	}
	return fmt.Sprintf("%d (%s ... %s)", o.nodes, cluster.NodeName(0), cluster.NodeName(o.nodes-1))
}

// etcdSummary says which etcd the cluster stores in, and where.
func (o *upOptions) etcdSummary() string {
	prefix := "key prefix " + o.storagePrefix
	switch {
	case len(o.etcdServers) > 0:
		return "external, " + strings.Join(o.etcdServers, ",") + ", " + prefix
	case o.dataDir != "":
		dir, err := filepath.Abs(o.etcdDataDir())
		if err != nil {
			dir = o.etcdDataDir()
		}
		return "embedded, data in " + dir + " (kept)"
	}
	return "embedded, data in a temporary directory (removed on stop)"
}

// etcdDataDir is where --data-dir keeps the embedded etcd's data.
func (o *upOptions) etcdDataDir() string {
	if o.dataDir == "" {
		return ""
	}
	return filepath.Join(o.dataDir, "etcd")
}

// pkiDir is where --data-dir keeps the CA and the admin token, beside
// etcd's data as kubeadm keeps /etc/kubernetes/pki beside /var/lib/etcd.
func (o *upOptions) pkiDir() string {
	if o.dataDir == "" {
		return ""
	}
	return filepath.Join(o.dataDir, "pki")
}
