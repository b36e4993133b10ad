package shell

import (
	"strconv"
	"strings"
)

// The values of arithmetic: operators applied, variables read and
// written, numbers parsed.

// binary applies a binary operator.
func (a *arithParser) binary(op string, l, r int64) (int64, error) {
	switch op {
	case "||":
		return b2i(l != 0 || r != 0), nil
	case "&&":
		return b2i(l != 0 && r != 0), nil
	case "|":
		return l | r, nil
	case "^":
		return l ^ r, nil
	case "&":
		return l & r, nil
	case "==":
		return b2i(l == r), nil
	case "!=":
		return b2i(l != r), nil
	case "<=":
		return b2i(l <= r), nil
	case ">=":
		return b2i(l >= r), nil
	case "<":
		return b2i(l < r), nil
	case ">":
		return b2i(l > r), nil
	case "<<":
		// The count is taken modulo 64, as the x86 shift instruction does.
		return l << (uint64(r) & 63), nil
	case ">>":
		return l >> (uint64(r) & 63), nil
	case "+":
		return l + r, nil
	case "-":
		return l - r, nil
	case "*":
		return l * r, nil
	case "/", "%":
		if r == 0 {
			if a.skip > 0 {
				return 0, nil
			}
			return 0, errDivisionByZero
		}
		if op == "/" {
			return l / r, nil
		}
		return l % r, nil
	case "**":
		if r < 0 {
			return 0, errNegativePower
		}
		v := int64(1)
		for ; r > 0; r-- {
			v *= l
		}
		return v, nil
	}
	return 0, errArithSyntax
}

// variable is the value of a variable in an expression.
func (a *arithParser) variable(name string) (int64, error) {
	v := strings.TrimSpace(a.p.vars[name])
	if v == "" {
		return 0, nil
	}
	if n, err := parseInt(v); err == nil {
		return n, nil
	}
	return a.p.arithDepth(v, a.depth+1)
}

// increment is ++x, --x (pre: the new value) and x++, x-- (the old one).
func (a *arithParser) increment(name, op string, pre bool) (int64, error) {
	old, err := a.variable(name)
	if err != nil {
		return 0, err
	}
	v := old + 1
	if op == "--" {
		v = old - 1
	}
	a.set(name, v)
	if pre {
		return v, nil
	}
	return old, nil
}

// set assigns a variable, unless the operand is not evaluated.
func (a *arithParser) set(name string, v int64) {
	if a.skip == 0 {
		a.p.setVar(name, strconv.FormatInt(v, 10))
	}
}

// parseInt parses an integer as the shell writes it: decimal, 0x hex, 0
// octal, or BASE#digits with a base from 2 to 36.
func parseInt(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	base := 10
	switch {
	case strings.Contains(s, "#"):
		b, digits, _ := strings.Cut(s, "#")
		n, err := strconv.Atoi(b)
		if err != nil || n < 2 || n > 36 {
			return 0, errArithSyntax
		}
		base, s = n, digits
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	// strconv would also take "_" separators and a sign.
	if s == "" || strings.ContainsAny(s, "_+-") {
		return 0, errArithSyntax
	}
	n, err := strconv.ParseInt(s, base, 64)
	if neg {
		n = -n
	}
	return n, err
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
