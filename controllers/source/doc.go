// Package source is where a controller's events come from: an informer of
// the shared cache (Kind), or a channel fed from outside the cluster
// (Channel). A source calls an event handler for each change, and the
// handler puts Requests on the controller's queue:
//
//	Cache informer -> Kind ----\
//	                            >-> handler.EventHandler -> workqueue -> Reconciler
//	chan GenericEvent -> Channel/
//
// A controller starts each of its sources when it starts and waits for
// the SyncingSources to sync before its workers run, so the first
// reconciles see a complete cache.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/source.
package source
