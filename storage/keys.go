package storage

import (
	"errors"
	"fmt"
	"strings"

	"github.com/minicp/minicp/api/runtime"
)

// Key layout: an object's key is
//
//	<resource prefix>/<namespace>/<name>   namespaced ("/pods/default/web")
//	<resource prefix>/<name>               cluster-scoped ("/nodes/n1")
//
// and a Store puts its own prefix ("/registry") in front. The resource
// prefix is the caller's choice; ResourcePrefix gives the usual one. Listing
// a namespace lists the prefix NamespaceRootKey returns; listing every
// namespace lists the resource prefix itself.

// KeyFunc returns the key of the object called name in namespace ns (""
// for cluster-scoped resources). Its error wraps ErrInvalidKey.
type KeyFunc func(ns, name string) (string, error)

// NewKeyFunc returns the KeyFunc of a resource whose keys start with
// resourcePrefix: NamespaceKey if it is namespaced, ClusterKey otherwise.
//
// Upstream: k8s.io/apiserver/pkg/registry/generic/registry (NamespaceKeyFunc, NoNamespaceKeyFunc).
func NewKeyFunc(resourcePrefix string, namespaced bool) KeyFunc {
	if namespaced {
		return func(ns, name string) (string, error) { return NamespaceKey(resourcePrefix, ns, name) }
	}
	return func(_, name string) (string, error) { return ClusterKey(resourcePrefix, name) }
}

// ResourcePrefix returns "/" + gr.String(): "/pods" for the core group,
// "/deployments.apps" otherwise. Qualifying by group keeps two groups'
// resources of one name apart (two CRDs both called "widgets"); Kubernetes
// itself keys built-in groups without it ("/registry/deployments"), which
// callers may copy by passing their own prefix instead.
func ResourcePrefix(gr runtime.GroupResource) string {
	return "/" + gr.String()
}

// NamespaceKey returns resourcePrefix + "/" + ns + "/" + name. ns and name
// must be valid path segments: not empty, ".", "..", and
// without "/" or "%".
func NamespaceKey(resourcePrefix, ns, name string) (string, error) {
	if ns == "" {
		return "", NewInvalidKeyError(resourcePrefix, "namespace is required for a namespaced resource")
	}
	if err := validatePathSegment(ns); err != nil {
		return "", NewInvalidKeyError(resourcePrefix+"/"+ns, fmt.Sprintf("namespace %q: %v", ns, err))
	}
	if err := validatePathSegment(name); err != nil {
		return "", NewInvalidKeyError(resourcePrefix+"/"+ns, fmt.Sprintf("name %q: %v", name, err))
	}
	return resourcePrefix + "/" + ns + "/" + name, nil
}

// ClusterKey returns resourcePrefix + "/" + name for a cluster-scoped
// object. name must be a valid path segment, as for
// NamespaceKey.
func ClusterKey(resourcePrefix, name string) (string, error) {
	if err := validatePathSegment(name); err != nil {
		return "", NewInvalidKeyError(resourcePrefix, fmt.Sprintf("name %q: %v", name, err))
	}
	return resourcePrefix + "/" + name, nil
}

// NamespaceRootKey returns the key to list recursively for the objects of
// namespace ns, or for every namespace when ns is "".
func NamespaceRootKey(resourcePrefix, ns string) string {
	if ns == "" {
		return resourcePrefix
	}
	return resourcePrefix + "/" + ns
}

// validatePathSegment rejects names that cannot be one segment of a key or
// a URL path: empty, ".", "..", or holding "/" or "%".
//
// Upstream: k8s.io/apimachinery/pkg/api/validation/path (IsValidPathSegmentName).
func validatePathSegment(name string) error {
	switch {
	case name == "":
		return errors.New("must not be empty")
	case name == "." || name == "..":
		return fmt.Errorf("may not be %q", name)
	case strings.ContainsAny(name, "/%"):
		return errors.New("may not contain '/' or '%'")
	}
	return nil
}
