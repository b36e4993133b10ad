package shell

import (
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
		"wait":     func(p *Process, _ []string) control { p.status = 0; return next },
	}
}

// IsBuiltin reports whether name (a base name) is a command the shell
// runs itself.
func IsBuiltin(name string) bool {
	_, ok := builtins[name]
	return ok
}

func exit(p *Process, argv []string) control {
	code := p.status
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
			switch c {
			case 'e':
				p.errexit = on
			case 'x':
				p.xtrace = on
			case 'o':
				if len(args) > 0 {
					args = args[1:] // set -o pipefail: accepted, ignored
				}
			}
		}
	}
	return next
}

func shift(p *Process, argv []string) control {
	n := 1
	if len(argv) > 1 {
		n = atoi(argv[1])
	}
	if n > len(p.args)-1 || n < 0 {
		p.status = 1
		return next
	}
	p.args = append([]string{p.args[0]}, p.args[1+n:]...)
	p.status = 0
	return next
}

// signalName normalizes "SIGTERM", "TERM", "15" and "term" to "TERM".
func signalName(s string) (string, bool) {
	s = strings.TrimPrefix(strings.ToUpper(s), "SIG")
	switch s {
	case "0", "EXIT":
		return "EXIT", true
	case "1", "HUP":
		return "HUP", true
	case "2", "INT":
		return "INT", true
	case "3", "QUIT":
		return "QUIT", true
	case "15", "TERM":
		return "TERM", true
	}
	return "", false
}

func trap(p *Process, argv []string) control {
	p.status = 0
	if len(argv) < 3 {
		return next // listing traps: nothing to show in a log
	}
	action := argv[1]
	var prog *Program
	if action != "" && action != "-" {
		var err error
		if prog, err = Parse(action); err != nil {
			p.errorf("sh: trap: %v\n", err)
			p.status = 2
			return next
		}
	}
	for _, s := range argv[2:] {
		sig, ok := signalName(s)
		if !ok {
			p.errorf("sh: trap: %s: invalid signal specification\n", s)
			p.status = 1
			continue
		}
		switch action {
		case "-":
			delete(p.traps, sig)
		default:
			p.traps[sig] = prog // nil for "": ignore
		}
	}
	return next
}

func cd(p *Process, argv []string) control {
	dir := "/root"
	if len(argv) > 1 {
		dir = p.abs(argv[1])
	}
	p.setVar("PWD", dir)
	p.status = 0
	return next
}

// read reads a line of stdin into variables; with no stdin (containers
// have none) it fails, ending `while read` loops.
func read(p *Process, argv []string) control {
	names := slices.DeleteFunc(slices.Clone(argv[1:]), func(a string) bool { return strings.HasPrefix(a, "-") })
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	if p.stdin == "" {
		p.status = 1
		return next
	}
	line, rest, _ := strings.Cut(p.stdin, "\n")
	p.stdin = rest
	fields := strings.Fields(line)
	for i, name := range names {
		switch {
		case i == len(names)-1 && i < len(fields):
			p.setVar(name, strings.Join(fields[i:], " "))
		case i < len(fields):
			p.setVar(name, fields[i])
		default:
			p.setVar(name, "")
		}
	}
	p.status = 0
	return next
}
