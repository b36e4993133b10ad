package clustertest

import (
	"testing"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/manager"
)

// StartManager runs a controllers Manager over cl on clk (clock.Real when
// nil) with the controllers that adds add, such as replicaset.Add, until
// t ends; it fails t if the Manager cannot be made or does not stop
// cleanly. With clustertest.New(t, WithControllers()), it is how a test
// runs exactly the controllers it is about.
func StartManager(t testing.TB, cl *client.Client, clk clock.Clock, adds ...func(*manager.Manager) error) *manager.Manager {
	t.Helper()
	mgr, err := manager.New(manager.Options{Client: cl, Clock: clk})
	if err != nil {
		t.Fatalf("clustertest: manager: %v", err)
	}
	for _, add := range adds {
		if err := add(mgr); err != nil {
			t.Fatalf("clustertest: add a controller: %v", err)
		}
	}
	Start(t, mgr)
	return mgr
}
