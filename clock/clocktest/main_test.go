package clocktest_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the binary if a test leaves a goroutine behind. It does
// not use storagetest.LeakOptions (empty today) so that clock stays a leaf
// even in its tests and its test binary does not link etcd.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
