package controllerref

import (
	"context"

	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
)

// For returns the RefManager of controller, of kind gvk, over the objects
// selector picks: adoption rereads controller through owners, and claims
// patch through dependents. Both clients are scoped to the controller's
// namespace here.
//
// Upstream: k8s.io/kubernetes/pkg/controller (NewPodControllerRefManager,
// NewReplicaSetControllerRefManager), one function for every kind.
func For[O, D metav1.Object, OL, DL metav1.ListInterface](controller O, gvk runtime.GroupVersionKind, selector labels.Selector,
	owners *client.Resource[O, OL], dependents *client.Resource[D, DL]) *RefManager {
	meta := controller.GetObjectMeta()
	owners, dependents = owners.Namespace(meta.Namespace), dependents.Namespace(meta.Namespace)
	return &RefManager{
		Controller:     meta,
		ControllerKind: gvk,
		Selector:       selector,
		CanAdopt: RecheckDeletionTimestamp(meta, func(ctx context.Context) (*metav1.ObjectMeta, error) {
			fresh, err := owners.Get(ctx, meta.Name, client.GetOptions{})
			if err != nil {
				return nil, err
			}
			return fresh.GetObjectMeta(), nil
		}),
		Patch: func(ctx context.Context, name string, patch []byte) error {
			_, err := dependents.Patch(ctx, name, client.StrategicMergePatchType, patch, client.WriteOptions{})
			return err
		},
	}
}

// Claim is m.Claim over objects of one Go type, such as []*corev1.Pod.
func Claim[T metav1.Object](ctx context.Context, m *RefManager, objs []T) ([]T, error) {
	in := make([]metav1.Object, len(objs))
	for i, o := range objs {
		in[i] = o
	}
	claimed, err := m.Claim(ctx, in)
	out := make([]T, 0, len(claimed))
	for _, o := range claimed {
		out = append(out, o.(T))
	}
	return out, err
}
