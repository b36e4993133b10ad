package watchcache

import (
	"time"

	"github.com/minicp/minicp/wait"
)

// relistBackoff is the reflector's relist backoff, Kubernetes' (client-go
// Reflector and the Cacher's own): "We used to make the call every 1sec
// (1 QPS), the goal here is to achieve ~98% traffic reduction when API
// server is not healthy. With these parameters, backoff will stop at
// [30,60) sec interval which is 0.22 QPS."
//
// Upstream: k8s.io/apimachinery/pkg/util/wait (NewExponentialBackoffManager
// with factor 2 and jitter 1.0).
var relistBackoff = wait.Backoff{
	// The first wait: long enough that a flapping etcd is not hammered,
	// short enough that one lost watch costs a client under a second of
	// waiting.
	Initial: 800 * time.Millisecond,
	Factor:  2,
	// Jitter 1.0 spreads the relists of many caches (every resource of
	// every API server) over [d, 2d) instead of letting them hit etcd at
	// once.
	Jitter: 1.0,
	// The wait before jitter stops growing at 30s.
	Cap: 30 * time.Second,
}

// relistBackoffReset: "If we don't backoff for 2min, assume API server is
// healthy and we reset the backoff." A watch that stayed up this long was
// healthy, and the next failure starts from the first wait again.
const relistBackoffReset = 2 * time.Minute

// relistDelay returns how long to wait before the next relist, given how
// long the last attempt ran before it failed, and advances b.
func relistDelay(b *wait.Backoff, ranFor time.Duration) time.Duration {
	if ranFor >= relistBackoffReset {
		b.Forget()
	}
	return b.Step()
}
