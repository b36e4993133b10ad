package fieldmanager

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
)

// versionCheckManager rejects an applied configuration of another kind
// or version than the resource's (400).
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (versionCheckManager).
type versionCheckManager struct {
	next Manager
	gvk  runtime.GroupVersionKind
}

// Update implements Manager: the handlers check an update's kind.
func (f *versionCheckManager) Update(live, obj map[string]any, managed *Managed, manager string) (map[string]any, *Managed, error) {
	return f.next.Update(live, obj, managed, manager)
}

// Apply implements Manager.
func (f *versionCheckManager) Apply(live, applied map[string]any, managed *Managed, manager string, force bool) (map[string]any, *Managed, error) {
	if gvk := objectGVK(applied); gvk != f.gvk {
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("invalid object type: %s", gvkString(gvk)))
	}
	return f.next.Apply(live, applied, managed, manager, force)
}

// gvkString prints a kind as upstream's schema.GroupVersionKind does:
// "apps/v1, Kind=Deployment", "/v1, Kind=Pod" for the core group.
func gvkString(gvk runtime.GroupVersionKind) string {
	return gvk.Group + "/" + gvk.Version + ", Kind=" + gvk.Kind
}
