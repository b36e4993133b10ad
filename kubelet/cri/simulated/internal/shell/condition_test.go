package shell_test

import "testing"

// TestTest runs test and [ with one case per operator; the status is 0
// for true, 1 for false and 2 for an error, as in busybox.
func TestTest(t *testing.T) {
	files := map[string]string{"/data/full": "x", "/data/empty": ""}
	tests := []scriptTest{
		{name: "no arguments is false", script: "test", wantCode: 1},
		{name: "brackets without arguments", script: "[ ]", wantCode: 1},
		{name: "one non-empty argument", script: "test x", wantCode: 0},
		{name: "one empty argument", script: "test ''", wantCode: 1},
		{name: "a lone operator is a string", script: "test -n && [ -z ]", wantCode: 0},
		{name: "-z", script: `[ -z "" ] && ! [ -z x ]`},
		{name: "-n", script: `[ -n x ] && ! [ -n "" ]`},
		{name: "=", script: "[ a = a ] && ! [ a = b ]"},
		{name: "==", script: "[ a == a ]"},
		{name: "!=", script: "[ a != b ] && ! [ a != a ]"},
		{name: "< and > compare strings", script: `[ a \< b ] && [ b \> a ] && [ 10 \< 9 ]`},
		{name: "-eq", script: "[ 3 -eq 3 ] && ! [ 3 -eq 4 ]"},
		{name: "-ne", script: "[ 3 -ne 4 ]"},
		{name: "-lt", script: "[ 3 -lt 4 ] && ! [ 4 -lt 4 ]"},
		{name: "-le", script: "[ 4 -le 4 ] && ! [ 5 -le 4 ]"},
		{name: "-gt", script: "[ 5 -gt 4 ] && ! [ 4 -gt 4 ]"},
		{name: "-ge", script: "[ 4 -ge 4 ] && [ -1 -ge -2 ]"},
		{name: "numbers may have blanks", script: `[ " 3" -eq 3 ]`},
		{name: "-e", script: "[ -e /data/full ] && [ -e /data ] && ! [ -e /nope ]", files: files},
		{name: "-f", script: "[ -f /data/full ] && ! [ -f /data ] && ! [ -f /nope ]", files: files},
		{name: "-s", script: "[ -s /data/full ] && ! [ -s /data/empty ] && ! [ -s /nope ]", files: files},
		{name: "-d", script: "[ -d /data ] && [ -d /tmp ] && ! [ -d /data/full ] && ! [ -d /nope ]", files: files},
		{name: "-r and -w", script: "[ -r /data/full ] && [ -w /data ] && ! [ -r /nope ]", files: files},
		{name: "-x knows the commands", script: "[ -x sleep ] && [ -x sh ] && ! [ -x /data/full ]", files: files},
		{name: "no links, pipes, sockets or terminals", script: "! [ -h /data/full ] && ! [ -L /x ] && ! [ -p /x ] && ! [ -S /x ] && ! [ -t 0 ]", files: files},
		{name: "relative paths", script: "cd /data; [ -f full ]", files: files},
		{name: "!", script: "[ ! a = b ] && ! [ ! x ] && [ ! '' ]"},
		{name: "! alone is a string", script: "[ ! ]"},
		{name: "-a", script: "[ a = a -a b = b ] && ! [ a = a -a a = b ]"},
		{name: "-o", script: "[ a = b -o b = b ] && ! [ a = b -o a = c ]"},
		{name: "-a binds tighter than -o", script: "[ a = a -o a = b -a a = c ]"},
		{name: "test is [ without ]", script: "test 1 -lt 2 -a x = x"},
		{name: "missing ]", script: "[ 1 = 1; echo $?", want: "2\n", wantErr: "sh: [: missing ]\n"},
		{name: "bad number", script: "[ x -eq 1 ]", wantErr: "sh: [: x: bad number\n", wantCode: 2},
		{name: "bad right number", script: "test 1 -eq y", wantErr: "sh: test: y: bad number\n", wantCode: 2},
		{name: "unknown binary operator", script: "[ a -foo b ]", wantErr: "sh: [: -foo: unknown operand\n", wantCode: 2},
		{name: "unknown unary operator", script: "[ -q x ]", wantErr: "sh: [: -q: unknown operand\n", wantCode: 2},
		{name: "too many arguments", script: "[ a b c d e ]", wantErr: "sh: [: too many arguments\n", wantCode: 2},
		{name: "error in a condition", script: "if [ x -gt 1 ]; then echo no; else echo $?; fi", want: "2\n", wantErr: "sh: [: x: bad number\n"},
	}
	runScripts(t, tests)
}
