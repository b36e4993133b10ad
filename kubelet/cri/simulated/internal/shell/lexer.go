package shell

import (
	"fmt"
	"strings"
)

// SyntaxError is a script the shell cannot parse. Its message is what
// busybox sh prints.
type SyntaxError struct{ Msg string }

func (e *SyntaxError) Error() string { return "syntax error: " + e.Msg }

func syntaxErrorf(format string, args ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, args...)}
}

type tokKind uint8

const (
	tWord tokKind = iota
	tNewline
	tSemi   // ;
	tAndIf  // &&
	tOrIf   // ||
	tPipe   // |
	tAmp    // &
	tLParen // (
	tRParen // )
	tRedir  // > >> < >& <&, with an optional fd before it
	tEOF
)

func (k tokKind) String() string {
	return [...]string{"word", "newline", ";", "&&", "||", "|", "&", "(", ")", "redirection", "end of file"}[k]
}

type token struct {
	kind tokKind
	word word
	// plain is the word's text when it is made only of unquoted literal
	// characters, which is what reserved words and assignments need.
	plain   string
	isPlain bool
	// fd and op describe a tRedir: "2>&1" is fd 2, op ">&".
	fd int
	op string
}

// partKind says what a piece of a word is.
type partKind uint8

const (
	pLit   partKind = iota // literal text
	pParam                 // $NAME, ${NAME...}, $1, $?
	pArith                 // $((expr))
	pSubst                 // $(script) or `script`
)

// part is one piece of a word. quoted parts are not field-split.
type part struct {
	kind   partKind
	quoted bool
	text   string // pLit: the text; pParam: the name; pArith: the expression
	// pParam with ${NAME<op>word}: op is one of - :- = := + :+, and # for
	// ${#NAME}.
	op  string
	arg word
	// pSubst: the parsed script.
	prog *Program
}

// word is a shell word before expansion.
type word []part

type lexer struct {
	src string
	pos int
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isNameChar(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

func isName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

// next returns the next token.
func (l *lexer) next() (token, error) {
	// Skip blanks, line continuations and comments.
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
			continue
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			l.pos += 2
			continue
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
			continue
		}
		break
	}
	if l.pos >= len(l.src) {
		return token{kind: tEOF}, nil
	}
	s := l.src[l.pos:]
	for _, op := range []struct {
		text string
		kind tokKind
	}{{"&&", tAndIf}, {"||", tOrIf}, {";", tSemi}, {"\n", tNewline}, {"|", tPipe}, {"&", tAmp}, {"(", tLParen}, {")", tRParen}} {
		if strings.HasPrefix(s, op.text) {
			if op.text == ";" && strings.HasPrefix(s, ";;") {
				return token{}, syntaxErrorf("unexpected \";;\"")
			}
			l.pos += len(op.text)
			return token{kind: op.kind}, nil
		}
	}
	// An IO number: digits directly followed by a redirection operator.
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i < 3 && i < len(s) && (s[i] == '>' || s[i] == '<') {
		fd := -1
		if i > 0 {
			fd = int(s[0] - '0')
			if i == 2 {
				fd = fd*10 + int(s[1]-'0')
			}
		}
		return l.redirection(fd, i)
	}
	return l.word()
}

// redirection lexes the operator at l.pos+skip; fd is -1 when none was
// given.
func (l *lexer) redirection(fd, skip int) (token, error) {
	l.pos += skip
	s := l.src[l.pos:]
	var op string
	switch {
	case strings.HasPrefix(s, ">>"):
		op = ">>"
	case strings.HasPrefix(s, ">&"):
		op = ">&"
	case strings.HasPrefix(s, "<&"):
		op = "<&"
	case strings.HasPrefix(s, ">|"):
		op = ">"
		l.pos++ // ">|" is ">" that overrides noclobber, which we lack
	case strings.HasPrefix(s, "<<"):
		return token{}, syntaxErrorf("here-documents (<<) are not supported")
	default:
		op = s[:1]
	}
	l.pos += len(op)
	if fd < 0 {
		fd = 1
		if op[0] == '<' {
			fd = 0
		}
	}
	return token{kind: tRedir, fd: fd, op: op}, nil
}

// word lexes one word, up to an unquoted blank or operator character.
func (l *lexer) word() (token, error) {
	var w word
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			w = append(w, part{kind: pLit, text: lit.String()})
			lit.Reset()
		}
	}
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>':
			goto done
		case '\\':
			l.pos++
			if l.pos >= len(l.src) {
				lit.WriteByte('\\')
				continue
			}
			if l.src[l.pos] == '\n' {
				l.pos++
				continue
			}
			flush()
			w = append(w, part{kind: pLit, quoted: true, text: l.src[l.pos : l.pos+1]})
			l.pos++
		case '\'':
			end := strings.IndexByte(l.src[l.pos+1:], '\'')
			if end < 0 {
				return token{}, syntaxErrorf("unterminated quoted string")
			}
			flush()
			w = append(w, part{kind: pLit, quoted: true, text: l.src[l.pos+1 : l.pos+1+end]})
			l.pos += end + 2
		case '"':
			flush()
			parts, err := l.doubleQuoted()
			if err != nil {
				return token{}, err
			}
			w = append(w, parts...)
		case '$', '`':
			p, ok, err := l.dollar(false)
			if err != nil {
				return token{}, err
			}
			if !ok {
				lit.WriteByte(c)
				l.pos++
				continue
			}
			flush()
			w = append(w, p)
		default:
			lit.WriteByte(c)
			l.pos++
		}
	}
done:
	flush()
	tok := token{kind: tWord, word: w, isPlain: true}
	var plain strings.Builder
	for _, p := range w {
		if p.kind != pLit || p.quoted {
			tok.isPlain = false
			break
		}
		plain.WriteString(p.text)
	}
	if tok.isPlain {
		tok.plain = plain.String()
	}
	return tok, nil
}

// doubleQuoted lexes "..." starting at the opening quote.
func (l *lexer) doubleQuoted() (word, error) {
	l.pos++ // the opening quote
	var w word
	var lit strings.Builder
	// An empty "" still makes a (quoted, empty) field.
	w = append(w, part{kind: pLit, quoted: true})
	flush := func() {
		if lit.Len() > 0 {
			w = append(w, part{kind: pLit, quoted: true, text: lit.String()})
			lit.Reset()
		}
	}
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case '"':
			l.pos++
			flush()
			return w, nil
		case '\\':
			if l.pos+1 < len(l.src) {
				switch n := l.src[l.pos+1]; n {
				case '$', '`', '"', '\\':
					lit.WriteByte(n)
					l.pos += 2
					continue
				case '\n':
					l.pos += 2
					continue
				}
			}
			lit.WriteByte(c)
			l.pos++
		case '$', '`':
			p, ok, err := l.dollar(true)
			if err != nil {
				return nil, err
			}
			if !ok {
				lit.WriteByte(c)
				l.pos++
				continue
			}
			flush()
			w = append(w, p)
		default:
			lit.WriteByte(c)
			l.pos++
		}
	}
	return nil, syntaxErrorf("unterminated quoted string")
}

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
		end, err := matchParen(s, 1)
		if err != nil {
			return part{}, false, err
		}
		prog, err := Parse(s[2:end])
		if err != nil {
			return part{}, false, err
		}
		l.pos += end + 1
		return part{kind: pSubst, quoted: quoted, prog: prog}, true, nil
	case c == '{':
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return part{}, false, syntaxErrorf("missing '}'")
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
	case c >= '0' && c <= '9' || strings.IndexByte("?#@*$!-", c) >= 0:
		l.pos += 2
		return part{kind: pParam, quoted: quoted, text: s[1:2]}, true, nil
	}
	return part{}, false, nil
}

// braceParam parses the inside of ${...}.
func braceParam(s string, quoted bool) (part, error) {
	if strings.HasPrefix(s, "#") && len(s) > 1 {
		return part{kind: pParam, quoted: quoted, text: s[1:], op: "#"}, nil
	}
	i := 0
	if i < len(s) && (s[i] >= '0' && s[i] <= '9' || strings.IndexByte("?#@*$!-", s[i]) >= 0) {
		i = 1
	} else {
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
	for _, op := range []string{":-", ":=", ":+", "-", "=", "+"} {
		if strings.HasPrefix(rest, op) {
			arg, err := lexWord(rest[len(op):], quoted)
			if err != nil {
				return part{}, err
			}
			return part{kind: pParam, quoted: quoted, text: name, op: op, arg: arg}, nil
		}
	}
	return part{}, syntaxErrorf("bad substitution")
}

// lexWord lexes s as the text of one word, blanks included, as in the
// word of ${X:-word}.
func lexWord(s string, quoted bool) (word, error) {
	l := &lexer{src: s}
	var w word
	var lit strings.Builder
	for l.pos < len(s) {
		c := s[l.pos]
		switch c {
		case '\'':
			if quoted {
				lit.WriteByte(c)
				l.pos++
				continue
			}
			end := strings.IndexByte(s[l.pos+1:], '\'')
			if end < 0 {
				return nil, syntaxErrorf("unterminated quoted string")
			}
			lit.WriteString(s[l.pos+1 : l.pos+1+end])
			l.pos += end + 2
		case '$', '`':
			p, ok, err := l.dollar(quoted)
			if err != nil {
				return nil, err
			}
			if !ok {
				lit.WriteByte(c)
				l.pos++
				continue
			}
			if lit.Len() > 0 {
				w = append(w, part{kind: pLit, quoted: quoted, text: lit.String()})
				lit.Reset()
			}
			w = append(w, p)
		default:
			lit.WriteByte(c)
			l.pos++
		}
	}
	if lit.Len() > 0 {
		w = append(w, part{kind: pLit, quoted: quoted, text: lit.String()})
	}
	return w, nil
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
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return 0, syntaxErrorf("unterminated quoted string")
			}
			i += end + 1
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '\\':
			i++
		}
	}
	return 0, syntaxErrorf("missing ')'")
}
