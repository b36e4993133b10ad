package filters

import (
	"fmt"
	"net/http"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
	"github.com/minicp/minicp/clock"
)

// Limits bounds what one client can make the server hold.
type Limits struct {
	// MaxRequestBodyBytes caps a request body. Defaults to 3 MiB, the
	// kube-apiserver default: twice etcd's default 1.5 MiB value limit, so
	// every object etcd can store fits in a request with room for a patch.
	MaxRequestBodyBytes int64
	// MaxInFlight, when set, turns API Priority and Fairness off and caps
	// concurrent requests flatly instead: more get 429 with a
	// Retry-After, as kube-apiserver with
	// --enable-priority-and-fairness=false and --max-requests-inflight.
	// Watches and log streams are long-running and do not count, as in
	// Kubernetes.
	MaxInFlight int
	// ConcurrencyLimit is the number of seats API Priority and Fairness
	// shares among its priority levels (see apiserver/flowcontrol).
	// Defaults to 600, kube-apiserver's --max-requests-inflight plus
	// --max-mutating-requests-inflight.
	ConcurrencyLimit int
	// RequestTimeout bounds how long a request that is not long-running
	// may take to send its body: reads of the connection past it fail, so
	// a client that sends its headers and then trickles, or stops sending,
	// its body gets a 504 and frees its in-flight seat. It also ends the
	// request's context, as net/http cancels a request whose connection
	// fails. Defaults to 60s, kube-apiserver's --request-timeout.
	RequestTimeout time.Duration
}

// DefaultRequestTimeout is Limits.RequestTimeout's default,
// kube-apiserver's --request-timeout.
const DefaultRequestTimeout = 60 * time.Second

// WithLimits enforces l: an oversized body is 413, a body not sent
// within the request timeout is 504 (see Limits.RequestTimeout), and
// requests that are not long-running run when fc, API Priority and
// Fairness, dispatches them (see WithPriorityAndFairness), or under the
// flat MaxInFlight when that is set or fc is nil. Health checks never
// wait for a seat, so a busy server still answers its probes.
func WithLimits(h http.Handler, l Limits, fc FlowControl) http.Handler {
	if l.MaxRequestBodyBytes <= 0 {
		l.MaxRequestBodyBytes = 3 << 20
	}
	if l.RequestTimeout <= 0 {
		l.RequestTimeout = DefaultRequestTimeout
	}
	var limited http.Handler
	if l.MaxInFlight <= 0 && fc != nil {
		limited = WithPriorityAndFairness(h, fc)
	} else {
		limited = withMaxInFlight(h, l.MaxInFlight)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > l.MaxRequestBodyBytes {
			responsewriters.WriteError(w, r, apierrors.NewRequestEntityTooLarge(
				fmt.Sprintf("limit is %d", l.MaxRequestBodyBytes)))
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, l.MaxRequestBodyBytes)
		}
		info, _ := request.RequestInfoFrom(r.Context())
		if info != nil && isLongRunning(info) {
			h.ServeHTTP(w, r)
			return
		}
		// A connection deadline is wall-clock time, whatever clock the
		// server runs on. A handler with no connection of its own (an
		// in-process client's) cannot be stalled by a slow sender and
		// has no deadline to set: the error is ignored.
		_ = http.NewResponseController(w).SetReadDeadline(clock.Real.Now().Add(l.RequestTimeout))
		if info != nil && isHealthCheck(info) {
			h.ServeHTTP(w, r)
			return
		}
		limited.ServeHTTP(w, r)
	})
}

// withMaxInFlight caps the requests h serves at once at maxInFlight
// (400, kube-apiserver's --max-requests-inflight, when not positive);
// more get 429.
//
// Upstream: k8s.io/apiserver/pkg/server/filters (WithMaxInFlightLimit).
func withMaxInFlight(h http.Handler, maxInFlight int) http.Handler {
	if maxInFlight <= 0 {
		maxInFlight = 400
	}
	inFlight := make(chan struct{}, maxInFlight)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case inFlight <- struct{}{}:
			defer func() { <-inFlight }()
		default:
			// Retry after one second: long enough for most requests in
			// flight to finish, short enough that a client barely notices.
			responsewriters.WriteError(w, r, apierrors.NewTooManyRequests(
				"the server has received too many requests and has asked us to try again later", 1))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// isLongRunning reports requests that stay open for as long as the client
// wants: watches, log streams and the connections relayed to kubelets and
// pods (exec, attach, portforward, proxy). They do not count against
// MaxInFlight, as in kube-apiserver, or a few `kubectl logs -f` would
// starve everyone.
func isLongRunning(info *request.RequestInfo) bool {
	switch info.Subresource {
	case "log", "exec", "attach", "portforward", "proxy":
		return true
	}
	return info.Verb == "watch"
}

// isHealthCheck reports the probes of /healthz, /livez and /readyz:
// kube-apiserver exempts them from its concurrency limits (the "probes"
// flow schema), or a kubelet or load balancer would take an overloaded
// server for a dead one.
func isHealthCheck(info *request.RequestInfo) bool {
	if info.IsResourceRequest {
		return false
	}
	switch info.Path {
	case "/healthz", "/livez", "/readyz":
		return true
	}
	return false
}
