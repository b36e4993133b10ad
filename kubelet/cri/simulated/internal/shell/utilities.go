package shell

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
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

// parseSleep parses one sleep argument: seconds, fractional, with an
// optional s, m, h or d suffix, or "infinity". forever reports infinity.
func parseSleep(arg string) (d time.Duration, forever bool, ok bool) {
	if arg == "infinity" || arg == "inf" {
		return 0, true, true
	}
	unit := time.Second
	switch {
	case strings.HasSuffix(arg, "s"):
		arg = arg[:len(arg)-1]
	case strings.HasSuffix(arg, "m"):
		arg, unit = arg[:len(arg)-1], time.Minute
	case strings.HasSuffix(arg, "h"):
		arg, unit = arg[:len(arg)-1], time.Hour
	case strings.HasSuffix(arg, "d"):
		arg, unit = arg[:len(arg)-1], 24*time.Hour
	}
	f, err := strconv.ParseFloat(arg, 64)
	if err != nil || f < 0 || math.IsNaN(f) || strings.ContainsAny(arg, "xXpP") {
		return 0, false, false
	}
	// Beyond about 290 years a Duration overflows: that is forever too.
	if f*float64(unit) >= math.MaxInt64 {
		return 0, true, true
	}
	return time.Duration(f * float64(unit)), false, true
}

func sleep(p *Process, argv []string) control {
	if len(argv) < 2 {
		p.errorf("sleep: missing operand\n")
		p.status = 1
		return next
	}
	var total time.Duration
	for _, a := range argv[1:] {
		d, forever, ok := parseSleep(a)
		if !ok {
			p.errorf("sleep: invalid number '%s'\n", a)
			p.status = 1
			return next
		}
		if forever {
			p.status = 0
			return p.sleepUntil(time.Time{})
		}
		total += d
	}
	p.status = 0
	return p.sleepUntil(p.now.Add(total))
}

// readInput returns the content of a file argument, or stdin for "-".
func (p *Process) readInput(cmd, name string) (string, bool) {
	if name == "-" {
		return p.stdin, true
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

// tail prints the last lines of a file; with -f it then waits forever,
// which makes `tail -f /dev/null` the classic keep-alive command.
func tail(p *Process, argv []string) control {
	lines, follow, files := 10, false, []string(nil)
	for i := 1; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "-f" || a == "-F":
			follow = true
		case a == "-n" && i+1 < len(argv):
			i++
			lines = atoi(strings.TrimPrefix(argv[i], "+"))
		case strings.HasPrefix(a, "-n"):
			lines = atoi(a[2:])
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "":
			lines = atoi(a[1:])
		default:
			files = append(files, a)
		}
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
		p.write(1, strings.Join(all[max(0, len(all)-lines):], ""))
	}
	if follow && p.status == 0 {
		return p.sleepUntil(time.Time{})
	}
	return next
}

func env(p *Process, argv []string) control {
	var b strings.Builder
	for _, name := range p.env {
		b.WriteString(name + "=" + p.vars[name] + "\n")
	}
	for _, a := range argv[1:] {
		if strings.Contains(a, "=") {
			b.WriteString(a + "\n")
		}
	}
	p.write(1, b.String())
	p.status = 0
	return next
}

func printenv(p *Process, argv []string) control {
	if len(argv) == 1 {
		return env(p, argv[:1])
	}
	p.status = 0
	for _, name := range argv[1:] {
		v, ok := p.vars[name]
		if !ok {
			p.status = 1
			continue
		}
		p.write(1, v+"\n")
	}
	return next
}

func date(p *Process, argv []string) control {
	format := "%a %b %e %H:%M:%S %Z %Y"
	for _, a := range argv[1:] {
		switch {
		case strings.HasPrefix(a, "+"):
			format = a[1:]
		case a == "-I" || a == "-Idate":
			format = "%Y-%m-%d"
		case a == "-Iseconds":
			format = "%Y-%m-%dT%H:%M:%S%:z"
		case a == "-R":
			format = "%a, %d %b %Y %H:%M:%S %z"
		}
	}
	// Containers run in UTC unless TZ says otherwise; minicp's do.
	p.write(1, strftime(format, p.now.UTC())+"\n")
	p.status = 0
	return next
}

// strftime formats t with the directives busybox date knows best.
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteByte(format[i])
			continue
		}
		i++
		switch format[i] {
		case 'Y':
			b.WriteString(t.Format("2006"))
		case 'y':
			b.WriteString(t.Format("06"))
		case 'm':
			b.WriteString(t.Format("01"))
		case 'd':
			b.WriteString(t.Format("02"))
		case 'e':
			b.WriteString(t.Format("_2"))
		case 'H':
			b.WriteString(t.Format("15"))
		case 'M':
			b.WriteString(t.Format("04"))
		case 'S':
			b.WriteString(t.Format("05"))
		case 'N':
			fmt.Fprintf(&b, "%09d", t.Nanosecond())
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case ':':
			if i+1 < len(format) && format[i+1] == 'z' {
				i++
				b.WriteString(t.Format("-07:00"))
			}
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}

func hostname(p *Process, argv []string) control {
	p.status = 0
	if slices.Contains(argv[1:], "-i") {
		p.write(1, p.cfg.IP+"\n")
		return next
	}
	p.write(1, p.cfg.Hostname+"\n")
	return next
}

func uname(p *Process, argv []string) control {
	p.status = 0
	if slices.Contains(argv[1:], "-a") {
		p.write(1, "Linux "+p.cfg.Hostname+" 6.1.0-minicp #1 SMP x86_64 GNU/Linux\n")
		return next
	}
	p.write(1, "Linux\n")
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

func seq(p *Process, argv []string) control {
	nums := make([]int64, 0, 3)
	for _, a := range argv[1:] {
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			p.errorf("seq: invalid number '%s'\n", a)
			p.status = 1
			return next
		}
		nums = append(nums, n)
	}
	first, step, last := int64(1), int64(1), int64(0)
	switch len(nums) {
	case 1:
		last = nums[0]
	case 2:
		first, last = nums[0], nums[1]
	case 3:
		first, step, last = nums[0], nums[1], nums[2]
	default:
		p.errorf("seq: usage: seq [FIRST [INC]] LAST\n")
		p.status = 1
		return next
	}
	var b strings.Builder
	for n := first; step > 0 && n <= last || step < 0 && n >= last; n += step {
		b.WriteString(strconv.FormatInt(n, 10) + "\n")
	}
	p.write(1, b.String())
	p.status = 0
	return next
}
