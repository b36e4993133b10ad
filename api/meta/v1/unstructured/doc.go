// Package unstructured holds Unstructured and UnstructuredList: objects of
// kinds minicp has no Go type for, such as the custom resources a
// CustomResourceDefinition installs at run time. The API server stores,
// watches and serves them like any built-in kind; clients, informers and
// the garbage collector read them without knowing their schema.
//
// Unlike upstream's Unstructured, which is one map, the metadata here is a
// typed metav1.ObjectMeta and only the other top-level fields (spec,
// status, data, ...) are a map: storage, the watch cache, admission and
// the registry reach every object's metadata the same way, through
// metav1.Accessor.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.
package unstructured
