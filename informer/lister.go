package informer

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Lister reads typed objects from an informer's Indexer: the cache a
// controller reads instead of the API server. T is the kind's pointer type
// (*corev1.Pod). The objects are shared with the informer and its other
// readers: never modify them; DeepCopy first. Safe for concurrent use.
//
// Upstream: k8s.io/client-go/listers (ResourceIndexer, the generic base of
// every typed lister).
type Lister[T metav1.Object] struct {
	indexer  *Indexer
	resource runtime.GroupResource
}

// NewLister returns a Lister over indexer, whose objects must be T;
// resource names them in NotFound errors.
func NewLister[T metav1.Object](indexer *Indexer, resource runtime.GroupResource) *Lister[T] {
	return &Lister[T]{indexer: indexer, resource: resource}
}

// List returns the objects whose labels match selector (nil matches
// everything), in no particular order.
func (l *Lister[T]) List(selector labels.Selector) ([]T, error) {
	return filter[T](l.indexer.List(), selector)
}

// Get returns the object ns/name (ns "" for a cluster-scoped object), or a
// NotFound StatusError (apierrors.IsNotFound).
func (l *Lister[T]) Get(ns, name string) (T, error) {
	key := name
	if ns != "" {
		key = ns + "/" + name
	}
	var zero T
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, apierrors.NewNotFound(l.resource, name)
	}
	t, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("informer: lister of %s holds a %T", l.resource, obj)
	}
	return t, nil
}

// ByNamespace returns a Lister of namespace ns only.
func (l *Lister[T]) ByNamespace(ns string) *NamespaceLister[T] {
	return &NamespaceLister[T]{lister: l, namespace: ns}
}

// NamespaceLister is a Lister of one namespace, served by NamespaceIndex.
type NamespaceLister[T metav1.Object] struct {
	lister    *Lister[T]
	namespace string
}

// List returns the namespace's objects whose labels match selector (nil
// matches everything).
func (n *NamespaceLister[T]) List(selector labels.Selector) ([]T, error) {
	objs, err := n.lister.indexer.ByIndex(NamespaceIndex, n.namespace)
	if err != nil {
		return nil, err
	}
	return filter[T](objs, selector)
}

// Get returns the namespace's object name, or a NotFound StatusError.
func (n *NamespaceLister[T]) Get(name string) (T, error) { return n.lister.Get(n.namespace, name) }

// filter returns the objects of objs that match selector, as T.
func filter[T metav1.Object](objs []runtime.Object, selector labels.Selector) ([]T, error) {
	out := make([]T, 0, len(objs))
	for _, obj := range objs {
		t, ok := obj.(T)
		if !ok {
			return nil, fmt.Errorf("informer: lister holds a %T, not a %T", obj, *new(T))
		}
		if selector == nil || selector.Matches(labels.Set(t.GetObjectMeta().Labels)) {
			out = append(out, t)
		}
	}
	return out, nil
}
