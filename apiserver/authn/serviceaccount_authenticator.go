package authn

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
)

// ServiceAccountGetter looks up the objects a service account token
// names, so that a token dies with its ServiceAccount or bound object.
// A missing object is an error satisfying apierrors.IsNotFound.
type ServiceAccountGetter interface {
	GetServiceAccount(ctx context.Context, ns, name string) (*corev1.ServiceAccount, error)
	GetPod(ctx context.Context, ns, name string) (*corev1.Pod, error)
	GetSecret(ctx context.Context, ns, name string) (*corev1.Secret, error)
	GetNode(ctx context.Context, name string) (*corev1.Node, error)
}

// ServiceAccountTokensOptions configure ServiceAccountTokens.
type ServiceAccountTokensOptions struct {
	// Issuer is the iss claim of the tokens to verify; tokens of other
	// issuers are not recognised (another authenticator may know them).
	Issuer string
	// Keys verify the tokens' signatures.
	Keys []crypto.PublicKey
	// APIAudiences are the audiences a token must have one of when the
	// request asks for none (WithAudiences). Defaults to {Issuer}.
	APIAudiences []string
	// Getter looks up the service accounts and bound objects.
	Getter ServiceAccountGetter
	// Clock defaults to clock.Real.
	Clock clock.Clock
}

// ServiceAccountTokens authenticates service account tokens: it checks the
// signature, the times, the audience, and that the ServiceAccount and the
// bound object still exist with the UIDs the token names. Safe for
// concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/serviceaccount (jwtTokenAuthenticator,
// validator.Validate).
type ServiceAccountTokens struct {
	opts     ServiceAccountTokensOptions
	verified verifiedTokens
}

var (
	_ TokenAuthenticator = (*ServiceAccountTokens)(nil)
	_ Authenticator      = (*ServiceAccountTokens)(nil)
)

// errInvalidated is what a token whose bound object is gone gets: which
// object it was is not the caller's business.
var errInvalidated = errors.New("service account token has been invalidated")

// NewServiceAccountTokens validates opts and returns the authenticator.
func NewServiceAccountTokens(opts ServiceAccountTokensOptions) (*ServiceAccountTokens, error) {
	if opts.Issuer == "" || len(opts.Keys) == 0 || opts.Getter == nil {
		return nil, errors.New("service account tokens: Issuer, Keys and Getter are required")
	}
	if len(opts.APIAudiences) == 0 {
		opts.APIAudiences = []string{opts.Issuer}
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	return &ServiceAccountTokens{opts: opts}, nil
}

// AuthenticateRequest implements Authenticator.
func (a *ServiceAccountTokens) AuthenticateRequest(r *http.Request) (*request.User, bool, error) {
	return BearerToken(a).AuthenticateRequest(r)
}

// signatureAlgorithms are those a service account token may be signed
// with: what the supported keys sign with.
var signatureAlgorithms = []jose.SignatureAlgorithm{jose.RS256, jose.ES256, jose.ES384, jose.ES512}

// AuthenticateToken implements TokenAuthenticator.
func (a *ServiceAccountTokens) AuthenticateToken(ctx context.Context, token string) (*TokenResponse, bool, error) {
	claims, ok, err := a.verify(token)
	if !ok || err != nil {
		return nil, false, err
	}
	public, private := claims.public, claims.private
	wanted, ok := AudiencesFrom(ctx)
	if !ok || len(wanted) == 0 {
		wanted = a.opts.APIAudiences
	}
	auds := intersect(wanted, public.Audience)
	if len(auds) == 0 {
		return nil, false, fmt.Errorf("token audiences %q is invalid for the target audiences %q", []string(public.Audience), wanted)
	}
	now := a.opts.Clock.Now()
	switch err := public.Validate(jwt.Expected{Time: now}); {
	case err == nil:
	case errors.Is(err, jwt.ErrExpired):
		return nil, false, errors.New("service account token has expired")
	case errors.Is(err, jwt.ErrNotValidYet), errors.Is(err, jwt.ErrIssuedInTheFuture):
		return nil, false, errors.New("service account token is not valid yet")
	default:
		return nil, false, errors.New("service account token claims could not be validated")
	}
	k := &private.Kubernetes
	if k.Namespace == "" || k.Svcacct.Name == "" || public.Subject != ServiceAccountUsername(k.Namespace, k.Svcacct.Name) {
		return nil, false, errors.New("service account token claims could not be validated")
	}
	if err := a.validateObjects(ctx, k); err != nil {
		return nil, false, err
	}
	return &TokenResponse{User: serviceAccountUser(k, public.ID), Audiences: auds}, true, nil
}

// verify returns token's claims once its signature checks out with one of
// the keys. ok is false, with no error, for a token that is not a service
// account token of the issuer: another authenticator may know it.
func (a *ServiceAccountTokens) verify(token string) (claims verifiedClaims, ok bool, err error) {
	if c, ok := a.verified.get(token); ok {
		return c, true, nil
	}
	// Three dot-separated parts is the form of a JWS; anything else is
	// some other authenticator's token.
	if strings.Count(token, ".") != 2 {
		return claims, false, nil
	}
	tok, err := jwt.ParseSigned(token, signatureAlgorithms)
	if err != nil {
		return claims, false, nil
	}
	var unverified jwt.Claims
	if err := tok.UnsafeClaimsWithoutVerification(&unverified); err != nil || unverified.Issuer != a.opts.Issuer {
		return claims, false, nil
	}
	for _, key := range a.opts.Keys {
		if err := tok.Claims(key, &claims.public, &claims.private); err == nil {
			a.verified.add(token, claims)
			return claims, true, nil
		}
	}
	return claims, false, errors.New("invalid bearer token, service account token signature could not be verified")
}

// validateObjects checks that the service account and the bound objects
// the claims name exist with the same UIDs and are not being deleted.
func (a *ServiceAccountTokens) validateObjects(ctx context.Context, k *kubernetesClaims) error {
	ns, g := k.Namespace, a.opts.Getter
	sa, err := g.GetServiceAccount(ctx, ns, k.Svcacct.Name)
	if err != nil {
		return err
	}
	if sa.DeletionTimestamp != nil {
		return fmt.Errorf("service account %s/%s has been deleted", ns, k.Svcacct.Name)
	}
	if sa.UID != k.Svcacct.UID {
		return fmt.Errorf("service account UID (%s) does not match claim (%s)", sa.UID, k.Svcacct.UID)
	}
	if r := k.Secret; r != nil {
		secret, err := g.GetSecret(ctx, ns, r.Name)
		if err != nil || secret.DeletionTimestamp != nil {
			return errInvalidated
		}
		if secret.UID != r.UID {
			return fmt.Errorf("secret UID (%s) does not match service account secret ref claim (%s)", secret.UID, r.UID)
		}
	}
	if r := k.Pod; r != nil {
		pod, err := g.GetPod(ctx, ns, r.Name)
		if err != nil || pod.DeletionTimestamp != nil {
			return errInvalidated
		}
		if pod.UID != r.UID {
			return fmt.Errorf("pod UID (%s) does not match service account pod ref claim (%s)", pod.UID, r.UID)
		}
	}
	// A node is checked only when it is the bound object; with a pod it
	// only records where the pod ran.
	if r := k.Node; r != nil && k.Pod == nil {
		node, err := g.GetNode(ctx, r.Name)
		if err != nil || node.DeletionTimestamp != nil {
			return errInvalidated
		}
		if node.UID != r.UID {
			return fmt.Errorf("node UID (%s) does not match service account node ref claim (%s)", node.UID, r.UID)
		}
	}
	return nil
}
