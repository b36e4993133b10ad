package watchcache_test

import (
	"testing"

	"github.com/minicp/minicp/storage/storagetest"
)

// TestMain starts the shared etcd for the package's tests (internal and
// external) and checks for leaked goroutines after them.
func TestMain(m *testing.M) { storagetest.Main(m) }
