package clustertest

import (
	"testing"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
)

// InMemoryClient is the admin's client of api, an
// apiservertest.New server, over the in-memory transport: the whole
// handler chain runs, without TCP.
func InMemoryClient(t testing.TB, api *apiserver.Server) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(api.Handler()), BearerToken: apiservertest.AdminToken})
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
