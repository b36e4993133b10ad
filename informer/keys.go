package informer

import (
	"fmt"
	"strings"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// KeyFunc returns the key an object is stored under.
type KeyFunc func(obj any) (string, error)

// MetaNamespaceKeyFunc is the key of every informer: "namespace/name", or
// "name" for cluster-scoped objects. It also accepts a
// DeletedFinalStateUnknown (giving its Key) and a plain string key.
//
// Upstream: k8s.io/client-go/tools/cache (MetaNamespaceKeyFunc,
// DeletionHandlingMetaNamespaceKeyFunc).
func MetaNamespaceKeyFunc(obj any) (string, error) {
	switch o := obj.(type) {
	case string:
		return o, nil
	case DeletedFinalStateUnknown:
		return o.Key, nil
	case runtime.Object:
		meta, err := metav1.Accessor(o)
		if err != nil {
			return "", fmt.Errorf("informer: object has no meta: %w", err)
		}
		if meta.Namespace == "" {
			return meta.Name, nil
		}
		return meta.Namespace + "/" + meta.Name, nil
	}
	return "", fmt.Errorf("informer: cannot compute a key for %T", obj)
}

// SplitMetaNamespaceKey splits a MetaNamespaceKeyFunc key into its
// namespace ("" for cluster-scoped objects) and name.
//
// Upstream: k8s.io/client-go/tools/cache (SplitMetaNamespaceKey).
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	parts := strings.Split(key, "/")
	switch len(parts) {
	case 1:
		return "", parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	}
	return "", "", fmt.Errorf("informer: unexpected key format: %q", key)
}

// DeletedFinalStateUnknown is what a delete notification carries when the
// informer learned of the delete by relisting rather than from a watch
// event: the object was gone from the new list, so its final state is
// unknown and Obj is the last state the informer had. Handlers' OnDelete
// must accept it as well as the object itself.
//
// Upstream: k8s.io/client-go/tools/cache (DeletedFinalStateUnknown).
type DeletedFinalStateUnknown struct {
	Key string
	Obj runtime.Object
}
