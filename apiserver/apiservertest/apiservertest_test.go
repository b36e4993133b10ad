package apiservertest_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

func get(t *testing.T, api *apiserver.Server, path, token string) int {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	api.Handler().ServeHTTP(rec, req)
	return rec.Code
}

// TestNew: the server answers at once, with the system namespaces made,
// to the admin and to no one else; it stops when the test ends (TestMain
// checks that no goroutine is left).
func TestNew(t *testing.T) {
	tests := []struct {
		name   string
		mutate []func(*apiserver.Options)
	}{
		{name: "defaults"},
		{name: "rbac", mutate: []func(*apiserver.Options){func(o *apiserver.Options) { o.AuthorizationMode = authz.ModeRBAC }}},
		{name: "no watch cache", mutate: []func(*apiserver.Options){func(o *apiserver.Options) { o.WatchCacheDisabled = true }}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			api := apiservertest.New(t, tc.mutate...)
			assert.Equal(t, http.StatusOK, get(t, api, "/api/v1/namespaces/kube-system", apiservertest.AdminToken), "GET kube-system as the admin")
			assert.Equal(t, http.StatusUnauthorized, get(t, api, "/api/v1/namespaces", "someone-else"), "GET with an unknown token")
		})
	}
}

// TestNewPrefixes: two servers of one test keep apart, and one given the
// other's prefix shares its objects.
func TestNewPrefixes(t *testing.T) {
	var prefix string
	a := apiservertest.New(t, func(o *apiserver.Options) { prefix = o.StoragePrefix })
	b := apiservertest.New(t)
	c := apiservertest.New(t, func(o *apiserver.Options) { o.StoragePrefix = prefix })
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/api/v1/namespaces",
		strings.NewReader(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"only-in-a"}}`))
	req.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, req)
	require.Equal(t, http.StatusCreated, rec.Code, "create a namespace in a: %s", rec.Body)
	assert.Equal(t, http.StatusNotFound, get(t, b, "/api/v1/namespaces/only-in-a", apiservertest.AdminToken), "b has a prefix of its own")
	// c reads through its watch cache, which may not have the namespace
	// yet: a quorum read (no resourceVersion) goes to etcd.
	assert.Equal(t, http.StatusOK, get(t, c, "/api/v1/namespaces/only-in-a", apiservertest.AdminToken), "c shares a's prefix")
}
