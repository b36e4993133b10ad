package shell_test

import "testing"

func TestRedirections(t *testing.T) {
	runScripts(t, []scriptTest{
		{name: "truncate", script: "echo one > /f; echo two > /f; cat /f", want: "two\n"},
		{name: "append", script: "echo one >> /f; echo two >> /f; cat /f", want: "one\ntwo\n"},
		{name: "append to a missing file creates it", script: "echo a >> /new; cat /new", want: "a\n"},
		{name: "empty file from a bare redirection", script: "echo x > /f; > /f; [ -s /f ] || echo empty", want: "empty\n"},
		{name: "created before the command runs", script: "nosuch > /f 2>/dev/null; [ -f /f ] && echo created", want: "created\n"},
		{name: "relative to the working directory", script: "cd /tmp; echo a > f; cat /tmp/f", want: "a\n"},
		{name: "target is expanded", script: "F=/tmp/x; echo a > $F.log; cat /tmp/x.log", want: "a\n"},
		{name: "stderr to a file", script: "nosuch 2> /err; cat /err", want: "sh: nosuch: not found\n"},
		{name: "stdout to stderr", script: "echo e >&2; echo f 1>&2", wantErr: "e\nf\n"},
		{name: "stderr to stdout", script: "nosuch 2>&1", want: "sh: nosuch: not found\n", wantCode: 127},
		{name: "both to a file, in order", script: "{ echo o; echo e >&2; } > /f 2>&1; cat /f", want: "o\ne\n"},
		{name: "dup copies the target of the moment", script: "echo e 2>&1 >/dev/null >&2", want: "e\n"},
		{name: "dev null", script: "echo gone > /dev/null; echo gone 2>/dev/null >&2", want: ""},
		{name: "dev stdout and stderr", script: "echo o > /dev/stdout; echo e > /dev/stderr", want: "o\n", wantErr: "e\n"},
		{name: "closed fd writes nothing", script: "echo gone >&-; echo $?", want: "0\n"},
		{name: "bad fd", script: "echo x >&5; echo $?", want: "1\n", wantErr: "sh: 5: bad file descriptor\n"},
		{name: "other fds are ignored", script: "echo a 3>/dev/null; echo b 9>&1", want: "a\nb\n"},
		{name: "input", script: "read x < /etc/hostname; echo $x", want: "web-0\n"},
		{name: "input from dev null", script: "cat < /dev/null; echo $?", want: "0\n"},
		{name: "missing input fails the command only", script: "cat < /nope; echo $?", want: "1\n", wantErr: "sh: can't open '/nope': No such file or directory\n"},
		{name: "redirection of an assignment", script: "X=1 > /f; echo $X; [ -f /f ] && echo yes", want: "1\nyes\n"},
		{name: "clobber operator", script: "echo a >| /f; cat /f", want: "a\n"},
		{name: "expansion error in the target exits", script: "echo a > ${U?}; echo no", wantErr: "sh: U: parameter not set\n", wantCode: 2},
		{name: "expansion error in a group's target exits", script: "{ echo a; } > ${U?}; echo no", wantErr: "sh: U: parameter not set\n", wantCode: 2},
	})
}
