package client

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
)

// DynamicResource is the client of one resource whose objects are
// *unstructured.Unstructured and lists *unstructured.UnstructuredList:
// what a program that has no Go types for a resource (a custom resource,
// or any resource for a generic tool) reads and writes.
//
// Upstream: k8s.io/client-go/dynamic (NamespaceableResourceInterface).
type DynamicResource = Resource[*unstructured.Unstructured, *unstructured.UnstructuredList]

// NewDynamicResource returns the client of gvr, any resource the server
// serves, built-in or custom, its objects unstructured whatever Go type
// c's scheme has for the kind. It is not scoped to a namespace.
//
// A resource c's scheme does not know yet is looked up through discovery
// (one request) and registered in the scheme with AddUnstructuredResource,
// so that what goes through the scheme (NewResource[metav1.Object,
// metav1.ListInterface], informers) serves it too. A resource the scheme
// knows costs no request. A resource the server does not serve is an
// error apierrors.IsNotFound recognizes.
//
// Upstream: k8s.io/client-go/dynamic (DynamicClient.Resource), which
// needs no discovery: its caller says whether to add a namespace, where
// minicp's Resource checks it against the resource's scope.
func NewDynamicResource(ctx context.Context, c *Client, gvr runtime.GroupVersionResource) (*DynamicResource, error) {
	info, ok := c.scheme.Resource(gvr)
	if !ok {
		infos, err := NewDiscoveryClient(c).ServerResourcesForGroupVersion(ctx, gvr.GroupVersion())
		if err != nil {
			return nil, fmt.Errorf("client: discover %s: %w", gvr, err)
		}
		i := indexOfResource(infos, gvr)
		if i < 0 {
			return nil, fmt.Errorf("client: %w", notServed(gvr))
		}
		info = infos[i]
		if err := AddUnstructuredResource(c.scheme, info); err != nil {
			return nil, fmt.Errorf("client: %w", err)
		}
	}
	gv := info.GVR.GroupVersion().String()
	return &DynamicResource{
		client: c,
		info:   info,
		newObj: func() *unstructured.Unstructured {
			return &unstructured.Unstructured{TypeMeta: metav1.TypeMeta{APIVersion: gv, Kind: info.Kind}}
		},
		newList: func() *unstructured.UnstructuredList {
			return &unstructured.UnstructuredList{TypeMeta: metav1.TypeMeta{APIVersion: gv, Kind: info.ListKind()}}
		},
	}, nil
}

// AddUnstructuredResource registers info in s, with
// *unstructured.Unstructured as the Go type of its kind and
// *unstructured.UnstructuredList of its list kind (runtime.Scheme.AddKind),
// so that the scheme decodes a resource found through discovery. A kind s
// knows already keeps its Go type: a program's own types for a custom
// resource win. A resource s has already is left as it is. Safe for
// concurrent use, as the Scheme is.
func AddUnstructuredResource(s *runtime.Scheme, info runtime.ResourceInfo) error {
	if _, ok := s.Resource(info.GVR); ok {
		return nil
	}
	if !s.Recognizes(info.GVK()) {
		s.AddKind(info.GVK(), &unstructured.Unstructured{})
	}
	if info.HasVerb("list") && !s.Recognizes(info.ListGVK()) {
		s.AddKind(info.ListGVK(), &unstructured.UnstructuredList{})
	}
	if err := s.AddResource(info); err != nil {
		return fmt.Errorf("register %s: %w", info.GVR, err)
	}
	return nil
}

// indexOfResource returns the index of gvr's resource in infos, or -1.
func indexOfResource(infos []runtime.ResourceInfo, gvr runtime.GroupVersionResource) int {
	for i, info := range infos {
		if info.GVR == gvr {
			return i
		}
	}
	return -1
}

// notServed is the NotFound of a resource missing from its group
// version's discovery document, worded as the server words a path it does
// not serve.
func notServed(gvr runtime.GroupVersionResource) *apierrors.StatusError {
	se := apierrors.NewNotFound(gvr.GroupResource(), "")
	se.ErrStatus.Message = fmt.Sprintf("the server could not find the requested resource %s", gvr)
	return se
}
