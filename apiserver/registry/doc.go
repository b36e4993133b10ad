// Package registry turns HTTP verbs into storage calls for one resource: a
// Store applies the resource's Strategy (server-set fields, validation,
// which fields a status write may change), runs validating admission at the
// right moment, and is the only place that translates storage errors into
// Status errors.
//
// For a create, the route's POST handler decodes the body and calls the
// resource's Store, which validates the object and saves it to etcd
// through storage.
//
// Beyond the Strategy, a kind may hold something outside its objects (a
// Service's cluster IP: AllocatingStrategy), and a resource may have a
// scale subresource (ScaleStore, serving autoscaling/v1 Scales through the
// resource's Store).
//
// Upstream: k8s.io/apiserver/pkg/registry/generic/registry (Store) and
// k8s.io/apiserver/pkg/registry/rest (strategies).
package registry
