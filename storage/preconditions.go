package storage

import (
	"fmt"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Check returns ErrConflict when obj, the object stored under key, does not
// have the UID or resourceVersion p demands. A nil p always holds. The
// details read as Kubernetes writes them, since clients show them to people.
//
// Upstream: k8s.io/apiserver/pkg/storage (Preconditions.Check).
func (p *Preconditions) Check(key string, obj runtime.Object) error {
	if p == nil {
		return nil
	}
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return fmt.Errorf("check preconditions of %s: %w", key, err)
	}
	if p.UID != nil && *p.UID != meta.UID {
		return NewConflictError(key, fmt.Sprintf(
			"Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, meta.UID))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != meta.ResourceVersion {
		return NewConflictError(key, fmt.Sprintf(
			"Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v",
			*p.ResourceVersion, meta.ResourceVersion))
	}
	return nil
}
