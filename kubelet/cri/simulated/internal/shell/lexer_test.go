package shell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lexAll returns the tokens of src, each described by describeToken, up
// to the end of file or the first error.
func lexAll(src string) ([]string, error) {
	l := &lexer{src: src}
	var toks []string
	for {
		t, err := l.next()
		if err != nil {
			return toks, err
		}
		if t.kind == tEOF {
			return toks, nil
		}
		toks = append(toks, describeToken(t))
	}
}

// describeToken writes a token as the tests spell it: a word as its parts
// in brackets, a redirection as fd and operator, others by name.
func describeToken(t token) string {
	switch t.kind {
	case tWord:
		return describeWord(t.word)
	case tRedir:
		return fmt.Sprintf("redir %d%s", t.fd, t.op)
	}
	return t.kind.String()
}

// describeWord writes each part as kind:text, with a q prefix when it is
// quoted: [lit:echo qlit:a b param:X].
func describeWord(w word) string {
	parts := make([]string, 0, len(w))
	for _, p := range w {
		q := ""
		if p.quoted {
			q = "q"
		}
		switch p.kind {
		case pLit:
			parts = append(parts, q+"lit:"+p.text)
		case pParam:
			s := q + "param:" + p.text
			if p.op != "" {
				s += " op:" + p.op + " arg:" + describeWord(p.arg)
			}
			parts = append(parts, s)
		case pArith:
			parts = append(parts, q+"arith:"+p.text)
		case pSubst:
			parts = append(parts, fmt.Sprintf("%ssubst:%d ops", q, len(p.prog.ops)))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func TestLexerTokens(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{name: "empty", src: "", want: nil},
		{name: "blanks only", src: " \t\r ", want: nil},
		{name: "words", src: "echo  hello\tworld", want: []string{"[lit:echo]", "[lit:hello]", "[lit:world]"}},
		{name: "operators", src: "a;b&&c||d|e&f(g)h\n", want: []string{
			"[lit:a]", ";", "[lit:b]", "&&", "[lit:c]", "||", "[lit:d]", "|", "[lit:e]", "&", "[lit:f]", "(", "[lit:g]", ")", "[lit:h]", "newline",
		}},
		{name: "operators need no blanks", src: "true&&false", want: []string{"[lit:true]", "&&", "[lit:false]"}},
		{name: "braces and bang are words", src: "{ ! x; }", want: []string{"[lit:{]", "[lit:!]", "[lit:x]", ";", "[lit:}]"}},
		{name: "comment to end of line", src: "echo a # b c\necho d", want: []string{"[lit:echo]", "[lit:a]", "newline", "[lit:echo]", "[lit:d]"}},
		{name: "hash inside a word is literal", src: "echo a#b", want: []string{"[lit:echo]", "[lit:a#b]"}},
		{name: "comment only", src: "# nothing here", want: nil},
		{name: "line continuation", src: "echo a \\\n b", want: []string{"[lit:echo]", "[lit:a]", "[lit:b]"}},
		{name: "line continuation inside a word", src: "ec\\\nho", want: []string{"[lit:echo]"}},
		{name: "output redirection", src: "echo >f", want: []string{"[lit:echo]", "redir 1>", "[lit:f]"}},
		{name: "append", src: "echo >> f", want: []string{"[lit:echo]", "redir 1>>", "[lit:f]"}},
		{name: "input", src: "read x <f", want: []string{"[lit:read]", "[lit:x]", "redir 0<", "[lit:f]"}},
		{name: "fd duplication", src: "echo 2>&1 >&2", want: []string{"[lit:echo]", "redir 2>&", "[lit:1]", "redir 1>&", "[lit:2]"}},
		{name: "input duplication", src: "cat <&0", want: []string{"[lit:cat]", "redir 0<&", "[lit:0]"}},
		{name: "clobber is >", src: "echo >|f", want: []string{"[lit:echo]", "redir 1>", "[lit:f]"}},
		{name: "two-digit fd", src: "echo 12>f", want: []string{"[lit:echo]", "redir 12>", "[lit:f]"}},
		{name: "digits not before a redirection are a word", src: "echo 123 4", want: []string{"[lit:echo]", "[lit:123]", "[lit:4]"}},
		{name: "three digits are not an fd", src: "echo 123>f", want: []string{"[lit:echo]", "[lit:123]", "redir 1>", "[lit:f]"}},
		{name: "assignment is a word", src: "X=1 Y=a", want: []string{"[lit:X=1]", "[lit:Y=a]"}},
		{name: "double semicolon", src: "a;;b;c", want: []string{"[lit:a]", ";;", "[lit:b]", ";", "[lit:c]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lexAll(tc.src)
			require.NoError(t, err, "lex %q", tc.src)
			assert.Equal(t, tc.want, got, "tokens of %q", tc.src)
		})
	}
}

func TestLexerQuoting(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // the one word of src
	}{
		{name: "single quotes", src: `'a b'`, want: "[qlit:a b]"},
		{name: "single quotes keep everything", src: `'$X \n "q"'`, want: `[qlit:$X \n "q"]`},
		{name: "empty single quotes", src: `''`, want: "[qlit:]"},
		{name: "double quotes", src: `"a b"`, want: "[qlit: qlit:a b]"},
		{name: "empty double quotes make a field", src: `""`, want: "[qlit:]"},
		{name: "double quotes expand", src: `"x $Y"`, want: "[qlit: qlit:x  qparam:Y]"},
		{name: "single quote in double quotes", src: `"it's"`, want: "[qlit: qlit:it's]"},
		{name: "backslash in double quotes escapes $ ` \" \\", src: `"\$\` + "`" + `\"\\"`, want: "[qlit: qlit:$`\"\\]"},
		{name: "backslash in double quotes keeps others", src: `"\n\a"`, want: `[qlit: qlit:\n\a]`},
		{name: "backslash newline in double quotes", src: "\"a\\\nb\"", want: "[qlit: qlit:ab]"},
		{name: "backslash escapes one character", src: `a\ b`, want: "[lit:a qlit:  lit:b]"},
		{name: "escaped quote", src: `\'x`, want: "[qlit:' lit:x]"},
		{name: "escaped dollar", src: `\$X`, want: "[qlit:$ lit:X]"},
		{name: "backslash at the end", src: `a\`, want: `[lit:a\]`},
		{name: "adjacent quoting is one word", src: `a'b'"c"d`, want: "[lit:a qlit:b qlit: qlit:c lit:d]"},
		{name: "quoted operators are literal", src: `';&|<>()'`, want: "[qlit:;&|<>()]"},
		{name: "escaped operator", src: `a\;b`, want: "[lit:a qlit:; lit:b]"},
		{name: "lone dollar is literal", src: `a$ $`, want: "[lit:a$]"},
		{name: "dollar before a non-name is literal", src: `$%`, want: "[lit:$%]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lexAll(tc.src)
			require.NoError(t, err, "lex %q", tc.src)
			require.NotEmpty(t, got, "tokens of %q", tc.src)
			assert.Equal(t, tc.want, got[0], "first word of %q", tc.src)
		})
	}
}

func TestLexerExpansions(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "name", src: "$HOME", want: "[param:HOME]"},
		{name: "name ends at a non-name character", src: "$A-b", want: "[param:A lit:-b]"},
		{name: "braces", src: "${A}b", want: "[param:A lit:b]"},
		{name: "positional", src: "$1$23", want: "[param:1 param:2 lit:3]"},
		{name: "braced positional takes every digit", src: "${10}", want: "[param:10]"},
		{name: "special parameters", src: "$?$#$@$*$$$!$-", want: "[param:? param:# param:@ param:* param:$ param:! param:-]"},
		{name: "length", src: "${#X}", want: "[param:X op:len arg:[]]"},
		{name: "argument count in braces", src: "${#}", want: "[param:#]"},
		{name: "default", src: "${X:-a b}", want: "[param:X op::- arg:[lit:a b]]"},
		{name: "default without colon", src: "${X-d}", want: "[param:X op:- arg:[lit:d]]"},
		{name: "assign default", src: "${X:=d}", want: "[param:X op::= arg:[lit:d]]"},
		{name: "alternative", src: "${X:+alt}", want: "[param:X op::+ arg:[lit:alt]]"},
		{name: "error if unset", src: "${X:?msg}", want: "[param:X op::? arg:[lit:msg]]"},
		{name: "remove prefix", src: "${X#*/}", want: "[param:X op:# arg:[lit:*/]]"},
		{name: "remove longest prefix", src: "${X##*/}", want: "[param:X op:## arg:[lit:*/]]"},
		{name: "remove suffix", src: "${X%.*}", want: "[param:X op:% arg:[lit:.*]]"},
		{name: "remove longest suffix", src: "${X%%.*}", want: "[param:X op:%% arg:[lit:.*]]"},
		{name: "quoted word in default", src: `${X:-"a b"}`, want: "[param:X op::- arg:[qlit: qlit:a b]]"},
		{name: "single-quoted word in default", src: `${X:-'a b'}`, want: "[param:X op::- arg:[qlit:a b]]"},
		{name: "nested expansion", src: "${X:-${Y:-z}}", want: "[param:X op::- arg:[param:Y op::- arg:[lit:z]]]"},
		{name: "brace in quotes does not close", src: `${X:-"}"}`, want: "[param:X op::- arg:[qlit: qlit:}]]"},
		{name: "in double quotes", src: `"${X:-it's}"`, want: "[qlit: qparam:X op::- arg:[qlit:it's]]"},
		{name: "pattern in double quotes stays a pattern", src: `"${X#*}"`, want: "[qlit: qparam:X op:# arg:[lit:*]]"},
		{name: "arithmetic", src: "$((1 + (2*3)))", want: "[arith:1 + (2*3)]"},
		{name: "command substitution", src: "$(echo a; echo b)", want: "[subst:2 ops]"},
		{name: "backquotes", src: "`echo a`", want: "[subst:1 ops]"},
		{name: "substitution in double quotes", src: `"$(echo ")")"`, want: "[qlit: qsubst:1 ops]"},
		{name: "nested substitution", src: "$(echo $(echo a))", want: "[subst:1 ops]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lexAll(tc.src)
			require.NoError(t, err, "lex %q", tc.src)
			require.Len(t, got, 1, "tokens of %q", tc.src)
			assert.Equal(t, tc.want, got[0], "word of %q", tc.src)
		})
	}
}

func TestLexerErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "unterminated single quote", src: "echo 'a", want: "unterminated quoted string"},
		{name: "unterminated double quote", src: `echo "a`, want: "unterminated quoted string"},
		{name: "unterminated backquote", src: "echo `a", want: "unterminated `"},
		{name: "unterminated substitution", src: "echo $(a", want: "missing ')'"},
		{name: "unterminated arithmetic", src: "echo $((1+2)", want: "missing '))'"},
		{name: "unterminated braces", src: "echo ${X", want: "missing '}'"},
		{name: "empty braces", src: "echo ${}", want: "bad substitution"},
		{name: "unknown brace operator", src: "echo ${X/a/b}", want: "bad substitution"},
		{name: "length of an expression", src: "echo ${#X:-y}", want: "bad substitution"},
		{name: "here-document", src: "cat <<EOF", want: "here-documents (<<) are not supported"},
		{name: "syntax error in a substitution", src: "echo $(fi)", want: `unexpected "fi"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := lexAll(tc.src)
			var se *SyntaxError
			require.ErrorAs(t, err, &se, "lex %q", tc.src)
			assert.Equal(t, tc.want, se.Msg, "lex %q", tc.src)
			assert.Equal(t, "syntax error: "+tc.want, err.Error(), "lex %q", tc.src)
		})
	}
}
