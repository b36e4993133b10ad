package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// The utilities below are the busybox commands a script uses most; each
// sets p.status as the real one exits.

func echo(p *Process, argv []string) control {
	args := argv[1:]
	newline, escapes := true, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	out := strings.Join(args, " ")
	if escapes {
		var stop bool
		out, stop = unescape(out)
		if stop {
			newline = false
		}
	}
	if newline {
		out += "\n"
	}
	p.write(1, out)
	p.status = 0
	return next
}

// unescape interprets backslash escapes as echo -e and printf do. stop
// reports a \c, which ends the output.
func unescape(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case '\\':
			b.WriteByte('\\')
		case 'c':
			return b.String(), true
		case '0':
			n, j := 0, i+1
			for ; j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), false
}

func printf(p *Process, argv []string) control {
	if len(argv) < 2 {
		p.errorf("printf: usage: printf FORMAT [ARGUMENT]...\n")
		p.status = 2
		return next
	}
	format, args := argv[1], argv[2:]
	p.status = 0
	var out strings.Builder
	// The format is reused while arguments are left, as POSIX says.
	for {
		used := p.printfOnce(&out, format, &args)
		if len(args) == 0 || used == 0 {
			break
		}
	}
	p.write(1, out.String())
	return next
}

// printfOnce formats once, taking arguments from args; it returns how
// many it used.
func (p *Process) printfOnce(out *strings.Builder, format string, args *[]string) int {
	used := 0
	arg := func() string {
		if len(*args) == 0 {
			return ""
		}
		a := (*args)[0]
		*args = (*args)[1:]
		used++
		return a
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' && i+1 < len(format) {
			// \0nnn takes up to three octal digits after the 0.
			j := i + 2
			if format[i+1] == '0' {
				for j < len(format) && j < i+5 && format[j] >= '0' && format[j] <= '7' {
					j++
				}
			}
			s, stop := unescape(format[i:j])
			out.WriteString(s)
			if stop {
				return 0
			}
			i = j - 1
			continue
		}
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			out.WriteString(format[i:])
			break
		}
		spec, verb := format[i:j], format[j]
		i = j
		switch verb {
		case '%':
			out.WriteByte('%')
		case 's':
			fmt.Fprintf(out, spec+"s", arg())
		case 'b':
			s, _ := unescape(arg())
			fmt.Fprintf(out, spec+"s", s)
		case 'c':
			if a := arg(); a != "" {
				out.WriteByte(a[0])
			}
		case 'd', 'i', 'u', 'x', 'X', 'o':
			a := arg()
			n, err := strconv.ParseInt(strings.TrimSpace(a), 0, 64)
			if a != "" && err != nil {
				if len(a) > 1 && (a[0] == '\'' || a[0] == '"') {
					n = int64(a[1])
				} else {
					p.errorf("printf: invalid number '%s'\n", a)
					p.status = 1
				}
			}
			v := map[byte]string{'d': "d", 'i': "d", 'u': "d", 'x': "x", 'X': "X", 'o': "o"}[verb]
			fmt.Fprintf(out, spec+v, n)
		case 'f', 'e', 'E', 'g', 'G':
			a := arg()
			f, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
			if a != "" && err != nil {
				p.errorf("printf: invalid number '%s'\n", a)
				p.status = 1
			}
			fmt.Fprintf(out, spec+string(verb), f)
		default:
			p.errorf("printf: %%%c: invalid format\n", verb)
			p.status = 1
			return 0
		}
	}
	return used
}
