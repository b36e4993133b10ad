package framework_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the binary if a test leaks a goroutine: Filter and Score
// fan out over nodes and must wait for every worker before returning.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
