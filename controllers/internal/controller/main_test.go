package controller

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/minicp/minicp/storage/storagetest"
)

// TestMain fails the binary on leaked goroutines: every worker, delay loop
// and source must stop with its controller.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, storagetest.LeakOptions()...) }
