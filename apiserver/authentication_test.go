package apiserver_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/apiserver/authz"
)

func TestAnonymousPublicPaths(t *testing.T) {
	s := newTestServer(t)
	for _, path := range []string{"/healthz", "/livez", "/readyz", "/version"} {
		s.mustDo(http.StatusOK, "GET", path, "", withToken(""))
	}
	r := s.mustDo(http.StatusUnauthorized, "GET", "/api/v1/pods", "", withToken(""))
	assert.Equal(t, metav1.StatusReasonUnauthorized, r.status(t).Reason)
	s.mustDo(http.StatusUnauthorized, "GET", "/healthz", "", withToken("wrong"))
	s.mustDo(http.StatusUnauthorized, "GET", "/metrics", "", withToken(""))
}

const tokenPath = "/api/v1/namespaces/default/serviceaccounts/robot/token"

func decodeTokenRequest(t *testing.T, r response) *authenticationv1.TokenRequest {
	t.Helper()
	var tr authenticationv1.TokenRequest
	require.NoError(t, json.Unmarshal(r.body, &tr), "decode TokenRequest from %s", r.body)
	return &tr
}

func TestTokenRequest(t *testing.T) {
	s := newTestServer(t)
	s.mustDo(http.StatusNotFound, "POST", tokenPath, `{}`)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"robot"}}`)

	before := time.Now().Truncate(time.Second)
	tr := decodeTokenRequest(t, s.mustDo(http.StatusCreated, "POST", tokenPath, `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest"}`))
	assert.Equal(t, "TokenRequest", tr.Kind)
	assert.Equal(t, "robot", tr.Name)
	assert.Equal(t, "default", tr.Namespace)
	require.NotEmpty(t, tr.Status.Token)
	require.NotNil(t, tr.Spec.ExpirationSeconds)
	assert.EqualValues(t, 3600, *tr.Spec.ExpirationSeconds, "an hour by default")
	assert.Equal(t, []string{"https://kubernetes.default.svc.cluster.local"}, tr.Spec.Audiences, "the API server's audience by default")
	assert.WithinDuration(t, before.Add(time.Hour), tr.Status.ExpirationTimestamp.Time, 5*time.Second)

	// The token is a user of the API server.
	r := s.mustDo(http.StatusCreated, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", `{}`, withToken(tr.Status.Token))
	var who authenticationv1.SelfSubjectReview
	require.NoError(t, json.Unmarshal(r.body, &who))
	assert.Equal(t, "system:serviceaccount:default:robot", who.Status.UserInfo.Username)
	assert.NotEmpty(t, who.Status.UserInfo.Extra["authentication.kubernetes.io/credential-id"])

	tests := []struct {
		name   string
		body   string
		code   int
		reason metav1.StatusReason
		msg    string
	}{
		{"too short", `{"spec":{"expirationSeconds":599}}`, http.StatusUnprocessableEntity, metav1.StatusReasonInvalid,
			"spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes"},
		{"too long", `{"spec":{"expirationSeconds":4294967297}}`, http.StatusUnprocessableEntity, metav1.StatusReasonInvalid,
			"may not specify a duration larger than 2^32 seconds"},
		{"another name", `{"metadata":{"name":"other"}}`, http.StatusUnprocessableEntity, metav1.StatusReasonInvalid,
			"must match the service account name if specified"},
		{"bound to a configmap", `{"spec":{"boundObjectRef":{"kind":"ConfigMap","apiVersion":"v1","name":"x"}}}`,
			http.StatusBadRequest, metav1.StatusReasonBadRequest, "cannot bind token to object of type"},
		{"bound to a missing pod", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"nope"}}}`,
			http.StatusNotFound, metav1.StatusReasonNotFound, `pods "nope" not found`},
		{"bad body", `{"spec":`, http.StatusBadRequest, metav1.StatusReasonBadRequest, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := s.mustDo(tc.code, "POST", tokenPath, tc.body).status(t)
			assert.Equal(t, tc.reason, st.Reason, "POST %s", tc.body)
			assert.Contains(t, st.Message, tc.msg)
		})
	}

	// A pod's UID must match the reference's, and the pod must run as the
	// service account.
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods",
		`{"metadata":{"name":"worker"},"spec":{"serviceAccountName":"robot","containers":[{"name":"c","image":"i"}]}}`)
	st := s.mustDo(http.StatusConflict, "POST", tokenPath,
		`{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"worker","uid":"stale"}}}`).status(t)
	assert.Contains(t, st.Message, "the UID in the bound object reference (stale) does not match the UID in record")
	tr = decodeTokenRequest(t, s.mustDo(http.StatusCreated, "POST", tokenPath,
		`{"spec":{"audiences":["vault"],"expirationSeconds":600,"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"worker"}}}`))
	assert.Equal(t, []string{"vault"}, tr.Spec.Audiences)
	s.mustDo(http.StatusUnauthorized, "GET", "/api/v1/pods", "", withToken(tr.Status.Token))
}

func TestTokenReview(t *testing.T) {
	s := newTestServer(t)
	review := func(body string) authenticationv1.TokenReviewStatus {
		t.Helper()
		r := s.mustDo(http.StatusCreated, "POST", "/apis/authentication.k8s.io/v1/tokenreviews", body)
		var tr authenticationv1.TokenReview
		require.NoError(t, json.Unmarshal(r.body, &tr))
		assert.Equal(t, "TokenReview", tr.Kind)
		return tr.Status
	}
	st := review(`{"spec":{"token":"admin-token"}}`)
	assert.True(t, st.Authenticated)
	assert.Equal(t, "admin", st.User.Username)
	assert.Equal(t, []string{"https://kubernetes.default.svc.cluster.local"}, st.Audiences)
	st = review(`{"spec":{"token":"admin-token","audiences":["vault"]}}`)
	assert.Equal(t, []string{"vault"}, st.Audiences, "a static token is valid for any audience")

	st = review(`{"spec":{"token":"guess"}}`)
	assert.False(t, st.Authenticated)
	assert.Equal(t, "invalid bearer token", st.Error)
	assert.Empty(t, st.User.Username)

	r := s.mustDo(http.StatusBadRequest, "POST", "/apis/authentication.k8s.io/v1/tokenreviews", `{"spec":{}}`)
	assert.Equal(t, "token is required for TokenReview in authentication", r.status(t).Message)
}

func TestServiceAccountTokenDiscovery(t *testing.T) {
	s := newTestServer(t)
	var list metav1.APIResourceList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api/v1", "").body, &list))
	var token *metav1.APIResource
	for i := range list.APIResources {
		if list.APIResources[i].Name == "serviceaccounts/token" {
			token = &list.APIResources[i]
		}
	}
	require.NotNil(t, token, "serviceaccounts/token in /api/v1")
	assert.Equal(t, metav1.APIResource{
		Name: "serviceaccounts/token", Namespaced: true, Group: "authentication.k8s.io", Version: "v1",
		Kind: "TokenRequest", Verbs: []string{"create"},
	}, *token)

	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/apis/authentication.k8s.io/v1", "").body, &list))
	var names []string
	for _, r := range list.APIResources {
		names = append(names, r.Name)
	}
	assert.ElementsMatch(t, []string{"selfsubjectreviews", "tokenreviews"}, names)
}

// TestServiceAccountIssuerDiscovery: a token the server issued verifies
// with the key set its discovery document points to.
func TestServiceAccountIssuerDiscovery(t *testing.T) {
	s := newTestServer(t, func(o *apiserver.Options) { o.AuthorizationMode = authz.ModeRBAC })
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"robot"}}`)
	token := decodeTokenRequest(t, s.mustDo(http.StatusCreated, "POST", tokenPath, `{}`)).Status.Token

	r := s.mustDo(http.StatusOK, "GET", "/.well-known/openid-configuration", "", withToken(token))
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(r.body, &doc))
	assert.Equal(t, "https://kubernetes.default.svc.cluster.local", doc["issuer"])
	assert.Equal(t, "https://kubernetes.default.svc.cluster.local/openid/v1/jwks", doc["jwks_uri"])
	assert.Equal(t, []any{"ES256"}, doc["id_token_signing_alg_values_supported"])

	r = s.mustDo(http.StatusOK, "GET", "/openid/v1/jwks", "", withToken(token))
	assert.Equal(t, "application/jwk-set+json", r.header.Get("Content-Type"))
	var keys jose.JSONWebKeySet
	require.NoError(t, json.Unmarshal(r.body, &keys))
	require.Len(t, keys.Keys, 1)
	parsed, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.ES256})
	require.NoError(t, err)
	require.Len(t, parsed.Headers, 1)
	assert.Equal(t, keys.Keys[0].KeyID, parsed.Headers[0].KeyID)
	var claims jwt.Claims
	require.NoError(t, parsed.Claims(keys.Keys[0].Key, &claims), "the token verifies with the published key")
	assert.Equal(t, "system:serviceaccount:default:robot", claims.Subject)

	// Under RBAC, service accounts may read them (system:service-account-issuer-discovery);
	// anonymous callers may not.
	s.mustDo(http.StatusUnauthorized, "GET", "/openid/v1/jwks", "", withToken(""))
}

// TestServiceAccountAdmissionIsOptIn: the ServiceAccount plugin runs only
// with Options.ServiceAccountAdmission, before the mutating webhooks, so
// that they see the pod's service account and token volume.
func TestServiceAccountAdmissionIsOptIn(t *testing.T) {
	names := func(chain []string, o func(*apiserver.Options)) []string {
		for _, p := range apiserver.DefaultAdmission(apiservertest.New(t, o)) {
			chain = append(chain, p.Name())
		}
		return chain
	}
	assert.NotContains(t, names(nil, func(*apiserver.Options) {}), "ServiceAccount")
	on := names(nil, func(o *apiserver.Options) { o.ServiceAccountAdmission = true })
	i, j := slices.Index(on, "ServiceAccount"), slices.Index(on, "MutatingAdmissionWebhook")
	assert.True(t, i >= 0 && i < j, "ServiceAccount before MutatingAdmissionWebhook in %v", on)
}
