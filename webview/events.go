package webview

import (
	"io"
	"net/http"
	"time"
)

// minEventInterval is the least time between two change events of one
// stream: a burst of changes (a Deployment's rollout writes dozens of
// objects in a few milliseconds) costs the page one refresh, and a
// person sees no lag.
const minEventInterval = 500 * time.Millisecond

// serveEvents serves GET /api/events, a stream of server-sent events: a
// "change" event at once, then one whenever an informer has delivered a
// change or a span has been recorded since the last, at most one per
// minEventInterval. The page asks the JSON endpoints again on each. It
// returns when the request's context ends: the page went away, or
// Start's ctx is done.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	for {
		// Taken before the event is sent, so a change while the page
		// reads is not missed.
		changed := s.changed.Wait()
		var spans <-chan struct{}
		if s.tracing != nil {
			spans = s.tracing.Recorder().Changed()
		}
		if _, err := io.WriteString(w, "event: change\ndata: {}\n\n"); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		pace := s.clock.NewTimer(minEventInterval)
		select {
		case <-ctx.Done():
			pace.Stop()
			return
		case <-pace.C():
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-spans:
		}
	}
}
