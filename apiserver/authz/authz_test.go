package authz_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/request"
)

func TestAllowAuthenticated(t *testing.T) {
	authenticated := &request.User{Name: "alice", Groups: []string{request.AllAuthenticated}}
	admin := &request.User{Name: "admin", Groups: []string{request.SystemPrivilegedGroup, request.AllAuthenticated}}
	anonymous := &request.User{Name: request.AnonymousUser, Groups: []string{request.AllUnauthenticated}}

	tests := []struct {
		name   string
		user   *request.User
		method string
		path   string
		want   authz.Decision
	}{
		{name: "authenticated lists pods", user: authenticated, method: "GET", path: "/api/v1/pods", want: authz.DecisionAllow},
		{name: "authenticated deletes a node", user: authenticated, method: "DELETE", path: "/api/v1/nodes/n", want: authz.DecisionAllow},
		{name: "authenticated reads discovery", user: authenticated, method: "GET", path: "/apis", want: authz.DecisionAllow},
		{name: "admin creates a pod", user: admin, method: "POST", path: "/api/v1/namespaces/ns/pods", want: authz.DecisionAllow},

		{name: "anonymous lists pods", user: anonymous, method: "GET", path: "/api/v1/pods", want: authz.DecisionDeny},
		{name: "anonymous creates a pod", user: anonymous, method: "POST", path: "/api/v1/namespaces/ns/pods", want: authz.DecisionDeny},
		{name: "anonymous watches", user: anonymous, method: "GET", path: "/api/v1/watch/pods", want: authz.DecisionDeny},
		{name: "anonymous reads discovery", user: anonymous, method: "GET", path: "/api", want: authz.DecisionDeny},
		{name: "anonymous reads openapi", user: anonymous, method: "GET", path: "/openapi/v2", want: authz.DecisionDeny},
		{name: "anonymous reads a health check detail", user: anonymous, method: "GET", path: "/healthz/etcd", want: authz.DecisionDeny},
		{name: "anonymous /healthz", user: anonymous, method: "GET", path: "/healthz", want: authz.DecisionAllow},
		{name: "anonymous /livez", user: anonymous, method: "GET", path: "/livez", want: authz.DecisionAllow},
		{name: "anonymous /readyz", user: anonymous, method: "GET", path: "/readyz", want: authz.DecisionAllow},
		{name: "anonymous /version", user: anonymous, method: "GET", path: "/version", want: authz.DecisionAllow},
		{name: "anonymous /version/", user: anonymous, method: "GET", path: "/version/", want: authz.DecisionAllow},

		{name: "no user lists pods", method: "GET", path: "/api/v1/pods", want: authz.DecisionDeny},
		{name: "no user /healthz", method: "GET", path: "/healthz", want: authz.DecisionAllow},
		{name: "user without groups", user: &request.User{Name: "x"}, method: "GET", path: "/api/v1/pods", want: authz.DecisionDeny},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := request.NewRequestInfo(httptest.NewRequest(tc.method, tc.path, nil))
			d, reason, err := authz.AllowAuthenticated.Authorize(context.Background(), authz.Attributes{User: tc.user, RequestInfo: info})
			require.NoError(t, err, "Authorize(%s %s)", tc.method, tc.path)
			assert.Equal(t, tc.want, d, "Authorize(%v, %s %s)", tc.user, tc.method, tc.path)
			if d == authz.DecisionDeny {
				assert.NotEmpty(t, reason, "a denial explains itself")
			}
		})
	}
}

func TestAllowAuthenticatedWithoutRequestInfo(t *testing.T) {
	anonymous := &request.User{Name: request.AnonymousUser, Groups: []string{request.AllUnauthenticated}}
	d, _, err := authz.AllowAuthenticated.Authorize(context.Background(), authz.Attributes{User: anonymous})
	require.NoError(t, err)
	assert.Equal(t, authz.DecisionDeny, d, "anonymous without RequestInfo")

	authenticated := &request.User{Name: "alice", Groups: []string{request.AllAuthenticated}}
	d, _, err = authz.AllowAuthenticated.Authorize(context.Background(), authz.Attributes{User: authenticated})
	require.NoError(t, err)
	assert.Equal(t, authz.DecisionAllow, d, "authenticated without RequestInfo")
}

func TestAuthorizerFunc(t *testing.T) {
	var got authz.Attributes
	f := authz.AuthorizerFunc(func(_ context.Context, a authz.Attributes) (authz.Decision, string, error) {
		got = a
		return authz.DecisionNoOpinion, "why", nil
	})
	want := authz.Attributes{User: &request.User{Name: "u"}, RequestInfo: request.NewRequestInfo(httptest.NewRequest(http.MethodGet, "/x", nil))}
	d, reason, err := f.Authorize(context.Background(), want)
	require.NoError(t, err)
	assert.Equal(t, authz.DecisionNoOpinion, d)
	assert.Equal(t, "why", reason)
	assert.Equal(t, want, got)
}
