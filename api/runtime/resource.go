package runtime

import (
	"errors"
	"slices"
)

// ResourceInfo is everything the API server needs to route, serve and
// advertise one resource. Routing and discovery both read it.
type ResourceInfo struct {
	GVR  GroupVersionResource
	Kind string
	// SingularName is the lowercase singular, "pod". Defaults to the kind in
	// lowercase.
	SingularName string
	Namespaced   bool
	// Verbs are the verbs discovery advertises and the router accepts:
	// create, get, list, watch, update, patch, delete, deletecollection.
	Verbs      []string
	ShortNames []string
	Categories []string
	// Subresources are the names after the object's path: "status",
	// "binding", "log", "scale".
	Subresources []string
	// ListKindName is the kind of the resource's list. Defaults to the
	// kind followed by "List"; a CRD may name another.
	ListKindName string
}

// AllVerbs are the verbs of an ordinary read-write resource.
var AllVerbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

// ListKind is the kind of the resource's list, "PodList".
func (r ResourceInfo) ListKind() string {
	if r.ListKindName != "" {
		return r.ListKindName
	}
	return r.Kind + "List"
}

// GVK is the resource's kind in its group/version.
func (r ResourceInfo) GVK() GroupVersionKind { return r.GVR.GroupVersion().WithKind(r.Kind) }

// ListGVK is the resource's list kind in its group/version.
func (r ResourceInfo) ListGVK() GroupVersionKind {
	return r.GVR.GroupVersion().WithKind(r.ListKind())
}

// HasVerb reports whether the resource serves verb.
func (r ResourceInfo) HasVerb(verb string) bool { return slices.Contains(r.Verbs, verb) }

// HasSubresource reports whether the resource serves the subresource.
func (r ResourceInfo) HasSubresource(sub string) bool { return slices.Contains(r.Subresources, sub) }

func (r ResourceInfo) validate() error {
	switch {
	case r.GVR.Resource == "" || r.GVR.Version == "":
		return errors.New("resource: GVR needs a resource and a version")
	case r.Kind == "":
		return errors.New("resource: Kind is required")
	}
	return nil
}
