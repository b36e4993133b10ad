package shell_test

import (
	"testing"
	"time"
)

func TestTrueFalseColon(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "true", script: "true", wantCode: 0},
		{name: "false", script: "false", wantCode: 1},
		{name: "colon", script: "false; :", wantCode: 0},
		{name: "arguments are ignored", script: "true x y && false x y", wantCode: 1},
		{name: "colon expands its arguments", script: ": ${X:=set}; echo $X", want: "set\n"},
	})
}

func TestExit(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "code", script: "exit 3; echo no", wantCode: 3},
		{name: "zero", script: "false; exit 0", wantCode: 0},
		{name: "last status without a code", script: "false; exit", wantCode: 1},
		{name: "wraps at 256", script: "exit 257", wantCode: 1},
		{name: "negative", script: "exit -1", wantCode: 255},
		{name: "extra arguments are ignored", script: "exit 4 5", wantCode: 4},
		{name: "not a number", script: "exit abc; echo no", wantErr: "sh: exit: Illegal number: abc\n", wantCode: 2},
		{name: "in a condition", script: "if exit 6; then echo no; fi", wantCode: 6},
		{name: "in a loop", script: "while true; do exit 7; done", wantCode: 7},
		{name: "runs the EXIT trap", script: "trap 'echo bye' EXIT; exit 4", want: "bye\n", wantCode: 4},
		{name: "end of script runs the EXIT trap with the last status", script: "trap 'echo trapped $?' EXIT; false", want: "trapped 1\n", wantCode: 1},
		{name: "exit in the EXIT trap sets the code", script: "trap 'exit 7' EXIT; exit 3", wantCode: 7},
		{name: "bare exit in the EXIT trap keeps the code", script: "trap 'false; exit' EXIT; exit 3", wantCode: 3},
		{name: "bare exit in a trap exits with the status before it", script: "trap 'false; exit' USR1; true; kill -USR1 $$; echo no", wantCode: 0},
	})
}

func TestExec(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "replaces the shell", script: "exec echo replaced; echo never", want: "replaced\n"},
		{name: "exit code is the command's", script: "exec false; echo never", wantCode: 1},
		{name: "sleeps then exits", script: "exec sleep 3; echo never", wantTime: 3 * time.Second},
		{name: "not found", script: "exec nosuch; echo never", wantErr: "sh: nosuch: not found\n", wantCode: 127},
		{name: "nested shell", script: "exec sh -c 'echo x'", wantErr: "sh: nested shells are not supported\n", wantCode: 126},
		{name: "without a command does nothing", script: "exec; echo still", want: "still\n"},
		{name: "without a command keeps its redirections", script: "exec 2>/tmp/log; nosuch; echo out; cat /tmp/log",
			want: "out\nsh: nosuch: not found\n"},
		{name: "a command's redirections apply to it", script: "exec echo hi >/tmp/o", want: ""},
	})
}

func TestAssignmentPrefix(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "assignment alone stays", script: "X=1; echo $X", want: "1\n"},
		{name: "several assignments", script: "A=1 B=$A; echo $A$B", want: "11\n"},
		{name: "before a utility lasts only for it", script: "X=1 printenv X; echo \"[$X]\"", want: "1\n[]\n"},
		{name: "before a utility restores the old value", script: "X=old; X=new printenv X; echo $X", want: "new\nold\n"},
		{name: "before a special builtin stays", script: "X=1 :; echo $X; Y=2 export Z=3; echo $Y$Z", want: "1\n23\n"},
		{name: "words are expanded before the assignment", script: "X=1; X=2 echo $X", want: "1\n"},
		{name: "before a command that is not found", script: "X=1 nosuch 2>/dev/null; echo \"[$X]\"", want: "[]\n"},
		{name: "status of an assignment is 0", script: "false; X=1; echo $?", want: "0\n"},
		{name: "quoted name is a command", script: "'X=1' 2>/dev/null; echo $?", want: "127\n"},
		{name: "invalid name is a command", script: "1X=1 2>/dev/null; echo $?", want: "127\n"},
		{name: "value is not split", script: "X=a\\ \\ b; echo \"$X\"", want: "a  b\n"},
	})
}

func TestExport(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "with a value", script: "export A=1; printenv A", want: "1\n"},
		{name: "existing variable", script: "A=2; export A; printenv A", want: "2\n"},
		{name: "unset variable becomes empty", script: "export A; printenv A", want: "\n"},
		{name: "several", script: "export A=1 B=2; echo $A$B", want: "12\n"},
		{name: "bad name", script: "export 1x=2 A=3; echo $? $A", want: "1 3\n", wantErr: "sh: export: bad variable name '1x'\n"},
		{name: "lists with -p", script: "export -p", env: []string{"A=it's"}, want: "export A='it'\"'\"'s'\nexport PWD='/'\n"},
		{name: "lists without arguments", script: "export", env: []string{"A=1"}, want: "export A='1'\nexport PWD='/'\n"},
	})
}

func TestUnset(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "variable", script: "A=1; unset A; echo \"[${A-unset}]\"", want: "[unset]\n"},
		{name: "from the environment", script: "unset A; env", env: []string{"A=1"}, want: "PWD=/\n"},
		{name: "several", script: "A=1 B=2; unset A B; echo \"[$A$B]\"", want: "[]\n"},
		{name: "unset is fine", script: "unset NOPE; echo $?", want: "0\n"},
		{name: "-v and -f", script: "A=1; unset -v A; unset -f f; echo \"[$A]\"", want: "[]\n"},
	})
}

func TestSet(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "arguments", script: "set a b c; echo $# $2", want: "3 b\n"},
		{name: "arguments after --", script: "set -- -x y; echo $1", want: "-x\n"},
		{name: "-- alone clears arguments", argv: []string{"sh", "-c", "set --; echo $#", "n", "a"}, want: "0\n"},
		{name: "-e exits on failure", script: "set -e; echo a; false; echo b", want: "a\n", wantCode: 1},
		{name: "-e spares conditions", script: "set -e; if false; then :; fi; while false; do :; done; false || true; false && true; ! true; echo reached", want: "reached\n"},
		{name: "-e exits on the last command of and-or", script: "set -e; true && false; echo no", wantCode: 1},
		{name: "-e in a brace group", script: "set -e; { false; echo no; }", wantCode: 1},
		{name: "-e exits on a failed expansion's status", script: "set -e; X=$(false); echo no", wantCode: 1},
		{name: "+e turns it off", script: "set -e; set +e; false; echo on", want: "on\n"},
		{name: "-x traces", script: "set -x; echo $((1+1)); set +x; echo quiet", want: "2\nquiet\n", wantErr: "+ echo 2\n+ set +x\n"},
		{name: "-o errexit", script: "set -o errexit; false; echo no", wantCode: 1},
		{name: "-o pipefail is accepted", script: "set -o pipefail; echo ok", want: "ok\n"},
		{name: "-eu together", script: "set -eu; echo ${X:-ok}", want: "ok\n"},
		{name: "lists variables sorted", script: "set", env: []string{"B=2", "A=1"}, want: "A='1'\nB='2'\nPWD='/'\n"},
		{name: "sh -e", argv: []string{"sh", "-e", "-c", "false; echo no"}, wantCode: 1},
		{name: "sh +e", argv: []string{"sh", "+e", "-c", "false; echo yes"}, want: "yes\n"},
		{name: "sh -x", argv: []string{"sh", "-xc", "echo a"}, want: "a\n", wantErr: "+ echo a\n"},
		{name: "sh -o pipefail", argv: []string{"bash", "-o", "pipefail", "-c", "echo a"}, want: "a\n"},
	})
}

func TestShift(t *testing.T) {
	args := func(script string) []string { return []string{"sh", "-c", script, "name", "a", "b", "c"} }
	runScripts(t, []scriptTest{
		{name: "one", argv: args("shift; echo $# $1"), want: "2 b\n"},
		{name: "several", argv: args("shift 2; echo $# $1"), want: "1 c\n"},
		{name: "all", argv: args("shift 3; echo $#"), want: "0\n"},
		{name: "zero", argv: args("shift 0; echo $1"), want: "a\n"},
		{name: "too many fails", argv: args("shift 4; echo $? $#"), want: "1 3\n"},
		{name: "nothing to shift", script: "shift; echo $?", want: "1\n"},
		{name: "keeps $0", argv: args("shift; echo $0"), want: "name\n"},
		{name: "not a number", argv: args("shift x; echo no"), wantErr: "sh: shift: Illegal number: x\n", wantCode: 2},
		{name: "negative", argv: args("shift -1"), wantErr: "sh: shift: Illegal number: -1\n", wantCode: 2},
	})
}

func TestCd(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "absolute", script: "cd /tmp; pwd; echo $PWD", want: "/tmp\n/tmp\n"},
		{name: "relative", script: "cd /var; cd log; pwd", want: "/var/log\n"},
		{name: "dot dot", script: "cd /var/log/..; pwd", want: "/var\n"},
		{name: "home", script: "cd; pwd", env: []string{"HOME=/home/app"}, want: "/home/app\n"},
		{name: "home defaults to /root", script: "cd; pwd", want: "/root\n"},
		{name: "dash goes back and prints", script: "cd /tmp; cd /var; cd -; pwd", want: "/tmp\n/tmp\n"},
		{name: "OLDPWD", script: "cd /tmp; echo $OLDPWD", want: "/\n"},
		{name: "dash without OLDPWD", script: "cd -", wantErr: "sh: cd: OLDPWD not set\n", wantCode: 1},
		{name: "relative files follow", script: "cd /tmp; echo x > f; cat /tmp/f", want: "x\n"},
	})
}

func TestWait(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "no jobs", script: "false; wait; echo $?", want: "0\n"},
		{name: "unknown pid", script: "wait 42; echo $?", want: "127\n"},
		{name: "not a number", script: "wait x; echo $?", want: "2\n", wantErr: "sh: wait: Illegal number: x\n"},
	})
}
