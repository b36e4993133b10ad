package filters

import (
	"net/http"

	"github.com/minicp/minicp/apiserver/request"
)

// WithRequestInfo parses the path into a RequestInfo and puts it in the
// request's context for every later filter and the handler.
func WithRequestInfo(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := request.NewRequestInfo(r)
		h.ServeHTTP(w, r.WithContext(request.WithRequestInfo(r.Context(), info)))
	})
}
