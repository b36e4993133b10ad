package operator

import (
	"fmt"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
)

const (
	// Finalizer keeps a deleted Website in the API until the operator has
	// removed its published ConfigMap.
	Finalizer = "workshop.minicp.io/unpublish"
	// PublishNamespace is where the published ConfigMaps live, one per
	// Website, named PublishedName. It exists before the operator runs.
	PublishNamespace = "published"
	// MessageKey is the published ConfigMap's key holding the message.
	MessageKey = "message"
)

// PublishedName is the name of w's ConfigMap in PublishNamespace:
// "<namespace>.<name>", unique across namespaces.
func PublishedName(w *Website) string { return w.Namespace + "." + w.Name }

// Reconciler publishes Websites. It reads and writes through the API
// server, never a cache, so each Reconcile sees the latest state.
type Reconciler struct {
	websites  *client.Resource[*Website, *WebsiteList]
	clientset *client.Clientset
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// NewReconciler returns a Reconciler over cl, whose scheme holds the
// Website types (AddToScheme).
func NewReconciler(cl *client.Client) (*Reconciler, error) {
	websites, err := client.NewResource[*Website, *WebsiteList](cl, WebsitesGVR)
	if err != nil {
		return nil, fmt.Errorf("website operator: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return nil, fmt.Errorf("website operator: %w", err)
	}
	return &Reconciler{websites: websites, clientset: cs}, nil
}

// Add adds the Website controller to mgr, whose client's scheme holds the
// Website types. The published ConfigMaps live in another namespace, and
// an ownerReference cannot cross namespaces, so the controller watches
// Websites only.
func Add(mgr *manager.Manager) error {
	r, err := NewReconciler(mgr.GetClient())
	if err != nil {
		return err
	}
	return builder.ControllerManagedBy(mgr).For(&Website{}).Complete(r)
}
