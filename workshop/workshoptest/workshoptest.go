package workshoptest

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/workshop/exercise"
)

// EnableEnv names the environment variable that turns the exercises'
// tests on: MINICP_WORKSHOP=1 go test ./workshop/<exercise>/.
const EnableEnv = "MINICP_WORKSHOP"

// Enabled reports whether the exercises' tests run in this binary: when
// EnableEnv is "1", or always in a build with the solution tag, which
// compiles the reference solutions instead of the skeletons.
func Enabled() bool { return solution || os.Getenv(EnableEnv) == "1" }

// Main is the TestMain of an exercise: with the tests enabled, it starts
// the shared etcd the clusters of the tests use and checks for leaked
// goroutines (clustertest.Main); without, it runs the tests (which skip)
// with the leak check alone, and starts no etcd.
func Main(m *testing.M) {
	if Enabled() {
		clustertest.Main(m)
		return
	}
	goleak.VerifyTestMain(m, storagetest.LeakOptions()...)
}

// Require skips t unless the exercises' tests are enabled.
func Require(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("workshop exercise: run it with %s=1 go test .", EnableEnv)
	}
}

// Check fails t at once when err is an exercise.NotDoneError: what
// names the call ("Reconcile(default/web)"), and the message sends the
// learner to the function the skeleton left for them. Any other error
// fails t too.
func Check(t testing.TB, err error, what string) {
	t.Helper()
	switch {
	case err == nil:
	case exercise.IsNotDone(err):
		t.Fatalf("%s: %v (see this exercise's README.md)", what, err)
	default:
		t.Fatalf("%s: %v", what, err)
	}
}
