package filters

import (
	"bufio"
	"errors"
	"log/slog"
	"net"
	"net/http"

	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
)

// WithAudit writes one structured log line per request once it completes:
// who did what to which object, the response code and the latency. It sits
// after authentication so it knows the user; requests rejected by
// authentication are not audited, as in Kubernetes' default policy.
func WithAudit(h http.Handler, log *slog.Logger, clk clock.Clock) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := clk.Now()
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		h.ServeHTTP(rec, r)
		info, _ := request.RequestInfoFrom(r.Context())
		user, _ := request.UserFrom(r.Context())
		attrs := []any{"code", rec.code, "latency", clk.Since(start), "userAgent", r.UserAgent()}
		if user != nil {
			attrs = append(attrs, "user", user.Name)
		}
		if info != nil {
			attrs = append(attrs, "verb", info.Verb, "path", info.Path)
			if info.IsResourceRequest {
				attrs = append(attrs, "resource", info.Resource, "namespace", info.Namespace, "name", info.Name)
			}
		}
		log.Info("audit", attrs...)
	})
}

// statusRecorder remembers the response code. It forwards Flush and
// Hijack so watch streams still work through it.
type statusRecorder struct {
	http.ResponseWriter
	code        int
	wroteHeader bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wroteHeader {
		s.code, s.wroteHeader = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.wroteHeader = true
	return s.ResponseWriter.Write(b)
}

// Flush forwards to the underlying writer when it can flush.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack forwards to the underlying writer when it can hijack.
func (s *statusRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if hj, ok := s.ResponseWriter.(http.Hijacker); ok {
		return hj.Hijack()
	}
	return nil, nil, errors.New("response writer cannot hijack")
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
