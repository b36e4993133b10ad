package shell

import (
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
)

// env is env [-i] [-u NAME]... [NAME=value]... [command [arg]...]: it
// prints the environment, changed as the options and assignments say, or
// runs the command in it. The changes last only for the command.
func env(p *Process, argv []string) control {
	args := argv[1:]
	clearEnv := false
	var unsets []string
options:
	for len(args) > 0 && len(args[0]) > 0 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		switch {
		case a == "-i" || a == "-":
			clearEnv = true
		case a == "-u" && len(args) > 0:
			unsets, args = append(unsets, args[0]), args[1:]
		case a == "--":
			break options
		default:
			p.errorf("env: unrecognized option '%s'\n", a)
			p.status = 1
			return next
		}
	}
	savedVars, savedEnv := maps.Clone(p.vars), slices.Clone(p.env)
	defer func() { p.vars, p.env = savedVars, savedEnv }()
	if clearEnv {
		p.vars, p.env = map[string]string{}, nil
	}
	for _, name := range unsets {
		p.unsetVar(name)
	}
	for len(args) > 0 && strings.Contains(args[0], "=") {
		name, value, _ := strings.Cut(args[0], "=")
		p.setVar(name, value)
		args = args[1:]
	}
	if len(args) > 0 {
		if name := path.Base(args[0]); shellOnly[name] || !IsBuiltin(name) && !shells[name] && (p.cfg.Servers == nil || !p.cfg.Servers(name)) {
			p.errorf("env: can't execute '%s': No such file or directory\n", args[0])
			p.status = 127
			return next
		}
		return p.run(args, false)
	}
	var b strings.Builder
	for _, name := range p.env {
		b.WriteString(name + "=" + p.vars[name] + "\n")
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

func hostname(p *Process, argv []string) control {
	p.status = 0
	if slices.Contains(argv[1:], "-i") {
		p.write(1, p.cfg.IP+"\n")
		return next
	}
	p.write(1, p.cfg.Hostname+"\n")
	return next
}

// uname prints the fields its flags ask for, in the order of -a; -s
// alone by default.
func uname(p *Process, argv []string) control {
	fields := []struct {
		flag  byte
		value string
	}{
		{'s', "Linux"}, {'n', p.cfg.Hostname}, {'r', "6.1.0-minicp"}, {'v', "#1 SMP"}, {'m', "x86_64"}, {'o', "GNU/Linux"},
	}
	want := map[byte]bool{}
	for _, a := range argv[1:] {
		if len(a) < 2 || a[0] != '-' {
			p.errorf("uname: extra operand '%s'\n", a)
			p.status = 1
			return next
		}
		for i := 1; i < len(a); i++ {
			if a[i] == 'a' {
				for _, f := range fields {
					want[f.flag] = true
				}
				continue
			}
			if !strings.ContainsRune("snrvmo", rune(a[i])) {
				p.errorf("uname: invalid option -- '%c'\n", a[i])
				p.status = 1
				return next
			}
			want[a[i]] = true
		}
	}
	if len(want) == 0 {
		want['s'] = true
	}
	var out []string
	for _, f := range fields {
		if want[f.flag] {
			out = append(out, f.value)
		}
	}
	p.write(1, strings.Join(out, " ")+"\n")
	p.status = 0
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
