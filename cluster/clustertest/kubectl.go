package clustertest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// KubectlTimeout bounds one kubectl command. kubectl answers in well under
// a second against minicp, but a command may itself wait, up to
// WaitTimeout (kubectl wait, delete, rollout status), and then needs time
// to print.
var KubectlTimeout = 2 * WaitTimeout

// Kubectl runs the real kubectl against one kubeconfig, as a user at a
// shell would. Each command gets a HOME of its own under the test's
// temporary directory, so it starts with no discovery or OpenAPI cache,
// as a new user's first command does, and writes nothing to the real
// HOME. Command may be called from any goroutine; Run and Fail fail the
// test, so, like t.Fatal, only from the test's own.
type Kubectl struct {
	t          testing.TB
	kubeconfig string
}

// NewKubectl returns a Kubectl using the kubeconfig at path, which need
// not exist yet (a test may write it once its cluster is up). It skips t
// when kubectl is not on PATH: tests of what a user types need the real
// kubectl, not an imitation of it.
func NewKubectl(t testing.TB, kubeconfig string) *Kubectl {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on PATH: skipping the kubectl tests (install kubectl to run them)")
	}
	return &Kubectl{t: t, kubeconfig: kubeconfig}
}

// Command returns kubectl with args, not started, bound to ctx, for a
// test that streams its output, feeds its input or reads its exit
// status.
func (k *Kubectl) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", k.kubeconfig}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+k.kubeconfig, "HOME="+k.t.TempDir())
	return cmd
}

// Run runs kubectl with args and returns its combined output, failing
// the test if it fails or outlives KubectlTimeout.
func (k *Kubectl) Run(args ...string) string {
	k.t.Helper()
	out, err := k.output(args)
	if err != nil {
		k.t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Fail runs kubectl with args, expecting it to fail, and returns its
// combined output; it fails the test if kubectl succeeds.
func (k *Kubectl) Fail(args ...string) string {
	k.t.Helper()
	out, err := k.output(args)
	if err == nil {
		k.t.Fatalf("kubectl %s should fail:\n%s", strings.Join(args, " "), out)
	}
	return out
}

// output runs kubectl with args under KubectlTimeout.
func (k *Kubectl) output(args []string) (string, error) {
	return k.Output(func(ctx context.Context) *exec.Cmd { return k.Command(ctx, args...) })
}

// Output runs the command newCmd returns for ctx (kubectl from Command,
// with its stdin or environment set, or a program that runs kubectl)
// under KubectlTimeout, and returns its combined output and error as
// exec.Cmd.CombinedOutput does.
//
// A run in which kubectl says it dropped messages it had no stream for
// runs once more. That is a race in kubectl's own WebSocket client
// (client-go's remotecommand, fixed upstream by kubernetes PR 131203;
// kubectl 1.32 has it): it starts reading the connection while it still
// creates its stdout and stderr streams, so output that a fast server
// sends at once is logged as "Unknown stream id" and lost, and kubectl
// exits 0 without it. The server cannot tell when the client is ready,
// as the protocol has no message for it; a real container's exec takes
// long enough to start that the race is rarely seen there, a simulated
// one does not.
func (k *Kubectl) Output(newCmd func(ctx context.Context) *exec.Cmd) (string, error) {
	run := func() (string, error) {
		ctx, cancel := context.WithTimeout(k.t.Context(), KubectlTimeout)
		defer cancel()
		out, err := newCmd(ctx).CombinedOutput()
		return string(out), err
	}
	out, err := run()
	if strings.Contains(out, "Unknown stream id") {
		k.t.Logf("kubectl dropped output sent before it had created its streams; running it once more. Its output was:\n%s", out)
		out, err = run()
	}
	return out, err
}

// Kubeconfig is the path of the kubeconfig every command uses, for a test
// that runs kubectl through another program (a terminal, a shell).
func (k *Kubectl) Kubeconfig() string { return k.kubeconfig }
