package simulated_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the binary if a test leaves a goroutine behind: a
// runtime's loop, an HTTP server, a connection.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
