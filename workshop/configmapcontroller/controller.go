package configmapcontroller

import (
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
)

// The keys and label of a ConfigMap this controller deploys.
const (
	// DeployLabel marks a ConfigMap to deploy; others are left alone.
	DeployLabel = "workshop.minicp.io/deploy"
	// ImageKey holds the container image, e.g. "nginx:1.27". Required.
	ImageKey = "image"
	// ReplicasKey holds the replica count as a decimal string. Defaults
	// to 1.
	ReplicasKey = "replicas"
	// AppLabel is the label of the Deployment's pods and its selector;
	// its value is the ConfigMap's name.
	AppLabel = "app"
)

// Reconciler makes the Deployment of a labelled ConfigMap match it. It
// reads and writes through the API server, never a cache, so each
// Reconcile sees the latest state.
type Reconciler struct {
	clientset *client.Clientset
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// NewReconciler returns a Reconciler over cs.
func NewReconciler(cs *client.Clientset) *Reconciler { return &Reconciler{clientset: cs} }

// Add adds the controller to mgr.
func Add(mgr *manager.Manager) error {
	cs, err := client.NewClientset(mgr.GetClient())
	if err != nil {
		return err
	}
	return NewReconciler(cs).SetupWithManager(mgr)
}
