package shell

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// builtin runs a command; it sets p.status and says what Run does next.
type builtin func(p *Process, argv []string) control

// builtins are every command the shell knows, shell builtins and the
// busybox utilities alike. break and continue are compiled to jumps.
var builtins map[string]builtin

func init() {
	// Assigned in init because some builtins (exec) refer to the table.
	builtins = map[string]builtin{
		":":        func(p *Process, _ []string) control { p.status = 0; return next },
		"true":     func(p *Process, _ []string) control { p.status = 0; return next },
		"false":    func(p *Process, _ []string) control { p.status = 1; return next },
		"echo":     echo,
		"printf":   printf,
		"sleep":    sleep,
		"exit":     exit,
		"exec":     execBuiltin,
		"cat":      cat,
		"tail":     tail,
		"env":      env,
		"printenv": printenv,
		"export":   export,
		"unset":    unset,
		"set":      set,
		"shift":    shift,
		"trap":     trap,
		"date":     date,
		"hostname": hostname,
		"uname":    uname,
		"whoami":   func(p *Process, _ []string) control { p.write(1, "root\n"); p.status = 0; return next },
		"cd":       cd,
		"pwd":      func(p *Process, _ []string) control { p.write(1, p.vars["PWD"]+"\n"); p.status = 0; return next },
		"touch":    touch,
		"rm":       rm,
		"mkdir":    func(p *Process, _ []string) control { p.status = 0; return next },
		"test":     test,
		"[":        test,
		"seq":      seq,
		"read":     read,
		"wait":     wait,
		"kill":     kill,
		"wget":     wget,
		"nc":       nc,
		"nslookup": nslookup,
		"tar":      tarBuiltin,
	}
}

// shellOnly are the builtins that are part of the shell, not utilities
// that env could run.
var shellOnly = map[string]bool{
	":": true, "cd": true, "exec": true, "exit": true, "export": true, "read": true, "set": true,
	"shift": true, "trap": true, "unset": true, "wait": true,
}

// IsBuiltin reports whether name (a base name) is a command the shell
// runs itself.
func IsBuiltin(name string) bool {
	_, ok := builtins[name]
	return ok
}

func exit(p *Process, argv []string) control {
	code := p.status
	// In a trap, a bare exit exits with the status from before the trap.
	for _, f := range slices.Backward(p.frames) {
		if f.kind == frameTrap {
			code = f.savedStatus
			break
		}
		if f.kind == frameExitTrap {
			code = p.pendingExit
			break
		}
	}
	if len(argv) > 1 {
		n, err := strconv.Atoi(argv[1])
		if err != nil {
			p.errorf("sh: exit: Illegal number: %s\n", argv[1])
			return p.exit(2)
		}
		code = n
	}
	return p.exit(code)
}

func execBuiltin(p *Process, argv []string) control {
	if len(argv) < 2 {
		p.status = 0
		return next
	}
	return p.run(argv[1:], true)
}

func export(p *Process, argv []string) control {
	p.status = 0
	if len(argv) == 1 || len(argv) == 2 && argv[1] == "-p" {
		var b strings.Builder
		for _, name := range p.env {
			b.WriteString("export " + name + "=" + singleQuote(p.vars[name]) + "\n")
		}
		p.write(1, b.String())
		return next
	}
	for _, a := range argv[1:] {
		if a == "-p" {
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		if !isName(name) {
			p.errorf("sh: export: bad variable name '%s'\n", name)
			p.status = 1
			continue
		}
		if hasValue {
			p.setVar(name, value)
		} else if _, ok := p.vars[name]; !ok {
			p.setVar(name, "")
		}
	}
	return next
}

func unset(p *Process, argv []string) control {
	for _, name := range argv[1:] {
		if name != "-v" && name != "-f" {
			p.unsetVar(name)
		}
	}
	p.status = 0
	return next
}

func set(p *Process, argv []string) control {
	p.status = 0
	args := argv[1:]
	if len(args) == 0 {
		// set alone lists the variables, sorted by name.
		var b strings.Builder
		for _, name := range slices.Sorted(maps.Keys(p.vars)) {
			b.WriteString(name + "=" + singleQuote(p.vars[name]) + "\n")
		}
		p.write(1, b.String())
		return next
	}
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			p.args = append([]string{p.args[0]}, args[1:]...)
			return next
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			p.args = append([]string{p.args[0]}, args...)
			return next
		}
		args = args[1:]
		on := a[0] == '-'
		for _, c := range a[1:] {
			if c == 'o' && len(args) > 0 {
				p.setOption(args[0], on)
				args = args[1:]
				continue
			}
			p.setFlag(c, on)
		}
	}
	return next
}

// setFlag is set -c or +c for a one-letter option c: -e, -u and -x; the
// others are accepted and ignored.
func (p *Process) setFlag(c rune, on bool) {
	switch c {
	case 'e':
		p.errexit = on
	case 'u':
		p.nounset = on
	case 'x':
		p.xtrace = on
	}
}

// setOption is set -o name: errexit, nounset and xtrace are -e, -u and
// -x; the others (pipefail, ...) are accepted and ignored.
func (p *Process) setOption(name string, on bool) {
	switch name {
	case "errexit":
		p.errexit = on
	case "nounset":
		p.nounset = on
	case "xtrace":
		p.xtrace = on
	}
}

func shift(p *Process, argv []string) control {
	n := 1
	if len(argv) > 1 {
		var err error
		if n, err = strconv.Atoi(argv[1]); err != nil || n < 0 {
			p.errorf("sh: shift: Illegal number: %s\n", argv[1])
			return p.exit(2)
		}
	}
	if n > len(p.args)-1 {
		p.status = 1
		return next
	}
	p.args = append([]string{p.args[0]}, p.args[1+n:]...)
	p.status = 0
	return next
}

// cd changes the working directory: to $HOME with no argument, to
// $OLDPWD (printing it) with "-". Directories are not checked: the file
// system only knows files.
func cd(p *Process, argv []string) control {
	dir := p.vars["HOME"]
	if dir == "" {
		dir = "/root"
	}
	if len(argv) > 1 {
		dir = argv[1]
	}
	if dir == "-" {
		old, ok := p.vars["OLDPWD"]
		if !ok {
			p.errorf("sh: cd: OLDPWD not set\n")
			p.status = 1
			return next
		}
		dir = old
		p.write(1, dir+"\n")
	}
	p.setVar("OLDPWD", p.vars["PWD"])
	p.setVar("PWD", p.abs(dir))
	p.status = 0
	return next
}

// wait waits for background jobs, of which there are none: it returns 0,
// and 127 for a pid, which cannot be a child of the shell.
func wait(p *Process, argv []string) control {
	p.status = 0
	for _, a := range argv[1:] {
		if _, err := strconv.Atoi(a); err != nil {
			p.errorf("sh: wait: Illegal number: %s\n", a)
			p.status = 2
			return next
		}
		p.status = 127
	}
	return next
}
