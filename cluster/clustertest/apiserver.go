package clustertest

import (
	"context"
	"testing"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/storage/storagetest"
)

// AdminToken is the bearer token of the admin of NewAPIServer's servers.
const AdminToken = "admin-token"

// NewAPIServer starts an API server alone (no listener, no scheduler, no
// nodes) on the shared etcd under a prefix of its own, with its watch
// caches synced and the system namespaces created, and stops it when t
// ends. mutate may change its options. Reach it with InMemoryClient.
func NewAPIServer(t testing.TB, mutate ...func(*apiserver.Options)) *apiserver.Server {
	t.Helper()
	opts := apiserver.Options{
		Etcd:          storagetest.Client(t),
		StoragePrefix: storagetest.Prefix(t),
		Authenticator: authn.NewTokenFile([]authn.TokenUser{{Token: AdminToken, User: request.User{
			Name: "admin", Groups: []string{request.SystemPrivilegedGroup}}}}),
	}
	for _, m := range mutate {
		m(&opts)
	}
	api, err := apiserver.New(opts)
	if err != nil {
		t.Fatalf("clustertest: apiserver.New: %v", err)
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	done := make(chan error, 1)
	go func() { done <- api.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	if err := api.WaitReady(t.Context()); err != nil {
		t.Fatalf("clustertest: watch caches: %v", err)
	}
	if err := api.EnsureSystemNamespaces(t.Context()); err != nil {
		t.Fatalf("clustertest: %v", err)
	}
	return api
}

// InMemoryClient is the admin's client of api over the in-memory
// transport: the whole handler chain runs, without TCP.
func InMemoryClient(t testing.TB, api *apiserver.Server) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(api.Handler()), BearerToken: AdminToken})
	if err != nil {
		t.Fatalf("clustertest: client: %v", err)
	}
	return c
}

// InMemoryClientset is the Clientset of InMemoryClient(t, api).
func InMemoryClientset(t testing.TB, api *apiserver.Server) *client.Clientset {
	t.Helper()
	cs, err := client.NewClientset(InMemoryClient(t, api))
	if err != nil {
		t.Fatalf("clustertest: clientset: %v", err)
	}
	return cs
}
