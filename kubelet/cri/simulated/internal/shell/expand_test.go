package shell_test

import (
	"testing"
)

func TestExpandParameters(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "variable", script: "X=1; echo $X ${X}", want: "1 1\n"},
		{name: "environment", script: "echo $A$B", env: []string{"A=x", "B=y"}, want: "xy\n"},
		{name: "unset is empty", script: `echo "[$NOPE]"`, want: "[]\n"},
		{name: "name ends at a non-name character", script: "X=a; echo $X-$X.$X/", want: "a-a.a/\n"},
		{name: "braces delimit the name", script: "X=a; echo ${X}b $Xb", want: "ab\n"},
		{name: "PWD defaults to /", script: "echo $PWD", want: "/\n"},
		{name: "default when unset or empty", script: "E=; echo ${U:-u} ${E:-e} ${S:-s}", env: []string{"S=set"}, want: "u e set\n"},
		{name: "default only when unset", script: "E=; echo [${U-u}] [${E-e}]", want: "[u] []\n"},
		{name: "default is not assigned", script: "echo ${U:-d}; echo [$U]", want: "d\n[]\n"},
		{name: "assign default", script: "echo ${U:=d}; echo $U; E=; echo ${E=x}[$E]", want: "d\nd\n[]\n"},
		{name: "assign default to a positional fails", script: "echo ${1:=x}", wantErr: "sh: 1: bad variable name\n", wantCode: 2},
		{name: "alternative when set and not empty", script: "S=1; E=; echo [${S:+alt}] [${E:+alt}] [${U:+alt}]", want: "[alt] [] []\n"},
		{name: "alternative when set", script: "E=; echo [${E+alt}] [${U+alt}]", want: "[alt] []\n"},
		{name: "default word is expanded", script: "X=x; echo ${U:-$X-$((1+1))}", want: "x-2\n"},
		{name: "nested default", script: "echo ${A:-${B:-nested}}", want: "nested\n"},
		{name: "default keeps its quoting", script: `for w in ${U:-"a  b"} ${U:-'c  d'} ${U:-e  f}; do echo "[$w]"; done`, want: "[a  b]\n[c  d]\n[e]\n[f]\n"},
		{name: "default in double quotes", script: `echo "${U:-it's}"`, want: "it's\n"},
		{name: "error when unset", script: "echo ${U?is required}; echo no", wantErr: "sh: U: is required\n", wantCode: 2},
		{name: "error when unset, default message", script: "echo ${U?}", wantErr: "sh: U: parameter not set\n", wantCode: 2},
		{name: "error when empty", script: "E=; echo ${E:?}", wantErr: "sh: E: parameter null or not set\n", wantCode: 2},
		{name: "no error when set", script: "S=v; echo ${S:?no}", want: "v\n"},
		{name: "length", script: "X=hello; E=; echo ${#X} ${#E} ${#U}", want: "5 0 0\n"},
		{name: "length counts characters", script: "X=héllo; echo ${#X}", want: "5\n"},
		{name: "remove shortest prefix", script: "f=/a/b/c.tar.gz; echo ${f#*/}", want: "a/b/c.tar.gz\n"},
		{name: "remove longest prefix", script: "f=/a/b/c.tar.gz; echo ${f##*/}", want: "c.tar.gz\n"},
		{name: "remove shortest suffix", script: "f=/a/b/c.tar.gz; echo ${f%.*}", want: "/a/b/c.tar\n"},
		{name: "remove longest suffix", script: "f=/a/b/c.tar.gz; echo ${f%%.*}", want: "/a/b/c\n"},
		{name: "remove a literal prefix", script: "v=v1.2; echo ${v#v}", want: "1.2\n"},
		{name: "no match removes nothing", script: "f=abc; echo ${f#x} ${f%x}", want: "abc abc\n"},
		{name: "quoted pattern is literal", script: `f='a*b'; echo ${f#"a*"} ${f#a*}`, want: "b *b\n"},
		{name: "pattern from a variable", script: `f=abc; p='?'; echo ${f#$p} ${f#"$p"}`, want: "bc abc\n"},
		{name: "pattern with a class", script: "f=x1y; echo ${f%[0-9]*}", want: "x\n"},
		{name: "set -u fails on unset", script: "set -u; echo $U; echo no", wantErr: "sh: U: parameter not set\n", wantCode: 2},
		{name: "set -u allows defaults and $@", script: `set -u; echo "${U:-ok}" "$@" $#`, want: "ok 0\n"},
		{name: "sh -u", argv: []string{"sh", "-uc", "echo ${#U}"}, wantErr: "sh: U: parameter not set\n", wantCode: 2},
		{name: "set -o nounset", script: "set -o nounset; echo $1", wantErr: "sh: 1: parameter not set\n", wantCode: 2},
		{name: "set +u", script: "set -u; set +u; echo [$U]", want: "[]\n"},
	})
}

func TestExpandSpecialParameters(t *testing.T) {
	args := func(script string, a ...string) []string { return append([]string{"sh", "-c", script}, a...) }
	runScripts(t, []scriptTest{
		{name: "status", script: "false; echo $?; true; echo $?", want: "1\n0\n"},
		{name: "status of not found", script: "nosuch 2>/dev/null; echo $?", want: "127\n"},
		{name: "pid is 1", script: "echo $$", want: "1\n"},
		{name: "no background pid", script: `echo "[$!]"`, want: "[]\n"},
		{name: "flags", argv: []string{"sh", "-ec", "echo $-; set -x; echo $- >/dev/null; set +ex; echo [$-]"}, want: "e\n[]\n", wantErr: "+ echo ex\n+ set +ex\n"},
		{name: "argument count", argv: args("echo $#", "name", "a", "b"), want: "2\n"},
		{name: "no arguments", script: "echo $# [$1]", want: "0 []\n"},
		{name: "$0 is sh without a name", script: "echo $0", want: "sh\n"},
		{name: "$0 is the name", argv: args("echo $0", "myname"), want: "myname\n"},
		{name: "positional", argv: args("echo $1-$2-$3", "name", "a", "b"), want: "a-b-\n"},
		{name: "$10 is $1 then 0", argv: args("echo $10 ${10}", "n", "1", "2", "3", "4", "5", "6", "7", "8", "9", "ten"), want: "10 ten\n"},
		{name: "quoted $@ keeps arguments", argv: args(`for a in "$@"; do echo "[$a]"; done`, "n", "a b", "", "c"), want: "[a b]\n[]\n[c]\n"},
		{name: "quoted $@ with no arguments is no field", script: `for a in "$@"; do echo "[$a]"; done; echo end`, want: "end\n"},
		{name: "quoted $@ with a prefix", argv: args(`for a in "x$@y"; do echo "[$a]"; done`, "n", "1", "2"), want: "[x1]\n[2y]\n"},
		{name: "unquoted $@ is split", argv: args(`for a in $@; do echo "[$a]"; done`, "n", "a b", "c"), want: "[a]\n[b]\n[c]\n"},
		{name: "quoted $* is one field", argv: args(`for a in "$*"; do echo "[$a]"; done`, "n", "a", "b"), want: "[a b]\n"},
		{name: "set -- replaces arguments", script: `set -- x "y z"; echo $#; echo "$2"`, want: "2\ny z\n"},
		{name: "shift", argv: args("shift; echo $1 $#", "n", "a", "b"), want: "b 1\n"},
	})
}

func TestExpandCommandSubstitution(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "output", script: "echo [$(echo hi)]", want: "[hi]\n"},
		{name: "trailing newlines removed", script: `x=$(printf 'a\n\nb\n\n'); echo "[$x]"`, want: "[a\n\nb]\n"},
		{name: "backquotes", script: "echo `echo hi`", want: "hi\n"},
		{name: "nested", script: "echo $(echo $(echo deep))", want: "deep\n"},
		{name: "unquoted is split", script: `for w in $(echo "a  b"); do echo "[$w]"; done`, want: "[a]\n[b]\n"},
		{name: "quoted is one field", script: `for w in "$(echo "a  b")"; do echo "[$w]"; done`, want: "[a  b]\n"},
		{name: "assignment is not split", script: `x=$(echo "a  b"); echo "$x"`, want: "a  b\n"},
		{name: "status of an assignment", script: "x=$(false); echo $?; x=$(true); echo $?", want: "1\n0\n"},
		{name: "if on an assignment", script: "if x=$(exit 3); then echo yes; else echo no $?; fi", want: "no 3\n"},
		{name: "status is the command's when there is one", script: "echo $(false); echo $?", want: "\n0\n"},
		{name: "stderr is not captured", script: "x=$(echo err >&2; echo out); echo $x", want: "out\n", wantErr: "err\n"},
		{name: "assignments do not leak out", script: "X=1; y=$(X=2; echo $X); echo $X $y", want: "1 2\n"},
		{name: "exit ends only the substitution", script: "x=$(echo a; exit 3; echo b); echo $x $?", want: "a 3\n"},
		{name: "sees the variables and arguments", argv: []string{"sh", "-c", "X=v; echo $(echo $X $1)", "n", "arg"}, want: "v arg\n"},
		{name: "takes no time", script: "x=$(sleep 10; echo done); echo $x", want: "done\n"},
		{name: "an endless loop is cut short", script: "x=$(while true; do :; done); echo after", want: "after\n"},
		{name: "in double quotes with quotes inside", script: `echo "$(echo "in")"`, want: "in\n"},
		{name: "case inside", script: "echo $(case a in a) echo A;; esac)", want: "A\n"},
		{name: "empty", script: `echo "[$(true)]"`, want: "[]\n"},
	})
}

func TestExpandArithmetic(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "precedence", script: "echo $((1 + 2 * 3)) $(( (1+2)*3 ))", want: "7 9\n"},
		{name: "integer division and remainder", script: "echo $((7 / 2)) $((7 % 3)) $((-7 / 2)) $((-7 % 3))", want: "3 1 -3 -1\n"},
		{name: "unary", script: "echo $((-4 + 1)) $((+3)) $((!0)) $((!5)) $((~0)) $((- -2))", want: "-3 3 1 0 -1 2\n"},
		{name: "comparisons", script: "echo $((3 > 2)) $((3 < 2)) $((2 <= 2)) $((2 >= 3)) $((1 == 1)) $((1 != 1))", want: "1 0 1 0 1 0\n"},
		{name: "logical", script: "echo $((1 && 0)) $((1 || 0)) $((0 || 0)) $((2 && 3))", want: "0 1 0 1\n"},
		{name: "bitwise", script: "echo $((6 & 3)) $((6 | 3)) $((6 ^ 3)) $((1 << 4)) $((256 >> 4))", want: "2 7 5 16 16\n"},
		{name: "power", script: "echo $((2 ** 10)) $((2 ** 3 ** 2)) $((-2 ** 2))", want: "1024 512 4\n"},
		{name: "ternary", script: "echo $((1 ? 2 : 3)) $((0 ? 2 : 3)) $((0 ? 1 : 0 ? 2 : 3))", want: "2 3 3\n"},
		{name: "variables by name", script: "x=5; echo $((x * 2)) $(($x * 2))", want: "10 10\n"},
		{name: "unset variable is 0", script: "echo $((nope + 1))", want: "1\n"},
		{name: "variable holding an expression", script: "a=b; b=3+1; echo $((a * 2))", want: "8\n"},
		{name: "assignment", script: "echo $((x = 4)) $x", want: "4 4\n"},
		{name: "compound assignment", script: "x=10; echo $((x += 5)) $((x -= 3)) $((x *= 2)) $((x /= 4)) $((x %= 4)) $((x <<= 3)) $((x |= 1))", want: "15 12 24 6 2 16 17\n"},
		{name: "increments", script: "x=1; echo $((x++)) $x $((++x)) $((x--)) $((--x))", want: "1 2 3 3 1\n"},
		{name: "minus minus between numbers", script: "echo $((5--1))", want: "6\n"},
		{name: "short circuit skips assignments", script: "x=1; echo $((0 && (x = 2))) $((1 || (x = 3))) $x", want: "0 1 1\n"},
		{name: "short circuit skips division by zero", script: "echo $((0 && 1 / 0)) $((1 ? 2 : 1 / 0))", want: "0 2\n"},
		{name: "bases", script: "echo $((0x1f)) $((010)) $((2#101)) $((16#ff))", want: "31 8 5 255\n"},
		{name: "whitespace and newlines", script: "echo $((\n 1 +\t2 ))", want: "3\n"},
		{name: "in double quotes", script: `echo "$((1+1))"`, want: "2\n"},
		{name: "parameters inside", script: "set -- 3; echo $(( $1 * ${1} ))", want: "9\n"},
		{name: "overflow wraps", script: "echo $((9223372036854775807 + 1))", want: "-9223372036854775808\n"},
		{name: "division by zero", script: "echo $((1 / 0)); echo no", wantErr: "sh: divide by zero\n", wantCode: 2},
		{name: "remainder by zero", script: "echo $((1 % 0))", wantErr: "sh: divide by zero\n", wantCode: 2},
		{name: "syntax error", script: "echo $((1 +))", wantErr: "sh: arithmetic syntax error\n", wantCode: 2},
		{name: "unbalanced parenthesis", script: "echo $(( (1 + 2 ))", wantErr: "sh: syntax error: missing '))'\n", wantCode: 2},
		{name: "bad number", script: "echo $((08))", wantErr: "sh: arithmetic syntax error\n", wantCode: 2},
		{name: "underscores are not digits", script: "echo $((1_000))", wantErr: "sh: arithmetic syntax error\n", wantCode: 2},
		{name: "variable that is not a number", script: "x='1 2'; echo $((x))", wantErr: "sh: arithmetic syntax error\n", wantCode: 2},
		{name: "recursive variable", script: "x=x; echo $((x))", wantErr: "sh: expression recursion loop detected\n", wantCode: 2},
		{name: "negative exponent", script: "echo $((2 ** -1))", wantErr: "sh: exponent less than 0\n", wantCode: 2},
		{name: "missing ternary colon", script: "echo $((1 ? 2))", wantErr: "sh: arithmetic syntax error\n", wantCode: 2},
	})
}

func TestExpandSplittingAndQuoting(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "unquoted variable is split at blanks", script: "X='a  b\tc\nd'; for w in $X; do echo \"[$w]\"; done", want: "[a]\n[b]\n[c]\n[d]\n"},
		{name: "quoted variable is one field", script: `X='a  b'; for w in "$X"; do echo "[$w]"; done`, want: "[a  b]\n"},
		{name: "leading and trailing blanks are dropped", script: `X='  a  '; for w in $X; do echo "[$w]"; done`, want: "[a]\n"},
		{name: "empty unquoted variable is no field", script: `E=; for w in $E; do echo no; done; echo end`, want: "end\n"},
		{name: "empty quoted variable is a field", script: `E=; for w in "$E"; do echo "[$w]"; done`, want: "[]\n"},
		{name: "split joins adjacent text", script: `X='a b'; for w in x$X"y"; do echo "[$w]"; done`, want: "[xa]\n[by]\n"},
		{name: "blank at the edge splits from adjacent text", script: `X=' a '; for w in x${X}y; do echo "[$w]"; done`, want: "[x]\n[a]\n[y]\n"},
		{name: "assignment is not split", script: `X='a  b'; Y=$X; echo "$Y"`, want: "a  b\n"},
		{name: "redirection target is not split", script: `F='/tmp/a b'; echo hi > $F; cat "/tmp/a b"`, want: "hi\n"},
		{name: "single quotes are literal", script: `echo '$HOME "x" \n'`, want: "$HOME \"x\" \\n\n"},
		{name: "double quotes keep $ expansions", script: `X=v; echo "$X '$X' \$X"`, want: "v 'v' $X\n"},
		{name: "backslash outside quotes", script: `echo \$X \"a\" \\ a\ b`, want: "$X \"a\" \\ a b\n"},
		{name: "no globbing", script: "touch /tmp/a; echo /tmp/*", want: "/tmp/*\n"},
		{name: "no tilde expansion", script: "echo ~", want: "~\n"},
		{name: "empty word from quotes is kept", script: `set -- '' ""; echo $#`, want: "2\n"},
		{name: "command word from a variable", script: `C='echo hi'; $C`, want: "hi\n"},
		{name: "empty command word is no command", script: `E=; $E; echo $?`, want: "0\n"},
	})
}
