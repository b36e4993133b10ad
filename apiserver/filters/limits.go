package filters

import (
	"fmt"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
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
}

// WithLimits enforces l: an oversized body is 413, too many concurrent
// requests are 429.
func WithLimits(h http.Handler, l Limits) http.Handler {
	if l.MaxRequestBodyBytes <= 0 {
		l.MaxRequestBodyBytes = 3 << 20
	}
	if l.MaxInFlight <= 0 {
		l.MaxInFlight = 400
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
		if info, ok := request.RequestInfoFrom(r.Context()); ok && isLongRunning(info) {
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
