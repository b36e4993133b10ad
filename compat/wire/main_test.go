package wire

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/minicp/minicp/storage/storagetest"
)

// TestMain fails the run if the cluster a test started left a goroutine
// behind, with the ignore list every minicp package uses for etcd and
// grpc.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, storagetest.LeakOptions()...) }
