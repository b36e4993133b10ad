package shell_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// TestParseErrors: a script the shell cannot parse is a *SyntaxError
// whose message is busybox's; sh prints it and exits 2 without running
// anything.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   string
	}{
		{name: "unterminated single quote", script: "echo 'unterminated", want: "unterminated quoted string"},
		{name: "unterminated double quote", script: `echo "unterminated`, want: "unterminated quoted string"},
		{name: "loop without done", script: "while true; do echo", want: "unexpected end of file"},
		{name: "if without fi", script: "if true; then echo", want: "unexpected end of file"},
		{name: "if without then", script: "if true; fi", want: `unexpected "fi"`},
		{name: "bad for variable", script: "for 1x in a; do :; done", want: "bad for loop variable"},
		{name: "for without do", script: "for i in a b; echo", want: `unexpected "echo"`},
		{name: "for words end at a semicolon", script: "for i in a b do echo; done", want: `unexpected "done"`},
		{name: "empty then", script: "if true; then fi", want: `unexpected "fi"`},
		{name: "empty condition", script: "if then echo; fi", want: `unexpected "then"`},
		{name: "empty loop body", script: "while true; do done", want: `unexpected "done"`},
		{name: "background job", script: "sleep 1 &", want: "background jobs (&) are not supported"},
		{name: "subshell", script: "(echo sub)", want: "subshells ( ... ) are not supported"},
		{name: "function", script: "f() { echo; }", want: "functions are not supported"},
		{name: "function keyword", script: "function f { echo; }", want: `"function" is not supported`},
		{name: "select", script: "select x in a; do :; done", want: `"select" is not supported`},
		{name: "pipe", script: "echo a | cat", want: "pipes (|) are not supported"},
		{name: "negated pipe", script: "! echo a | cat", want: "pipes (|) are not supported"},
		{name: "here-document", script: "cat <<EOF", want: "here-documents (<<) are not supported"},
		{name: "unterminated substitution", script: "echo $(echo", want: "missing ')'"},
		{name: "unterminated braces", script: "echo ${", want: "missing '}'"},
		{name: "reserved word first", script: "then", want: `unexpected "then"`},
		{name: "closing brace first", script: "}", want: `unexpected "}"`},
		{name: "double semicolon outside case", script: "echo a;; echo b", want: `unexpected ";;"`},
		{name: "semicolon alone", script: ";", want: `unexpected ";"`},
		{name: "and-or without a right side", script: "true &&", want: "unexpected end of file"},
		{name: "and-or without a left side", script: "|| true", want: `unexpected "||"`},
		{name: "redirection without a target", script: "echo >", want: "unexpected end of file"},
		{name: "redirection before an operator", script: "echo > ;", want: `unexpected ";"`},
		{name: "redirection target is a newline", script: "echo >\nfile", want: "unexpected newline"},
		{name: "two redirections in a row", script: "echo > > f", want: "unexpected redirection"},
		{name: "empty brace group", script: "{ }", want: `unexpected "}"`},
		{name: "brace group without its end", script: "{ echo", want: "unexpected end of file"},
		{name: "case without in", script: "case x y in esac", want: `unexpected "y"`},
		{name: "case without esac", script: "case x in x) echo a", want: "unexpected end of file"},
		{name: "case empty pattern", script: "case x in x|) ;; esac", want: `unexpected ")"`},
		{name: "case item without )", script: "case x in x echo;; esac", want: `unexpected "echo"`},
		{name: "esac alone", script: "esac", want: `unexpected "esac"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := shell.Parse(tc.script)
			var se *shell.SyntaxError
			require.ErrorAs(t, err, &se, "Parse(%q)", tc.script)
			assert.Equal(t, tc.want, se.Msg, "Parse(%q)", tc.script)

			rec, res, _ := run(t, sh(tc.script), shell.Config{})
			assert.Equal(t, "sh: syntax error: "+tc.want+"\n", rec.err.String(), "stderr of %q", tc.script)
			assert.Empty(t, rec.out.String(), "nothing of %q runs", tc.script)
			assert.Equal(t, 2, res.ExitCode, "exit code of %q", tc.script)
		})
	}
}

// TestParseValid: scripts that parse, from the edges of the grammar.
func TestParseValid(t *testing.T) {
	tests := []struct {
		name   string
		script string
	}{
		{name: "empty", script: ""},
		{name: "comments and blank lines", script: "# a\n\n  # b\n"},
		{name: "trailing semicolon", script: "echo a;"},
		{name: "newline after and-or", script: "true &&\n\n echo a"},
		{name: "reserved words as arguments", script: "echo if then fi do done esac"},
		{name: "for over nothing", script: "for i in; do :; done"},
		{name: "for without in", script: "for a do echo $a; done"},
		{name: "for with newline before do", script: "for a in 1\ndo\necho\ndone"},
		{name: "case with no items", script: "case x in esac"},
		{name: "case last item without ;;", script: "case x in x) echo\nesac"},
		{name: "redirection before the command", script: ">/dev/null echo a"},
		{name: "redirections only", script: ">/tmp/f"},
		{name: "assignments only", script: "A=1 B=2"},
		{name: "nested compounds", script: "if true; then while false; do for i in 1; do case $i in 1) { :; } ;; esac; done; done; fi"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := shell.Parse(tc.script)
			assert.NoError(t, err, "Parse(%q)", tc.script)
		})
	}
}

// TestParseStructure runs scripts whose output shows how they were
// grouped: lists, and-or lists, negation, compound commands and
// redirections.
func TestParseStructure(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "semicolons and newlines separate", script: "echo a; echo b\necho c", want: "a\nb\nc\n"},
		{name: "and runs on success", script: "true && echo yes; false && echo no", want: "yes\n", wantCode: 1},
		{name: "or runs on failure", script: "false || echo yes; true || echo no", want: "yes\n"},
		{name: "and-or is left-associative", script: "false && echo a || echo b", want: "b\n"},
		{name: "and-or chain skips to the matching operator", script: "true || echo a && echo b", want: "b\n"},
		{name: "and-or status is the last command run", script: "true && false || false", wantCode: 1},
		{name: "negation", script: "! true; echo $?; ! false; echo $?", want: "1\n0\n"},
		{name: "negation of a compound", script: "! { false; }; echo $?", want: "0\n"},
		{name: "brace group shares the shell", script: "{ X=1; }; echo $X", want: "1\n"},
		{name: "brace group in and-or", script: "false || { echo a; echo b; }", want: "a\nb\n"},
		{name: "if", script: "if true; then echo a; fi", want: "a\n"},
		{name: "if status is the body's", script: "if true; then false; fi", wantCode: 1},
		{name: "if with a list condition", script: "if false; true; then echo a; fi", want: "a\n"},
		{name: "elif chain", script: "if false; then echo 1; elif false; then echo 2; elif true; then echo 3; else echo 4; fi", want: "3\n"},
		{name: "else", script: "if false; then echo 1; else echo 2; fi", want: "2\n"},
		{name: "while", script: "i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done", want: "0\n1\n2\n"},
		{name: "while status without iterations", script: "while false; do :; done", wantCode: 0},
		{name: "until", script: "i=0; until [ $i = 2 ]; do i=$((i+1)); done; echo $i", want: "2\n"},
		{name: "for", script: "for i in a 'b c'; do echo \"[$i]\"; done", want: "[a]\n[b c]\n"},
		{name: "for over arguments", argv: []string{"sh", "-c", "for a; do echo $a; done", "sh", "x", "y"}, want: "x\ny\n"},
		{name: "for over an empty list", script: "for i in; do echo no; done; echo $i", want: "\n"},
		{name: "for variable keeps its last value", script: "for i in 1 2; do :; done; echo $i", want: "2\n"},
		{name: "break", script: "for i in 1 2 3; do [ $i = 2 ] && break; echo $i; done", want: "1\n"},
		{name: "continue", script: "for i in 1 2 3; do [ $i = 2 ] && continue; echo $i; done", want: "1\n3\n"},
		{name: "break 2", script: "for i in 1 2; do for j in a b; do echo $i$j; break 2; done; done; echo end", want: "1a\nend\n"},
		{name: "continue 2", script: "for i in 1 2; do for j in a b; do echo $i$j; continue 2; done; done", want: "1a\n2a\n"},
		{name: "break count beyond the loops", script: "for i in 1 2; do break 5; done; echo $i", want: "1\n"},
		{name: "break outside a loop does nothing", script: "break; echo after", want: "after\n"},
		{name: "break in while", script: "while true; do break; done; echo out", want: "out\n"},
		{name: "case", script: "case b in a) echo A;; b) echo B;; esac", want: "B\n"},
		{name: "case alternatives", script: "case y in x|y|z) echo yes;; esac", want: "yes\n"},
		{name: "case first match wins", script: "case ab in a*) echo 1;; *b) echo 2;; esac", want: "1\n"},
		{name: "case default", script: "case q in a) echo A;; *) echo other;; esac", want: "other\n"},
		{name: "case no match is status 0", script: "false; case q in a) ;; esac", wantCode: 0},
		{name: "case keeps the status for its body", script: "false; case x in x) echo $?;; esac", want: "1\n"},
		{name: "case empty body is status 0", script: "false; case x in x) ;; esac; echo $?", want: "0\n"},
		{name: "case with parenthesis", script: "case x in (x) echo yes;; esac", want: "yes\n"},
		{name: "case over lines", script: "case $1 in\n  start)\n    echo starting\n    ;;\n  *)\n    echo usage\nesac", want: "usage\n"},
		{name: "case word is not split", script: `X="a b"; case $X in "a b") echo one;; esac`, want: "one\n"},
		{name: "case quoted pattern is literal", script: `case '*' in "*") echo star;; esac; case x in "*") echo no;; esac`, want: "star\n"},
		{name: "case pattern from a variable", script: `P='x*'; case xyz in $P) echo glob;; esac; case xyz in "$P") echo no;; esac`, want: "glob\n"},
		{name: "case break in a loop", script: "for i in 1 2 3; do case $i in 2) break;; esac; echo $i; done", want: "1\n"},
		{name: "redirection anywhere in the command", script: "echo >/tmp/f a b; cat /tmp/f", want: "a b\n"},
		{name: "later redirection wins", script: "echo a >/tmp/x >/tmp/y; cat /tmp/y; cat /tmp/x", want: "a\n"},
		{name: "redirection order", script: "nosuch 2>&1 >/dev/null", want: "sh: nosuch: not found\n", wantCode: 127},
		{name: "group redirection", script: "{ echo a; echo b >&2; } >/tmp/o 2>&1; cat /tmp/o", want: "a\nb\n"},
		{name: "loop redirection", script: "for i in 1 2; do echo $i; done >/tmp/o; cat /tmp/o", want: "1\n2\n"},
		{name: "if redirection", script: "if true; then echo in; fi >/tmp/o; cat /tmp/o", want: "in\n"},
		{name: "case redirection", script: "case x in x) echo in;; esac >/tmp/o; cat /tmp/o", want: "in\n"},
		{name: "while read from a file", script: "while read -r a b; do echo \"[$a|$b]\"; done </f; echo $?",
			files: map[string]string{"/f": "one\ntwo 2\n"}, want: "[one|]\n[two|2]\n0\n"},
		{name: "while read ends at a last line without newline", script: "while read l; do echo $l; done </f",
			files: map[string]string{"/f": "a\nb"}, want: "a\n"},
		{name: "group redirection is restored", script: "{ echo in; } >/tmp/o; echo out; cat /tmp/o", want: "out\nin\n"},
		{name: "break out of a redirected group restores", script: "for i in 1 2; do { echo $i; break; } >/tmp/o; done; echo after; cat /tmp/o", want: "after\n1\n"},
		{name: "failed group redirection skips the group", script: "{ echo no; } </missing; echo $?",
			want: "1\n", wantErr: "sh: can't open '/missing': No such file or directory\n"},
		{name: "sleep in a redirected loop", script: "for i in 1 2; do sleep 1; echo $i; done >/tmp/o; cat /tmp/o", want: "1\n2\n", wantTime: 2 * time.Second},
	})
}
