// Package endpointslice is the EndpointSlice controller: for every
// Service with a selector it keeps discovery.k8s.io/v1 EndpointSlices
// listing the matching pods, at most 100 endpoints per slice, each with
// its address, readiness, node and pod. kube-proxy and cluster DNS read
// these slices; this controller is the only writer of the slices it
// labels as its own.
//
// Where it sits on the watch path:
//
//	Service, Pod, EndpointSlice informers -> handlers -> queue of Services
//	  -> Reconcile(service): pods from the cache -> endpoints grouped by
//	     resolved ports -> fit into the existing slices, then new ones
//	  -> create / update (only when changed) / delete slices
//
// What it owns, per Service:
//
//   - slices named <service>-<random> (generateName), owned by the
//     Service (so the garbage collector removes them with it), labelled
//     kubernetes.io/service-name=<service> and
//     endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io,
//     plus the Service's own labels;
//   - one endpoint per pod that has an IP and is not finished, terminating
//     pods included, with the conditions ready (serving and not
//     terminating, or always with publishNotReadyAddresses), serving (the
//     pod's Ready condition) and terminating (a deletion timestamp);
//   - the ports: each Service port with its targetPort resolved in the pod.
//     Pods that resolve a named port differently go to different slices,
//     since a slice's ports hold for all of its endpoints;
//   - a placeholder slice with no endpoints when the Service has none, so
//     readers can tell "no endpoints" from "not synced yet".
//
// Slices change as little as possible: an endpoint stays in the slice it
// is in, new endpoints fill slices with room before a new slice is made,
// and a slice is written only when its content changed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpointslice and
// k8s.io/endpointslice (reconciler.go).
package endpointslice
