package request

import (
	"context"
	"maps"
	"sync"
)

// AuditAnnotations are the annotations the handling of one request adds
// to its audit Event, such as the policy PodSecurity enforced. The audit
// filter creates them and copies them into the Event once the request
// completes. It is safe for concurrent use.
//
// Upstream: k8s.io/apiserver/pkg/audit (AddAuditAnnotation).
type AuditAnnotations struct {
	// mu guards m.
	mu sync.Mutex
	m  map[string]string
}

type auditAnnotationsKey struct{}

// WithAuditAnnotations returns ctx carrying a new, empty set of
// annotations, and the set.
func WithAuditAnnotations(ctx context.Context) (context.Context, *AuditAnnotations) {
	a := &AuditAnnotations{}
	return context.WithValue(ctx, auditAnnotationsKey{}, a), a
}

// AddAuditAnnotation records key=value for the request's audit Event.
// The first value of a key wins, as upstream keeps it; without a set in
// ctx (an unaudited request) it does nothing.
func AddAuditAnnotation(ctx context.Context, key, value string) {
	a, ok := ctx.Value(auditAnnotationsKey{}).(*AuditAnnotations)
	if !ok {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.m[key]; ok {
		return
	}
	if a.m == nil {
		a.m = map[string]string{}
	}
	a.m[key] = value
}

// Map returns a copy of the annotations, nil when there are none.
func (a *AuditAnnotations) Map() map[string]string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.m) == 0 {
		return nil
	}
	return maps.Clone(a.m)
}
