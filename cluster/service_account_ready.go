package cluster

import (
	"context"
	"fmt"
	"slices"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllermanager"
)

// waitServiceAccountReady blocks, when the ServiceAccount admission
// plugin runs, until the default namespace has what the plugin and the
// kubelet need for a pod: the "default" ServiceAccount (the plugin
// refuses a pod whose account is missing) and the kube-root-ca.crt
// ConfigMap (the kubelet cannot build the token volume without it), each
// when a controller of this cluster creates it. A cluster that starts in
// milliseconds is used at once, and a pod created right after Ready
// would be refused. kube-apiserver has the same race; a real cluster's
// start takes long enough to hide it.
func (c *Cluster) waitServiceAccountReady(ctx context.Context, server *apiserver.Server) error {
	if !c.opts.ServiceAccountAdmission {
		return nil
	}
	controllers, err := controllermanager.Resolve(c.opts.Controllers)
	if err != nil {
		return err
	}
	cs, err := c.componentClientset(server, clientIdentity{})
	if err != nil {
		return err
	}
	if slices.Contains(controllers, "serviceaccount-controller") {
		if err := waitCreated(ctx, cs.ServiceAccounts(metav1.NamespaceDefault), "default"); err != nil {
			return fmt.Errorf("cluster: default service account: %w", err)
		}
	}
	if slices.Contains(controllers, "root-ca-certificate-publisher-controller") {
		if err := waitCreated(ctx, cs.ConfigMaps(metav1.NamespaceDefault), "kube-root-ca.crt"); err != nil {
			return fmt.Errorf("cluster: kube-root-ca.crt: %w", err)
		}
	}
	return nil
}

// waitCreated blocks until the object name of r exists, or ctx is done.
func waitCreated[T metav1.Object, L metav1.ListInterface](ctx context.Context, r *client.Resource[T, L], name string) error {
	for {
		// A watch from no resourceVersion starts with the object if it
		// exists already, so its creation cannot be missed.
		w, err := r.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + name})
		if err != nil {
			return err
		}
		found := false
		for ev := range w.ResultChan() {
			if ev.Type == watch.Added || ev.Type == watch.Modified {
				found = true
				break
			}
		}
		w.Stop()
		switch {
		case found:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		}
		// The server ended the watch (its timeout): watch again.
	}
}
