// Package expectations remembers, per controller object, the creations
// and deletions a controller has asked for and not yet seen through its
// informers. A controller that acted a moment ago must not act again on a
// cache that does not show its own writes yet: a ReplicaSet that created
// two pods would otherwise create two more on its next sync, before the
// watch delivers the first two. Until the expectations of a key are
// satisfied (every expected event observed) or expire, the controller
// syncs that key without creating or deleting anything.
//
// Upstream: k8s.io/kubernetes/pkg/controller (ControllerExpectations,
// UIDTrackingControllerExpectations in controller_utils.go).
package expectations
