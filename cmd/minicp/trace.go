package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/minicp/minicp/client"
)

// traceOptions are the flags of `minicp trace`.
type traceOptions struct {
	kubeconfig string
	namespace  string
	verb       string
	until      string
}

// newTraceCommand is `minicp trace KIND/NAME`.
func newTraceCommand() *cobra.Command {
	o := &traceOptions{}
	cmd := &cobra.Command{
		Use:   "trace KIND/NAME",
		Short: "Print how a request travelled through the cluster",
		Long: `Print the timeline of a request that a "minicp up --trace" cluster served,
and of everything it caused, in causal order: the API server's filters,
admission plugins, validation and etcd transaction, the watch cache's
dispatch of its event, each component's informer, the controllers'
reconciles, the scheduler's filter and score per node, the kubelet's
sync, and the requests these made in turn.

KIND is what kubectl accepts (pod, pods, po, deployment, ...). The request
is the object's create unless --verb says otherwise; the earliest one kept
is shown.`,
		Example: `  minicp up --trace &
  kubectl run web --image=nginx
  minicp trace pod/web --until kubelet.sync
  minicp trace deployment/web -n shop
  minicp trace pod/web --verb delete`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), cmd.OutOrStdout(), args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.kubeconfig, "kubeconfig", defaultKubeconfig(), "The kubeconfig of the cluster (as minicp up wrote it).")
	f.StringVarP(&o.namespace, "namespace", "n", "", "The object's namespace. Defaults to default for namespaced kinds.")
	f.StringVar(&o.verb, "verb", "create", "The request's verb: create, update, patch, delete.")
	f.StringVar(&o.until, "until", "", "Wait (up to 30s) until the timeline holds this hop, such as kubelet.sync or reconcile, then print it.")
	return cmd
}

// defaultKubeconfig is $KUBECONFIG's first file, or where minicp up writes
// its kubeconfig by default.
func defaultKubeconfig() string {
	if env := os.Getenv("KUBECONFIG"); env != "" {
		return filepath.SplitList(env)[0]
	}
	return filepath.Join(".minicp", "kubeconfig")
}

func (o *traceOptions) run(ctx context.Context, stdout io.Writer, arg string) error {
	kind, name, ok := strings.Cut(arg, "/")
	if !ok || kind == "" || name == "" {
		return fmt.Errorf("want KIND/NAME, such as pod/web; got %q", arg)
	}
	cfg, err := client.LoadKubeconfig(o.kubeconfig)
	if err != nil {
		return fmt.Errorf("--kubeconfig: %w", err)
	}
	cl, err := client.New(cfg)
	if err != nil {
		return err
	}
	defer cl.CloseIdleConnections()
	q := url.Values{"verb": {o.verb}}
	if o.namespace != "" {
		q.Set("namespace", o.namespace)
	}
	if o.until != "" {
		q.Set("until", o.until)
	}
	body, err := cl.GetRaw(ctx, "/debug/traces/"+url.PathEscape(kind)+"/"+url.PathEscape(name), q)
	if err != nil {
		return fmt.Errorf("%w (is the cluster running with --trace?)", err)
	}
	_, err = stdout.Write(body)
	return err
}
