// Package authz decides whether an authenticated user may do what a
// request asks: the authorization hop of the request path, which comes
// after authentication (who is asking) and answers only whether that user
// has permission; whether the request itself is acceptable is admission's
// question.
//
// Upstream: k8s.io/apiserver/pkg/authorization/authorizer.
package authz

import (
	"context"
	"slices"

	"github.com/minicp/minicp/apiserver/request"
)

// Attributes is what an authorizer decides on: who, which verb, on what.
type Attributes struct {
	User *request.User
	*request.RequestInfo
}

// Decision is an authorizer's answer.
type Decision int

// The decisions. NoOpinion lets the next authorizer in a chain decide; a
// chain where nobody allows denies.
const (
	DecisionNoOpinion Decision = iota
	DecisionAllow
	DecisionDeny
)

// Authorizer decides on one request. reason explains a denial to the user.
// Implementations are safe for concurrent use.
type Authorizer interface {
	Authorize(ctx context.Context, a Attributes) (d Decision, reason string, err error)
}

// AuthorizerFunc adapts a function to Authorizer.
type AuthorizerFunc func(ctx context.Context, a Attributes) (Decision, string, error)

// Authorize calls f.
func (f AuthorizerFunc) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	return f(ctx, a)
}

// publicPaths are readable by anyone, as the system:public-info-viewer role
// grants in Kubernetes.
var publicPaths = []string{"/healthz", "/livez", "/readyz", "/version", "/version/"}

// PublicPaths returns the paths AllowAuthenticated lets anyone get: what
// a rules review lists for an anonymous user.
func PublicPaths() []string { return slices.Clone(publicPaths) }

// AllowAuthenticated allows every authenticated user everything, and
// anonymous users only the public health and version paths. It is the
// default authorizer: minicp is a development cluster, not a multi-tenant
// one, but an anonymous caller still cannot change state.
var AllowAuthenticated = AuthorizerFunc(func(_ context.Context, a Attributes) (Decision, string, error) {
	if a.User != nil && slices.Contains(a.User.Groups, request.AllAuthenticated) {
		return DecisionAllow, "", nil
	}
	if a.RequestInfo != nil && !a.IsResourceRequest && slices.Contains(publicPaths, a.Path) {
		return DecisionAllow, "", nil
	}
	return DecisionDeny, "anonymous access is limited to health and version endpoints", nil
})
