package request_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/apiserver/request"
)

func TestNewRequestInfo(t *testing.T) {
	tests := []struct {
		method string
		path   string
		want   request.RequestInfo
	}{
		// Discovery and other non-resource paths: only Path and Verb.
		{method: "GET", path: "/api", want: request.RequestInfo{Verb: "get"}},
		{method: "GET", path: "/api/v1", want: request.RequestInfo{Verb: "get", APIPrefix: "api", APIVersion: "v1"}},
		{method: "GET", path: "/apis", want: request.RequestInfo{Verb: "get"}},
		{method: "GET", path: "/apis/apps", want: request.RequestInfo{Verb: "get", APIPrefix: "apis"}},
		{method: "GET", path: "/apis/apps/v1", want: request.RequestInfo{Verb: "get", APIPrefix: "apis", APIGroup: "apps", APIVersion: "v1"}},
		{method: "GET", path: "/healthz", want: request.RequestInfo{Verb: "get"}},
		{method: "GET", path: "/version", want: request.RequestInfo{Verb: "get"}},
		{method: "GET", path: "/", want: request.RequestInfo{Verb: "get"}},
		{method: "POST", path: "/healthz", want: request.RequestInfo{Verb: "post"}},

		// Collections.
		{method: "GET", path: "/api/v1/pods", want: resourceInfo("list", "", "pods", "", "")},
		{method: "HEAD", path: "/api/v1/pods", want: resourceInfo("list", "", "pods", "", "")},
		{method: "GET", path: "/api/v1/namespaces/ns/pods", want: resourceInfo("list", "ns", "pods", "", "")},
		{method: "GET", path: "/api/v1/pods?watch=true", want: resourceInfo("watch", "", "pods", "", "")},
		{method: "GET", path: "/api/v1/pods?watch=1", want: resourceInfo("watch", "", "pods", "", "")},
		{method: "GET", path: "/api/v1/pods?watch=false", want: resourceInfo("list", "", "pods", "", "")},
		{method: "GET", path: "/api/v1/namespaces/ns/pods?watch=true&resourceVersion=5", want: resourceInfo("watch", "ns", "pods", "", "")},
		{method: "GET", path: "/api/v1/watch/pods", want: resourceInfo("watch", "", "pods", "", "")},
		{method: "GET", path: "/api/v1/watch/namespaces/ns/pods", want: resourceInfo("watch", "ns", "pods", "", "")},
		{method: "GET", path: "/api/v1/watch/namespaces/ns/pods/x", want: resourceInfo("watch", "ns", "pods", "x", "")},
		{method: "POST", path: "/api/v1/namespaces/ns/pods", want: resourceInfo("create", "ns", "pods", "", "")},
		{method: "DELETE", path: "/api/v1/namespaces/ns/pods", want: resourceInfo("deletecollection", "ns", "pods", "", "")},
		{method: "DELETE", path: "/api/v1/nodes", want: resourceInfo("deletecollection", "", "nodes", "", "")},

		// Objects.
		{method: "GET", path: "/api/v1/namespaces/ns/pods/x", want: resourceInfo("get", "ns", "pods", "x", "")},
		{method: "PUT", path: "/api/v1/namespaces/ns/pods/x", want: resourceInfo("update", "ns", "pods", "x", "")},
		{method: "PATCH", path: "/api/v1/namespaces/ns/pods/x", want: resourceInfo("patch", "ns", "pods", "x", "")},
		{method: "DELETE", path: "/api/v1/namespaces/ns/pods/x", want: resourceInfo("delete", "ns", "pods", "x", "")},
		{method: "GET", path: "/api/v1/nodes/n", want: resourceInfo("get", "", "nodes", "n", "")},
		{method: "GET", path: "/api/v1/namespaces/ns/pods/x/", want: resourceInfo("get", "ns", "pods", "x", "")},

		// Subresources.
		{method: "GET", path: "/api/v1/namespaces/ns/pods/x/status", want: resourceInfo("get", "ns", "pods", "x", "status")},
		{method: "PUT", path: "/api/v1/namespaces/ns/pods/x/status", want: resourceInfo("update", "ns", "pods", "x", "status")},
		{method: "POST", path: "/api/v1/namespaces/ns/pods/x/binding", want: resourceInfo("create", "ns", "pods", "x", "binding")},
		{method: "PUT", path: "/api/v1/nodes/n/status", want: resourceInfo("update", "", "nodes", "n", "status")},
		{method: "PATCH", path: "/api/v1/nodes/n/status", want: resourceInfo("patch", "", "nodes", "n", "status")},
		{method: "GET", path: "/api/v1/namespaces/ns/pods/x/exec", want: resourceInfo("get", "ns", "pods", "x", "exec")},
		{method: "POST", path: "/api/v1/namespaces/ns/pods/x/exec", want: resourceInfo("create", "ns", "pods", "x", "exec")},
		// The path after proxy is the proxied server's, not the
		// subresource's.
		{method: "DELETE", path: "/api/v1/namespaces/ns/services/http:web:80/proxy/a/b", want: resourceInfo("delete", "ns", "services", "http:web:80", "proxy")},

		// A namespace's own paths: the namespaces resource, with the
		// namespace recorded as the scope too.
		{method: "GET", path: "/api/v1/namespaces", want: resourceInfo("list", "", "namespaces", "", "")},
		{method: "POST", path: "/api/v1/namespaces", want: resourceInfo("create", "", "namespaces", "", "")},
		{method: "GET", path: "/api/v1/namespaces/x", want: resourceInfo("get", "x", "namespaces", "x", "")},
		{method: "DELETE", path: "/api/v1/namespaces/x", want: resourceInfo("delete", "x", "namespaces", "x", "")},
		{method: "GET", path: "/api/v1/namespaces/x/status", want: resourceInfo("get", "x", "namespaces", "x", "status")},
		{method: "PUT", path: "/api/v1/namespaces/x/status", want: resourceInfo("update", "x", "namespaces", "x", "status")},
		{method: "PUT", path: "/api/v1/namespaces/x/finalize", want: resourceInfo("update", "x", "namespaces", "x", "finalize")},
		{method: "GET", path: "/api/v1/watch/namespaces/x", want: resourceInfo("watch", "x", "namespaces", "x", "")},
		{method: "GET", path: "/api/v1/watch/namespaces", want: resourceInfo("watch", "", "namespaces", "", "")},

		// Named groups.
		{method: "GET", path: "/apis/apps/v1/deployments", want: groupInfo("list", "", "deployments", "", "")},
		{method: "GET", path: "/apis/apps/v1/namespaces/ns/deployments", want: groupInfo("list", "ns", "deployments", "", "")},
		{method: "GET", path: "/apis/apps/v1/namespaces/ns/deployments/d", want: groupInfo("get", "ns", "deployments", "d", "")},
		{method: "GET", path: "/apis/apps/v1/namespaces/ns/deployments/d/scale", want: groupInfo("get", "ns", "deployments", "d", "scale")},
		{method: "PUT", path: "/apis/apps/v1/namespaces/ns/deployments/d/scale", want: groupInfo("update", "ns", "deployments", "d", "scale")},
		{method: "GET", path: "/apis/apps/v1/watch/namespaces/ns/deployments", want: groupInfo("watch", "ns", "deployments", "", "")},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.path, nil)
			want := tc.want
			want.Path = r.URL.Path
			got := request.NewRequestInfo(r)
			assert.Equal(t, want, *got, "NewRequestInfo(%s %s)", tc.method, tc.path)
		})
	}
}

func resourceInfo(verb, ns, resource, name, sub string) request.RequestInfo {
	return request.RequestInfo{
		IsResourceRequest: true, Verb: verb, APIPrefix: "api", APIVersion: "v1",
		Namespace: ns, Resource: resource, Name: name, Subresource: sub,
	}
}

func groupInfo(verb, ns, resource, name, sub string) request.RequestInfo {
	info := resourceInfo(verb, ns, resource, name, sub)
	info.APIPrefix, info.APIGroup = "apis", "apps"
	return info
}

func TestContext(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/api/v1/pods", nil)
	_, ok := request.RequestInfoFrom(r.Context())
	assert.False(t, ok, "RequestInfoFrom an empty context")
	_, ok = request.UserFrom(r.Context())
	assert.False(t, ok, "UserFrom an empty context")

	info := request.NewRequestInfo(r)
	user := &request.User{Name: "alice"}
	ctx := request.WithUser(request.WithRequestInfo(r.Context(), info), user)
	gotInfo, ok := request.RequestInfoFrom(ctx)
	assert.True(t, ok, "RequestInfoFrom")
	assert.Same(t, info, gotInfo, "RequestInfoFrom")
	gotUser, ok := request.UserFrom(ctx)
	assert.True(t, ok, "UserFrom")
	assert.Same(t, user, gotUser, "UserFrom")
}
