package filters

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// WithPanicRecovery turns a panic in any inner handler into a 500
// InternalError Status and an Error log with the stack, so no panic reaches
// a client or takes the server down. http.ErrAbortHandler is re-raised:
// it is how a handler deliberately aborts a response.
func WithPanicRecovery(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			rec := recover()
			if rec == nil {
				return
			}
			if rec == http.ErrAbortHandler {
				panic(rec)
			}
			log.Error("panic serving request", "method", r.Method, "path", r.URL.Path,
				"err", fmt.Sprint(rec), "stack", string(debug.Stack()))
			responsewriters.WriteError(w, r, apierrors.NewInternalError(fmt.Errorf("panic: %v", rec)))
		}()
		h.ServeHTTP(w, r)
	})
}
