// Package authn establishes who made a request: the authentication hop,
// the first check of the request path, since the API server must know
// that the requester is who they say they are before anything can decide
// what they may do.
//
// Authenticators come in two shapes: an Authenticator reads a request
// (X509 reads its client certificate), a TokenAuthenticator reads a
// bearer token (TokenFile, ServiceAccountTokens), and BearerToken makes
// the second the first. Union tries several; WithAnonymous and
// WithAnonymousPaths let requests without credentials in. A
// ServiceAccountSigner issues the tokens ServiceAccountTokens verifies.
//
// Upstream: k8s.io/apiserver/pkg/authentication.
package authn

import (
	"net/http"
	"slices"

	"github.com/minicp/minicp/apiserver/request"
)

// Authenticator decides who sent a request. ok=false with a nil error means
// "no credentials I understand"; a non-nil error means credentials were
// presented and are wrong. Implementations are safe for concurrent use.
type Authenticator interface {
	AuthenticateRequest(r *http.Request) (u *request.User, ok bool, err error)
}

// AuthenticatorFunc adapts a function to Authenticator.
type AuthenticatorFunc func(r *http.Request) (*request.User, bool, error)

// AuthenticateRequest calls f.
func (f AuthenticatorFunc) AuthenticateRequest(r *http.Request) (*request.User, bool, error) {
	return f(r)
}

// Union tries each authenticator in order and returns the first that
// recognises the request. A rejection (error) from one does not stop the
// others, as in Kubernetes; the errors are returned only if none succeeds.
type Union []Authenticator

// AuthenticateRequest implements Authenticator.
func (u Union) AuthenticateRequest(r *http.Request) (*request.User, bool, error) {
	var firstErr error
	for _, a := range u {
		user, ok, err := a.AuthenticateRequest(r)
		if ok {
			return user, true, nil
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return nil, false, firstErr
}

// AnonymousUser is who a request without credentials is, when anonymous
// access is enabled.
func AnonymousUser() *request.User {
	return &request.User{Name: request.AnonymousUser, Groups: []string{request.AllUnauthenticated}}
}

// WithAnonymous lets requests that carry no credentials in as
// system:anonymous. Requests with credentials that a fails to verify are
// still rejected: a wrong token is never treated as no token, as in
// kube-apiserver.
func WithAnonymous(a Authenticator) Authenticator {
	return AuthenticatorFunc(func(r *http.Request) (*request.User, bool, error) {
		u, ok, err := a.AuthenticateRequest(r)
		if ok || err != nil {
			return u, ok, err
		}
		return AnonymousUser(), true, nil
	})
}

// WithAnonymousPaths lets requests that carry no credentials in as
// system:anonymous on paths alone, as kube-apiserver's anonymous
// authenticator limited to conditions on paths: how the health and
// version endpoints answer load balancers and probes on a server that
// otherwise wants credentials. Everything else without credentials is
// 401.
//
// Upstream: k8s.io/apiserver/pkg/apis/apiserver (AnonymousAuthConfig
// Conditions).
func WithAnonymousPaths(a Authenticator, paths []string) Authenticator {
	return AuthenticatorFunc(func(r *http.Request) (*request.User, bool, error) {
		u, ok, err := a.AuthenticateRequest(r)
		if ok || err != nil || !slices.Contains(paths, r.URL.Path) {
			return u, ok, err
		}
		return AnonymousUser(), true, nil
	})
}
