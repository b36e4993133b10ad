package shell

import (
	"strconv"
	"strings"
	"time"
)

// readInput returns the content of a file argument, or stdin for "-".
func (p *Process) readInput(cmd, name string) (string, bool) {
	if name == "-" {
		data := p.stdin.rest()
		p.stdin.consume(len(data))
		return data, true
	}
	if name == "/dev/null" {
		return "", true
	}
	data, ok := p.fs.Read(p.abs(name))
	if !ok {
		p.errorf("%s: can't open '%s': No such file or directory\n", cmd, name)
	}
	return data, ok
}

func cat(p *Process, argv []string) control {
	files := argv[1:]
	if len(files) == 0 {
		files = []string{"-"}
	}
	p.status = 0
	for _, f := range files {
		data, ok := p.readInput("cat", f)
		if !ok {
			p.status = 1
			continue
		}
		p.write(1, data)
	}
	return next
}

// tail prints the last lines of a file (-n N, -N), or those from line N
// on (-n +N); with -f it then waits forever, which makes
// `tail -f /dev/null` the classic keep-alive command.
func tail(p *Process, argv []string) control {
	count, follow, files := "10", false, []string(nil)
	for i := 1; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "-f" || a == "-F":
			follow = true
		case a == "-n" && i+1 < len(argv):
			i++
			count = argv[i]
		case strings.HasPrefix(a, "-n"):
			count = a[2:]
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "":
			count = a[1:]
		default:
			files = append(files, a)
		}
	}
	fromStart := strings.HasPrefix(count, "+")
	lines, err := strconv.Atoi(strings.TrimPrefix(count, "+"))
	if err != nil || lines < 0 {
		p.errorf("tail: invalid number '%s'\n", count)
		p.status = 1
		return next
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	p.status = 0
	for _, f := range files {
		data, ok := p.readInput("tail", f)
		if !ok {
			p.status = 1
			continue
		}
		all := strings.SplitAfter(data, "\n")
		if all[len(all)-1] == "" {
			all = all[:len(all)-1]
		}
		first := max(0, len(all)-lines)
		if fromStart {
			first = min(len(all), max(0, lines-1))
		}
		p.write(1, strings.Join(all[first:], ""))
	}
	if follow && p.status == 0 {
		return p.sleepUntil(time.Time{})
	}
	return next
}

func touch(p *Process, argv []string) control {
	p.status = 0
	for _, name := range argv[1:] {
		if strings.HasPrefix(name, "-") {
			continue
		}
		abs := p.abs(name)
		switch _, ok := p.fs.Read(abs); {
		case p.fs.ReadOnly(abs):
			p.errorf("touch: %s: Read-only file system\n", name)
			p.status = 1
		case !ok:
			p.fs.Write(abs, "", false)
		}
	}
	return next
}

func rm(p *Process, argv []string) control {
	force := false
	p.status = 0
	for _, name := range argv[1:] {
		if strings.HasPrefix(name, "-") {
			force = force || strings.Contains(name, "f")
			continue
		}
		if _, ok := p.fs.Read(p.abs(name)); ok && p.fs.ReadOnly(p.abs(name)) {
			p.errorf("rm: can't remove '%s': Read-only file system\n", name)
			p.status = 1
			continue
		}
		if !p.fs.Remove(p.abs(name)) && !force {
			p.errorf("rm: can't remove '%s': No such file or directory\n", name)
			p.status = 1
		}
	}
	return next
}
