package namespace

import (
	"context"
	"fmt"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/wait"
)

// maxConflictRetries bounds retryOnConflict. Upstream retries until it
// wins; a namespace rewritten that often is better retried later, with
// the controller's backoff, than in a tight loop here.
const maxConflictRetries = 5

// conflictRetry tries again at once on the namespace read again: the
// write that won the race has already landed, so the re-read sees it,
// and the controller's backoff is for what takes time to clear.
var conflictRetry = wait.Backoff{Steps: maxConflictRetries}

// namespacedResourcesDeleter deletes everything in a namespace and then
// finalizes it. It keeps no state between calls, so it is safe for
// concurrent use on different namespaces.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter).
type namespacedResourcesDeleter struct {
	client     *client.Client
	discovery  *client.DiscoveryClient
	namespaces *client.NamespaceClient
	clientset  *client.Clientset
	clock      clock.Clock
	// finalizerToken is the spec finalizer this deleter removes once the
	// namespace is empty.
	finalizerToken corev1.FinalizerName
}

// newNamespacedResourcesDeleter returns a deleter that reaches the API
// server through c and removes finalizerToken.
func newNamespacedResourcesDeleter(c *client.Client, clk clock.Clock, finalizerToken corev1.FinalizerName) (*namespacedResourcesDeleter, error) {
	cs, err := client.NewClientset(c)
	if err != nil {
		return nil, err
	}
	return &namespacedResourcesDeleter{
		client: c, discovery: client.NewDiscoveryClient(c), namespaces: cs.Namespaces(), clientset: cs, clock: clk,
		finalizerToken: finalizerToken,
	}, nil
}

// Delete deletes all content of the namespace nsName and then removes the
// deleter's finalizer from it. It does nothing to a namespace that is gone
// or not being deleted. A positive estimate (in seconds) with a nil error
// means content is still going away (pods in their grace period, objects
// waiting on finalizers): call Delete again later. Callers keep calling
// it until it returns (0, nil).
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.Delete), whose ResourcesRemainingError is
// the estimate here.
func (d *namespacedResourcesDeleter) Delete(ctx context.Context, nsName string) (estimate int64, err error) {
	// Other controllers may edit the namespace while it terminates: read
	// the latest state, not the cache's.
	ns, err := d.namespaces.Get(ctx, nsName, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if ns.DeletionTimestamp == nil || ns.DeletionTimestamp.IsZero() {
		return 0, nil
	}
	ns, err = d.retryOnConflict(ctx, ns, d.updateNamespaceStatus)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if len(ns.Spec.Finalizers) == 0 {
		return 0, nil // finalized already; the API server removes it
	}
	estimate, err = d.deleteAllContent(ctx, ns)
	if err != nil || estimate > 0 {
		return estimate, err
	}
	_, err = d.retryOnConflict(ctx, ns, d.finalizeNamespace)
	if apierrors.IsNotFound(err) {
		// Another deleter with the same token finished first.
		return 0, nil
	}
	return 0, err
}

// updateNamespaceFunc makes one write to a namespace.
type updateNamespaceFunc func(ctx context.Context, ns *corev1.Namespace) (*corev1.Namespace, error)

// retryOnConflict calls fn on ns and, while it fails with a Conflict, on
// a freshly read ns, up to maxConflictRetries times. It fails if the
// namespace was replaced by another of the same name meanwhile.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.retryOnConflictError).
func (d *namespacedResourcesDeleter) retryOnConflict(ctx context.Context, ns *corev1.Namespace, fn updateNamespaceFunc) (*corev1.Namespace, error) {
	latest, reread := ns, false
	var out *corev1.Namespace
	err := client.RetryOnConflict(ctx, conflictRetry, func() error {
		if reread {
			fresh, err := d.namespaces.Get(ctx, latest.Name, client.GetOptions{})
			if err != nil {
				out = nil
				return err
			}
			if fresh.UID != latest.UID {
				out = nil
				return fmt.Errorf("namespace %s: uid changed across retries", latest.Name)
			}
			latest = fresh
		}
		reread = true
		var err error
		out, err = fn(ctx, latest)
		return err
	})
	if apierrors.IsConflict(err) {
		return nil, fmt.Errorf("namespace %s: still conflicting after %d retries: %v", ns.Name, maxConflictRetries, err)
	}
	return out, err
}

// updateNamespaceStatus makes sure a namespace being deleted says
// Terminating. minicp's API server sets the phase when it marks the
// deletion; this repairs a namespace written otherwise.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.updateNamespaceStatusFunc).
func (d *namespacedResourcesDeleter) updateNamespaceStatus(ctx context.Context, ns *corev1.Namespace) (*corev1.Namespace, error) {
	if ns.DeletionTimestamp == nil || ns.Status.Phase == corev1.NamespaceTerminating {
		return ns, nil
	}
	ns = ns.DeepCopy()
	ns.Status.Phase = corev1.NamespaceTerminating
	return d.namespaces.UpdateStatus(ctx, ns, client.WriteOptions{})
}

// finalizeNamespace removes the deleter's token from ns's spec.finalizers
// through the finalize subresource, a PUT conditional on ns's
// resourceVersion (409 Conflict if ns is stale): what the
// namespace-controller role grants. The API server removes the
// namespace when the last one goes.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.finalizeNamespace).
func (d *namespacedResourcesDeleter) finalizeNamespace(ctx context.Context, ns *corev1.Namespace) (*corev1.Namespace, error) {
	remaining := make([]corev1.FinalizerName, 0, len(ns.Spec.Finalizers))
	for _, f := range ns.Spec.Finalizers {
		if f != d.finalizerToken && !slices.Contains(remaining, f) {
			remaining = append(remaining, f)
		}
	}
	// Sorted, as upstream's set, so every deleter writes the same list.
	slices.Sort(remaining)
	finalize := ns.DeepCopy()
	finalize.Spec.Finalizers = remaining
	out, err := d.namespaces.UpdateSubresource(ctx, finalize, "finalize", client.WriteOptions{})
	if err != nil {
		return nil, err
	}
	logging.FromContext(ctx).DebugContext(ctx, "namespace finalized", "namespace", ns.Name)
	return out, nil
}
