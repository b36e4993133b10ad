package shell_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// epoch is when every test process starts: time passes only as Run is
// given later times, so the tests need no clock.
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

// scriptTest is one case of a table of scripts: the script (or argv) runs
// to its end in the world of testConfig, and what it wrote, its exit code
// and the time it took are compared.
type scriptTest struct {
	name string
	// script runs as sh -c script, unless argv is set.
	script string
	argv   []string
	env    []string
	// files are added to the file system.
	files    map[string]string
	want     string // stdout
	wantErr  string // stderr
	wantCode int
	wantTime time.Duration
	// forever: the process sleeps forever instead of exiting.
	forever bool
}

// testConfig is the world of the scripts: a pod web-0 at 10.244.1.5.
func testConfig(env []string, files map[string]string) shell.Config {
	fs := shell.NewFS(map[string]string{"/etc/hostname": "web-0\n"})
	for name, data := range files {
		fs.Write(name, data, false)
	}
	return shell.Config{Env: env, Hostname: "web-0", IP: "10.244.1.5", FS: fs}
}

// runScripts runs each test as a subtest.
func runScripts(t *testing.T, tests []scriptTest) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			argv := tc.argv
			if argv == nil {
				argv = sh(tc.script)
			}
			rec, res, took := run(t, argv, testConfig(tc.env, tc.files))
			assert.Equal(t, tc.want, rec.out.String(), "stdout of %q", argv)
			assert.Equal(t, tc.wantErr, rec.err.String(), "stderr of %q", argv)
			wantKind := shell.Exited
			if tc.forever {
				wantKind = shell.Sleeping
			}
			assert.Equal(t, wantKind, res.Kind, "result of %q", argv)
			if wantKind == shell.Exited {
				assert.Equal(t, tc.wantCode, res.ExitCode, "exit code of %q", argv)
			}
			assert.Equal(t, tc.wantTime, took, "run time of %q", argv)
		})
	}
}
