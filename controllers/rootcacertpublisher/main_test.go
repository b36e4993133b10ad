package rootcacertpublisher_test

import (
	"testing"

	"github.com/minicp/minicp/storage/storagetest"
)

// TestMain runs the tests on one shared etcd and fails the binary on
// leaked goroutines (storagetest.Main uses goleak).
func TestMain(m *testing.M) { storagetest.Main(m) }
