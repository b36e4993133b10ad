package webview_test

import (
	"testing"

	"github.com/minicp/minicp/cluster/clustertest"
)

// TestMain starts the shared etcd, runs the tests and fails on a leaked
// goroutine (an event stream or informer that outlived its context).
func TestMain(m *testing.M) { clustertest.Main(m) }
