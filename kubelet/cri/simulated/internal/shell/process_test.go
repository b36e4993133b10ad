package shell_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// TestNewProcess: how a container's command line becomes a process.
func TestNewProcess(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "empty command line exits 0", argv: []string{}},
		{name: "sh alone exits 0", argv: []string{"sh"}},
		{name: "sh -c", argv: []string{"sh", "-c", "echo hi"}, want: "hi\n"},
		{name: "shells by path", argv: []string{"/bin/sh", "-c", "echo $0"}, want: "sh\n"},
		{name: "bash, ash and dash are sh", argv: []string{"bash", "-c", "echo $0; exit 3"}, want: "bash\n", wantCode: 3},
		{name: "name and arguments", argv: []string{"ash", "-c", `echo "$0|$1|$#"`, "me", "a", "b"}, want: "me|a|2\n"},
		{name: "-- before the script", argv: []string{"sh", "-c", "--", "echo dashes"}, want: "dashes\n"},
		{name: "flags after -c", argv: []string{"sh", "-c", "-e", "false; echo no"}, wantCode: 1},
		{name: "-c without a script", argv: []string{"sh", "-c"}, wantErr: "sh: -c requires an argument\n", wantCode: 2},
		{name: "script file", argv: []string{"dash", "/app/run.sh"}, wantErr: "dash: can't open '/app/run.sh': No such file or directory\n", wantCode: 127},
		{name: "syntax error is reported at the first Run", argv: []string{"sh", "-c", "fi"}, wantErr: "sh: syntax error: unexpected \"fi\"\n", wantCode: 2},
		{name: "direct builtin", argv: []string{"echo", "$HOME", "'q'"}, want: "$HOME 'q'\n"},
		{name: "direct builtin by path", argv: []string{"/usr/bin/printf", "%s\n", "x"}, want: "x\n"},
		{name: "direct exit status", argv: []string{"false"}, wantCode: 1},
		{name: "direct unknown command", argv: []string{"/app/server", "-v"}, wantErr: "sh: /app/server: not found\n", wantCode: 127},
		{name: "environment in order", argv: []string{"env"}, env: []string{"Z=1", "A=2"}, want: "Z=1\nA=2\nPWD=/\n"},
		{name: "environment value with =", argv: []string{"printenv", "A"}, env: []string{"A=x=y"}, want: "x=y\n"},
	})
}

func TestProcessWorkingDir(t *testing.T) {
	rec, res, _ := run(t, sh("pwd; echo x > f; cat /app/f"), shell.Config{WorkingDir: "/app"})
	assert.Equal(t, "/app\nx\n", rec.out.String(), "stdout in /app")
	assert.Equal(t, 0, res.ExitCode)
}

func TestRunAfterTheEnd(t *testing.T) {
	p := shell.NewProcess(sh("exit 5"), shell.Config{Host: &recorder{}})
	exited, _ := p.Exited()
	assert.False(t, exited, "a new process has not run")
	first := p.Run(epoch)
	assert.Equal(t, shell.Result{Kind: shell.Exited, ExitCode: 5}, first)
	assert.Equal(t, first, p.Run(epoch.Add(time.Hour)), "Run after the exit")
	exited, code := p.Exited()
	assert.True(t, exited)
	assert.Equal(t, 5, code)
}

func TestRunWhileServing(t *testing.T) {
	p := shell.NewProcess([]string{"nginx"}, shell.Config{Host: &recorder{}, Servers: func(name string) bool { return name == "nginx" }})
	require.Equal(t, shell.Serving, p.Run(epoch).Kind)
	assert.Equal(t, shell.Serving, p.Run(epoch.Add(time.Second)).Kind, "Run while serving")
}

// TestServerInSubstitution: a server would never end a command
// substitution, so it fails there.
func TestServerInSubstitution(t *testing.T) {
	rec := &recorder{}
	p := shell.NewProcess(sh("x=$(nginx); echo $? [$x]"), shell.Config{Host: rec, Servers: func(name string) bool { return name == "nginx" }})
	res := p.Run(epoch)
	assert.Equal(t, shell.Exited, res.Kind)
	assert.Equal(t, "1 []\n", rec.out.String())
	assert.Equal(t, "nginx: cannot run in a command substitution\n", rec.err.String())
}

// TestBusyLoop: a loop that never sleeps returns from Run every 1,000
// instructions as if it had slept 1 ms, so that time passes and Run
// returns.
func TestBusyLoop(t *testing.T) {
	p := shell.NewProcess(sh("while true; do :; done"), shell.Config{Host: &recorder{}})
	now := epoch
	for i := range 3 {
		res := p.Run(now)
		require.Equal(t, shell.Sleeping, res.Kind, "Run %d", i)
		assert.Equal(t, now.Add(time.Millisecond), res.Until, "Run %d", i)
		now = res.Until
	}
}

func TestOutputIsStampedWithTheProcessTime(t *testing.T) {
	rec, _, _ := run(t, sh("echo a; sleep 1.5; echo b >&2; sleep 1; echo c"), shell.Config{})
	assert.Equal(t, []time.Duration{0, 1500 * time.Millisecond, 2500 * time.Millisecond}, rec.times)
}

func TestIsShellIsBuiltin(t *testing.T) {
	tests := []struct {
		name        string
		wantShell   bool
		wantBuiltin bool
	}{
		{name: "sh", wantShell: true},
		{name: "bash", wantShell: true},
		{name: "ash", wantShell: true},
		{name: "dash", wantShell: true},
		{name: "zsh"},
		{name: "sleep", wantBuiltin: true},
		{name: "[", wantBuiltin: true},
		{name: "kill", wantBuiltin: true},
		{name: "cd", wantBuiltin: true},
		{name: "nginx"},
		{name: "break"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.wantShell, shell.IsShell(tc.name), "IsShell(%q)", tc.name)
			assert.Equal(t, tc.wantBuiltin, shell.IsBuiltin(tc.name), "IsBuiltin(%q)", tc.name)
		})
	}
}
