package queue_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/minicp/minicp/storage/storagetest"
)

// TestMain fails the binary if a test leaks a goroutine: Run must stop
// with its ctx.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, storagetest.LeakOptions()...) }
