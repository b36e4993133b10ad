package minicpenv_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no goroutine outlives the tests: Stop waits for
// minicp, and each test stops its manager and webhook server.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
