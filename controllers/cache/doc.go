// Package cache is the manager's shared informer cache: one informer per
// resource for every controller of a manager, so a program has one watch
// and one in-memory copy per resource however many controllers read it.
// It sits at the end of the watch path, before the handlers:
//
//	API server -> Reflector -> SharedInformer (Indexer) -> Cache -> sources, listers
//
// It owns the informer.SharedInformerFactory and finds an object's
// resource through the Scheme: GetInformer(&corev1.Pod{}) is the informer
// of pods. ListerFor[T] gives typed, read-only access to the cached
// objects, which is what a Reconciler reads instead of the API server.
//
// Controllers read a cache rather than the API server because it is kept
// in step by watches, is cheap to read, and is resynced periodically so
// the cached state and the world do not drift apart.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/cache.
package cache
