// Package event defines the changes a controller's sources report to its
// event handlers: an object was created, updated or deleted (from an
// informer), or a generic event came from outside the cluster (a channel).
// Handlers turn them into reconcile.Requests:
//
//	informer or channel -> source -> event -> handler.EventHandler -> workqueue
//
// Events carry the informer's objects, which are shared with its cache and
// its other handlers: never modify them.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/event.
package event
