package handlers

import (
	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// bindNamespace makes a body's namespace agree with the path's: filled in
// when the body has none, 400 when they differ, cleared for cluster-scoped
// kinds.
func (s *Scope) bindNamespace(meta *metav1.ObjectMeta, pathNamespace string) error {
	if !s.Store.Resource.Namespaced {
		meta.Namespace = ""
		return nil
	}
	if meta.Namespace == "" {
		meta.Namespace = pathNamespace
	}
	if meta.Namespace != pathNamespace {
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}
