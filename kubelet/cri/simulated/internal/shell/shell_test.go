package shell_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

var epoch = time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC)

// recorder is a Host that keeps what a process wrote, per stream, with
// the time of each write.
type recorder struct {
	out, err strings.Builder
	times    []time.Duration
}

func (r *recorder) Write(s shell.Stream, now time.Time, text string) {
	if s == shell.Stdout {
		r.out.WriteString(text)
	} else {
		r.err.WriteString(text)
	}
	r.times = append(r.times, now.Sub(epoch))
}

// run runs argv to completion, jumping from sleep to sleep, and returns
// the result and the time it took. A process that sleeps forever or serves
// stops the run.
func run(t *testing.T, argv []string, cfg shell.Config) (*recorder, shell.Result, time.Duration) {
	t.Helper()
	rec := &recorder{}
	cfg.Host = rec
	p := shell.NewProcess(argv, cfg)
	now := epoch
	for range 100_000 {
		res := p.Run(now)
		if res.Kind != shell.Sleeping || res.Until.IsZero() {
			return rec, res, now.Sub(epoch)
		}
		now = res.Until
	}
	t.Fatalf("%q did not finish", argv)
	return nil, shell.Result{}, 0
}

func sh(script string) []string { return []string{"sh", "-c", script} }

func TestLanguage(t *testing.T) {
	tests := []struct {
		name     string
		argv     []string
		env      []string
		want     string // stdout
		wantErr  string // stderr
		wantCode int
		wantTime time.Duration
		// forever: the process sleeps forever instead of exiting.
		forever bool
	}{
		{name: "echo", argv: sh("echo hello world"), want: "hello world\n"},
		{name: "echo -n", argv: sh("echo -n a; echo b"), want: "ab\n"},
		{name: "echo -e", argv: sh(`echo -e 'a\tb\nc'`), want: "a\tb\nc\n"},
		{name: "echo without -e keeps backslashes", argv: sh(`echo 'a\nb'`), want: "a\\nb\n"},
		{name: "variables from env", argv: sh(`echo "$GREETING, ${NAME}!" $HOSTNAME`), env: []string{"GREETING=hi", "NAME=pod", "HOSTNAME=web-0"}, want: "hi, pod! web-0\n"},
		{name: "unset variable is empty", argv: sh(`echo "[$NOPE]"`), want: "[]\n"},
		{name: "default value", argv: sh(`echo ${NOPE:-fallback} ${NAME:-x}`), env: []string{"NAME=set"}, want: "fallback set\n"},
		{name: "assignment and length", argv: sh(`X=hello; echo ${#X} $X`), want: "5 hello\n"},
		{name: "single quotes are literal", argv: sh(`echo '$HOME "x"'`), want: "$HOME \"x\"\n"},
		{name: "field splitting", argv: sh(`X="a   b"; for w in $X; do echo "<$w>"; done; for w in "$X"; do echo "<$w>"; done`), want: "<a>\n<b>\n<a   b>\n"},
		{name: "printf", argv: sh(`printf '%s=%d\n' a 1 b 2; printf '%5s|%-3d|%x\n' hi 7 255`), want: "a=1\nb=2\n   hi|7  |ff\n"},
		{name: "exit code", argv: sh("exit 3"), wantCode: 3},
		{name: "exit code wraps", argv: sh("exit 257"), wantCode: 1},
		{name: "last status is the exit code", argv: sh("true; false"), wantCode: 1},
		{name: "status variable", argv: sh("false; echo $?; true; echo $?"), want: "1\n0\n"},
		{name: "and-or", argv: sh("true && echo a || echo b; false && echo c || echo d"), want: "a\nd\n"},
		{name: "not", argv: sh("! false && echo yes"), want: "yes\n"},
		{name: "sleep", argv: sh("echo start; sleep 2; echo end"), want: "start\nend\n", wantTime: 2 * time.Second},
		{name: "fractional sleep and suffixes", argv: sh("sleep 0.5; sleep 1m; sleep 0.25s"), wantTime: 60*time.Second + 750*time.Millisecond},
		{name: "sleep sums its arguments", argv: sh("sleep 1 2"), wantTime: 3 * time.Second},
		{name: "bad sleep", argv: sh("sleep abc"), wantErr: "sleep: invalid number 'abc'\n", wantCode: 1},
		{name: "sleep infinity", argv: sh("echo up; sleep infinity; echo never"), want: "up\n", forever: true},
		{name: "tail -f /dev/null waits forever", argv: []string{"tail", "-f", "/dev/null"}, forever: true},
		{name: "busybox example", argv: sh("echo hi; sleep 2; exit 3"), want: "hi\n", wantCode: 3, wantTime: 2 * time.Second},
		{name: "unknown command", argv: sh("nosuchcmd arg; echo after"), wantErr: "sh: nosuchcmd: not found\n", want: "after\n"},
		{name: "unknown command status", argv: sh("nosuchcmd"), wantErr: "sh: nosuchcmd: not found\n", wantCode: 127},
		{name: "direct command", argv: []string{"echo", "direct", "$HOME"}, want: "direct $HOME\n"},
		{name: "direct sleep", argv: []string{"/bin/sleep", "5"}, wantTime: 5 * time.Second},
		{name: "direct unknown command", argv: []string{"nosuch"}, wantErr: "sh: nosuch: not found\n", wantCode: 127},
		{name: "while loop with counter", argv: sh(`i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); sleep 1; done`), want: "0\n1\n2\n", wantTime: 3 * time.Second},
		{name: "until loop", argv: sh(`i=3; until [ $i -eq 0 ]; do i=$((i-1)); done; echo $i`), want: "0\n"},
		{name: "for loop", argv: sh("for i in 1 2 3; do echo item $i; done"), want: "item 1\nitem 2\nitem 3\n"},
		{name: "for over seq", argv: sh("for i in $(seq 3); do printf $i; done; echo"), want: "123\n"},
		{name: "break and continue", argv: sh("for i in 1 2 3 4 5; do if [ $i = 2 ]; then continue; fi; if [ $i = 4 ]; then break; fi; echo $i; done"), want: "1\n3\n"},
		{name: "while true with break", argv: sh("n=0; while true; do n=$((n+1)); if [ $n -ge 3 ]; then break; fi; sleep 1; done; echo $n"), want: "3\n", wantTime: 2 * time.Second},
		{name: "if elif else", argv: sh(`for x in a b c; do if [ $x = a ]; then echo A; elif [ $x = b ]; then echo B; else echo other; fi; done`), want: "A\nB\nother\n"},
		{name: "if without else is 0", argv: sh("if false; then echo no; fi"), wantCode: 0},
		{name: "newlines separate", argv: sh("echo one\necho two\n\n  echo three # comment\n"), want: "one\ntwo\nthree\n"},
		{name: "brace group", argv: sh("{ echo a; echo b; } && echo c"), want: "a\nb\nc\n"},
		{name: "arithmetic", argv: sh("echo $((1 + 2 * 3)) $(( (1+2)*3 )) $((7 / 2)) $((7 % 3)) $((-4 + 1)) $((3 > 2))"), want: "7 9 3 1 -3 1\n"},
		{name: "division by zero", argv: sh("echo $((1/0)); echo unreachable"), wantErr: "sh: arithmetic: division by zero\n", wantCode: 2},
		{name: "command substitution", argv: sh(`echo "host=$(hostname) up=$(echo $((1+1)))"`), want: "host=web-0 up=2\n"},
		{name: "backquotes", argv: sh("echo `echo hi`"), want: "hi\n"},
		{name: "stderr redirection", argv: sh("echo out; echo err >&2; echo err2 1>&2"), want: "out\n", wantErr: "err\nerr2\n"},
		{name: "dev null", argv: sh("echo gone > /dev/null; nosuch 2>/dev/null; echo $?"), want: "127\n"},
		{name: "files", argv: sh("echo one > /tmp/f; echo two >> /tmp/f; cat /tmp/f; rm /tmp/f; cat /tmp/f"), want: "one\ntwo\n", wantErr: "cat: can't open '/tmp/f': No such file or directory\n", wantCode: 1},
		{name: "touch and test -f", argv: sh("touch /tmp/healthy; [ -f /tmp/healthy ] && echo yes; rm -f /tmp/nope"), want: "yes\n"},
		{name: "hostname file", argv: sh("cat /etc/hostname"), want: "web-0\n"},
		{name: "test operators", argv: sh(`[ -z "" ] && [ -n x ] && [ a != b ] && [ 3 -ge 3 ] && test 1 -lt 2 -a x = x && echo ok`), want: "ok\n"},
		{name: "test bad number", argv: sh("[ x -eq 1 ]"), wantErr: "sh: [: x: bad number\n", wantCode: 2},
		{name: "missing ]", argv: sh("[ 1 = 1"), wantErr: "sh: [: missing ]\n", wantCode: 2},
		{name: "env", argv: sh("env"), env: []string{"A=1", "B=2"}, want: "A=1\nB=2\nPWD=/\n"},
		{name: "export adds to env", argv: sh("export C=3; printenv C"), want: "3\n"},
		{name: "date", argv: sh("date; date +%s; date -u +%Y-%m-%dT%H:%M:%SZ"), want: "Mon May  6 07:00:00 UTC 2024\n1714978800\n2024-05-06T07:00:00Z\n"},
		{name: "date follows time", argv: sh("sleep 90; date +%T"), want: "07:01:30\n", wantTime: 90 * time.Second},
		{name: "positional parameters", argv: []string{"sh", "-c", `echo "$0 $1 $2 $#"; for a in "$@"; do echo "[$a]"; done`, "name", "x y", "z"}, want: "name x y z 2\n[x y]\n[z]\n"},
		{name: "set -e exits on failure", argv: []string{"sh", "-ec", "echo a; false; echo b"}, want: "a\n", wantCode: 1},
		{name: "set -e spares conditions", argv: sh("set -e; if false; then :; fi; false || true; ! true; echo reached"), want: "reached\n"},
		{name: "set -x", argv: sh("set -x; echo $((1+1))"), want: "2\n", wantErr: "+ echo 2\n"},
		{name: "bash -c", argv: []string{"/bin/bash", "-euo", "pipefail", "-c", "echo bash"}, want: "bash\n"},
		{name: "sh alone exits 0", argv: []string{"sh"}},
		{name: "sh with a script file", argv: []string{"sh", "/app/run.sh"}, wantErr: "sh: can't open '/app/run.sh': No such file or directory\n", wantCode: 127},
		{name: "syntax error", argv: sh("if true; then echo"), wantErr: "sh: syntax error: unexpected end of file\n", wantCode: 2},
		{name: "unexpected token", argv: sh("echo a; fi"), wantErr: "sh: syntax error: unexpected \"fi\"\n", wantCode: 2},
		{name: "pipes are not supported", argv: sh("echo a | cat"), wantErr: "sh: syntax error: pipes (|) are not supported\n", wantCode: 2},
		{name: "exec replaces the shell", argv: sh("exec echo replaced; echo never"), want: "replaced\n"},
		{name: "exec sleep", argv: sh("exec sleep 3; echo never"), wantTime: 3 * time.Second},
		{name: "EXIT trap", argv: sh("trap 'echo bye' EXIT; echo hi; exit 4"), want: "hi\nbye\n", wantCode: 4},
		{name: "busy loop lets time pass", argv: sh("i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; echo $i"), want: "2000\n",
			// Four instructions an iteration (test, jump, assignment,
			// jump back): 8000, so eight 1 ms quanta.
			wantTime: 8 * time.Millisecond},
		{name: "substitution takes no time", argv: sh("x=$(sleep 10; echo done); echo $x"), want: "done\n"},
		{name: "uname whoami pwd cd", argv: sh("uname; whoami; cd /tmp; pwd"), want: "Linux\nroot\n/tmp\n"},
		{name: "hostname -i", argv: sh("hostname -i"), want: "10.244.1.5\n"},
		{name: "read without stdin fails", argv: sh("read x || echo none"), want: "none\n"},
		{name: "read from a file", argv: sh("echo 'a b c' > /f; read x y < /f; echo $y"), want: "b c\n"},
		{name: "nested shells are refused", argv: sh("sh -c 'echo x'"), wantErr: "sh: nested shells are not supported\n", wantCode: 126},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := shell.Config{
				Env:      tc.env,
				Hostname: "web-0",
				IP:       "10.244.1.5",
				FS:       shell.NewFS(map[string]string{"/etc/hostname": "web-0\n"}),
			}
			rec, res, took := run(t, tc.argv, cfg)
			assert.Equal(t, tc.want, rec.out.String(), "stdout of %q", tc.argv)
			assert.Equal(t, tc.wantErr, rec.err.String(), "stderr of %q", tc.argv)
			wantKind := shell.Exited
			if tc.forever {
				wantKind = shell.Sleeping
			}
			assert.Equal(t, wantKind, res.Kind, "result of %q", tc.argv)
			if wantKind == shell.Exited {
				assert.Equal(t, tc.wantCode, res.ExitCode, "exit code of %q", tc.argv)
			}
			assert.Equal(t, tc.wantTime, took, "run time of %q", tc.argv)
		})
	}
}

func TestOutputIsStampedWithTheProcessTime(t *testing.T) {
	rec, _, _ := run(t, sh("echo a; sleep 1.5; echo b >&2; sleep 1; echo c"), shell.Config{})
	assert.Equal(t, []time.Duration{0, 1500 * time.Millisecond, 2500 * time.Millisecond}, rec.times)
}

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

func TestParseErrors(t *testing.T) {
	tests := []struct {
		script string
		want   string
	}{
		{"echo 'unterminated", "unterminated quoted string"},
		{`echo "unterminated`, "unterminated quoted string"},
		{"while true; do echo", "unexpected end of file"},
		{"for 1x in a; do :; done", "bad for loop variable"},
		{"sleep 1 &", "background jobs (&) are not supported"},
		{"(echo sub)", "subshells ( ... ) are not supported"},
		{"f() { echo; }", "functions are not supported"},
		{"case x in esac", `"case" is not supported`},
		{"cat <<EOF", "here-documents (<<) are not supported"},
		{"echo $(echo", "missing ')'"},
		{"echo ${", "missing '}'"},
		{"then", `unexpected "then"`},
		{"echo a;; echo b", `unexpected ";;"`},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			_, err := shell.Parse(tc.script)
			var se *shell.SyntaxError
			require.ErrorAs(t, err, &se, "Parse(%q)", tc.script)
			assert.Equal(t, tc.want, se.Msg, "Parse(%q)", tc.script)
		})
	}
}

// TestReadOnlyMount: a mounted volume's files can be read like any other,
// and a read-only mount refuses writes, new files and removals, in
// busybox's words; the rest of the file system stays writable.
func TestReadOnlyMount(t *testing.T) {
	fs := shell.NewFS(map[string]string{"/etc/cfg/old": "hidden\n"})
	fs.Mount("/etc/cfg", map[string]string{"key": "v\n", "sub/k2": "w\n"}, true)
	fs.Mount("/etc/one.conf", map[string]string{"": "single\n"}, false)
	rec, res, _ := run(t, sh(`cat /etc/cfg/key /etc/cfg/sub/k2 /etc/one.conf; [ -d /etc/cfg/sub ] && echo dir
echo x > /etc/cfg/key; echo x >> cfg/sub/k2; touch /etc/cfg/new; rm /etc/cfg/key; rm -f /etc/cfg/none
cat /etc/cfg/key; [ -f /etc/cfg/new ] || echo no new; cat /etc/cfg/old
echo y > /etc/one.conf; cat /etc/one.conf; echo ok > /tmp/f; cat /tmp/f`), shell.Config{FS: fs, WorkingDir: "/etc"})
	assert.Equal(t, "v\nw\nsingle\ndir\nv\nno new\ny\nok\n", rec.out.String())
	assert.Equal(t, "sh: can't create /etc/cfg/key: Read-only file system\n"+
		"sh: can't create cfg/sub/k2: Read-only file system\n"+
		"touch: /etc/cfg/new: Read-only file system\n"+
		"rm: can't remove '/etc/cfg/key': Read-only file system\n"+
		"cat: can't open '/etc/cfg/old': No such file or directory\n", rec.err.String())
	assert.Equal(t, shell.Exited, res.Kind)
}
