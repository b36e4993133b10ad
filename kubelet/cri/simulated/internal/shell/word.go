package shell

import (
	"strings"
)

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
			if err := l.dollarInto(false, &w, &lit, flush); err != nil {
				return token{}, err
			}
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
			if err := l.dollarInto(true, &w, &lit, flush); err != nil {
				return nil, err
			}
		default:
			lit.WriteByte(c)
			l.pos++
		}
	}
	return nil, syntaxErrorf("unterminated quoted string")
}

// lexWord lexes s as the text of one word, blanks included, as in the
// word of ${X:-word}. quoted says the word is inside double quotes, where
// a single quote is an ordinary character.
func lexWord(s string, quoted bool) (word, error) {
	l := &lexer{src: s}
	var w word
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			w = append(w, part{kind: pLit, quoted: quoted, text: lit.String()})
			lit.Reset()
		}
	}
	for l.pos < len(s) {
		c := s[l.pos]
		switch {
		case c == '\'' && !quoted:
			end := strings.IndexByte(s[l.pos+1:], '\'')
			if end < 0 {
				return nil, syntaxErrorf("unterminated quoted string")
			}
			flush()
			w = append(w, part{kind: pLit, quoted: true, text: s[l.pos+1 : l.pos+1+end]})
			l.pos += end + 2
		case c == '"':
			flush()
			parts, err := l.doubleQuoted()
			if err != nil {
				return nil, err
			}
			w = append(w, parts...)
		case c == '\\' && l.pos+1 < len(s) && (!quoted || strings.IndexByte("$`\"\\}", s[l.pos+1]) >= 0):
			flush()
			w = append(w, part{kind: pLit, quoted: true, text: s[l.pos+1 : l.pos+2]})
			l.pos += 2
		case c == '$' || c == '`':
			if err := l.dollarInto(quoted, &w, &lit, flush); err != nil {
				return nil, err
			}
		default:
			lit.WriteByte(c)
			l.pos++
		}
	}
	flush()
	return w, nil
}

// dollarInto lexes the expansion at l.pos ($ or `) and appends it to w,
// after flushing the literal text before it; a $ that starts no
// expansion is literal text.
func (l *lexer) dollarInto(quoted bool, w *word, lit *strings.Builder, flush func()) error {
	p, ok, err := l.dollar(quoted)
	switch {
	case err != nil:
		return err
	case !ok:
		lit.WriteByte(l.src[l.pos])
		l.pos++
	default:
		flush()
		*w = append(*w, p)
	}
	return nil
}
