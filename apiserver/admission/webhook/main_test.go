package webhook

import (
	"testing"

	"go.uber.org/goleak"
)

// Every call has its own transport, closed when it returns, and Validate
// waits for its goroutines: nothing may outlive the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
