package webview

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
)

// serveWatchCache serves GET /api/watchcache: the API server's
// /debug/watchcache (each resource's window: capacity, the oldest
// resourceVersion a watch may start from, the oldest and newest events,
// the watchers), read with the web view's credentials and passed on.
func (s *Server) serveWatchCache(w http.ResponseWriter, r *http.Request) {
	body, err := s.client.GetRaw(r.Context(), "/debug/watchcache", nil)
	if err != nil {
		var se *apierrors.StatusError
		if !errors.As(err, &se) {
			se = apierrors.NewServiceUnavailable("the API server did not answer: " + err.Error())
		}
		writeError(w, se)
		return
	}
	if !json.Valid(body) {
		writeError(w, apierrors.NewInternalError(errors.New("the API server's /debug/watchcache is not JSON")))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(body)
}
