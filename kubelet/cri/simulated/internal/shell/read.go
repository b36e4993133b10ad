package shell

import "strings"

// read is the read builtin: it reads a line of stdin (a `<file`
// redirection; containers have no stdin) into the variables, REPLY
// without any. The line is split at blanks, and the last variable takes
// the rest of it. Without -r a backslash quotes the next character and a
// backslash at the end of a line joins the next one. The status is 1 at
// the end of the input, even when a last line without a newline was read.
// -p, -t, -n, -u and -d take an argument and are otherwise ignored.
func read(p *Process, argv []string) control {
	raw := false
	args := argv[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			switch a[i] {
			case 'r':
				raw = true
			case 'p', 't', 'n', 'u', 'd':
				// The argument is the rest of the flag, or the next word.
				if i == len(a)-1 && len(args) > 0 {
					args = args[1:]
				}
				i = len(a)
			}
		}
	}
	names := args
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	if p.stdin.rest() == "" {
		p.status = 1
		return next
	}
	line, found := p.readLine(raw)
	fields := splitRead(line, len(names))
	for i, name := range names {
		v := ""
		if i < len(fields) {
			v = fields[i]
		}
		p.setVar(name, v)
	}
	p.status = boolStatus(found)
	return next
}

// readLine takes one line from stdin; found is false when the input ended
// before a newline. Without raw, backslashes quote and join lines.
func (p *Process) readLine(raw bool) (line string, found bool) {
	var b strings.Builder
	for {
		data := p.stdin.rest()
		l, _, ok := strings.Cut(data, "\n")
		if ok {
			p.stdin.consume(len(l) + 1)
		} else {
			p.stdin.consume(len(l))
		}
		if raw {
			return l, ok
		}
		joined := false
		for i := 0; i < len(l); i++ {
			switch {
			case l[i] != '\\':
				b.WriteByte(l[i])
			case i+1 < len(l):
				i++
				b.WriteByte(l[i])
			default:
				joined = ok && p.stdin.rest() != ""
			}
		}
		if !joined {
			return b.String(), ok
		}
	}
}

// splitRead splits line into at most n fields at blanks; the last field
// is the rest of the line, without its leading and trailing blanks.
func splitRead(line string, n int) []string {
	var fields []string
	rest := strings.TrimLeft(line, " \t")
	for len(fields) < n-1 && rest != "" {
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			end = len(rest)
		}
		fields = append(fields, rest[:end])
		rest = strings.TrimLeft(rest[end:], " \t")
	}
	if rest = strings.TrimRight(rest, " \t"); rest != "" {
		fields = append(fields, rest)
	}
	return fields
}
