package apiserver

import (
	"context"

	"github.com/minicp/minicp/api/apierrors"
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/authn"
)

// createTokenReview tells whose the token under review is: the token
// authenticators of the server (static tokens, service account tokens)
// are asked as if the token had come with a request, for the audiences
// the review names or else the server's own.
//
// Upstream: k8s.io/kubernetes/pkg/registry/authentication/tokenreview.
func (s *Server) createTokenReview(ctx context.Context, ns string, body runtime.Object) (runtime.Object, error) {
	tr := body.(*authenticationv1.TokenReview)
	if ns != "" {
		return nil, apierrors.NewBadRequest("namespace is not allowed on this type: " + ns)
	}
	if tr.Spec.Token == "" {
		return nil, apierrors.NewBadRequest("token is required for TokenReview in authentication")
	}
	auds := tr.Spec.Audiences
	if len(auds) == 0 {
		auds = s.apiAudiences
	}
	// The review runs under the request's context for cancellation,
	// but not as the request's user.
	resp, ok, err := s.tokenAuthenticators.AuthenticateToken(authn.WithAudiences(ctx, auds), tr.Spec.Token)
	if !ok && err == nil {
		err = authn.ErrInvalidToken
	}
	tr.Status = authenticationv1.TokenReviewStatus{Authenticated: ok}
	if err != nil {
		tr.Status.Error = err.Error()
	}
	if ok && resp.User != nil {
		tr.Status.User = userInfo(resp.User)
		tr.Status.Audiences = resp.Audiences
	}
	tr.TypeMeta = metav1.TypeMeta{APIVersion: authenticationv1.SchemeGroupVersion.String(), Kind: "TokenReview"}
	return tr, nil
}
