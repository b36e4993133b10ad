// Package informer is the client side of list-watch: how controllers, the
// scheduler, kubelets and proxies keep an up-to-date, indexed, in-memory
// copy of the cluster and react to its changes. It sits at the end of the
// watch path:
//
//	etcd -> API server -> client.Resource.Watch -> Reflector -> DeltaFIFO
//	     -> SharedInformer (Indexer, then each handler's listener) -> handler
//
// It owns:
//
//   - Reflector: LIST, then WATCH from the list's resourceVersion; watch
//     again from the last resourceVersion seen when a watch ends; list
//     again on 410 Gone; bookmarks; backoff with jitter on errors;
//   - DeltaFIFO: the queue of per-object changes between the Reflector and
//     the informer, with Replaced/Sync deltas and DeletedFinalStateUnknown
//     tombstones for objects that vanished while the watch was down;
//   - Indexer: a thread-safe store with a namespace index and custom index
//     functions; Lister[T]: typed, read-only access to it;
//   - SharedInformer: one Reflector per resource for any number of
//     handlers, each with its own buffer and resync period;
//     SharedInformerFactory: one SharedInformer per resource per program;
//   - workqueue (informer/workqueue): the rate-limited queue of keys
//     controllers process.
//
// Why list-watch: Kubernetes has no message queue; components are
// level-triggered, and list-watch is the only messaging between them.
// What controllers need from it: event-driven reads of the desired state,
// and a periodic resync that re-delivers everything so the cached state
// and the world do not drift apart.
//
// Upstream: k8s.io/client-go/tools/cache, k8s.io/client-go/informers,
// k8s.io/client-go/listers.
package informer
