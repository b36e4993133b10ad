package shell_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

func TestServers(t *testing.T) {
	servers := func(name string) bool { return name == "nginx" }
	t.Run("direct server handles SIGTERM", func(t *testing.T) {
		p := shell.NewProcess([]string{"nginx", "-g", "daemon off;"}, shell.Config{Host: &recorder{}, Servers: servers})
		res := p.Run(epoch)
		require.Equal(t, shell.Serving, res.Kind)
		assert.Equal(t, []string{"nginx", "-g", "daemon off;"}, res.Argv)
		assert.True(t, p.Signal("TERM"), "a server exits on SIGTERM")
		exited, code := p.Exited()
		assert.True(t, exited)
		assert.Zero(t, code)
	})
	t.Run("exec'd server handles SIGTERM", func(t *testing.T) {
		p := shell.NewProcess(sh("echo starting; exec nginx"), shell.Config{Host: &recorder{}, Servers: servers})
		require.Equal(t, shell.Serving, p.Run(epoch).Kind)
		assert.True(t, p.Signal("TERM"))
	})
	t.Run("server as a child of sh ignores SIGTERM", func(t *testing.T) {
		p := shell.NewProcess(sh("nginx; echo after"), shell.Config{Host: &recorder{}, Servers: servers})
		require.Equal(t, shell.Serving, p.Run(epoch).Kind)
		assert.False(t, p.Signal("TERM"), "PID 1 is sh, which has no handler")
	})
	t.Run("script ignores SIGTERM", func(t *testing.T) {
		p := shell.NewProcess(sh("sleep 10; echo done"), shell.Config{Host: &recorder{}})
		require.Equal(t, shell.Sleeping, p.Run(epoch).Kind)
		assert.False(t, p.Signal("TERM"))
		res := p.Run(epoch.Add(10 * time.Second))
		assert.Equal(t, shell.Exited, res.Kind, "the script goes on and ends by itself")
	})
	t.Run("trap runs after the sleep", func(t *testing.T) {
		rec := &recorder{}
		p := shell.NewProcess(sh("trap 'echo bye; exit 0' TERM; while true; do sleep 1; done"), shell.Config{Host: rec})
		res := p.Run(epoch)
		require.Equal(t, shell.Sleeping, res.Kind)
		assert.False(t, p.Signal("SIGTERM"), "the trap waits for the sleep")
		res = p.Run(res.Until)
		assert.Equal(t, shell.Exited, res.Kind)
		assert.Zero(t, res.ExitCode)
		assert.Equal(t, "bye\n", rec.out.String())
	})
	t.Run("trap that does not exit resumes the script", func(t *testing.T) {
		rec := &recorder{}
		p := shell.NewProcess(sh("trap 'echo got TERM' TERM; sleep 1; echo after; exit 5"), shell.Config{Host: rec})
		res := p.Run(epoch)
		p.Signal("TERM")
		res = p.Run(res.Until)
		assert.Equal(t, shell.Exited, res.Kind)
		assert.Equal(t, 5, res.ExitCode)
		assert.Equal(t, "got TERM\nafter\n", rec.out.String())
	})
}

// TestSignal sends one signal to a process at a point of its run (after
// its first Run, or after it) and follows it to its end: PID 1 ignores
// what it has no handler for, a trap runs once the foreground sleep is
// over, and a server exits at once.
func TestSignal(t *testing.T) {
	servers := func(name string) bool { return name == "nginx" }
	tests := []struct {
		name   string
		argv   []string
		signal string
		// afterRuns is how many Run calls precede the signal; 0 means 1.
		afterRuns int
		// wantHandled is what Signal returns: the process exited of it.
		wantHandled bool
		want        string
		wantCode    int
		wantTime    time.Duration
		// wantServing: the process still serves when the run ends.
		wantServing bool
	}{
		{name: "script without a trap ignores TERM", argv: sh("sleep 10; echo done"), signal: "TERM", want: "done\n", wantTime: 10 * time.Second},
		{name: "script ignores INT and HUP alike", argv: sh("sleep 1; echo done"), signal: "INT", want: "done\n", wantTime: time.Second},
		{name: "PID 1 ignores KILL from inside", argv: sh("sleep 1; echo done"), signal: "KILL", want: "done\n", wantTime: time.Second},
		{name: "bare sleep ignores TERM", argv: []string{"sleep", "5"}, signal: "TERM", wantTime: 5 * time.Second},
		{name: "exec'd sleep ignores TERM", argv: sh("trap 'echo no' TERM; exec sleep 5"), signal: "TERM", wantTime: 5 * time.Second},
		{name: "trap runs after the sleep", argv: sh("trap 'echo bye; exit 0' TERM; while true; do sleep 1; done"), signal: "SIGTERM", want: "bye\n", wantTime: time.Second},
		{name: "trap by number", argv: sh("trap 'echo got; exit 3' 15; sleep 2"), signal: "15", want: "got\n", wantCode: 3, wantTime: 2 * time.Second},
		{name: "signal by number to a trap by name", argv: sh("trap 'echo hup' HUP; sleep 1; echo after"), signal: "1", want: "hup\nafter\n", wantTime: time.Second},
		{name: "trap that does not exit resumes the script", argv: sh("trap 'echo got TERM' TERM; sleep 1; echo after; exit 5"), signal: "TERM", want: "got TERM\nafter\n", wantCode: 5, wantTime: time.Second},
		{name: "trap keeps the status of the script", argv: sh("trap 'false' TERM; sleep 1; echo $?"), signal: "TERM", want: "0\n", wantTime: time.Second},
		{name: "trap for another signal does not run", argv: sh("trap 'echo int' INT; sleep 1; echo after"), signal: "TERM", want: "after\n", wantTime: time.Second},
		{name: "ignored signal", argv: sh("trap '' TERM; sleep 1; echo after"), signal: "TERM", want: "after\n", wantTime: time.Second},
		{name: "reset trap", argv: sh("trap 'echo no' TERM; trap - TERM; sleep 1; echo after"), signal: "TERM", want: "after\n", wantTime: time.Second},
		{name: "EXIT trap runs after a TERM trap exits", argv: sh("trap 'echo exit' EXIT; trap 'exit 2' TERM; sleep 1"), signal: "TERM", want: "exit\n", wantCode: 2, wantTime: time.Second},
		{name: "trap in a later sleep", argv: sh("trap 'echo t; exit' TERM; sleep 1; sleep 1; echo no"), signal: "TERM", afterRuns: 2, want: "t\n", wantTime: 2 * time.Second},
		{name: "signal after the exit does nothing", argv: sh("exit 4"), signal: "TERM", wantCode: 4},
		{name: "direct server exits 0", argv: []string{"nginx"}, signal: "TERM", wantHandled: true},
		{name: "exec'd server exits 0", argv: sh("echo starting; exec nginx"), signal: "TERM", wantHandled: true, want: "starting\n"},
		{name: "server as a child of sh ignores TERM", argv: sh("nginx; echo after"), signal: "TERM", wantServing: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			p := shell.NewProcess(tc.argv, shell.Config{Host: rec, Servers: servers})
			now := epoch
			res := p.Run(now)
			for range tc.afterRuns - 1 {
				require.Equal(t, shell.Sleeping, res.Kind, "%q sleeps before the signal", tc.argv)
				now = res.Until
				res = p.Run(now)
			}
			assert.Equal(t, tc.wantHandled, p.Signal(tc.signal), "Signal(%q) to %q", tc.signal, tc.argv)
			for i := 0; res.Kind == shell.Sleeping && !res.Until.IsZero(); i++ {
				require.Less(t, i, 1000, "%q does not end", tc.argv)
				now = res.Until
				res = p.Run(now)
			}
			exited, code := p.Exited()
			if tc.wantServing {
				assert.Equal(t, shell.Serving, res.Kind, "%q serves", tc.argv)
				assert.False(t, exited, "%q exited", tc.argv)
			} else {
				assert.True(t, exited, "%q exited", tc.argv)
				assert.Equal(t, tc.wantCode, code, "exit code of %q", tc.argv)
			}
			assert.Equal(t, tc.want, rec.out.String(), "stdout of %q", tc.argv)
			assert.Equal(t, tc.wantTime, now.Sub(epoch), "run time of %q", tc.argv)
		})
	}
}

// TestSignalsRunInOrder: two signals that arrive during one sleep run
// their traps in the order they came, then the script goes on.
func TestSignalsRunInOrder(t *testing.T) {
	rec := &recorder{}
	p := shell.NewProcess(sh("trap 'echo term' TERM; trap 'echo usr1' USR1; sleep 1; echo after"), shell.Config{Host: rec})
	res := p.Run(epoch)
	require.Equal(t, shell.Sleeping, res.Kind)
	p.Signal("TERM")
	p.Signal("USR1")
	res = p.Run(res.Until)
	assert.Equal(t, shell.Exited, res.Kind)
	assert.Equal(t, "term\nusr1\nafter\n", rec.out.String())
}

// TestSignalDuringTrap: a signal that comes while a trap sleeps runs its
// own trap when that sleep is over, then the first trap goes on.
func TestSignalDuringTrap(t *testing.T) {
	rec := &recorder{}
	p := shell.NewProcess(sh("trap 'echo t1; sleep 1; echo t1 end' TERM; trap 'echo hup' HUP; sleep 1; echo main"), shell.Config{Host: rec})
	res := p.Run(epoch)
	p.Signal("TERM")
	res = p.Run(res.Until)
	require.Equal(t, shell.Sleeping, res.Kind, "the trap sleeps")
	p.Signal("HUP")
	res = p.Run(res.Until)
	assert.Equal(t, shell.Exited, res.Kind)
	assert.Equal(t, "t1\nhup\nt1 end\nmain\n", rec.out.String())
}

func TestTrap(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "lists nothing", script: "trap", want: ""},
		{name: "lists in signal order", script: "trap 'echo bye' EXIT TERM; trap '' INT; trap ':' USR1; trap",
			want: "trap -- 'echo bye' EXIT\ntrap -- '' INT\ntrap -- ':' USR1\ntrap -- 'echo bye' TERM\nbye\n"},
		{name: "lists quotes", script: `trap 'echo "it'"'"'s"' HUP; trap`, want: `trap -- 'echo "it'"'"'s"' HUP` + "\n"},
		{name: "-p lists", script: "trap ':' HUP; trap -p", want: "trap -- ':' HUP\n"},
		{name: "names, SIG names, numbers, any case", script: "trap : sigterm SIGINT 1 0; trap", want: "trap -- ':' EXIT\ntrap -- ':' HUP\ntrap -- ':' INT\ntrap -- ':' TERM\n"},
		{name: "- resets", script: "trap : TERM INT; trap - TERM; trap", want: "trap -- ':' INT\n"},
		{name: "a lone signal resets", script: "trap : TERM; trap TERM; trap", want: ""},
		{name: "a number first resets", script: "trap : TERM INT; trap 15 2; trap", want: ""},
		{name: "-- before the action", script: "trap -- ':' TERM; trap", want: "trap -- ':' TERM\n"},
		{name: "bad signal", script: "trap : TERM NOPE INT; echo $?; trap", want: "1\ntrap -- ':' INT\ntrap -- ':' TERM\n", wantErr: "sh: trap: NOPE: bad trap\n"},
		{name: "signal number out of range", script: "trap : 99", wantErr: "sh: trap: 99: bad trap\n", wantCode: 1},
		{name: "syntax error in the action", script: "trap 'if' TERM; echo $?", want: "2\n", wantErr: "sh: trap: syntax error: unexpected end of file\n"},
		{name: "EXIT trap at the end", script: "trap 'echo bye' EXIT; echo hi", want: "hi\nbye\n"},
		{name: "EXIT trap on exit", script: "trap 'echo bye' 0; exit 3", want: "bye\n", wantCode: 3},
		{name: "EXIT trap on a failed expansion", script: "trap 'echo bye' EXIT; echo ${X?}", want: "bye\n", wantErr: "sh: X: parameter not set\n", wantCode: 2},
		{name: "EXIT trap on set -e", script: "set -e; trap 'echo bye $?' EXIT; false", want: "bye 1\n", wantCode: 1},
		{name: "EXIT trap runs once", script: "trap 'echo bye; exit 1' EXIT; exit", want: "bye\n", wantCode: 1},
		{name: "EXIT trap reset", script: "trap 'echo no' EXIT; trap - EXIT", want: ""},
		{name: "substitution does not run the traps", script: "trap 'echo bye' EXIT; x=$(echo in); echo $x", want: "in\nbye\n"},
		{name: "KILL can be named but never runs", script: "trap 'echo no' KILL; kill -KILL $$; echo alive", want: "alive\n"},
	})
}

func TestKill(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "self with a trap runs it after kill", script: "trap 'echo got USR1' USR1; kill -USR1 $$; echo after", want: "got USR1\nafter\n"},
		{name: "default signal is TERM", script: "trap 'echo term' TERM; kill 1", want: "term\n"},
		{name: "-s", script: "trap 'echo hup' HUP; kill -s HUP 1", want: "hup\n"},
		{name: "-n", script: "trap 'echo int' INT; kill -n 2 1", want: "int\n"},
		{name: "SIG name and number", script: "trap 'echo x' USR2; kill -SIGUSR2 $$; kill -12 $$", want: "x\nx\n"},
		{name: "pid 0 and -1 are the shell too", script: "trap 'echo t' TERM; kill 0; kill -TERM -- -1", want: "t\nt\n"},
		{name: "trap exit ends the script", script: "trap 'echo bye; exit 3' TERM; kill $$; echo never", want: "bye\n", wantCode: 3},
		{name: "PID 1 ignores TERM without a trap", script: "kill $$; echo $?; echo alive", want: "0\nalive\n"},
		{name: "PID 1 ignores KILL", script: "kill -9 1; echo alive", want: "alive\n"},
		{name: "ignored signal", script: "trap '' TERM; kill $$; echo alive", want: "alive\n"},
		{name: "-0 checks the process", script: "kill -0 $$; echo $?", want: "0\n"},
		{name: "no such process", script: "kill 42; echo $?", want: "1\n", wantErr: "kill: can't kill pid 42: No such process\n"},
		{name: "-0 on no such process", script: "kill -0 42; echo $?", want: "1\n", wantErr: "kill: can't kill pid 42: No such process\n"},
		{name: "bad pid", script: "kill x; echo $?", want: "1\n", wantErr: "kill: invalid number 'x'\n"},
		{name: "bad signal", script: "kill -FOO 1; echo $?", want: "1\n", wantErr: "kill: bad signal name 'FOO'\n"},
		{name: "EXIT is not a signal to send", script: "kill -s EXIT 1", wantErr: "kill: bad signal name 'EXIT'\n", wantCode: 1},
		{name: "no pid", script: "kill; echo $?", want: "1\n", wantErr: "kill: usage: kill [-s SIG | -SIG] PID...\n"},
		{name: "-s without a signal", script: "kill -s", wantErr: "kill: usage: kill [-s SIG | -SIG] PID...\n", wantCode: 1},
		{name: "-l names a number", script: "kill -l 15 9", want: "TERM\nKILL\n"},
		{name: "-l names the signal of an exit status", script: "kill -l 143 137", want: "TERM\nKILL\n"},
		{name: "-l numbers a name", script: "kill -l TERM sigint", want: "15\n2\n"},
		{name: "-l bad", script: "kill -l 99; echo $?", want: "1\n", wantErr: "kill: bad signal name '99'\n"},
		{name: "-l lists", script: "kill -l", want: " 1) HUP\n 2) INT\n 3) QUIT\n 4) ILL\n 5) TRAP\n 6) ABRT\n 7) BUS\n 8) FPE\n 9) KILL\n10) USR1\n" +
			"11) SEGV\n12) USR2\n13) PIPE\n14) ALRM\n15) TERM\n16) STKFLT\n17) CHLD\n18) CONT\n19) STOP\n20) TSTP\n" +
			"21) TTIN\n22) TTOU\n23) URG\n24) XCPU\n25) XFSZ\n26) VTALRM\n27) PROF\n28) WINCH\n29) IO\n30) PWR\n31) SYS\n"},
		{name: "trap runs before the next command of a list", script: "trap 'echo t' USR1; kill -USR1 $$ && echo and", want: "t\nand\n"},
		{name: "kill in a loop with a trap", script: "n=0; trap 'n=$((n+1))' USR1; for i in 1 2 3; do kill -USR1 $$; done; echo $n", want: "3\n"},
	})
}
