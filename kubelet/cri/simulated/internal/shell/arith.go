package shell

import (
	"errors"
	"slices"
	"strings"
)

// The errors of arithmetic expansion, in busybox's words.
var (
	errArithSyntax    = errors.New("arithmetic syntax error")
	errDivisionByZero = errors.New("divide by zero")
	errNegativePower  = errors.New("exponent less than 0")
	errArithRecursion = errors.New("expression recursion loop detected")
)

// arithMaxDepth bounds how deep variables holding expressions are
// evaluated, so that x=x fails instead of recursing forever.
const arithMaxDepth = 16

// arith evaluates an arithmetic expansion, $((expr)), in 64-bit integers
// with C's operators and precedence: assignment (= += -= *= /= %= <<= >>=
// &= ^= |=), ?:, || &&, | ^ &, == !=, < <= > >=, << >>, + -, * / %, **,
// unary + - ! ~, ++ and -- on variables, and parentheses. A variable's
// value is itself evaluated (unset or empty is 0).
func (p *Process) arith(expr string) (int64, error) { return p.arithDepth(expr, 0) }

func (p *Process) arithDepth(expr string, depth int) (int64, error) {
	if depth > arithMaxDepth {
		return 0, errArithRecursion
	}
	a := &arithParser{src: expr, p: p, depth: depth}
	v, err := a.assign()
	if err != nil {
		return 0, err
	}
	a.blanks()
	if a.pos < len(a.src) {
		return 0, errArithSyntax
	}
	return v, nil
}

// arithParser is a recursive-descent evaluator: each method parses one
// precedence level and returns its value.
type arithParser struct {
	src   string
	pos   int
	p     *Process
	depth int
	// skip counts the enclosing operands that are parsed but not
	// evaluated (the right of a false &&, the other branch of ?:): their
	// assignments do nothing and their division by zero is no error.
	skip int
}

func (a *arithParser) blanks() {
	for a.pos < len(a.src) && isIFS(a.src[a.pos]) {
		a.pos++
	}
}

// arithOps are the operators, longest first so that "<<=" is not read as
// "<" and "<=" not as "<".
var arithOps = []string{
	"<<=", ">>=", "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=",
	"&=", "^=", "|=", "+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|", "^", "?", ":", "(", ")",
}

// peekOp returns the operator at the current position, or "".
func (a *arithParser) peekOp() string {
	a.blanks()
	for _, op := range arithOps {
		if strings.HasPrefix(a.src[a.pos:], op) {
			return op
		}
	}
	return ""
}

// accept consumes op if it is the operator that comes next.
func (a *arithParser) accept(op string) bool {
	if a.peekOp() != op {
		return false
	}
	a.pos += len(op)
	return true
}

// assign is the lowest level: NAME op= value, or a conditional.
func (a *arithParser) assign() (int64, error) {
	a.blanks()
	start := a.pos
	if name := a.name(); name != "" {
		op := a.peekOp()
		if op == "=" || len(op) >= 2 && strings.HasSuffix(op, "=") && op != "==" && op != "!=" && op != "<=" && op != ">=" {
			a.pos += len(op)
			r, err := a.assign()
			if err != nil {
				return 0, err
			}
			v := r
			if op != "=" {
				l, err := a.variable(name)
				if err != nil {
					return 0, err
				}
				if v, err = a.binary(strings.TrimSuffix(op, "="), l, r); err != nil {
					return 0, err
				}
			}
			a.set(name, v)
			return v, nil
		}
		a.pos = start
	}
	return a.ternary()
}

func (a *arithParser) ternary() (int64, error) {
	c, err := a.binaryLevel(0)
	if err != nil || !a.accept("?") {
		return c, err
	}
	if c == 0 {
		a.skip++
	}
	t, err := a.assign()
	if c == 0 {
		a.skip--
	}
	if err != nil {
		return 0, err
	}
	if !a.accept(":") {
		return 0, errArithSyntax
	}
	if c != 0 {
		a.skip++
	}
	f, err := a.ternary()
	if c != 0 {
		a.skip--
	}
	if c != 0 {
		return t, err
	}
	return f, err
}

// binaryLevels are the binary operators from the loosest to the tightest
// binding, as in C.
var binaryLevels = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
}

// binaryLevel parses the left-associative operators of level and those
// that bind tighter.
func (a *arithParser) binaryLevel(level int) (int64, error) {
	if level == len(binaryLevels) {
		return a.power()
	}
	l, err := a.binaryLevel(level + 1)
	for err == nil {
		op := a.peekOp()
		if !slices.Contains(binaryLevels[level], op) {
			return l, nil
		}
		a.pos += len(op)
		// The right of && and || is evaluated only when it decides.
		short := op == "&&" && l == 0 || op == "||" && l != 0
		if short {
			a.skip++
		}
		var r int64
		r, err = a.binaryLevel(level + 1)
		if short {
			a.skip--
		}
		if err == nil {
			l, err = a.binary(op, l, r)
		}
	}
	return 0, err
}

// power is a ** b, right-associative, binding tighter than * and looser
// than the unary operators.
func (a *arithParser) power() (int64, error) {
	l, err := a.unary()
	if err != nil || !a.accept("**") {
		return l, err
	}
	r, err := a.power()
	if err != nil {
		return 0, err
	}
	return a.binary("**", l, r)
}

func (a *arithParser) unary() (int64, error) {
	a.blanks()
	for _, op := range []string{"++", "--"} {
		if strings.HasPrefix(a.src[a.pos:], op) {
			start := a.pos
			a.pos += 2
			a.blanks()
			if name := a.name(); name != "" {
				return a.increment(name, op, true)
			}
			a.pos = start
		}
	}
	switch op := a.peekOp(); op {
	case "-", "+", "!", "~":
		a.pos += len(op)
		v, err := a.unary()
		switch op {
		case "-":
			v = -v
		case "!":
			v = b2i(v == 0)
		case "~":
			v = ^v
		}
		return v, err
	case "(":
		a.pos++
		v, err := a.assign()
		if err == nil && !a.accept(")") {
			err = errArithSyntax
		}
		return v, err
	}
	return a.operand()
}

// operand is a number, or a variable with an optional ++ or -- after it.
func (a *arithParser) operand() (int64, error) {
	a.blanks()
	if name := a.name(); name != "" {
		rest := a.src[a.pos:]
		for _, op := range []string{"++", "--"} {
			// x++ but not x+++y's second +, nor x--1 (x - -1).
			if strings.HasPrefix(rest, op) && !startsOperand(rest[2:]) {
				a.pos += 2
				return a.increment(name, op, false)
			}
		}
		return a.variable(name)
	}
	start := a.pos
	for a.pos < len(a.src) && (isNameChar(a.src[a.pos]) || a.src[a.pos] == '#') {
		a.pos++
	}
	if start == a.pos {
		return 0, errArithSyntax
	}
	n, err := parseInt(a.src[start:a.pos])
	if err != nil {
		return 0, errArithSyntax
	}
	return n, nil
}

// startsOperand reports whether s, after blanks, starts a number, a name
// or a parenthesis.
func startsOperand(s string) bool {
	s = strings.TrimLeft(s, " \t\n")
	return s != "" && (isNameChar(s[0]) || s[0] == '(')
}

// name consumes a variable name, if one comes next.
func (a *arithParser) name() string {
	if a.pos >= len(a.src) || !isNameStart(a.src[a.pos]) {
		return ""
	}
	start := a.pos
	for a.pos < len(a.src) && isNameChar(a.src[a.pos]) {
		a.pos++
	}
	return a.src[start:a.pos]
}
