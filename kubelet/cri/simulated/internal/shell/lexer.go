package shell

import (
	"fmt"
	"strings"
)

// SyntaxError is a script the shell cannot parse. Its message is what
// busybox sh prints.
type SyntaxError struct{ Msg string }

// Error returns the message as sh prints it after "sh: ".
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
	tDSemi  // ;;
	tEOF
)

func (k tokKind) String() string {
	return [...]string{"word", "newline", ";", "&&", "||", "|", "&", "(", ")", "redirection", ";;", "end of file"}[k]
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
	}{{"&&", tAndIf}, {"||", tOrIf}, {";;", tDSemi}, {";", tSemi}, {"\n", tNewline}, {"|", tPipe}, {"&", tAmp}, {"(", tLParen}, {")", tRParen}} {
		if strings.HasPrefix(s, op.text) {
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
