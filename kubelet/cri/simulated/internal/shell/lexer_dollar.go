package shell

import (
	"strings"
)

// dollar lexes an expansion at l.pos ($ or `). ok is false when the $ is
// literal.
func (l *lexer) dollar(quoted bool) (part, bool, error) {
	s := l.src[l.pos:]
	if s[0] == '`' {
		end := strings.IndexByte(s[1:], '`')
		if end < 0 {
			return part{}, false, syntaxErrorf("unterminated `")
		}
		prog, err := Parse(s[1 : 1+end])
		if err != nil {
			return part{}, false, err
		}
		l.pos += end + 2
		return part{kind: pSubst, quoted: quoted, prog: prog}, true, nil
	}
	if len(s) < 2 {
		return part{}, false, nil
	}
	switch c := s[1]; {
	case strings.HasPrefix(s, "$(("):
		end, err := matchParen(s, 2)
		if err != nil {
			return part{}, false, err
		}
		// $((expr)): the expansion ends with "))".
		if end+1 >= len(s) || s[end+1] != ')' {
			return part{}, false, syntaxErrorf("missing '))'")
		}
		l.pos += end + 2
		return part{kind: pArith, quoted: quoted, text: s[3:end]}, true, nil
	case c == '(':
		prog, n, err := parseSubstitution(s[2:])
		if err != nil {
			return part{}, false, err
		}
		l.pos += 2 + n
		return part{kind: pSubst, quoted: quoted, prog: prog}, true, nil
	case c == '{':
		end, err := matchBrace(s, quoted)
		if err != nil {
			return part{}, false, err
		}
		p, err := braceParam(s[2:end], quoted)
		if err != nil {
			return part{}, false, err
		}
		l.pos += end + 1
		return p, true, nil
	case isNameStart(c):
		i := 2
		for i < len(s) && isNameChar(s[i]) {
			i++
		}
		l.pos += i
		return part{kind: pParam, quoted: quoted, text: s[1:i]}, true, nil
	case c >= '0' && c <= '9' || isSpecialParam(s[1:2]):
		l.pos += 2
		return part{kind: pParam, quoted: quoted, text: s[1:2]}, true, nil
	}
	return part{}, false, nil
}

// braceOps are the operators of ${NAME<op>word}, longest first so that
// ":-" is not read as ":" and "##" not as "#".
var braceOps = []string{":-", ":=", ":+", ":?", "-", "=", "+", "?", "##", "#", "%%", "%"}

// patternOp reports whether op's word is a pattern (prefix and suffix
// removal) rather than a value.
func patternOp(op string) bool { return op[0] == '#' || op[0] == '%' }

// braceParam parses the inside of ${...}. The length ${#NAME} gets the op
// "len", so that "#" can be the prefix removal ${NAME#pattern}.
func braceParam(s string, quoted bool) (part, error) {
	if len(s) > 1 && s[0] == '#' {
		if name := s[1:]; isName(name) || isSpecialParam(name) || isDigits(name) {
			return part{kind: pParam, quoted: quoted, text: name, op: "len"}, nil
		}
		return part{}, syntaxErrorf("bad substitution")
	}
	i := 0
	switch {
	case s != "" && s[0] >= '0' && s[0] <= '9':
		// ${10} is the tenth argument, unlike $10.
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	case s != "" && isSpecialParam(s[:1]):
		i = 1
	default:
		for i < len(s) && isNameChar(s[i]) {
			i++
		}
	}
	name := s[:i]
	if name == "" {
		return part{}, syntaxErrorf("bad substitution")
	}
	rest := s[i:]
	if rest == "" {
		return part{kind: pParam, quoted: quoted, text: name}, nil
	}
	for _, op := range braceOps {
		if strings.HasPrefix(rest, op) {
			// A pattern stays a pattern inside double quotes: only the
			// quoting within the word itself makes its characters literal.
			arg, err := lexWord(rest[len(op):], quoted && !patternOp(op))
			if err != nil {
				return part{}, err
			}
			return part{kind: pParam, quoted: quoted, text: name, op: op, arg: arg}, nil
		}
	}
	return part{}, syntaxErrorf("bad substitution")
}

// isSpecialParam reports whether s is one of the one-character special
// parameters: $? $# $@ $* $$ $! $-.
func isSpecialParam(s string) bool { return len(s) == 1 && strings.IndexByte("?#@*$!-", s[0]) >= 0 }

func isDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// matchBrace returns the index of the '}' that closes the "${" at the
// start of s, skipping nested ${...}, $(...) and quoted text. Inside
// double quotes (quoted) a single quote is an ordinary character.
func matchBrace(s string, quoted bool) (int, error) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '$':
			switch {
			case strings.HasPrefix(s[i:], "${"):
				depth++
				i++
			case strings.HasPrefix(s[i:], "$("):
				end, err := matchParen(s, i+1)
				if err != nil {
					return 0, err
				}
				i = end
			}
		case '}':
			depth--
			if depth == 0 {
				return i, nil
			}
		case '\\':
			i++
		case '\'', '"':
			if s[i] == '\'' && quoted {
				continue
			}
			end, err := skipQuoted(s, i)
			if err != nil {
				return 0, err
			}
			i = end
		}
	}
	return 0, syntaxErrorf("missing '}'")
}

// parseSubstitution parses the script of a $(...) from s, which follows
// the "$(", up to its closing ')', and returns how much of s it took. It
// parses rather than counts parentheses, so that the ')' of a case
// pattern does not end the substitution.
func parseSubstitution(s string) (*Program, int, error) {
	p := &parser{lex: lexer{src: s}}
	list, err := p.list()
	if err != nil {
		return nil, 0, err
	}
	t, err := p.peek()
	switch {
	case err != nil:
		return nil, 0, err
	case t.kind == tEOF:
		return nil, 0, syntaxErrorf("missing ')'")
	case t.kind != tRParen:
		return nil, 0, unexpected(t)
	}
	return compile(list), p.lex.pos, nil
}

// matchParen returns the index of the ')' that closes the '(' at s[open],
// skipping quoted text and nested parentheses.
func matchParen(s string, open int) (int, error) {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i, nil
			}
		case '\'', '"':
			end, err := skipQuoted(s, i)
			if err != nil {
				return 0, err
			}
			i = end
		case '\\':
			i++
		}
	}
	return 0, syntaxErrorf("missing ')'")
}

// skipQuoted returns the index of the quote that closes the one at s[i]:
// a single-quoted string ends at the next ', a double-quoted one at the
// next " that no backslash escapes.
func skipQuoted(s string, i int) (int, error) {
	if s[i] == '\'' {
		end := strings.IndexByte(s[i+1:], '\'')
		if end < 0 {
			return 0, syntaxErrorf("unterminated quoted string")
		}
		return i + 1 + end, nil
	}
	for i++; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i, nil
}
