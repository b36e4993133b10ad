package workqueue_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/minicp/minicp/storage/storagetest"
)

// TestMain fails the binary if a queue's goroutine outlives the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, storagetest.LeakOptions()...) }
