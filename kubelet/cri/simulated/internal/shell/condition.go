package shell

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// test is test and [: it evaluates a condition into its status.
func test(p *Process, argv []string) control {
	args := argv[1:]
	if argv[0] == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			p.errorf("sh: [: missing ]\n")
			p.status = 2
			return next
		}
		args = args[:len(args)-1]
	}
	ok, err := p.evalTest(args)
	if err != nil {
		p.errorf("sh: %s: %v\n", argv[0], err)
		p.status = 2
		return next
	}
	p.status = boolStatus(ok)
	return next
}

func (p *Process) evalTest(args []string) (bool, error) {
	// -o binds looser than -a, which binds looser than the rest.
	if i := slices.Index(args, "-o"); i > 0 {
		l, err := p.evalTest(args[:i])
		if err != nil {
			return false, err
		}
		r, err := p.evalTest(args[i+1:])
		return l || r, err
	}
	if i := slices.Index(args, "-a"); i > 0 {
		l, err := p.evalTest(args[:i])
		if err != nil {
			return false, err
		}
		r, err := p.evalTest(args[i+1:])
		return l && r, err
	}
	switch len(args) {
	case 0:
		return false, nil
	case 1:
		return args[0] != "", nil
	case 2:
		if args[0] == "!" {
			ok, err := p.evalTest(args[1:])
			return !ok, err
		}
		return p.unaryTest(args[0], args[1])
	case 3:
		if args[0] == "!" {
			ok, err := p.evalTest(args[1:])
			return !ok, err
		}
		return binaryTest(args[0], args[1], args[2])
	case 4:
		if args[0] == "!" {
			ok, err := p.evalTest(args[1:])
			return !ok, err
		}
	}
	return false, fmt.Errorf("too many arguments")
}

func (p *Process) unaryTest(op, arg string) (bool, error) {
	switch op {
	case "-z":
		return arg == "", nil
	case "-n":
		return arg != "", nil
	case "-e", "-f", "-s", "-r", "-w":
		name := p.abs(arg)
		data, ok := p.fs.Read(name)
		if op == "-s" {
			return ok && data != "", nil
		}
		if op == "-e" || op == "-r" || op == "-w" {
			return ok || p.fs.IsDir(name), nil
		}
		return ok, nil
	case "-d":
		return p.fs.IsDir(p.abs(arg)), nil
	case "-x":
		return IsBuiltin(arg) || shells[arg], nil
	case "-h", "-L", "-p", "-S", "-b", "-c", "-g", "-u", "-k", "-t":
		// No links, pipes, sockets, devices, special bits or terminals.
		return false, nil
	}
	return false, fmt.Errorf("%s: unknown operand", op)
}

func binaryTest(l, op, r string) (bool, error) {
	switch op {
	case "=", "==":
		return l == r, nil
	case "!=":
		return l != r, nil
	case "<":
		return l < r, nil
	case ">":
		return l > r, nil
	case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
	default:
		return false, fmt.Errorf("%s: unknown operand", op)
	}
	a, err := strconv.ParseInt(strings.TrimSpace(l), 10, 64)
	if err != nil {
		return false, fmt.Errorf("%s: bad number", l)
	}
	b, err := strconv.ParseInt(strings.TrimSpace(r), 10, 64)
	if err != nil {
		return false, fmt.Errorf("%s: bad number", r)
	}
	switch op {
	case "-eq":
		return a == b, nil
	case "-ne":
		return a != b, nil
	case "-lt":
		return a < b, nil
	case "-le":
		return a <= b, nil
	case "-gt":
		return a > b, nil
	default: // -ge
		return a >= b, nil
	}
}
