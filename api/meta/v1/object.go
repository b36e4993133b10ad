package v1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// Object is what every persisted kind satisfies by embedding TypeMeta and
// ObjectMeta: generic code (storage, admission, the registry) reaches the
// metadata through it without reflection.
type Object interface {
	runtime.Object
	GetObjectMeta() *ObjectMeta
}

// ListInterface is what every list kind satisfies by embedding TypeMeta and
// ListMeta.
type ListInterface interface {
	runtime.Object
	GetListMeta() *ListMeta
}

// Accessor returns obj's metadata, or an error when obj is not a persisted
// kind (a list, a Status).
//
// Upstream: k8s.io/apimachinery/pkg/api/meta (Accessor).
func Accessor(obj runtime.Object) (*ObjectMeta, error) {
	m, ok := obj.(Object)
	if !ok {
		return nil, fmt.Errorf("%T has no ObjectMeta", obj)
	}
	return m.GetObjectMeta(), nil
}

// MustAccessor is Accessor for objects known to be persisted kinds, such as
// the ones a resource's NewFunc returns; anything else is a programmer
// error.
func MustAccessor(obj runtime.Object) *ObjectMeta {
	m, err := Accessor(obj)
	if err != nil {
		panic(err)
	}
	return m
}

// ControllerRef returns the owner reference with controller=true, or nil:
// an object has at most one managing controller.
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	for i := range m.OwnerReferences {
		if c := m.OwnerReferences[i].Controller; c != nil && *c {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}
