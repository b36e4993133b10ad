package streaming

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the binary if a stream's goroutine outlives the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
