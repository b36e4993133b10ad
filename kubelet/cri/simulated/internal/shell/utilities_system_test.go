package shell_test

import "testing"

func TestEnv(t *testing.T) {
	env := []string{"B=2", "A=1"}
	runScripts(t, []scriptTest{
		{name: "in order", script: "env", env: env, want: "B=2\nA=1\nPWD=/\n"},
		{name: "script variables are listed", script: "C=3; env", env: env, want: "B=2\nA=1\nPWD=/\nC=3\n"},
		{name: "assignments are added", script: "env C=3", env: env, want: "B=2\nA=1\nPWD=/\nC=3\n"},
		{name: "assignment replaces", script: "env A=9", env: env, want: "B=2\nA=9\nPWD=/\n"},
		{name: "-i empties", script: "env -i C=3", env: env, want: "C=3\n"},
		{name: "-u removes", script: "env -u A", env: env, want: "B=2\nPWD=/\n"},
		{name: "runs a command", script: "env X=1 printenv X; echo \"[$X]\"", want: "1\n[]\n"},
		{name: "-i with a command", script: "env -i X=1 env", env: env, want: "X=1\n"},
		{name: "command status", script: "env false; echo $?", want: "1\n"},
		{name: "command not found", script: "env nosuch; echo $?", want: "127\n", wantErr: "env: can't execute 'nosuch': No such file or directory\n"},
		{name: "shell builtins are not commands", script: "env cd /tmp; echo $?", want: "127\n", wantErr: "env: can't execute 'cd': No such file or directory\n"},
		{name: "bad option", script: "env -z; echo $?", want: "1\n", wantErr: "env: unrecognized option '-z'\n"},
		{name: "as PID 1", argv: []string{"env"}, env: env, want: "B=2\nA=1\nPWD=/\n"},
	})
}

func TestPrintenv(t *testing.T) {
	env := []string{"B=2", "A=1"}
	runScripts(t, []scriptTest{
		{name: "all", script: "printenv", env: env, want: "B=2\nA=1\nPWD=/\n"},
		{name: "one", script: "printenv A", env: env, want: "1\n"},
		{name: "several", script: "printenv A B", env: env, want: "1\n2\n"},
		{name: "missing", script: "printenv NOPE; echo $?", want: "1\n"},
		{name: "missing among others", script: "printenv A NOPE B; echo $?", env: env, want: "1\n2\n1\n"},
		{name: "empty value", script: "E=; printenv E", want: "\n"},
	})
}

func TestHostname(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "name", script: "hostname", want: "web-0\n"},
		{name: "-i", script: "hostname -i", want: "10.244.1.5\n"},
		{name: "/etc/hostname", script: "cat /etc/hostname", want: "web-0\n"},
	})
}

func TestUname(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "kernel name", script: "uname", want: "Linux\n"},
		{name: "-a", script: "uname -a", want: "Linux web-0 6.1.0-minicp #1 SMP x86_64 GNU/Linux\n"},
		{name: "fields in -a order", script: "uname -m -s", want: "Linux x86_64\n"},
		{name: "combined flags", script: "uname -nr", want: "web-0 6.1.0-minicp\n"},
		{name: "machine", script: "uname -m", want: "x86_64\n"},
		{name: "operating system", script: "uname -o", want: "GNU/Linux\n"},
		{name: "bad flag", script: "uname -z; echo $?", want: "1\n", wantErr: "uname: invalid option -- 'z'\n"},
		{name: "operand", script: "uname x", wantErr: "uname: extra operand 'x'\n", wantCode: 1},
	})
}

func TestWhoamiPwd(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "whoami", script: "whoami", want: "root\n"},
		{name: "pwd", script: "pwd", want: "/\n"},
		{name: "pwd after cd", script: "cd /tmp; pwd", want: "/tmp\n"},
	})
}

func TestSeq(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "last", script: "seq 3", want: "1\n2\n3\n"},
		{name: "first last", script: "seq 2 4", want: "2\n3\n4\n"},
		{name: "first step last", script: "seq 1 2 6", want: "1\n3\n5\n"},
		{name: "counting down", script: "seq 5 -2 1", want: "5\n3\n1\n"},
		{name: "empty range", script: "seq 3 1; echo $?", want: "0\n"},
		{name: "zero", script: "seq 0", want: ""},
		{name: "negative", script: "seq -1 1", want: "-1\n0\n1\n"},
		{name: "zero step prints nothing", script: "seq 1 0 3", want: ""},
		{name: "usage", script: "seq; echo $?", want: "1\n", wantErr: "seq: usage: seq [FIRST [INC]] LAST\n"},
		{name: "invalid number", script: "seq a; echo $?", want: "1\n", wantErr: "seq: invalid number 'a'\n"},
		{name: "in a for loop", script: "for i in $(seq 3); do printf $i; done", want: "123"},
	})
}
