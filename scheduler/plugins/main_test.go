package plugins_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the binary if a scheduling cycle leaks a goroutine.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
