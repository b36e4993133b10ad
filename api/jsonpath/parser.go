package jsonpath

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

var (
	// dictKeyRe matches the inside of ['key'].
	dictKeyRe = regexp.MustCompile(`^'([^']*)'$`)
	// sliceRe matches the inside of [start:end:step], each part optional.
	sliceRe = regexp.MustCompile(`^(-?\d*)(:-?\d*)?(:-?\d*)?$`)
	// filterRe splits the inside of [?(...)] at its comparison operator.
	filterRe = regexp.MustCompile(`^([^!<>=]+)([!<>=]+)(.+?)$`)
)

// parseTemplate compiles a whole template, nesting {range}...{end} blocks.
func parseTemplate(template string) ([]segment, error) {
	p := &parser{input: template, keywords: true}
	// stack[0] collects the top level; each open {range} pushes its body.
	// The sentinel's over list is never evaluated.
	stack := []*rangeSegment{{}}
	add := func(s segment) {
		top := stack[len(stack)-1]
		top.body = append(top.body, s)
	}
	for p.pos < len(p.input) {
		i := strings.IndexByte(p.input[p.pos:], '{')
		if i < 0 {
			add(textSegment(p.input[p.pos:]))
			break
		}
		if i > 0 {
			add(textSegment(p.input[p.pos : p.pos+i]))
		}
		p.pos += i + 1
		keyword, steps, err := p.parseSteps(true)
		if err != nil {
			return nil, err
		}
		switch keyword {
		case "range":
			r := &rangeSegment{over: steps}
			add(r)
			stack = append(stack, r)
		case "end":
			if len(steps) > 0 {
				return nil, errors.New("{end} takes no expression")
			}
			if len(stack) == 1 {
				return nil, errors.New("not in range, nothing to end")
			}
			stack = stack[:len(stack)-1]
		default:
			add(actionSegment(steps))
		}
	}
	if len(stack) > 1 {
		return nil, errors.New("range without end")
	}
	return stack[0].body, nil
}

// parseExpression compiles the inside of a bracket or a filter operand: the
// grammar of an action, up to the end of s.
func parseExpression(s string) (list, error) {
	p := &parser{input: s}
	_, steps, err := p.parseSteps(false)
	return steps, err
}

// parser scans one template or expression.
type parser struct {
	input string
	pos   int
	// keywords allows range and end, which only open a top-level action.
	keywords bool
}

// parseSteps reads the steps of an action. In an action it stops after the
// closing brace; otherwise it reads to the end of the input. keyword is
// "range" or "end" when the action starts with one.
func (p *parser) parseSteps(inAction bool) (keyword string, steps list, err error) {
	for {
		rest := p.input[p.pos:]
		switch {
		case rest == "":
			if inAction {
				return "", nil, errors.New("unclosed action")
			}
			return keyword, steps, nil
		case inAction && rest[0] == '}':
			p.pos++
			return keyword, steps, nil
		case strings.HasPrefix(rest, "[?("):
			p.pos += len("[?(")
			f, err := p.parseFilter()
			if err != nil {
				return "", nil, err
			}
			steps = append(steps, f)
			continue
		case strings.HasPrefix(rest, ".."):
			if len(steps) > 0 {
				if _, ok := steps[len(steps)-1].(recursiveNode); ok {
					return "", nil, errors.New("invalid multiple recursive descent")
				}
			}
			p.pos += len("..")
			steps = append(steps, recursiveNode{})
			// "..name" names a field without a dot of its own.
			if r, _ := utf8.DecodeRuneInString(p.input[p.pos:]); isAlphaNumeric(r) {
				steps = append(steps, p.parseField())
			}
			continue
		}

		r, w := utf8.DecodeRuneInString(rest)
		p.pos += w
		switch {
		case r == '\r' || r == '\n':
			return "", nil, errors.New("unclosed action")
		case r == ' ', r == '@', r == '$':
			// Spaces separate; @ and $ name the current value, which is
			// where every step starts anyway.
		case r == '[':
			sub, err := p.parseBracket()
			if err != nil {
				return "", nil, err
			}
			steps = append(steps, sub...)
		case r == '"' || r == '\'':
			s, err := p.parseQuote(r)
			if err != nil {
				return "", nil, err
			}
			steps = append(steps, textNode(s))
		case r == '.':
			steps = append(steps, p.parseField())
		case r == '+' || r == '-' || unicode.IsDigit(r):
			p.pos -= w
			n, err := p.parseNumber()
			if err != nil {
				return "", nil, err
			}
			steps = append(steps, n)
		case isAlphaNumeric(r):
			p.pos -= w
			ident := p.scanIdentifier()
			switch {
			case ident == "true" || ident == "false":
				steps = append(steps, boolNode(ident == "true"))
			case (ident == "range" || ident == "end") && p.keywords && keyword == "" && len(steps) == 0:
				keyword = ident
			default:
				return "", nil, fmt.Errorf("unrecognized identifier %s", ident)
			}
		default:
			return "", nil, fmt.Errorf("unrecognized character in action: %#U", r)
		}
	}
}

// parseField reads a field name up to the next unescaped terminator; a
// backslash makes the next character part of the name. The name "*" is
// the wildcard.
func (p *parser) parseField() node {
	start := p.pos
	var name strings.Builder
	for p.pos < len(p.input) {
		r, w := utf8.DecodeRuneInString(p.input[p.pos:])
		if r == '\\' {
			p.pos += w
			if p.pos < len(p.input) {
				r, w = utf8.DecodeRuneInString(p.input[p.pos:])
				name.WriteRune(r)
				p.pos += w
			}
			continue
		}
		if isTerminator(r) {
			break
		}
		name.WriteRune(r)
		p.pos += w
	}
	if p.input[start:p.pos] == "*" {
		return wildcardNode{}
	}
	return fieldNode(name.String())
}

// scanIdentifier reads a bare word such as range, end, true or false.
func (p *parser) scanIdentifier() string {
	start := p.pos
	for p.pos < len(p.input) {
		r, w := utf8.DecodeRuneInString(p.input[p.pos:])
		if isTerminator(r) {
			break
		}
		p.pos += w
	}
	return p.input[start:p.pos]
}

// parseNumber reads an optionally signed integer or decimal literal.
func (p *parser) parseNumber() (node, error) {
	start := p.pos
	if c := p.input[p.pos]; c == '+' || c == '-' {
		p.pos++
	}
	for p.pos < len(p.input) {
		r, w := utf8.DecodeRuneInString(p.input[p.pos:])
		if r != '.' && !unicode.IsDigit(r) {
			break
		}
		p.pos += w
	}
	text := p.input[start:p.pos]
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return intNode(i), nil
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		return floatNode(f), nil
	}
	return nil, fmt.Errorf("cannot parse number %s", text)
}

// parseQuote reads a string literal whose opening quote was just read.
func (p *parser) parseQuote(quote rune) (string, error) {
	start := p.pos - 1
	for {
		if p.pos >= len(p.input) {
			return "", errors.New("unterminated quoted string")
		}
		r, w := utf8.DecodeRuneInString(p.input[p.pos:])
		p.pos += w
		switch r {
		case '\n':
			return "", errors.New("unterminated quoted string")
		case '\\':
			_, w = utf8.DecodeRuneInString(p.input[p.pos:])
			p.pos += w
		case quote:
			raw := p.input[start:p.pos]
			s, err := unquote(raw, quote)
			if err != nil {
				return "", fmt.Errorf("unquote string %s error %v", raw, err)
			}
			return s, nil
		}
	}
}

// unquote interprets a quoted literal with Go's escapes. Unlike
// strconv.Unquote it also takes a string in single quotes.
func unquote(s string, quote rune) (string, error) {
	body := s[1 : len(s)-1]
	var b strings.Builder
	for body != "" {
		r, multibyte, tail, err := strconv.UnquoteChar(body, byte(quote))
		if err != nil {
			return "", err
		}
		if r < utf8.RuneSelf || !multibyte {
			// \x and octal escapes stand for bytes, not runes.
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
		body = tail
	}
	return b.String(), nil
}

// parseBracket reads [...] whose opening bracket was just read.
func (p *parser) parseBracket() (list, error) {
	start := p.pos
	end := strings.IndexAny(p.input[start:], "]\n")
	if end < 0 || p.input[start+end] == '\n' {
		return nil, errors.New("unterminated array")
	}
	p.pos = start + end + 1
	return parseSubscript(p.input[start : start+end])
}

// parseSubscript compiles the inside of a bracket: a union, a quoted path
// or an index or slice.
func parseSubscript(text string) (list, error) {
	if text == "*" {
		text = ":"
	}
	if parts := strings.Split(text, ","); len(parts) > 1 {
		var u unionNode
		for _, part := range parts {
			l, err := parseSubscript(strings.Trim(part, " "))
			if err != nil {
				return nil, err
			}
			u = append(u, l)
		}
		return list{u}, nil
	}
	// A quoted key is a path, as upstream reads it: ['a.b'] is .a.b, and
	// a dot inside a key must be escaped, ['a\.b'].
	if m := dictKeyRe.FindStringSubmatch(text); m != nil {
		return parseExpression("." + m[1])
	}
	m := sliceRe.FindStringSubmatch(text)
	if m == nil {
		return nil, fmt.Errorf("invalid array index %s", text)
	}
	var a arrayNode
	var err error
	if m[1] != "" {
		if a.start, err = strconv.Atoi(m[1]); err != nil {
			return nil, fmt.Errorf("array index %s is not a number", m[1])
		}
		a.hasStart = true
	}
	switch end := strings.TrimPrefix(m[2], ":"); {
	case m[2] == "":
		a.single = true
	case end != "":
		if a.end, err = strconv.Atoi(end); err != nil {
			return nil, fmt.Errorf("array index %s is not a number", end)
		}
		a.hasEnd = true
	}
	if step := strings.TrimPrefix(m[3], ":"); step != "" {
		if a.step, err = strconv.Atoi(step); err != nil {
			return nil, fmt.Errorf("array index %s is not a number", step)
		}
		a.hasStep = true
	}
	return list{a}, nil
}

// parseFilter reads [?(...)] after its opening "[?(".
func (p *parser) parseFilter() (node, error) {
	start := p.pos
	var quote rune
	for {
		if p.pos >= len(p.input) {
			return nil, errors.New("unterminated filter")
		}
		r, w := utf8.DecodeRuneInString(p.input[p.pos:])
		p.pos += w
		if r == '\n' {
			return nil, errors.New("unterminated filter")
		}
		if quote != 0 {
			// A parenthesis inside a quoted operand does not close the
			// filter: [?(@.osImage == "(x)")].
			switch r {
			case '\\':
				_, w = utf8.DecodeRuneInString(p.input[p.pos:])
				p.pos += w
			case quote:
				quote = 0
			}
			continue
		}
		if r == '"' || r == '\'' {
			quote = r
			continue
		}
		if r == ')' {
			break
		}
	}
	text := p.input[start : p.pos-1]
	if !strings.HasPrefix(p.input[p.pos:], "]") {
		return nil, errors.New("unclosed array expect ]")
	}
	p.pos++

	m := filterRe.FindStringSubmatch(text)
	if m == nil {
		left, err := parseExpression(text)
		if err != nil {
			return nil, err
		}
		return filterNode{left: left, op: opExists}, nil
	}
	op := m[2]
	switch op {
	case "==", "!=", "<", ">", "<=", ">=":
	default:
		return nil, fmt.Errorf("unrecognized filter operator %s", op)
	}
	left, err := parseExpression(m[1])
	if err != nil {
		return nil, err
	}
	right, err := parseExpression(m[3])
	if err != nil {
		return nil, err
	}
	return filterNode{left: left, op: op, right: right}, nil
}

// isTerminator reports whether r ends a field name or an identifier.
func isTerminator(r rune) bool {
	switch r {
	case ' ', '\t', '\r', '\n', '.', ',', '[', ']', '$', '@', '{', '}':
		return true
	}
	return false
}

func isAlphaNumeric(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
