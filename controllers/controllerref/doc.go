// Package controllerref decides which objects a controller owns: the
// objects whose ownerReference with controller=true names it. Claim
// adopts the orphans its selector matches and releases the owned objects
// it no longer matches, by patching their ownerReferences, so two
// controllers never fight over one object and a controller never loses
// track of one.
//
// Upstream: k8s.io/kubernetes/pkg/controller (BaseControllerRefManager,
// PodControllerRefManager, ReplicaSetControllerRefManager in
// controller_ref_manager.go).
package controllerref
