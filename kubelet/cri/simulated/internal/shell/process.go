package shell

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

type procState uint8

const (
	stateRunning procState = iota
	stateServing
	stateExited
)

// Process is one run of a program: PID 1 of a container, or an exec. It
// has no goroutine: Run executes it until it sleeps, serves or exits, and
// the caller calls Run again when the sleep is over. Not safe for
// concurrent use; the runtime serializes calls.
type Process struct {
	cfg Config
	fs  *FS
	// vars holds the variables; env lists their names in environment
	// order. Every variable is exported.
	vars map[string]string
	env  []string
	// args are $0, $1, ...
	args   []string
	status int
	frames []*frame
	// traps maps a signal name ("TERM", "INT", "EXIT") to its action.
	traps map[string]trapAction
	// pending are the signals whose traps run before the next
	// instruction: the shell runs a trap only after the foreground
	// command (a sleep) finishes.
	pending []string
	// errexit, nounset and xtrace are set -e, -u and -x.
	errexit bool
	nounset bool
	xtrace  bool
	// substituted is set when a command substitution ran while the
	// current command's words were expanded.
	substituted bool
	// execed is set once the shell was replaced by a command (exec, or a
	// direct container command): signals then go to that command.
	execed         bool
	exitAfterSleep bool
	// pendingIO is the outcome of the network command the process waits
	// for: filled by Result.IO, applied when Run resumes.
	pendingIO   *ioOutcome
	inExitTrap  bool
	pendingExit int
	state       procState
	exitCode    int
	now         time.Time
	// fds are where file descriptors 1 and 2 write (index 0 unused), and
	// stdin what fd 0 reads, for the command that runs now.
	fds   [3]sink
	stdin *input
	// capture collects stdout in a command substitution.
	capture *strings.Builder
	depth   int
	// interactive is set for a shell that reads its commands from its
	// user (Config.Interactive).
	interactive bool
	// failure is a start-up error (a syntax error) reported by the first
	// Run.
	failure *failure
}

type frameKind uint8

const (
	frameMain frameKind = iota
	frameTrap
	frameExitTrap
)

type frame struct {
	prog        *Program
	pc          int
	kind        frameKind
	savedStatus int
	loops       map[*forNode]*forState
	// cases holds the expanded word of each case command being run.
	cases map[*caseNode]string
	// saved are the fds and stdin to restore at each open opRedir's
	// opRedirPop, innermost last.
	saved []savedFds
}

// savedFds is what a redirection replaced.
type savedFds struct {
	fds   [3]sink
	stdin *input
}

type forState struct {
	items []string
	next  int
}

// control is what a command asks of Run.
type control struct {
	kind  controlKind
	until time.Time
	argv  []string
	io    func(ctx context.Context)
}

type controlKind uint8

const (
	ctlNext controlKind = iota
	ctlSleep
	ctlServe
	ctlExit
	ctlWait
)

var next = control{kind: ctlNext}

// shells are the programs NewProcess treats as a shell.
var shells = map[string]bool{"sh": true, "bash": true, "ash": true, "dash": true}

// IsShell reports whether name (a base name) is one of the shells.
func IsShell(name string) bool { return shells[name] }

// NewProcess returns a process that runs argv, a container's command line:
// a shell ("sh -c 'script' [name args...]", with -e, -x and other flags
// before -c) runs the script; anything else runs as a single command that
// replaces the shell, as exec does. It does not run yet.
func NewProcess(argv []string, cfg Config) *Process {
	p := newProcess(cfg)
	if len(argv) == 0 {
		p.exitCode, p.state = 0, stateExited
		return p
	}
	if !shells[path.Base(argv[0])] {
		p.args = []string{argv[0]}
		p.frames = []*frame{{prog: execProgram(argv)}}
		return p
	}
	shell, rest := path.Base(argv[0]), argv[1:]
	command := false
	for len(rest) > 0 && len(rest[0]) > 1 && (rest[0][0] == '-' || rest[0][0] == '+') {
		flag := rest[0]
		rest = rest[1:]
		if flag == "--" {
			break
		}
		for _, c := range flag[1:] {
			switch c {
			case 'c':
				command = true
			case 'o':
				if len(rest) > 0 {
					p.setOption(rest[0], flag[0] == '-')
					rest = rest[1:]
				}
			default:
				p.setFlag(c, flag[0] == '-')
			}
		}
	}
	switch {
	case command && len(rest) == 0:
		p.fail(2, shell+": -c requires an argument\n")
	case command:
		// sh -c script [$0 [$1 ...]]
		if len(rest) > 1 {
			p.args = slices.Clone(rest[1:])
		} else {
			p.args = []string{shell}
		}
		prog, err := Parse(rest[0])
		if err != nil {
			p.fail(2, shell+": "+err.Error()+"\n")
			break
		}
		p.frames = []*frame{{prog: prog}}
	case len(rest) > 0:
		// There is no file system to read a script file from.
		p.fail(127, fmt.Sprintf("%s: can't open '%s': No such file or directory\n", shell, rest[0]))
	case cfg.Stdin != "":
		// sh with no script reads it from stdin, which it consumes.
		prog, err := Parse(cfg.Stdin)
		p.stdin = nil
		if err != nil {
			p.fail(2, shell+": "+err.Error()+"\n")
			break
		}
		p.frames = []*frame{{prog: prog}}
	case cfg.Interactive:
		p.interactive = true
	default:
		// An interactive shell with no terminal reads an empty stdin and
		// exits 0: what `docker run busybox` does.
	}
	return p
}

func newProcess(cfg Config) *Process {
	p := &Process{cfg: cfg, fs: cfg.FS, vars: map[string]string{}, traps: map[string]trapAction{}}
	if p.fs == nil {
		p.fs = NewFS(nil)
	}
	for _, kv := range cfg.Env {
		name, value, _ := strings.Cut(kv, "=")
		p.setVar(name, value)
	}
	wd := cfg.WorkingDir
	if wd == "" {
		wd = "/"
	}
	if _, ok := p.vars["PWD"]; !ok {
		p.setVar("PWD", wd)
	}
	p.fds = [3]sink{{}, {kind: sinkStdout}, {kind: sinkStderr}}
	if cfg.Stdin != "" {
		p.stdin = &input{data: cfg.Stdin}
	}
	p.args = []string{"sh"}
	return p
}

// fail makes the process write msg to stderr and exit with code the first
// time it runs.
func (p *Process) fail(code int, msg string) {
	p.failure = &failure{code: code, msg: msg}
	p.frames = nil
}

type failure struct {
	code int
	msg  string
}

// Exited reports whether the process ended, and its exit code.
func (p *Process) Exited() (bool, int) { return p.state == stateExited, p.exitCode }

func (p *Process) sleepUntil(t time.Time) control { return control{kind: ctlSleep, until: t} }

func (p *Process) setVar(name, value string) {
	if _, ok := p.vars[name]; !ok {
		p.env = append(p.env, name)
	}
	p.vars[name] = value
}

func (p *Process) unsetVar(name string) {
	if _, ok := p.vars[name]; ok {
		delete(p.vars, name)
		p.env = slices.DeleteFunc(p.env, func(n string) bool { return n == name })
	}
}

func (p *Process) errorf(format string, args ...any) { p.write(2, fmt.Sprintf(format, args...)) }

func boolStatus(ok bool) int {
	if ok {
		return 0
	}
	return 1
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
