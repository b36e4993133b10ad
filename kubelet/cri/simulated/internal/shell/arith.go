package shell

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// arith evaluates an arithmetic expansion, $((expr)): integers, variables
// by name, + - * / % with the usual precedence, comparisons, && || and !,
// unary minus and parentheses.
func (p *Process) arith(expr string) (int64, error) {
	a := &arithParser{src: expr, p: p}
	v, err := a.or()
	if err != nil {
		return 0, err
	}
	a.blanks()
	if a.pos < len(a.src) {
		return 0, fmt.Errorf("arithmetic syntax error: %q", expr)
	}
	return v, nil
}

type arithParser struct {
	src string
	pos int
	p   *Process
}

func (a *arithParser) blanks() {
	for a.pos < len(a.src) && isIFS(a.src[a.pos]) {
		a.pos++
	}
}

// accept consumes op if it comes next, and not as the start of a longer
// operator (so "<" does not take the first half of "<=").
func (a *arithParser) accept(op string) bool {
	a.blanks()
	if !strings.HasPrefix(a.src[a.pos:], op) {
		return false
	}
	if rest := a.src[a.pos+len(op):]; len(op) == 1 && rest != "" && strings.ContainsRune("=&|", rune(rest[0])) && strings.ContainsRune("<>=!&|", rune(op[0])) {
		return false
	}
	a.pos += len(op)
	return true
}

func (a *arithParser) or() (int64, error) {
	l, err := a.and()
	for err == nil && a.accept("||") {
		var r int64
		if r, err = a.and(); err == nil {
			l = b2i(l != 0 || r != 0)
		}
	}
	return l, err
}

func (a *arithParser) and() (int64, error) {
	l, err := a.cmp()
	for err == nil && a.accept("&&") {
		var r int64
		if r, err = a.cmp(); err == nil {
			l = b2i(l != 0 && r != 0)
		}
	}
	return l, err
}

func (a *arithParser) cmp() (int64, error) {
	l, err := a.sum()
	for err == nil {
		var op string
		for _, o := range []string{"==", "!=", "<=", ">=", "<", ">"} {
			if a.accept(o) {
				op = o
				break
			}
		}
		if op == "" {
			return l, nil
		}
		var r int64
		if r, err = a.sum(); err != nil {
			break
		}
		switch op {
		case "==":
			l = b2i(l == r)
		case "!=":
			l = b2i(l != r)
		case "<=":
			l = b2i(l <= r)
		case ">=":
			l = b2i(l >= r)
		case "<":
			l = b2i(l < r)
		case ">":
			l = b2i(l > r)
		}
	}
	return l, err
}

func (a *arithParser) sum() (int64, error) {
	l, err := a.product()
	for err == nil {
		switch {
		case a.accept("+"):
			var r int64
			r, err = a.product()
			l += r
		case a.accept("-"):
			var r int64
			r, err = a.product()
			l -= r
		default:
			return l, nil
		}
	}
	return l, err
}

var errDivisionByZero = errors.New("arithmetic: division by zero")

func (a *arithParser) product() (int64, error) {
	l, err := a.unary()
	for err == nil {
		var op byte
		switch {
		case a.accept("*"):
			op = '*'
		case a.accept("/"):
			op = '/'
		case a.accept("%"):
			op = '%'
		default:
			return l, nil
		}
		var r int64
		if r, err = a.unary(); err != nil {
			break
		}
		switch {
		case op == '*':
			l *= r
		case r == 0:
			return 0, errDivisionByZero
		case op == '/':
			l /= r
		default:
			l %= r
		}
	}
	return l, err
}

func (a *arithParser) unary() (int64, error) {
	switch {
	case a.accept("-"):
		v, err := a.unary()
		return -v, err
	case a.accept("+"):
		return a.unary()
	case a.accept("!"):
		v, err := a.unary()
		return b2i(v == 0), err
	case a.accept("("):
		v, err := a.or()
		if err == nil && !a.accept(")") {
			err = fmt.Errorf("arithmetic syntax error: missing ')' in %q", a.src)
		}
		return v, err
	}
	a.blanks()
	start := a.pos
	for a.pos < len(a.src) && isNameChar(a.src[a.pos]) {
		a.pos++
	}
	tok := a.src[start:a.pos]
	switch {
	case tok == "":
		return 0, fmt.Errorf("arithmetic syntax error: %q", a.src)
	case isName(tok):
		v := strings.TrimSpace(a.p.vars[tok])
		if v == "" {
			return 0, nil
		}
		n, err := parseInt(v)
		if err != nil {
			return 0, fmt.Errorf("arithmetic: %s: bad number %q", tok, v)
		}
		return n, nil
	}
	n, err := parseInt(tok)
	if err != nil {
		return 0, fmt.Errorf("arithmetic syntax error: bad number %q", tok)
	}
	return n, nil
}

// parseInt parses a decimal, 0x hex or 0 octal integer.
func parseInt(s string) (int64, error) { return strconv.ParseInt(s, 0, 64) }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
