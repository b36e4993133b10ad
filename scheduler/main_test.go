package scheduler_test

import (
	"testing"

	"github.com/minicp/minicp/storage/storagetest"
)

// TestMain runs the tests against the shared test etcd and fails the
// binary if a goroutine outlives them: Start must wait for every informer,
// recorder, timer loop and binding cycle it started.
func TestMain(m *testing.M) { storagetest.Main(m) }
