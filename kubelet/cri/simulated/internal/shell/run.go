package shell

import (
	"errors"
	"path"
	"slices"
	"strings"
	"time"
)

// stepBudget and busyQuantum make a script that never sleeps still let
// time pass: after stepBudget instructions Run returns as if the script
// had slept busyQuantum, as a CPU-bound process is preempted. Without them
// `while true; do echo; done` would never return from Run.
const (
	stepBudget  = 1000
	busyQuantum = time.Millisecond
)

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
	if o := p.pendingIO; o != nil {
		p.pendingIO = nil
		p.applyIO(o)
	}
	if p.exitAfterSleep {
		p.exitAfterSleep = false
		if p.exitWith(p.status) {
			return Result{Kind: Exited, ExitCode: p.exitCode}
		}
	}
	for budget := stepBudget; ; budget-- {
		if budget == 0 {
			return Result{Kind: Sleeping, Until: p.now.Add(busyQuantum)}
		}
		// Traps run between commands: here, once the foreground command
		// (a sleep) is over, or right after a kill the shell sent itself.
		p.startTraps()
		if len(p.frames) == 0 {
			if p.interactive && !p.inExitTrap {
				return Result{Kind: Prompting}
			}
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
		case opCaseInit:
			w, err := p.expandString(o.caseOf.word)
			if err != nil {
				p.errorf("sh: %v\n", err)
				if p.exitWith(2) {
					return Result{Kind: Exited, ExitCode: p.exitCode}
				}
				continue
			}
			if f.cases == nil {
				f.cases = map[*caseNode]string{}
			}
			f.cases[o.caseOf] = w
		case opCaseMatch:
			matched, err := p.caseMatches(f.cases[o.caseOf], o.caseOf.items[o.item].patterns)
			if err != nil {
				p.errorf("sh: %v\n", err)
				if p.exitWith(2) {
					return Result{Kind: Exited, ExitCode: p.exitCode}
				}
				continue
			}
			if !matched {
				f.pc = o.target
			}
		case opRedir:
			save := savedFds{fds: p.fds, stdin: p.stdin}
			if err := p.redirect(o.redirs); err != nil {
				p.errorf("sh: %v\n", err)
				p.fds, p.stdin = save.fds, save.stdin
				if errors.As(err, new(expansionError)) && p.exitWith(2) {
					return Result{Kind: Exited, ExitCode: p.exitCode}
				}
				p.status = 1
				f.pc = o.target
				continue
			}
			f.saved = append(f.saved, save)
		case opRedirPop:
			save := f.saved[len(f.saved)-1]
			f.saved = f.saved[:len(f.saved)-1]
			p.fds, p.stdin = save.fds, save.stdin
		case opCmd:
			ctl := p.command(o)
			switch ctl.kind {
			case ctlSleep:
				return Result{Kind: Sleeping, Until: ctl.until}
			case ctlServe:
				return Result{Kind: Serving, Argv: ctl.argv}
			case ctlWait:
				return Result{Kind: Waiting, IO: ctl.io}
			case ctlExit:
				if p.state == stateExited {
					return Result{Kind: Exited, ExitCode: p.exitCode}
				}
			}
		}
	}
}

// exitWith ends the process with code, unless an EXIT trap must run
// first. It reports whether the process has exited.
func (p *Process) exitWith(code int) bool {
	code &= 0xff
	if prog := p.traps["EXIT"].prog; prog != nil && !p.inExitTrap {
		p.inExitTrap = true
		p.pendingExit = code
		p.frames = []*frame{{prog: prog, kind: frameExitTrap}}
		return false
	}
	p.state, p.exitCode = stateExited, code
	p.frames = nil
	return true
}

// specialBuiltins are POSIX's special built-ins: assignments before them
// stay, while those before any other command last only for it.
var specialBuiltins = map[string]bool{
	":": true, ".": true, "break": true, "continue": true, "eval": true, "exec": true, "exit": true,
	"export": true, "readonly": true, "return": true, "set": true, "shift": true, "times": true,
	"trap": true, "unset": true,
}

// command runs one simple command.
func (p *Process) command(o *op) control {
	cmd := o.cmd
	p.substituted = false
	argv, err := p.expandWords(cmd.words)
	if err != nil {
		// A failed expansion makes a non-interactive shell exit.
		p.errorf("sh: %v\n", err)
		return p.exit(2)
	}
	if len(argv) > 0 && len(cmd.assigns) > 0 && !specialBuiltins[argv[0]] {
		restore := p.saveVars(cmd.assigns)
		defer restore()
	}
	for _, a := range cmd.assigns {
		v, err := p.expandString(a.value)
		if err != nil {
			p.errorf("sh: %v\n", err)
			return p.exit(2)
		}
		p.setVar(a.name, v)
	}
	// exec without a command makes its redirections the shell's own.
	if len(argv) != 1 || argv[0] != "exec" {
		saved, savedStdin := p.fds, p.stdin
		defer func() { p.fds, p.stdin = saved, savedStdin }()
	}
	if err := p.redirect(cmd.redirs); err != nil {
		p.errorf("sh: %v\n", err)
		if errors.As(err, new(expansionError)) {
			return p.exit(2)
		}
		p.status = 1
		return next
	}
	if len(argv) == 0 {
		// A command of assignments only has the status of its last
		// command substitution: `if x=$(false)` fails.
		if !p.substituted {
			p.status = 0
		}
		if p.errexit && !o.cond && p.status != 0 {
			return p.exit(p.status)
		}
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

// saveVars returns a func that gives the variables assigned by assigns
// back the values (or unset state) they have now.
func (p *Process) saveVars(assigns []assignment) func() {
	type saved struct {
		name, value string
		set         bool
	}
	olds := make([]saved, 0, len(assigns))
	for _, a := range assigns {
		v, ok := p.vars[a.name]
		olds = append(olds, saved{a.name, v, ok})
	}
	return func() {
		for _, o := range slices.Backward(olds) {
			if o.set {
				p.setVar(o.name, o.value)
			} else {
				p.unsetVar(o.name)
			}
		}
	}
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
		case ctl.kind == ctlSleep, ctl.kind == ctlWait:
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

// caseMatches reports whether w matches one of patterns, which are
// expanded one by one until one matches.
func (p *Process) caseMatches(w string, patterns []word) (bool, error) {
	for _, pw := range patterns {
		pat, err := p.expandPattern(pw)
		if err != nil {
			return false, err
		}
		if matchPattern(pat, w) {
			return true, nil
		}
	}
	return false, nil
}
