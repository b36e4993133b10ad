package filters

import (
	"bufio"
	"errors"
	"net"
	"net/http"

	"github.com/google/uuid"

	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/audit"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
)

// AuditIDHeader carries a request's audit ID: a client may send one, and
// every response says which was used, so a request can be found in the
// audit log.
const AuditIDHeader = "Audit-Id"

// WithAudit hands sink one audit.k8s.io/v1 Event per request once it
// completes: who did what to which object, the response code and the
// timestamps. It sits after authentication so it knows the user; requests
// rejected by authentication are not audited, as in Kubernetes' default
// policy. The response carries the Event's ID in the Audit-Id header.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/filters (WithAudit,
// WithAuditInit).
func WithAudit(h http.Handler, sink audit.Sink, clk clock.Clock) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received := clk.Now()
		auditID := r.Header.Get(AuditIDHeader)
		if auditID == "" {
			auditID = uuid.NewString()
		}
		w.Header().Set(AuditIDHeader, auditID)
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		// What the request's handling adds (admission plugins' notes)
		// goes into the Event.
		ctx, annotations := request.WithAuditAnnotations(r.Context())
		h.ServeHTTP(rec, r.WithContext(ctx))

		ev := &audit.Event{
			TypeMeta:                 metav1.TypeMeta{Kind: "Event", APIVersion: audit.APIVersion},
			Level:                    audit.LevelMetadata,
			AuditID:                  auditID,
			Stage:                    audit.StageResponseComplete,
			RequestURI:               r.URL.RequestURI(),
			UserAgent:                r.UserAgent(),
			ResponseStatus:           &metav1.Status{Code: int32(rec.code)},
			RequestReceivedTimestamp: metav1.NewMicroTime(received),
			StageTimestamp:           metav1.NewMicroTime(clk.Now()),
			Annotations:              annotations.Map(),
		}
		if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			ev.SourceIPs = []string{host}
		}
		if user, ok := request.UserFrom(r.Context()); ok && user != nil {
			ev.User = authenticationv1.UserInfo{Username: user.Name, UID: user.UID, Groups: user.Groups}
		}
		if info, ok := request.RequestInfoFrom(r.Context()); ok {
			ev.Verb = info.Verb
			if info.IsResourceRequest {
				ev.ObjectRef = &audit.ObjectReference{
					Resource: info.Resource, Namespace: info.Namespace, Name: info.Name,
					APIGroup: info.APIGroup, APIVersion: info.APIVersion, Subresource: info.Subresource,
				}
			}
		}
		sink.ProcessEvents(ev)
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
