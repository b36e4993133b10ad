package apiservertest

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/storage/storagetest"
)

// AdminToken is the bearer token of the admin of New's servers, a member
// of system:masters, so every authorization mode lets it do anything.
const AdminToken = "admin-token"

// New starts an API server for t and stops it when t ends, waiting until
// every goroutine of the server has returned. It blocks until the
// server's watch caches have synced and the system namespaces exist, and
// fails t if either fails.
//
// The defaults are the shared etcd of the test binary (the package's
// TestMain must call storagetest.Main or clustertest.Main), a fresh
// storagetest.Prefix, one user (the admin, token AdminToken), the
// server's default authorization (allow all), the watch cache on, the
// real clock, and a log of warnings and errors in t's output. mutate
// changes them in place: o.Clock for a clocktest.Fake,
// o.AuthorizationMode = authz.ModeRBAC, o.WatchCacheDisabled to serve
// from etcd alone, o.StoragePrefix to share a prefix with another server,
// o.Logger for another level.
func New(t testing.TB, mutate ...func(*apiserver.Options)) *apiserver.Server {
	t.Helper()
	opts := apiserver.Options{
		Etcd:          storagetest.Client(t),
		StoragePrefix: storagetest.Prefix(t),
		Authenticator: authn.NewTokenFile([]authn.TokenUser{{Token: AdminToken, User: request.User{
			Name: "admin", Groups: []string{request.SystemPrivilegedGroup}}}}),
		Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	for _, m := range mutate {
		m(&opts)
	}
	api, err := apiserver.New(opts)
	if err != nil {
		t.Fatalf("apiservertest: apiserver.New: %v", err)
	}
	// The server outlives t.Context(), which ends before the cleanups
	// run: cleanups registered after New (deleting what a test made,
	// stopping a client) still reach it. It stops in its own cleanup,
	// which runs after theirs.
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	done := make(chan error, 1)
	go func() { done <- api.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("apiservertest: the API server stopped with: %v", err)
		}
	})
	// Requests wait for their resource's cache; waiting here makes the
	// first request of a test no slower than the others, and a server
	// that cannot sync fails here instead of in the test's first call.
	if err := api.WaitReady(t.Context()); err != nil {
		t.Fatalf("apiservertest: watch caches: %v", err)
	}
	if err := api.EnsureSystemNamespaces(t.Context()); err != nil {
		t.Fatalf("apiservertest: %v", err)
	}
	return api
}
