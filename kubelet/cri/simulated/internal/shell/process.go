package shell

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Stream is an output stream of a process.
type Stream uint8

// The output streams.
const (
	Stdout Stream = 1
	Stderr Stream = 2
)

// Host receives what a process writes. The runtime appends it to the
// container log; an exec collects it.
type Host interface {
	// Write receives text the process wrote to s at its time now. text
	// may hold several lines, or part of one.
	Write(s Stream, now time.Time, text string)
}

// Config is the world a process runs in.
type Config struct {
	// Env is the environment, "NAME=value" in order.
	Env []string
	// Hostname is what `hostname` prints; IP what `hostname -i` prints.
	Hostname string
	IP       string
	// WorkingDir defaults to "/".
	WorkingDir string
	// FS is the container's file system, shared with its execs. Defaults
	// to a new one.
	FS *FS
	// Host receives the output. Required.
	Host Host
	// Servers reports whether a command name (the base name of argv[0])
	// is a server program of the image: running one makes the process
	// serve until it is signalled. Defaults to none.
	Servers func(name string) bool
}

// ResultKind says why Run returned.
type ResultKind uint8

// The results of Run.
const (
	// Sleeping: call Run again at Result.Until (never, when it is zero).
	Sleeping ResultKind = iota
	// Serving: the process runs a server program, Result.Argv, until it
	// is signalled or killed. Run need not be called again.
	Serving
	// Exited: the process ended with Result.ExitCode.
	Exited
)

// Result is what Run did.
type Result struct {
	Kind ResultKind
	// Until is when a sleeping process wakes; zero means never (sleep
	// infinity, tail -f).
	Until    time.Time
	ExitCode int
	// Argv is the server program a Serving process runs.
	Argv []string
}

// stepBudget and busyQuantum make a script that never sleeps still let
// time pass: after stepBudget instructions Run returns as if the script
// had slept busyQuantum, as a CPU-bound process is preempted. Without them
// `while true; do echo; done` would never return from Run.
const (
	stepBudget  = 1000
	busyQuantum = time.Millisecond
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
	// traps maps a signal name ("TERM", "INT", "EXIT") to its action; a
	// nil program means the signal is ignored.
	traps map[string]*Program
	// pending are the signals whose traps run when Run is next called:
	// the shell runs a trap only after the foreground command (a sleep)
	// finishes.
	pending []string
	errexit bool
	xtrace  bool
	// execed is set once the shell was replaced by a command (exec, or a
	// direct container command): signals then go to that command.
	execed         bool
	exitAfterSleep bool
	inExitTrap     bool
	pendingExit    int
	state          procState
	exitCode       int
	now            time.Time
	// fds are where file descriptors 1 and 2 write (index 0 unused), and
	// stdin what fd 0 reads, for the command that runs now.
	fds   [3]sink
	stdin string
	// capture collects stdout in a command substitution.
	capture *strings.Builder
	depth   int
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
}

type controlKind uint8

const (
	ctlNext controlKind = iota
	ctlSleep
	ctlServe
	ctlExit
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
			case 'e':
				p.errexit = flag[0] == '-'
			case 'x':
				p.xtrace = flag[0] == '-'
			case 'o':
				if len(rest) > 0 {
					rest = rest[1:] // -o pipefail and friends: accepted, ignored
				}
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
	default:
		// An interactive shell with no terminal reads an empty stdin and
		// exits 0: what `docker run busybox` does.
	}
	return p
}

func newProcess(cfg Config) *Process {
	p := &Process{cfg: cfg, fs: cfg.FS, vars: map[string]string{}, traps: map[string]*Program{}}
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

// Run executes the process at time now until it sleeps, serves or exits.
// A sleeping process is resumed by calling Run again at (or after) its
// Result.Until, with now set to that time so that what it does next is
// stamped with the time it was due.
func (p *Process) Run(now time.Time) Result {
	p.now = now
	switch p.state {
	case stateExited:
		return Result{Kind: Exited, ExitCode: p.exitCode}
	case stateServing:
		return Result{Kind: Serving}
	}
	if f := p.failure; f != nil {
		p.failure = nil
		p.write(2, f.msg)
		p.state, p.exitCode = stateExited, f.code
		return Result{Kind: Exited, ExitCode: p.exitCode}
	}
	if p.exitAfterSleep {
		p.exitAfterSleep = false
		if p.exitWith(p.status) {
			return Result{Kind: Exited, ExitCode: p.exitCode}
		}
	}
	// Traps run now that the foreground command (the sleep) is over.
	for len(p.pending) > 0 {
		sig := p.pending[len(p.pending)-1]
		p.pending = p.pending[:len(p.pending)-1]
		if prog := p.traps[sig]; prog != nil {
			p.frames = append(p.frames, &frame{prog: prog, kind: frameTrap, savedStatus: p.status})
		}
	}
	for budget := stepBudget; ; budget-- {
		if budget == 0 {
			return Result{Kind: Sleeping, Until: p.now.Add(busyQuantum)}
		}
		if len(p.frames) == 0 {
			if p.exitWith(p.status) {
				return Result{Kind: Exited, ExitCode: p.exitCode}
			}
			continue
		}
		f := p.frames[len(p.frames)-1]
		if f.pc >= len(f.prog.ops) {
			p.frames = p.frames[:len(p.frames)-1]
			switch f.kind {
			case frameTrap:
				p.status = f.savedStatus
			case frameExitTrap:
				p.state, p.exitCode = stateExited, p.pendingExit
				return Result{Kind: Exited, ExitCode: p.exitCode}
			}
			continue
		}
		o := &f.prog.ops[f.pc]
		f.pc++
		switch o.kind {
		case opJmp:
			f.pc = o.target
		case opJz:
			if p.status == 0 {
				f.pc = o.target
			}
		case opJnz:
			if p.status != 0 {
				f.pc = o.target
			}
		case opNot:
			p.status = boolStatus(p.status != 0)
		case opStatus0:
			p.status = 0
		case opForInit:
			items := p.args[1:]
			if o.loop.words != nil {
				var err error
				if items, err = p.expandWords(o.loop.words); err != nil {
					p.errorf("sh: %v\n", err)
					if p.exitWith(2) {
						return Result{Kind: Exited, ExitCode: p.exitCode}
					}
					continue
				}
			}
			if f.loops == nil {
				f.loops = map[*forNode]*forState{}
			}
			f.loops[o.loop] = &forState{items: slices.Clone(items)}
		case opForNext:
			st := f.loops[o.loop]
			if st.next >= len(st.items) {
				f.pc = o.target
				continue
			}
			p.setVar(o.loop.name, st.items[st.next])
			st.next++
		case opCmd:
			ctl := p.command(o)
			switch ctl.kind {
			case ctlSleep:
				return Result{Kind: Sleeping, Until: ctl.until}
			case ctlServe:
				return Result{Kind: Serving, Argv: ctl.argv}
			case ctlExit:
				if p.state == stateExited {
					return Result{Kind: Exited, ExitCode: p.exitCode}
				}
			}
		}
	}
}

// Signal delivers sig ("TERM", "SIGTERM", "15") to the process as to a container's
// PID 1 and reports whether the process exited because of it. The kernel
// ignores a signal that PID 1 has no handler for, so:
//   - a server program (exec'd, or the container's command) handles it
//     and exits 0 at once;
//   - a shell with a trap for sig runs the trap when the command in the
//     foreground (a sleep) ends, i.e. at a later Run;
//   - anything else ignores it: a script, or a bare `sleep 3600`.
func (p *Process) Signal(sig string) bool {
	sig, _ = signalName(sig)
	switch {
	case p.state == stateExited:
		return false
	case p.state == stateServing && p.execed:
		p.state, p.exitCode = stateExited, 0
		return true
	case p.execed:
		return false
	}
	if prog, ok := p.traps[sig]; ok && prog != nil {
		p.pending = append(p.pending, sig)
	}
	return false
}

// Exited reports whether the process ended, and its exit code.
func (p *Process) Exited() (bool, int) { return p.state == stateExited, p.exitCode }

// exitWith ends the process with code, unless an EXIT trap must run
// first. It reports whether the process has exited.
func (p *Process) exitWith(code int) bool {
	code &= 0xff
	if prog := p.traps["EXIT"]; prog != nil && !p.inExitTrap {
		p.inExitTrap = true
		p.pendingExit = code
		p.frames = []*frame{{prog: prog, kind: frameExitTrap}}
		return false
	}
	p.state, p.exitCode = stateExited, code
	p.frames = nil
	return true
}

// command runs one simple command.
func (p *Process) command(o *op) control {
	cmd := o.cmd
	argv, err := p.expandWords(cmd.words)
	if err != nil {
		// A failed expansion makes a non-interactive shell exit.
		p.errorf("sh: %v\n", err)
		return p.exit(2)
	}
	for _, a := range cmd.assigns {
		v, err := p.expandString(a.value)
		if err != nil {
			p.errorf("sh: %v\n", err)
			return p.exit(2)
		}
		p.setVar(a.name, v)
	}
	saved, savedStdin := p.fds, p.stdin
	defer func() { p.fds, p.stdin = saved, savedStdin }()
	if err := p.redirect(cmd.redirs); err != nil {
		p.errorf("sh: %v\n", err)
		p.status = 1
		return next
	}
	if len(argv) == 0 {
		p.status = 0
		return next
	}
	if p.xtrace {
		p.write(2, "+ "+strings.Join(argv, " ")+"\n")
	}
	ctl := p.run(argv, o.exec)
	if ctl.kind == ctlNext && p.errexit && !o.cond && p.status != 0 {
		return p.exit(p.status)
	}
	return ctl
}

// run runs argv; with exec it replaces the shell.
func (p *Process) run(argv []string, exec bool) control {
	name := path.Base(argv[0])
	if b, ok := builtins[name]; ok {
		if exec {
			p.execed = true
		}
		ctl := b(p, argv)
		switch {
		case !exec:
			return ctl
		case ctl.kind == ctlNext:
			return p.exit(p.status)
		case ctl.kind == ctlSleep:
			p.exitAfterSleep = true
		}
		return ctl
	}
	if p.cfg.Servers != nil && p.cfg.Servers(name) {
		if exec {
			p.execed = true
		}
		if p.capture != nil {
			// A server in a command substitution would never return.
			p.errorf("%s: cannot run in a command substitution\n", name)
			p.status = 1
			return next
		}
		p.state = stateServing
		return control{kind: ctlServe, argv: slices.Clone(argv)}
	}
	if shells[name] {
		p.errorf("%s: nested shells are not supported\n", name)
		p.status = 126
		if exec {
			return p.exit(126)
		}
		return next
	}
	p.errorf("sh: %s: not found\n", argv[0])
	p.status = 127
	if exec {
		return p.exit(127)
	}
	return next
}

func (p *Process) exit(code int) control {
	p.exitWith(code)
	return control{kind: ctlExit}
}

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
