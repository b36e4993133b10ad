// Package wait holds minicp's time-and-wake-up primitives, each written
// once and used by every component that retries, sleeps until a deadline
// or wakes waiters:
//
//   - Backoff: an exponential, jittered, capped and resettable delay,
//     measured on a clock.Clock. Reflectors, the watch cache, the
//     workqueue's rate limiter, the scheduler's pod backoff, the Job
//     controller, the kubelet's CrashLoopBackOff and
//     client.RetryOnConflict all compute their delays with it; each call
//     site states its constants and their reasons.
//   - OnError: the one retry loop, bounded by a Backoff's Steps.
//     client.RetryOnConflict is OnError on 409 Conflict; the API server's
//     own retries (eviction, quota charging, generated names) and the
//     kubelet's and proxy's status writes call it too.
//   - DeadlineQueue: items due at a time, earliest first, served by one
//     clock timer. It arms that timer in the call that adds the item, at
//     the item's own time, so a test that adds and then steps a fake
//     clock always fires it.
//   - Broadcast: wakes every waiter at once by closing and replacing a
//     channel, so waiters can also select on their ctx.
//   - Idler and WaitIdle: the quiescence barrier. Controllers, the
//     scheduler, the kubelets and the controller-manager are Idlers, and
//     WaitIdle returns once all of them are idle at the same time, which is
//     how tests wait for a cluster to settle instead of sleeping.
//
// The package is a leaf: it imports only the standard library and clock,
// so every component (storage and watchcache, the API server, the client,
// informers, controllers, scheduler, kubelet, proxy) may import it; only
// api, clock and logging may not.
//
// Upstream: k8s.io/apimachinery/pkg/util/wait (Backoff),
// k8s.io/client-go/util/retry (OnError), k8s.io/client-go/util/workqueue
// (the delaying queue's waiting heap).
package wait
