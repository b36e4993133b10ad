package cluster_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runExec runs kubectl with stdin and extra environment, returning its
// output and exit code (0 on success).
func (k *kubectl) runExec(stdin string, env []string, args ...string) (string, int) {
	k.t.Helper()
	out, err := k.Output(func(ctx context.Context) *exec.Cmd {
		cmd := k.Command(ctx, args...)
		cmd.Env = append(cmd.Env, env...)
		if stdin != "" {
			cmd.Stdin = strings.NewReader(stdin)
		}
		return cmd
	})
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return string(out), exitErr.ExitCode()
	}
	require.NoError(k.t, err, "kubectl %s:\n%s", strings.Join(args, " "), out)
	return string(out), 0
}

// The protocols kubectl 1.32 can use for exec: WebSocket (its default)
// and SPDY, which it falls back to and which this variable forces.
var execProtocols = []struct {
	name string
	env  []string
}{
	{"websocket", nil},
	{"spdy", []string{"KUBECTL_REMOTE_COMMAND_WEBSOCKETS=false"}},
}

// TestKubectlExec: `kubectl exec` runs a command in the container's
// simulated shell, with its output, its stdin and its exit code, over
// both protocols.
func TestKubectlExec(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)
	k.Run("run", "box", "--image=busybox", "--", "sh", "-c", "echo started > /tmp/state; sleep 3600")
	k.Run("wait", "--for=condition=Ready", "pod/box", "--timeout=60s")

	for _, p := range execProtocols {
		t.Run(p.name, func(t *testing.T) {
			out, code := k.runExec("", p.env, "exec", "box", "--", "cat", "/tmp/state")
			assert.Equal(t, 0, code, "cat:\n%s", out)
			assert.Equal(t, "started\n", out)

			out, code = k.runExec("", p.env, "exec", "box", "--", "sh", "-c", "echo out; echo err >&2; exit 3")
			assert.Equal(t, 3, code, "kubectl exits with the command's code:\n%s", out)
			assert.Contains(t, out, "out\n")
			assert.Contains(t, out, "err\n")
			assert.Contains(t, out, "command terminated with exit code 3")

			out, code = k.runExec("hello from stdin\n", p.env, "exec", "-i", "box", "--", "cat")
			assert.Equal(t, 0, code, "cat of stdin:\n%s", out)
			assert.Equal(t, "hello from stdin\n", out)

			out, code = k.runExec("echo $HOSTNAME; exit 7\n", p.env, "exec", "-i", "box", "--", "sh")
			assert.Equal(t, 7, code, "a script on stdin:\n%s", out)
			assert.Equal(t, "box\n", strings.SplitN(out, "command terminated", 2)[0])
		})
	}

	out := k.Fail("exec", "box", "-c", "nope", "--", "true")
	assert.Contains(t, out, "container nope is not valid for pod box")
	out = k.Fail("exec", "missing", "--", "true")
	assert.Contains(t, out, `pods "missing" not found`)
	out, code := k.runExec("", nil, "exec", "box", "--", "nosuchcommand")
	assert.Equal(t, 127, code, "%s", out)
	assert.Contains(t, out, `exec: "nosuchcommand": executable file not found in $PATH`)

	// The API server's own checks, and the kubelet's refusal of a
	// request that does not upgrade, come back as Status errors.
	k.Run("run", "done", "--image=busybox", "--restart=Never", "--", "true")
	k.Run("wait", "--for=jsonpath={.status.phase}=Succeeded", "pod/done", "--timeout=60s")
	for _, tc := range []struct{ path, want string }{
		{"/api/v1/namespaces/default/pods/done/exec?command=true&stdout=true", "cannot exec into a container in a completed pod; current phase is Succeeded"},
		{"/api/v1/namespaces/default/pods/box/exec?stdout=true", "you must specify at least one command for the container"},
		{"/api/v1/namespaces/default/pods/box/exec?command=true", "you must specify at least 1 of stdin, stdout, stderr"},
		{"/api/v1/namespaces/default/pods/box/exec?command=true&stdout=true", "unable to upgrade: missing upgrade headers in request"},
		{"/api/v1/namespaces/default/pods/box/attach?stdout=true", "unable to upgrade: missing upgrade headers in request"},
	} {
		out := k.Fail("get", "--raw", tc.path)
		assert.Contains(t, out, tc.want, "GET %s", tc.path)
		assert.Contains(t, out, "BadRequest", "a Status with its reason: GET %s", tc.path)
	}
}

// TestKubectlCp: `kubectl cp` copies files and directories into a
// container and back, through exec and the simulated shell's tar.
func TestKubectlCp(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)
	k.Run("run", "box", "--image=busybox", "--", "sleep", "3600")
	k.Run("wait", "--for=condition=Ready", "pod/box", "--timeout=60s")

	dir := t.TempDir()
	src := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(src, []byte("line one\nline two\n"), 0o644))
	k.Run("cp", src, "box:/tmp/notes.txt")
	assert.Equal(t, "line one\nline two\n", k.Run("exec", "box", "--", "cat", "/tmp/notes.txt"), "the file in the container")

	tree := filepath.Join(dir, "conf")
	require.NoError(t, os.MkdirAll(filepath.Join(tree, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(tree, "a.conf"), []byte("a=1\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(tree, "sub", "b.conf"), []byte("b=2\n"), 0o644))
	k.Run("cp", tree, "box:/etc/app")
	assert.Equal(t, "b=2\n", k.Run("exec", "box", "--", "cat", "/etc/app/sub/b.conf"), "a directory, recursively")

	back := filepath.Join(dir, "back.txt")
	k.Run("cp", "box:/tmp/notes.txt", back)
	got, err := os.ReadFile(back)
	require.NoError(t, err)
	assert.Equal(t, "line one\nline two\n", string(got), "the file copied back")

	backTree := filepath.Join(dir, "back")
	k.Run("cp", "box:/etc/app", backTree)
	got, err = os.ReadFile(filepath.Join(backTree, "sub", "b.conf"))
	require.NoError(t, err, "the directory copied back")
	assert.Equal(t, "b=2\n", string(got))

	// tar complains on stderr, which kubectl may or may not print before
	// it sees the archive end (and 1.32 exits 0 either way): nothing is
	// copied.
	_, _ = k.runExec("", nil, "cp", "box:/tmp/missing", filepath.Join(dir, "x"))
	assert.NoFileExists(t, filepath.Join(dir, "x"))
	out := k.Run("exec", "box", "--", "sh", "-c", "tar cf - /tmp/missing 2>&1 >/dev/null; echo $?")
	assert.Contains(t, out, "tar: /tmp/missing: No such file or directory\n1\n")
}

// TestKubectlAttach: `kubectl attach` shows what the container's main
// process writes from then on, and returns when it exits.
func TestKubectlAttach(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)
	k.Run("run", "ticker", "--image=busybox", "--restart=Never", "--", "sh", "-c",
		"i=0; until [ -f /tmp/stop ]; do echo tick $i; i=$((i+1)); sleep 0.2; done; echo bye >&2")
	k.Run("wait", "--for=condition=Ready", "pod/ticker", "--timeout=60s")
	for _, p := range execProtocols {
		t.Run(p.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), clustertest.KubectlTimeout)
			defer cancel()
			cmd := k.Command(ctx, "attach", "ticker")
			cmd.Env = append(cmd.Env, p.env...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			sc := bufio.NewScanner(stdout)
			require.True(t, sc.Scan(), "a line of the running process")
			assert.Regexp(t, `^tick \d+$`, sc.Text())
			if p.name != "spdy" {
				// Leave the container running for the next protocol.
				cancel()
				_ = cmd.Wait()
				return
			}
			k.Run("exec", "ticker", "--", "touch", "/tmp/stop")
			for sc.Scan() {
			}
			require.NoError(t, cmd.Wait(), "attach ends when the container does:\n%s", stderr.String())
			assert.Contains(t, stderr.String(), "bye\n", "the last line, on stderr")
		})
	}
}

// TestKubectlExecTerminal: `kubectl exec -it pod -- sh` on a terminal
// (script(1) gives kubectl one) gets the container's interactive shell.
func TestKubectlExecTerminal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	requireScript(t)
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)
	k.Run("run", "box", "--image=busybox", "--", "sleep", "3600")
	k.Run("wait", "--for=condition=Ready", "pod/box", "--timeout=60s")

	for _, p := range execProtocols {
		t.Run(p.name, func(t *testing.T) {
			out, code := k.onTerminal(t, "cd /tmp; echo in $PWD of $HOSTNAME\rexit 3\r", p.env, "exec", "-it", "box", "--", "sh")
			assert.Equal(t, 3, code, "the shell's exit code:\n%s", out)
			assert.Contains(t, out, "in /tmp of box\r\n", "the command's output")
			assert.Contains(t, out, "/tmp # ", "the prompt")
		})
	}
}

// TestKubectlRunInteractive: `kubectl run -it --rm -- sh` attaches to a
// shell that reads what is typed, as its main process, and ends with
// it.
func TestKubectlRunInteractive(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	requireScript(t)
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)
	out, code := k.onTerminal(t, "\recho hi from $HOSTNAME\rexit 5\r", nil,
		"run", "shell", "-it", "--rm", "--restart=Never", "--image=busybox", "--", "sh")
	assert.Equal(t, 5, code, "the shell's exit code:\n%s", out)
	assert.Contains(t, out, "hi from shell\r\n", "the command's output")
	assert.Contains(t, out, "/ # ", "the prompt")
	assert.Contains(t, out, `pod "shell" deleted`, "--rm")
}

// requireScript skips the test when script(1), which gives kubectl a
// terminal, is missing.
func requireScript(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script(1) is not on PATH: it gives kubectl the terminal this test needs")
	}
}

// onTerminal runs kubectl on a terminal of script(1)'s, typing input,
// and returns what the terminal showed and kubectl's exit code.
func (k *kubectl) onTerminal(t *testing.T, input string, env []string, args ...string) (string, int) {
	t.Helper()
	line := "kubectl --kubeconfig " + k.Kubeconfig() + " " + strings.Join(args, " ")
	out, err := k.Output(func(ctx context.Context) *exec.Cmd {
		cmd := exec.CommandContext(ctx, "script", "-qefc", line, "/dev/null")
		cmd.Env = append(k.Command(ctx).Env, env...)
		cmd.Stdin = strings.NewReader(input)
		return cmd
	})
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return string(out), exitErr.ExitCode()
	}
	require.NoError(t, err, "%s:\n%s", line, out)
	return string(out), 0
}
