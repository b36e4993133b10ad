package event

import metav1 "github.com/minicp/minicp/api/meta/v1"

// CreateEvent is an object that appeared: created, or found in the cache
// when the source started.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/event (CreateEvent).
type CreateEvent struct {
	Object metav1.Object
}

// UpdateEvent is an object that changed. ObjectOld and ObjectNew have the
// same resourceVersion for a periodic resync.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/event (UpdateEvent).
type UpdateEvent struct {
	ObjectOld metav1.Object
	ObjectNew metav1.Object
}

// DeleteEvent is an object that was deleted. DeleteStateUnknown is true
// when the informer learned of the delete by relisting: Object is then the
// last state it had, which may be stale.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/event (DeleteEvent).
type DeleteEvent struct {
	Object             metav1.Object
	DeleteStateUnknown bool
}

// GenericEvent is a change that did not come from an informer: something
// outside the cluster, delivered through a channel source.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/event (GenericEvent).
type GenericEvent struct {
	Object metav1.Object
}
