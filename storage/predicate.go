package storage

import (
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Empty reports whether p selects every object: it has no label and no
// field requirement. Limit and Continue do not count; they page, they do
// not select.
//
// Upstream: k8s.io/apiserver/pkg/storage (SelectionPredicate.Empty).
func (p Predicate) Empty() bool {
	return (p.Label == nil || p.Label.Empty()) && (p.Field == nil || p.Field.Empty())
}

// Matches reports whether obj satisfies both selectors. Attributes come
// from p.GetAttrs, or DefaultAttrs when it is nil. Its error is GetAttrs'
// (an object of the wrong kind: a programmer error).
//
// Upstream: k8s.io/apiserver/pkg/storage (SelectionPredicate.Matches).
func (p Predicate) Matches(obj runtime.Object) (bool, error) {
	if p.Empty() {
		return true, nil
	}
	getAttrs := p.GetAttrs
	if getAttrs == nil {
		getAttrs = DefaultAttrs
	}
	ls, fs, err := getAttrs(obj)
	if err != nil {
		return false, err
	}
	if p.Label != nil && !p.Label.Matches(ls) {
		return false, nil
	}
	if p.Field != nil && !p.Field.Matches(fs) {
		return false, nil
	}
	return true, nil
}

// DefaultAttrs is the AttrFunc of a resource that declares no selectable
// fields: the object's labels, and its metadata.name and
// metadata.namespace. Resources that add fields (a pod's spec.nodeName)
// start from it.
//
// Upstream: k8s.io/apiserver/pkg/registry/generic (DefaultNamespaceScopedAttr).
func DefaultAttrs(obj runtime.Object) (labels.Set, fields.Set, error) {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil, nil, err
	}
	return labels.Set(meta.Labels), fields.Set{
		"metadata.name":      meta.Name,
		"metadata.namespace": meta.Namespace,
	}, nil
}
