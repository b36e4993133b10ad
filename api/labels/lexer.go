package labels

import "fmt"

// token is a lexical unit of the selector syntax.
type token int

const (
	errorToken token = iota
	endOfStringToken
	closedParToken
	commaToken
	doesNotExistToken
	doubleEqualsToken
	equalsToken
	greaterThanToken
	identifierToken
	inToken
	lessThanToken
	notEqualsToken
	notInToken
	openParToken
)

// string2token maps each symbol and keyword to its token.
var string2token = map[string]token{
	")":     closedParToken,
	",":     commaToken,
	"!":     doesNotExistToken,
	"==":    doubleEqualsToken,
	"=":     equalsToken,
	">":     greaterThanToken,
	"in":    inToken,
	"<":     lessThanToken,
	"!=":    notEqualsToken,
	"notin": notInToken,
	"(":     openParToken,
}

// lexer splits a selector string into tokens. An identifier is any run of
// characters that are neither whitespace nor a special symbol, so keys with
// prefixes ("example.com/tier") and values with dots are single tokens.
//
// Upstream: k8s.io/apimachinery/pkg/labels (Lexer).
type lexer struct {
	s   string
	pos int
}

func isWhitespace(ch byte) bool {
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'
}

func isSpecialSymbol(ch byte) bool {
	switch ch {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

// lex returns the next token and its literal text.
func (l *lexer) lex() (token, string) {
	for l.pos < len(l.s) && isWhitespace(l.s[l.pos]) {
		l.pos++
	}
	if l.pos == len(l.s) {
		return endOfStringToken, ""
	}
	if isSpecialSymbol(l.s[l.pos]) {
		return l.scanSpecialSymbol()
	}
	start := l.pos
	for l.pos < len(l.s) && !isWhitespace(l.s[l.pos]) && !isSpecialSymbol(l.s[l.pos]) {
		l.pos++
	}
	lit := l.s[start:l.pos]
	if tok, ok := string2token[lit]; ok {
		return tok, lit
	}
	return identifierToken, lit
}

// scanSpecialSymbol takes the longest run of special symbols that is a
// token: "!=" rather than "!", but "=" from "=(".
func (l *lexer) scanSpecialSymbol() (token, string) {
	start := l.pos
	tok, end := errorToken, start
	for i := start; i < len(l.s) && isSpecialSymbol(l.s[i]); i++ {
		t, ok := string2token[l.s[start:i+1]]
		if !ok {
			if tok != errorToken {
				break
			}
			continue
		}
		tok, end = t, i+1
	}
	if tok == errorToken {
		for l.pos < len(l.s) && isSpecialSymbol(l.s[l.pos]) {
			l.pos++
		}
		return errorToken, fmt.Sprintf("error expected: keyword found '%s'", l.s[start:l.pos])
	}
	l.pos = end
	return tok, l.s[start:end]
}
