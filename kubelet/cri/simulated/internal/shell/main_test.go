package shell_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the binary if a test leaves a goroutine behind. The shell
// starts none (a process is resumed by Run, not by a goroutine of its
// own), and this keeps it so.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
