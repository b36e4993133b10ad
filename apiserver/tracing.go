package apiserver

import (
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/tracing"
)

// tracer is the API server's tracer; nil when the server traces nothing,
// which the tracing filters take as "pass through".
func (s *Server) tracer() trace.Tracer {
	if s.tracing == nil {
		return nil
	}
	return s.tracing.Tracer("apiserver")
}

// userAttributes names the user authentication found, for the authn hop.
func userAttributes(r *http.Request) []attribute.KeyValue {
	u, ok := request.UserFrom(r.Context())
	if !ok {
		return nil
	}
	return []attribute.KeyValue{tracing.KeyUser.String(u.Name)}
}
