package openapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/storage/storagetest"
)

const token = "admin-token"

// readyTimeout bounds the wait for the server's watch caches, which
// sync in milliseconds.
const readyTimeout = 30 * time.Second

// server is a minicp API server on the shared test etcd, over HTTP.
type server struct {
	t   *testing.T
	url string
}

func newServer(t *testing.T) *server {
	t.Helper()
	api, err := apiserver.New(apiserver.Options{
		Etcd:          storagetest.Client(t),
		StoragePrefix: storagetest.Prefix(t),
		Authenticator: authn.NewTokenFile([]authn.TokenUser{{Token: token, User: request.User{Name: "admin"}}}),
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- api.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	waitCtx, waitCancel := context.WithTimeout(t.Context(), readyTimeout)
	defer waitCancel()
	require.NoError(t, api.WaitReady(waitCtx))
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return &server{t: t, url: srv.URL}
}

// get fetches path with the Accept header and returns the body and its
// Content-Type, failing the test unless the answer is 200.
func (s *server) get(path, accept string) ([]byte, string) {
	s.t.Helper()
	req, err := http.NewRequestWithContext(s.t.Context(), http.MethodGet, s.url+path, nil)
	require.NoError(s.t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(s.t, err)
	require.Equal(s.t, http.StatusOK, resp.StatusCode, "GET %s: %s", path, body)
	return body, resp.Header.Get("Content-Type")
}

// restConfig is a client-go config for the server.
func (s *server) restConfig() *rest.Config {
	return &rest.Config{Host: s.url, BearerToken: token}
}
