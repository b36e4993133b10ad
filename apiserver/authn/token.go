package authn

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/minicp/minicp/apiserver/request"
)

// TokenAuthenticator decides whose a bearer token is. ok=false with a nil
// error means "not a token I know the form of", so another authenticator
// may try; a non-nil error means the token is one of its kind and bad.
// Implementations are safe for concurrent use.
//
// Upstream: k8s.io/apiserver/pkg/authentication/authenticator (Token).
type TokenAuthenticator interface {
	AuthenticateToken(ctx context.Context, token string) (*TokenResponse, bool, error)
}

// TokenResponse is who a token belongs to and which of the audiences
// asked for (see WithAudiences) it is valid for.
type TokenResponse struct {
	User      *request.User
	Audiences []string
}

// ErrNoAudience is returned for a token valid for none of the audiences
// the request wants.
var ErrNoAudience = errors.New("token audiences are invalid for the target audiences")

type audiencesKey struct{}

// WithAudiences returns ctx asking token authenticators for a token
// valid for at least one of auds. Without it, a token authenticator
// wants the API server's own audiences.
func WithAudiences(ctx context.Context, auds []string) context.Context {
	return context.WithValue(ctx, audiencesKey{}, auds)
}

// AudiencesFrom returns the audiences WithAudiences put in ctx.
func AudiencesFrom(ctx context.Context) ([]string, bool) {
	auds, ok := ctx.Value(audiencesKey{}).([]string)
	return auds, ok
}

// intersect returns the members of a that are in b, in a's order.
func intersect(a, b []string) []string {
	var out []string
	for _, s := range a {
		if slices.Contains(b, s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// BearerToken authenticates requests by their "Authorization: Bearer"
// header with t. A request without one is not recognised.
//
// Upstream: k8s.io/apiserver/pkg/authentication/request/bearertoken.
func BearerToken(t TokenAuthenticator) Authenticator {
	return AuthenticatorFunc(func(r *http.Request) (*request.User, bool, error) {
		token, ok := bearer(r)
		if !ok {
			return nil, false, nil
		}
		resp, ok, err := t.AuthenticateToken(r.Context(), token)
		if !ok {
			if err == nil {
				// A bearer token nobody knows is wrong credentials, not
				// none: the request must not pass as anonymous.
				err = ErrInvalidToken
			}
			return nil, false, err
		}
		return resp.User, true, nil
	})
}

// bearer returns the token of the request's Authorization header.
func bearer(r *http.Request) (string, bool) {
	scheme, token, found := strings.Cut(r.Header.Get("Authorization"), " ")
	if !found || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// TokenUnion tries each token authenticator in order, as Union does
// with requests.
type TokenUnion []TokenAuthenticator

// AuthenticateToken implements TokenAuthenticator.
func (u TokenUnion) AuthenticateToken(ctx context.Context, token string) (*TokenResponse, bool, error) {
	var firstErr error
	for _, a := range u {
		resp, ok, err := a.AuthenticateToken(ctx, token)
		if ok {
			return resp, true, nil
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return nil, false, firstErr
}

// TokenAuthenticators returns the token authenticators inside a: a
// itself, or the members of a Union that are. A TokenReview asks them.
func TokenAuthenticators(a Authenticator) TokenUnion {
	switch a := a.(type) {
	case TokenAuthenticator:
		return TokenUnion{a}
	case Union:
		var out TokenUnion
		for _, m := range a {
			out = append(out, TokenAuthenticators(m)...)
		}
		return out
	}
	return nil
}
