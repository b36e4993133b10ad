package wait_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the binary if a test leaves a goroutine behind. It uses
// no shared ignore list so that wait stays a leaf even in its tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
