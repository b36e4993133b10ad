package runtime

import (
	"fmt"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// Object is any kind that can be sent and stored: it carries TypeMeta and
// can copy itself. Persisted kinds also satisfy metav1.Object, lists satisfy
// metav1.ListInterface.
type Object interface {
	GetTypeMeta() *metav1.TypeMeta
	DeepCopyObject() Object
}

// Accessor returns obj's metadata, or an error when obj is not a persisted
// kind (a list, a Status).
func Accessor(obj Object) (*metav1.ObjectMeta, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil, fmt.Errorf("%T has no ObjectMeta", obj)
	}
	return m.GetObjectMeta(), nil
}

// MustAccessor is Accessor for objects known to be persisted kinds, such as
// the ones a resource's NewFunc returns; anything else is a programmer error.
func MustAccessor(obj Object) *metav1.ObjectMeta {
	m, err := Accessor(obj)
	if err != nil {
		panic(err)
	}
	return m
}
