// Package workqueue is the queue between a controller's informer handlers
// and its workers: handlers Add object keys, workers Get them, reconcile,
// and call Done. It sits after the informer on the watch path:
//
//	informer handler -> workqueue (dedup, delay, rate limit) -> worker -> reconcile
//
// Queue guarantees what makes level-triggered controllers simple:
//
//   - a key added many times before a worker takes it is processed once;
//   - a key is never processed by two workers at once;
//   - a key added while it is being processed is processed again after
//     Done, so no change is missed.
//
// DelayingQueue adds AddAfter (requeue after a delay, on the clock);
// RateLimitingQueue adds AddRateLimited with a RateLimiter: per-item
// exponential backoff and an overall token bucket. ShutDown stops handing
// out keys; ShutDownWithDrain also waits for the keys being processed.
//
// The queue has no context: Get blocks on a sync.Cond until a key or
// ShutDown arrives, so a worker loop is `for { key, quit := q.Get(); if
// quit { return } ... q.Done(key) }`, and the owner calls ShutDown when its
// ctx ends.
//
// The queue feeds the control loop: read the state (event-driven), change
// the world, update status, repeat.
//
// Upstream: k8s.io/client-go/util/workqueue.
package workqueue
