package authn_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/clock/clocktest"
)

// objects is an in-memory authn.ServiceAccountGetter.
type objects struct {
	sas   map[string]*corev1.ServiceAccount
	pods  map[string]*corev1.Pod
	nodes map[string]*corev1.Node
}

func (o *objects) GetServiceAccount(_ context.Context, ns, name string) (*corev1.ServiceAccount, error) {
	if sa, ok := o.sas[ns+"/"+name]; ok {
		return sa, nil
	}
	return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "serviceaccounts"}, name)
}

func (o *objects) GetPod(_ context.Context, ns, name string) (*corev1.Pod, error) {
	if p, ok := o.pods[ns+"/"+name]; ok {
		return p, nil
	}
	return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "pods"}, name)
}

func (o *objects) GetSecret(_ context.Context, _, name string) (*corev1.Secret, error) {
	return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "secrets"}, name)
}

func (o *objects) GetNode(_ context.Context, name string) (*corev1.Node, error) {
	if n, ok := o.nodes[name]; ok {
		return n, nil
	}
	return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "nodes"}, name)
}

func meta(ns, name, uid string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: ns, Name: name, UID: uid}
}

// saFixture is a signer and an authenticator over one key, with a robot
// ServiceAccount, a pod running as it on node-1, and a fake clock.
type saFixture struct {
	clock  *clocktest.Fake
	objs   *objects
	signer *authn.ServiceAccountSigner
	tokens *authn.ServiceAccountTokens
}

func newSAFixture(t *testing.T, key crypto.Signer) *saFixture {
	t.Helper()
	clk := clocktest.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	objs := &objects{
		sas:   map[string]*corev1.ServiceAccount{"ns/robot": {ObjectMeta: meta("ns", "robot", "sa-uid")}},
		pods:  map[string]*corev1.Pod{"ns/worker": {ObjectMeta: meta("ns", "worker", "pod-uid")}},
		nodes: map[string]*corev1.Node{"node-1": {ObjectMeta: meta("", "node-1", "node-uid")}},
	}
	signer, err := authn.NewServiceAccountSigner(key, authn.DefaultServiceAccountIssuer, clk)
	require.NoError(t, err)
	tokens, err := authn.NewServiceAccountTokens(authn.ServiceAccountTokensOptions{
		Issuer: authn.DefaultServiceAccountIssuer, Keys: []crypto.PublicKey{signer.PublicKey()},
		Getter: objs, Clock: clk,
	})
	require.NoError(t, err)
	return &saFixture{clock: clk, objs: objs, signer: signer, tokens: tokens}
}

func (f *saFixture) issue(t *testing.T, opts authn.TokenOptions) string {
	t.Helper()
	if opts.ServiceAccount == nil {
		opts.ServiceAccount = f.objs.sas["ns/robot"]
	}
	if opts.Expiration == 0 {
		opts.Expiration = time.Hour
	}
	if opts.Audiences == nil {
		opts.Audiences = []string{authn.DefaultServiceAccountIssuer}
	}
	token, exp, err := f.signer.Issue(opts)
	require.NoError(t, err)
	assert.Equal(t, f.clock.Now().Add(opts.Expiration), exp)
	return token
}

func ecKey(t *testing.T) crypto.Signer {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	return k
}

func TestServiceAccountTokenUser(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	for name, key := range map[string]crypto.Signer{"ES256": ecKey(t), "RS256": rsaKey} {
		t.Run(name, func(t *testing.T) {
			f := newSAFixture(t, key)
			assert.Equal(t, name, f.signer.Algorithm())
			resp, ok, err := f.tokens.AuthenticateToken(t.Context(), f.issue(t, authn.TokenOptions{}))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, "system:serviceaccount:ns:robot", resp.User.Name)
			assert.Equal(t, "sa-uid", resp.User.UID)
			assert.Equal(t, []string{"system:serviceaccounts", "system:serviceaccounts:ns", "system:authenticated"}, resp.User.Groups)
			assert.Equal(t, []string{authn.DefaultServiceAccountIssuer}, resp.Audiences)
			require.Len(t, resp.User.Extra[authn.ExtraCredentialID], 1)
			assert.Regexp(t, "^JTI=[0-9a-f-]{36}$", resp.User.Extra[authn.ExtraCredentialID][0])
		})
	}
}

func TestServiceAccountTokenBoundToPod(t *testing.T) {
	f := newSAFixture(t, ecKey(t))
	token := f.issue(t, authn.TokenOptions{Pod: f.objs.pods["ns/worker"], Node: f.objs.nodes["node-1"]})
	resp, ok, err := f.tokens.AuthenticateToken(t.Context(), token)
	require.NoError(t, err)
	require.True(t, ok)
	for key, want := range map[string]string{
		authn.ExtraPodName: "worker", authn.ExtraPodUID: "pod-uid", authn.ExtraNodeName: "node-1", authn.ExtraNodeUID: "node-uid",
	} {
		assert.Equal(t, []string{want}, resp.User.Extra[key], "extra %s", key)
	}

	// The node records where the pod ran: its going does not matter.
	delete(f.objs.nodes, "node-1")
	_, ok, _ = f.tokens.AuthenticateToken(t.Context(), token)
	assert.True(t, ok, "a pod-bound token outlives the node")

	f.objs.pods["ns/worker"] = &corev1.Pod{ObjectMeta: meta("ns", "worker", "other-uid")}
	_, ok, err = f.tokens.AuthenticateToken(t.Context(), token)
	assert.False(t, ok)
	assert.EqualError(t, err, "pod UID (other-uid) does not match service account pod ref claim (pod-uid)")

	delete(f.objs.pods, "ns/worker")
	_, ok, err = f.tokens.AuthenticateToken(t.Context(), token)
	assert.False(t, ok)
	assert.EqualError(t, err, "service account token has been invalidated")
}

func TestServiceAccountTokenRejected(t *testing.T) {
	tests := []struct {
		name    string
		token   func(t *testing.T, f *saFixture) string
		change  func(f *saFixture)
		ctx     func(ctx context.Context) context.Context
		wantErr string // "" means not recognised: (nil, false, nil)
	}{
		{
			name: "expired",
			token: func(t *testing.T, f *saFixture) string {
				return f.issue(t, authn.TokenOptions{Expiration: 10 * time.Minute})
			},
			change:  func(f *saFixture) { f.clock.Step(12 * time.Minute) },
			wantErr: "service account token has expired",
		},
		{
			name: "another audience",
			token: func(t *testing.T, f *saFixture) string {
				return f.issue(t, authn.TokenOptions{Audiences: []string{"vault"}})
			},
			wantErr: `token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]`,
		},
		{
			name:  "audience asked by the request",
			token: func(t *testing.T, f *saFixture) string { return f.issue(t, authn.TokenOptions{}) },
			ctx: func(ctx context.Context) context.Context {
				return authn.WithAudiences(ctx, []string{"vault"})
			},
			wantErr: `token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["vault"]`,
		},
		{
			name:    "service account deleted",
			token:   func(t *testing.T, f *saFixture) string { return f.issue(t, authn.TokenOptions{}) },
			change:  func(f *saFixture) { delete(f.objs.sas, "ns/robot") },
			wantErr: `serviceaccounts "robot" not found`,
		},
		{
			name:  "service account recreated",
			token: func(t *testing.T, f *saFixture) string { return f.issue(t, authn.TokenOptions{}) },
			change: func(f *saFixture) {
				f.objs.sas["ns/robot"] = &corev1.ServiceAccount{ObjectMeta: meta("ns", "robot", "new-uid")}
			},
			wantErr: "service account UID (new-uid) does not match claim (sa-uid)",
		},
		{
			name: "signed by another key",
			token: func(t *testing.T, f *saFixture) string {
				other := newSAFixture(t, ecKey(t))
				return other.issue(t, authn.TokenOptions{ServiceAccount: f.objs.sas["ns/robot"]})
			},
			wantErr: "invalid bearer token, service account token signature could not be verified",
		},
		{
			name: "another issuer",
			token: func(t *testing.T, f *saFixture) string {
				signer, err := authn.NewServiceAccountSigner(ecKey(t), "https://elsewhere", f.clock)
				require.NoError(t, err)
				tok, _, err := signer.Issue(authn.TokenOptions{ServiceAccount: f.objs.sas["ns/robot"], Expiration: time.Hour})
				require.NoError(t, err)
				return tok
			},
		},
		{name: "not a JWT", token: func(*testing.T, *saFixture) string { return "abc.def" }},
		{name: "garbage JWS", token: func(*testing.T, *saFixture) string { return "a.b.c" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newSAFixture(t, ecKey(t))
			token := tc.token(t, f)
			if tc.change != nil {
				tc.change(f)
			}
			ctx := t.Context()
			if tc.ctx != nil {
				ctx = tc.ctx(ctx)
			}
			resp, ok, err := f.tokens.AuthenticateToken(ctx, token)
			assert.False(t, ok, "AuthenticateToken(%s)", tc.name)
			assert.Nil(t, resp)
			if tc.wantErr == "" {
				assert.NoError(t, err, "not this authenticator's token")
				return
			}
			assert.EqualError(t, err, tc.wantErr)
		})
	}
}

func TestServiceAccountTokensOnRequests(t *testing.T) {
	f := newSAFixture(t, ecKey(t))
	r := httptest.NewRequest("GET", "/api", nil)
	r.Header.Set("Authorization", "Bearer "+f.issue(t, authn.TokenOptions{}))
	u, ok, err := f.tokens.AuthenticateRequest(r)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "system:serviceaccount:ns:robot", u.Name)

	r.Header.Set("Authorization", "Bearer a.b.c")
	_, ok, err = f.tokens.AuthenticateRequest(r)
	assert.False(t, ok)
	assert.ErrorIs(t, err, authn.ErrInvalidToken, "a bearer token nobody knows is an error")
}

func TestKeyIDIsStable(t *testing.T) {
	key := ecKey(t)
	a, err := authn.KeyID(key.Public())
	require.NoError(t, err)
	b, err := authn.KeyID(key.Public())
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.Len(t, a, 43, "unpadded base64url of a SHA-256")
	f := newSAFixture(t, key)
	jwks := f.signer.JWKS()
	require.Len(t, jwks.Keys, 1)
	assert.Equal(t, a, jwks.Keys[0].KeyID)
	assert.Equal(t, "ES256", jwks.Keys[0].Algorithm)
}

// TestVerifiedTokenStillChecked: a token whose signature was verified
// once is remembered, but its lifetime and its ServiceAccount are still
// checked on every use.
func TestVerifiedTokenStillChecked(t *testing.T) {
	f := newSAFixture(t, ecKey(t))
	token := f.issue(t, authn.TokenOptions{Expiration: 10 * time.Minute})
	for range 2 {
		_, ok, err := f.tokens.AuthenticateToken(t.Context(), token)
		require.NoError(t, err)
		require.True(t, ok)
	}
	f.clock.Step(12 * time.Minute) // past the minute of leeway
	_, ok, err := f.tokens.AuthenticateToken(t.Context(), token)
	assert.False(t, ok)
	assert.EqualError(t, err, "service account token has expired")

	token = f.issue(t, authn.TokenOptions{})
	_, ok, err = f.tokens.AuthenticateToken(t.Context(), token)
	require.NoError(t, err)
	require.True(t, ok)
	delete(f.objs.sas, "ns/robot")
	_, ok, err = f.tokens.AuthenticateToken(t.Context(), token)
	assert.False(t, ok)
	assert.True(t, apierrors.IsNotFound(err), "token of a deleted ServiceAccount: %v", err)
}
