package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// trapAction is what trap set for a signal. A zero prog with an empty
// text ignores the signal (trap ” SIG).
type trapAction struct {
	prog *Program
	// text is the action as written, for listing the traps.
	text string
}

// signalNames are the Linux signal names by number; index 0 is the shell's
// EXIT pseudo-signal.
var signalNames = []string{
	"EXIT", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2",
	"PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU",
	"XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
}

// signalName normalizes "SIGTERM", "TERM", "15" and "term" to "TERM", and
// "0" to "EXIT".
func signalName(s string) (string, bool) {
	s = strings.TrimPrefix(strings.ToUpper(s), "SIG")
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 || n >= len(signalNames) {
			return "", false
		}
		return signalNames[n], true
	}
	for _, name := range signalNames {
		if s == name {
			return name, true
		}
	}
	return "", false
}

// signalNumber returns the number of a normalized signal name.
func signalNumber(name string) int {
	for i, n := range signalNames {
		if n == name {
			return i
		}
	}
	return -1
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
	p.deliver(sig)
	return false
}

// deliver makes the shell take sig: its trap runs before the next
// instruction. Without a trap PID 1 ignores it, SIGKILL included (the
// kernel spares init from what it does not handle), and a trap for
// SIGKILL or SIGSTOP is accepted but never runs, as in Linux.
func (p *Process) deliver(sig string) {
	if sig == "KILL" || sig == "STOP" {
		return
	}
	if t, ok := p.traps[sig]; ok && t.prog != nil {
		p.pending = append(p.pending, sig)
	}
}

// startTraps pushes a frame for each pending signal's trap, the first
// signal on top so that traps run in the order the signals came.
func (p *Process) startTraps() {
	for len(p.pending) > 0 {
		sig := p.pending[len(p.pending)-1]
		p.pending = p.pending[:len(p.pending)-1]
		if prog := p.traps[sig].prog; prog != nil {
			p.frames = append(p.frames, &frame{prog: prog, kind: frameTrap, savedStatus: p.status})
		}
	}
}

// trap is the trap builtin: `trap 'cmds' SIG...` sets a handler, `trap ”
// SIG` ignores the signal, `trap - SIG` and `trap SIG` restore the
// default, and `trap` alone lists the handlers.
func trap(p *Process, argv []string) control {
	p.status = 0
	args := argv[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || len(args) == 1 && args[0] == "-p" {
		p.listTraps()
		return next
	}
	// A lone operand, or a number first, is a list of signals to reset.
	action, reset := "-", true
	if _, err := strconv.Atoi(args[0]); len(args) > 1 && err != nil {
		action, reset, args = args[0], args[0] == "-", args[1:]
	}
	var t trapAction
	if !reset {
		t.text = action
		if action != "" {
			prog, err := Parse(action)
			if err != nil {
				p.errorf("sh: trap: %v\n", err)
				p.status = 2
				return next
			}
			t.prog = prog
		}
	}
	for _, s := range args {
		sig, ok := signalName(s)
		if !ok {
			p.errorf("sh: trap: %s: bad trap\n", s)
			p.status = 1
			continue
		}
		if reset {
			delete(p.traps, sig)
		} else {
			p.traps[sig] = t
		}
	}
	return next
}

// listTraps prints the traps as trap commands, in signal order.
func (p *Process) listTraps() {
	var b strings.Builder
	for _, sig := range signalNames {
		if t, ok := p.traps[sig]; ok {
			fmt.Fprintf(&b, "trap -- %s %s\n", singleQuote(t.text), sig)
		}
	}
	p.write(1, b.String())
}

// singleQuote quotes s for the shell: 'it'"'"'s'.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// kill is the kill utility. The shell is the only process it can reach:
// $$, 1, 0 and -1 are the shell itself; any other pid does not exist.
// `kill -l` lists the signals, `kill -l N` names one (N may be an exit
// status 128+n).
func kill(p *Process, argv []string) control {
	args := argv[1:]
	p.status = 0
	if len(args) > 0 && (args[0] == "-l" || args[0] == "-L") {
		return p.listSignals(args[1:])
	}
	sig := "TERM"
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0] != "--" {
		spec := args[0][1:]
		args = args[1:]
		if spec == "s" || spec == "n" {
			if len(args) == 0 {
				return p.killUsage()
			}
			spec, args = args[0], args[1:]
		}
		if spec == "0" {
			sig = ""
		} else if name, ok := signalName(spec); ok && name != "EXIT" {
			sig = name
		} else {
			p.errorf("kill: bad signal name '%s'\n", spec)
			p.status = 1
			return next
		}
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return p.killUsage()
	}
	for _, a := range args {
		pid, err := strconv.Atoi(a)
		switch {
		case err != nil:
			p.errorf("kill: invalid number '%s'\n", a)
			p.status = 1
		case pid == 1 || pid == 0 || pid == -1:
			if sig != "" {
				p.deliver(sig)
			}
		default:
			p.errorf("kill: can't kill pid %d: No such process\n", pid)
			p.status = 1
		}
	}
	return next
}

func (p *Process) killUsage() control {
	p.errorf("kill: usage: kill [-s SIG | -SIG] PID...\n")
	p.status = 1
	return next
}

// listSignals is kill -l: every signal as busybox prints them, or the
// name of each number (an exit status above 128 names its signal) and
// the number of each name.
func (p *Process) listSignals(args []string) control {
	var b strings.Builder
	if len(args) == 0 {
		for n, name := range signalNames[1:] {
			fmt.Fprintf(&b, "%2d) %s\n", n+1, name)
		}
	}
	for _, a := range args {
		if n, err := strconv.Atoi(a); err == nil {
			if n > 128 {
				n -= 128
			}
			if n < 1 || n >= len(signalNames) {
				p.errorf("kill: bad signal name '%s'\n", a)
				p.status = 1
				continue
			}
			b.WriteString(signalNames[n] + "\n")
			continue
		}
		name, ok := signalName(a)
		if !ok || name == "EXIT" {
			p.errorf("kill: bad signal name '%s'\n", a)
			p.status = 1
			continue
		}
		fmt.Fprintf(&b, "%d\n", signalNumber(name))
	}
	p.write(1, b.String())
	return next
}
