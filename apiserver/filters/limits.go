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
	// MaxInFlight caps concurrent requests; more get 429 with a
	// Retry-After. Defaults to 400, kube-apiserver's --max-requests-inflight.
	// Watches and log streams are long-running and do not count, as in
	// Kubernetes.
	MaxInFlight int
	// RequestTimeout bounds how long a request that is not long-running
	// may take to send its body: reads of the connection past it fail, so
	// a client that sends its headers and then trickles, or stops sending,
	// its body gets a 504 and frees its in-flight seat. It also ends the
	// request's context, as net/http cancels a request whose connection
	// fails. Defaults to 60s, kube-apiserver's --request-timeout.
	RequestTimeout time.Duration
}

// WithLimits enforces l: an oversized body is 413, too many concurrent
// requests are 429, a body not sent within the request timeout is 504
// (see Limits.RequestTimeout). Health checks never count against
// MaxInFlight, so a busy server still answers its probes.
func WithLimits(h http.Handler, l Limits) http.Handler {
	if l.MaxRequestBodyBytes <= 0 {
		l.MaxRequestBodyBytes = 3 << 20
	}
	if l.MaxInFlight <= 0 {
		l.MaxInFlight = 400
	}
	if l.RequestTimeout <= 0 {
		l.RequestTimeout = 60 * time.Second
	}
	inFlight := make(chan struct{}, l.MaxInFlight)
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
