package runtime

import "strings"

// GroupVersion is an API group and one of its versions; the core group is "".
type GroupVersion struct {
	Group   string
	Version string
}

// String is "v1" for the core group and "group/version" otherwise, the form
// apiVersion uses on the wire.
func (gv GroupVersion) String() string {
	if gv.Group == "" {
		return gv.Version
	}
	return gv.Group + "/" + gv.Version
}

// WithKind names a kind in this group/version.
func (gv GroupVersion) WithKind(kind string) GroupVersionKind {
	return GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: kind}
}

// WithResource names a resource in this group/version.
func (gv GroupVersion) WithResource(resource string) GroupVersionResource {
	return GroupVersionResource{Group: gv.Group, Version: gv.Version, Resource: resource}
}

// ParseGroupVersion parses an apiVersion such as "v1" or "apps/v1".
func ParseGroupVersion(s string) GroupVersion {
	if group, version, ok := strings.Cut(s, "/"); ok {
		return GroupVersion{Group: group, Version: version}
	}
	return GroupVersion{Version: s}
}

// GroupVersionKind identifies a kind, and through the Scheme a Go type.
type GroupVersionKind struct {
	Group   string
	Version string
	Kind    string
}

// GroupVersion drops the kind.
func (gvk GroupVersionKind) GroupVersion() GroupVersion {
	return GroupVersion{Group: gvk.Group, Version: gvk.Version}
}

func (gvk GroupVersionKind) String() string {
	return gvk.GroupVersion().String() + ", Kind=" + gvk.Kind
}

// GroupVersionResource identifies a resource, and so a set of HTTP paths.
type GroupVersionResource struct {
	Group    string
	Version  string
	Resource string
}

// GroupVersion drops the resource.
func (gvr GroupVersionResource) GroupVersion() GroupVersion {
	return GroupVersion{Group: gvr.Group, Version: gvr.Version}
}

// GroupResource is the resource without its version: the part of a GVR that
// storage keys and error messages use.
func (gvr GroupVersionResource) GroupResource() GroupResource {
	return GroupResource{Group: gvr.Group, Resource: gvr.Resource}
}

func (gvr GroupVersionResource) String() string {
	return gvr.GroupVersion().String() + ", Resource=" + gvr.Resource
}

// GroupResource is a resource in a group, e.g. "deployments.apps".
type GroupResource struct {
	Group    string
	Resource string
}

// String is "resource" for the core group and "resource.group" otherwise, as
// Kubernetes error messages spell it.
func (gr GroupResource) String() string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}
